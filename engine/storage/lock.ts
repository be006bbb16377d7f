/**
 * One process at a time per data directory: two engines appending to one journal would
 * corrupt it. The lock file holds the owner's pid; a lock whose process is gone is stale
 * (the owner was killed) and is taken over.
 */
import { randomBytes } from 'node:crypto'
import { link, open, readFile, realpath, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

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

/** Writes the pid to a temp file and links it into place: the lock never exists half-written. */
async function tryCreate(path: string): Promise<boolean> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
  const fh = await open(tmp, 'w', 0o600)
  try {
    await fh.writeFile(String(process.pid))
    await fh.sync()
  } finally {
    await fh.close()
  }
  try {
    await link(tmp, path)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  } finally {
    await unlink(tmp).catch(() => undefined)
  }
}

export async function acquireLock(given: string): Promise<Lock> {
  // One spelling per directory (relative paths, symlinks), so this process cannot lock it twice.
  const path = join(await realpath(dirname(given)), basename(given))
  for (let attempt = 0; attempt < 3; attempt++) {
    if (held.has(path)) throw new DataDirInUseError(path, process.pid)
    if (await tryCreate(path)) {
      held.add(path)
      return {
        release: async () => {
          held.delete(path)
          await unlink(path).catch(() => undefined)
        },
      }
    }
    const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim())
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DataDirInUseError(path, pid)
    await unlink(path).catch(() => undefined)
  }
  throw new Error(`could not take the lock ${path}`)
}
