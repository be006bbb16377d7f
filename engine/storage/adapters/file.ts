/**
 * The data directory on disk:
 *   admonitor.db           the last snapshot (replaced atomically: temp file, fsync, rename, fsync dir)
 *   journal-NNNNNN.log     journal segments appended since (each append fsynced before it is acknowledged)
 *   backups/               database images kept before migrations
 *   LOCK                   the pid of the process that has the directory open
 */
import { mkdir, open, readFile, readdir, unlink, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedStorage, StoragePort } from '../port'
import { acquireLock, type Lock } from '../lock'
import { appendDurably, fsyncDir, removeDeadTemps, TornAppendError, writeFileAtomic } from '../durable-file'
import { refusesWrites } from '../refusal'

const SNAPSHOT = 'admonitor.db'
const SEGMENT_RE = /^journal-(\d{6,})\.log$/
const segmentName = (n: number) => `journal-${String(n).padStart(6, '0')}.log`

/** Whether `dir` holds a database: its snapshot or a journal segment (false for a missing directory). */
export async function holdsDatabase(dir: string): Promise<boolean> {
  const names = await readdir(dir).catch(() => [] as string[])
  return names.some((n) => n === SNAPSHOT || SEGMENT_RE.test(n))
}

/**
 * The data directory as a StoragePort; `load()` takes its LOCK, `close()` gives it back. On a disk
 * with no room for the LOCK or a new segment, `load()` reads it without them (read-only), and
 * `openForWrites()` takes them once there is room.
 */
export class FileStorage implements StoragePort {
  private current = 0
  private fh: FileHandle | null = null
  /** The length of the current segment: where its last whole record ends. */
  private size = 0
  private lock: Lock | null = null
  private closed = false

  constructor(readonly dir: string) {}

  get location(): string {
    return this.dir
  }

  async load(): Promise<LoadedStorage> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    let readOnly: Error | null = null
    try {
      this.lock = await acquireLock(join(this.dir, 'LOCK'))
    } catch (err) {
      if (!refusesWrites(err)) throw err
      readOnly = err as Error
    }
    try {
      if (this.lock) await this.removeTemps()
      const loaded = await this.read()
      if (this.lock) await this.rotate(this.current + 1).catch((err: unknown) => (refusesWrites(err) ? (readOnly = err as Error) : Promise.reject(err)))
      return { ...loaded, readOnly }
    } catch (err) {
      await this.close()
      throw err
    }
  }

  /** Temp files of snapshot writes that a crash interrupted are garbage (removed only by the lock's holder). */
  private async removeTemps(): Promise<void> {
    await removeDeadTemps(join(this.dir, SNAPSHOT))
  }

  async read(): Promise<LoadedStorage> {
    let snapshot: Uint8Array | null = null
    try {
      snapshot = await readFile(join(this.dir, SNAPSHOT))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
    const ids = (await this.segmentIds()).sort((a, b) => a - b)
    const segments = await Promise.all(ids.map((id) => readFile(join(this.dir, segmentName(id)))))
    this.current = Math.max(this.current, ids.at(-1) ?? 0)
    return { snapshot, segments }
  }

  async openForWrites(): Promise<void> {
    if (this.closed) throw new Error('storage is closed')
    if (!this.lock) {
      this.lock = await acquireLock(join(this.dir, 'LOCK'))
      await this.removeTemps()
    }
    // after every segment there is: another process may have written some while this one had no lock
    await this.rotate(Math.max(this.current, ...(await this.segmentIds())) + 1)
  }

  private async segmentIds(): Promise<number[]> {
    const names = await readdir(this.dir)
    return names.flatMap((n) => {
      const m = SEGMENT_RE.exec(n)
      return m ? [Number(m[1])] : []
    })
  }

  async append(bytes: Uint8Array): Promise<void> {
    if (!this.lock) throw new Error('storage is not open for writes')
    // (a segment dropped after a torn append, or one whose creation failed: a fresh one)
    if (!this.fh) await this.rotate()
    try {
      await appendDurably(this.fh!, bytes, this.size)
    } catch (err) {
      // The segment may end in a torn record: nothing may follow it, so the next append starts
      // a new segment.
      if (err instanceof TornAppendError) await this.dropSegment()
      throw err
    }
    this.size += bytes.length
  }

  private async dropSegment(): Promise<void> {
    await this.fh?.close().catch(() => undefined)
    this.fh = null
  }

  async rotate(next = this.current + 1): Promise<number> {
    await this.dropSegment()
    this.current = next
    this.fh = await open(join(this.dir, segmentName(next)), 'a', 0o600)
    this.size = (await this.fh.stat()).size
    await fsyncDir(this.dir)
    return next
  }

  async save(snapshot: Uint8Array, dropBefore: number): Promise<void> {
    await writeFileAtomic(join(this.dir, SNAPSHOT), snapshot, this.dir)
    for (const id of await this.segmentIds()) {
      if (id < dropBefore) await unlink(join(this.dir, segmentName(id))).catch(() => undefined)
    }
  }

  async backup(name: string, bytes: Uint8Array): Promise<void> {
    const dir = join(this.dir, 'backups')
    await mkdir(dir, { recursive: true, mode: 0o700 })
    await writeFileAtomic(join(dir, name), bytes, dir)
  }

  async close(): Promise<void> {
    this.closed = true
    await this.fh?.close()
    this.fh = null
    await this.lock?.release()
    this.lock = null
  }
}

/** Storage in a data directory. */
export const fileStorage = (dir: string): FileStorage => new FileStorage(dir)
