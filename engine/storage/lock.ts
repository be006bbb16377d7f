/**
 * One process at a time per data directory: two engines appending to one journal would
 * corrupt it. The lock file holds the owner's pid; a lock whose process is gone is stale
 * (the owner was killed) and is taken over.
 */
import { open, readFile, unlink } from 'node:fs/promises'

export interface Lock {
  release(): Promise<void>
}

/** Thrown when another live process has the data directory open. */
export class DataDirInUseError extends Error {
  constructor(readonly path: string, readonly pid: number) {
    super(`The data directory is in use by process ${pid} (lock file ${path}). Stop that process or choose another --data-dir.`)
    this.name = 'DataDirInUseError'
  }
}

const held = new Set<string>()

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function acquireLock(path: string): Promise<Lock> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (held.has(path)) throw new DataDirInUseError(path, process.pid)
    try {
      const fh = await open(path, 'wx', 0o600)
      await fh.writeFile(String(process.pid))
      await fh.sync()
      await fh.close()
      held.add(path)
      return {
        release: async () => {
          held.delete(path)
          await unlink(path).catch(() => undefined)
        },
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim())
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DataDirInUseError(path, pid)
      await unlink(path).catch(() => undefined)
    }
  }
  throw new Error(`could not take the lock ${path}`)
}
