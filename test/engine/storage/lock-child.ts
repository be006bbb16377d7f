// Run by lock.test.ts: takes the lock named by argv[2] once the file argv[3] exists, prints what
// happened, and holds what it got until its stdin closes. Every file call first waits a random
// 0-3 ms, so the moments at which processes check and replace the lock interleave in every order.
import { createRequire, syncBuiltinESMExports } from 'node:module'
import { existsSync } from 'node:fs'

const fsp = createRequire(import.meta.url)('node:fs/promises') as Record<string, unknown>
for (const name of ['open', 'link', 'unlink', 'readFile', 'rename', 'stat']) {
  const real = fsp[name] as (...a: unknown[]) => Promise<unknown>
  fsp[name] = async (...a: unknown[]) => {
    await new Promise((r) => setTimeout(r, Math.random() * 3))
    return real(...a)
  }
}
syncBuiltinESMExports()

const [path, go] = [process.argv[2]!, process.argv[3]!]
const { acquireLock } = await import('../../../engine/storage/lock')
console.log('READY')
while (!existsSync(go)) await new Promise((r) => setTimeout(r, 2))
const outcome = await acquireLock(path).then(() => 'HOLDS', (e: Error) => `REFUSED ${e.name}`)
console.log(outcome)
process.stdin.resume().on('end', () => process.exit(0))
