// engine/storage/lock.ts: one process at a time per data directory, stale locks taken over by one
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { acquireLock, DataDirInUseError } from '../../../engine/storage/lock'

const childScript = join(import.meta.dirname, 'lock-child.ts')
let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admonitor-lock-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Spawns a node process that exits at once and returns its (now dead) pid. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  const pid = child.pid!
  await new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return pid
}

/** The first line matching `re` that `child` prints. */
function lineOf(child: ChildProcess, re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! })
    rl.on('line', (l) => re.test(l) && resolve(l))
    child.on('exit', (code) => reject(new Error(`lock-child exited (${code}) before printing ${re}`)))
  })
}

/** Starts `n` processes that all try to take `lock` at the same moment; returns what each got. */
async function race(lock: string, n: number): Promise<string[]> {
  const go = join(dir, `go-${Math.random()}`)
  const children = Array.from({ length: n }, () => spawn(process.execPath, ['--import', 'tsx', childScript, lock, go], { stdio: ['pipe', 'pipe', 'inherit'] }))
  try {
    await Promise.all(children.map((c) => lineOf(c, /^READY$/)))
    const outcomes = children.map((c) => lineOf(c, /^(HOLDS|REFUSED)/))
    await writeFile(go, '')
    return await Promise.all(outcomes)
  } finally {
    for (const c of children) c.stdin!.end()
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.on('exit', r)) : null)))
  }
}

describe('acquireLock', () => {
  it('lets exactly one of several processes take over a stale lock, every time', { timeout: 120_000 }, async () => {
    const lock = join(dir, 'LOCK')
    for (let round = 0; round < 6; round++) {
      await writeFile(lock, String(await deadPid()))
      const outcomes = await race(lock, 8)
      expect(outcomes.filter((o) => o === 'HOLDS'), `round ${round}: ${outcomes.join(', ')}`).toHaveLength(1)
      expect(outcomes.filter((o) => o === 'REFUSED DataDirInUseError')).toHaveLength(7)
      await rm(lock, { force: true })
    }
    expect((await readdir(dir)).filter((n) => !n.startsWith('go-'))).toEqual([])
  })

  it('lets one of several attempts in one process take the lock, and refuses the others', async () => {
    const lock = join(dir, 'LOCK')
    await writeFile(lock, String(await deadPid()))
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => acquireLock(lock)))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(DataDirInUseError)
    expect(await readFile(lock, 'utf8')).toBe(String(process.pid))
    await (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release()
  })

  it('removes a guard file that a process taking over a stale lock left when it died', async () => {
    const lock = join(dir, 'LOCK')
    await writeFile(lock, String(await deadPid()))
    await writeFile(`${lock}.break`, String(await deadPid()))
    const held = await acquireLock(lock)
    expect(await readFile(lock, 'utf8')).toBe(String(process.pid))
    expect(await readdir(dir)).toEqual(['LOCK'])
    await held.release()
  })

  it('leaves the lock of a live process alone', async () => {
    const lock = join(dir, 'LOCK')
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      await writeFile(lock, String(child.pid))
      await expect(acquireLock(lock)).rejects.toMatchObject({ name: 'DataDirInUseError', pid: child.pid })
      expect(await readdir(dir)).toEqual(['LOCK'])
    } finally {
      child.kill('SIGKILL')
    }
  })
})
