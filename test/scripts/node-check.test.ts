// The supported Node.js lines (package.json "engines", README): `npm run serve`, `npm start` and
// the CLI refuse any other with the version and the command that gets a supported one.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { nodeProblem } from '../../scripts/node-check.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

describe('the Node.js check', () => {
  it('takes 22.12 and later 22, 24 and 26 on, and refuses 20, 22 before 22.12, and the odd lines, naming the version and the fix', () => {
    for (const v of ['22.12.0', '22.23.5', '24.0.0', '24.22.3', '26.12.1']) expect(nodeProblem(v), v).toBeNull()
    for (const v of ['18.20.4', '20.20.2', '21.7.3', '22.11.0', '23.11.1', '25.2.0']) {
      const p = nodeProblem(v)
      expect(p, v).toContain(`this is Node.js ${v}`)
      expect(p).toContain('eval "$(bash scripts/node.sh 24)"')
    }
    expect(nodeProblem('20.20.2')).toContain('no longer gets security fixes')
  })

  it('says the same lines as package.json engines, and runs before npm test and npm run bench', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { engines: { node: string }; scripts: Record<string, string> }
    expect(pkg.engines.node).toBe('^22.12.0 || ^24.0.0 || >=26.0.0')
    expect(pkg.scripts.pretest).toBe('node scripts/node-check.mjs')
    expect(pkg.scripts.prebench).toBe('node scripts/node-check.mjs')
  })

  it('lets the serve script, the start script and the CLI run on this Node.js, which is a supported one, and stops them first on another', () => {
    expect(nodeProblem(process.versions.node)).toBeNull()
    for (const [file, path] of [['scripts/serve.mjs', './node-check.mjs'], ['scripts/start.mjs', './node-check.mjs'], ['bin/admonitor.ts', '../scripts/node-check.mjs']] as const) {
      const text = readFileSync(`${ROOT}/${file}`, 'utf8')
      const firstImport = text.split('\n').find((l) => l.startsWith('import '))
      expect(firstImport, file).toMatch(new RegExp(`^import '${path.replace(/\./g, '\\.')}'`))
    }
    const r = spawnSync(process.execPath, [`${ROOT}/scripts/node-check.mjs`], { encoding: 'utf8' })
    expect(r.status).toBe(0)
    expect(r.stderr).toBe('')
  })
})
