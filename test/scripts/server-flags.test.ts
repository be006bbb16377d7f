// scripts/server-flags.mjs: `npm run serve` and the bench's engine server start node with the same
// V8 flags, so the bench measures the server users run; and node starts with them (a flag V8 does
// not know stops node before the server is reached).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { script } from '../../bench/children'
import { bundleFile } from '../../scripts/server-build.mjs'
import { SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }

describe('the server V8 flags', () => {
  it('npm run serve starts node with them', () => {
    expect(pkg.scripts.serve).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} scripts/serve.mjs`)
  })

  it("the bench's engine server starts with them, before its bundle", () => {
    expect(script('server-engine.ts')).toEqual([...SERVER_NODE_FLAGS, bundleFile('bench')])
  })

  it('node accepts them and bounds the young generation', () => {
    const probe = "let a=[];for(let i=0;i<3e6;i++){a.push({i});if(a.length>2e5)a=[]}console.log(require('v8').getHeapSpaceStatistics().find(s=>s.space_name==='new_space').space_size)"
    const run = (flags: readonly string[]) => spawnSync(process.execPath, [...flags, '-e', probe], { encoding: 'utf8' })
    const bounded = run(SERVER_NODE_FLAGS)
    expect(bounded.status, bounded.stderr).toBe(0)
    const semi = Number(/--max-semi-space-size=(\d+)/.exec(SERVER_NODE_FLAGS.join(' '))![1])
    expect(Number(bounded.stdout)).toBeLessThanOrEqual(2 * semi * 1048576)
    expect(Number(run([]).stdout)).toBeGreaterThan(2 * semi * 1048576)
  })
})
