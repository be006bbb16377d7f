// test/helpers/say.ts: a child that prints faster than its parent reads loses no line and does not
// die of EAGAIN (the crash tests' children did, on a loaded machine)
import { spawn } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const here = dirname(fileURLToPath(import.meta.url))

describe('say', () => {
  it('writes every line while the parent does not read for a while', async () => {
    const lines = 20_000
    const script = `import { say } from ${JSON.stringify(join(here, 'say.ts'))}; for (let i = 0; i < ${lines}; i++) say('line ' + i + ' ' + 'x'.repeat(100))`
    const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: resolve(here, '../..'), stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    p.stderr.on('data', (d: Buffer) => (err += d.toString()))
    // the pipe (64 KiB) fills long before the 2 MB are written: the child has to wait
    p.stdout.pause()
    await new Promise((r) => setTimeout(r, 500))
    const chunks: Buffer[] = []
    p.stdout.on('data', (d: Buffer) => chunks.push(d))
    p.stdout.resume()
    const code = await new Promise<number | null>((r) => p.on('close', r))
    expect(err).toBe('')
    expect(code).toBe(0)
    const got = Buffer.concat(chunks).toString().split('\n').filter(Boolean)
    expect(got.length).toBe(lines)
    expect(got[lines - 1]).toBe(`line ${lines - 1} ${'x'.repeat(100)}`)
  })
})
