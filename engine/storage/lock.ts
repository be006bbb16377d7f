/**
 * One process at a time per data directory: two engines appending to one journal would
 * corrupt it. The lock file holds the owner's pid; a lock whose process is gone is stale
 * (the owner was killed) and is taken over.
 */
import { open, realpath, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { createFileExclusive } from './durable-file'

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
/** The guard files (see removeIfUnchanged) this process is creating or holds. */
const guarding = new Set<string>()

/** Whether process `pid` runs (EPERM: it does, under another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** What a file held when read: its text, the pid in it (a lock's owner), and an identity no later file shares. */
export interface Seen {
  text: string
  pid: number
  id: string
}

/** Reads the file at `path` through one handle (so text and identity are of one file), or null when there is none. */
export async function readSeen(path: string): Promise<Seen | null> {
  const fh = await open(path, 'r').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)))
  if (!fh) return null
  try {
    const [s, text] = [await fh.stat({ bigint: true }), await fh.readFile('utf8')]
    // A reused inode number never comes back with the same modification time and content.
    return { text, pid: Number(text.trim()), id: `${s.dev}:${s.ino}:${s.mtimeNs}:${text}` }
  } finally {
    await fh.close()
  }
}

/** A lock file is stale when its process is gone (or it holds no pid: its owner died creating it). */
const stale = (seen: Seen): boolean => !(Number.isInteger(seen.pid) && seen.pid > 0 && seen.pid !== process.pid && alive(seen.pid))

/** Creates the lock file at `path` holding this pid, complete, unless it exists. */
const tryCreate = (path: string): Promise<boolean> => createFileExclusive(path, Buffer.from(String(process.pid)), dirname(path))

const pause = () => new Promise<void>((r) => setTimeout(r, 5 + Math.random() * 20))

/**
 * Removes the file `seen` at `path` (a stale lock, an empty key file), and never another; does
 * nothing while another process is removing it (read it again and retry). Removing a file by name
 * is not conditional, so removers take turns through a guard file (`<path>.break`, created like a
 * lock) and the one holding it removes `path` only if it is still `seen`: until then no one else
 * can remove or replace it. Without the guard, a process that read a stale lock could remove the
 * lock another process had just taken over (two holders). A guard left by a remover that died is
 * itself stale and removed the same way.
 */
export async function removeIfUnchanged(path: string, seen: Seen, depth = 0): Promise<void> {
  const guard = `${path}.break`
  // A guard holds only a pid, which cannot tell two attempts of this process apart: they take turns here.
  if (guarding.has(guard)) return pause()
  guarding.add(guard)
  try {
    if (await tryCreate(guard)) await removeGuarded(path, seen, guard)
    else {
      const other = await readSeen(guard)
      if (other && stale(other) && depth < 2) await removeIfUnchanged(guard, other, depth + 1)
      else await pause() // another process is removing it now
    }
  } finally {
    guarding.delete(guard)
  }
}

async function removeGuarded(path: string, seen: Seen, guard: string): Promise<void> {
  try {
    if ((await readSeen(path))?.id === seen.id) await unlink(path)
  } finally {
    await unlink(guard).catch(() => undefined)
  }
}

/**
 * Takes the lock file `given` for this process; throws DataDirInUseError when a live process (this
 * one included) holds it. A stale lock is taken over.
 */
export async function acquireLock(given: string): Promise<Lock> {
  // One spelling per directory (relative paths, symlinks), so this process cannot lock it twice.
  const path = join(await realpath(dirname(given)), basename(given))
  if (held.has(path)) throw new DataDirInUseError(path, process.pid)
  // Claimed before the file exists: the file holds only a pid, which cannot tell two attempts of one process apart.
  held.add(path)
  try {
    await take(path)
  } catch (err) {
    held.delete(path)
    throw err
  }
  return {
    release: async () => {
      held.delete(path)
      await unlink(path).catch(() => undefined)
    },
  }
}

async function take(path: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await tryCreate(path)) return
    const seen = await readSeen(path)
    if (!seen) continue // released meanwhile
    if (!stale(seen)) throw new DataDirInUseError(path, seen.pid)
    await removeIfUnchanged(path, seen)
  }
  throw new Error(`could not take the lock ${path}; if no other program is using the data directory, delete ${path} and ${path}.break`)
}
