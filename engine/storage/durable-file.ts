/**
 * The file writes every durable store of the engine makes (the journal, the event log, its
 * checkpoint, the secrets and their key, the LOCK): appends that never leave a torn record in
 * front of good ones, and whole files that appear complete or not at all.
 */
import { randomBytes } from 'node:crypto'
import { link, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** A unique temp name beside `path` (`<name>.tmp-<pid>-<hex>`), so concurrent writers never share one. */
export const tempPath = (path: string): string => `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`

/** The temp files of this process's whole-file writes under way (writeTemp to their rename or removal). */
const written = new Set<string>()

/**
 * Removes the temp files beside `path` (`<name>.tmp-*`) that no write of this process has under
 * way: what a process killed while writing left, as large as the file, whatever id it had (a
 * container starts the server with the same one each time, so the id tells nothing).
 */
export async function removeDeadTemps(path: string): Promise<void> {
  const dir = dirname(path)
  const prefix = `${basename(path)}.tmp-`
  for (const name of await readdir(dir).catch(() => [])) {
    if (name.startsWith(prefix) && !written.has(join(dir, name))) await unlink(join(dir, name)).catch(() => undefined)
  }
}

/** Fsyncs a directory, so that a file created or renamed in it survives power loss. */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined
  try {
    fh = await open(dir, 'r')
    await fh.sync()
  } catch (err) {
    // Windows cannot open or fsync a directory; the rename is still atomic there.
    if ((err as NodeJS.ErrnoException).code !== 'EISDIR' && (err as NodeJS.ErrnoException).code !== 'EPERM') throw err
  } finally {
    await fh?.close()
  }
}

/** Thrown when a failed append could not be cut back: the file may end in a partial record. */
export class TornAppendError extends Error {
  constructor(cause: Error, readonly repair: Error) {
    super(`${cause.message} (and the file could not be cut back to its last whole record: ${repair.message})`, { cause })
    this.name = 'TornAppendError'
  }
}

async function writeAll(fh: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    // A full disk or a file-size limit first makes a write short without an error; only the
    // next one fails. So a short write is retried for the rest, never taken as done.
    const { bytesWritten } = await fh.write(bytes, done, bytes.length - done)
    if (bytesWritten <= 0) throw Object.assign(new Error(`the write stopped after ${done} of ${bytes.length} bytes`), { code: 'EIO' })
    done += bytesWritten
  }
}

/**
 * Appends all of `bytes` to `fh` (opened for appending), whose whole records end at `length`,
 * then datasyncs it unless `datasync` is false (a handle opened O_DSYNC). On any failure the file
 * is cut back to `length` and the error is rethrown: the caller must refuse the write, and the
 * file never holds a torn record that later appends would land behind. Throws TornAppendError
 * when even the cut fails; the caller must then append nothing more to this file.
 */
export async function appendDurably(fh: FileHandle, bytes: Uint8Array, length: number, datasync = true): Promise<void> {
  try {
    await writeAll(fh, bytes)
    if (datasync) await fh.datasync()
  } catch (err) {
    // With O_APPEND the next write goes to the new end, so the cut also places it right. The cut
    // need not be synced: a crash before it leaves a torn tail, which reading ignores.
    await fh.truncate(length).catch((repair: Error) => Promise.reject(new TornAppendError(err as Error, repair)))
    throw err
  }
}

/** Writes `parts` to a new temp file beside `path` and fsyncs it; returns its name. */
async function writeTemp(path: string, parts: readonly Uint8Array[]): Promise<string> {
  const tmp = tempPath(path)
  written.add(tmp)
  let fh: FileHandle | undefined
  try {
    fh = await open(tmp, 'wx', 0o600)
    // FileHandle.writeFile loops until every byte is written, from the current position.
    for (const p of parts) await fh.writeFile(p)
    await fh.sync()
    const done = fh
    fh = undefined
    await done.close()
    return tmp
  } catch (err) {
    // (a temp file this write made and could not finish is removed; one it could not close is left)
    if (fh) {
      await fh.close().catch(() => undefined)
      await unlink(tmp).catch(() => undefined)
    }
    written.delete(tmp)
    throw err
  }
}

const partsOf = (bytes: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] => (bytes instanceof Uint8Array ? [bytes] : bytes)

/**
 * Writes `bytes` (or its parts, in order) to `path` atomically: a unique temp file in the same
 * directory `dir`, fsync, rename (retried on EPERM/EBUSY, which Windows gives while another
 * process reads the target), fsync `dir`. A crash leaves the old file or the new one.
 */
export async function writeFileAtomic(path: string, bytes: Uint8Array | readonly Uint8Array[], dir: string): Promise<void> {
  const tmp = await writeTemp(path, partsOf(bytes))
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await rename(tmp, path)
        break
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if ((code === 'EPERM' || code === 'EBUSY') && attempt < 10) await new Promise((r) => setTimeout(r, 20 * (attempt + 1)))
        else {
          await unlink(tmp).catch(() => undefined)
          throw err
        }
      }
    }
  } finally {
    written.delete(tmp)
  }
  await fsyncDir(dir)
}

/**
 * Creates `path` holding `bytes`, complete, unless it exists: a fsynced temp file hard-linked
 * into place (a link never replaces a file), then `dir` fsynced. Returns false when `path` exists.
 */
export async function createFileExclusive(path: string, bytes: Uint8Array, dir: string): Promise<boolean> {
  const tmp = await writeTemp(path, [bytes])
  try {
    await link(tmp, path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  } finally {
    await unlink(tmp).catch(() => undefined)
    written.delete(tmp)
  }
  await fsyncDir(dir)
  return true
}
