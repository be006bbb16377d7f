/**
 * The raw event log (docs/measurement.md): append-only segment files of frames, each append
 * fsynced before it resolves. Reading visits every intact frame of every segment in order; after
 * opening, appends go to a new segment, never after a torn tail. Beside the segments the log keeps
 * one checkpoint of the state derived from them (checkpoint.ts), which says how far it reaches.
 */
import { constants } from 'node:fs'
import { mkdir, open, readdir, rm, stat, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { appendDurably, fsyncDir, removeDeadTemps, TornAppendError, writeFileAtomic } from '../storage/durable-file'
import { bytesReader, type CheckpointReader } from './checkpoint'
import { FRAME_HEADER, readFrames, type RecordVisitor } from './record'
import type { LogExtent, SegmentExtent } from './log-extent'
import { nextTurn } from '../clock'

export interface EventLog {
  /**
   * Visits every record of the log, oldest first, or only those past `after` (a checkpoint's
   * extent); returns the bytes of intact frames read. With `until` (an extent taken earlier: a
   * rebuild reads while hits go on being appended) only the frames within it are read, and the
   * log's own extent and the segment it appends to stay as they are.
   */
  readAll(visit: RecordVisitor, after?: LogExtent, until?: LogExtent): Promise<number>
  /** Appends one frame; resolves once it is on stable storage. */
  append(frame: Buffer): Promise<void>
  /** Bytes appended since open (for progress and benchmarks). */
  readonly appended: number
  /** Where the log ends now (after readAll and the appends since). */
  extent(): LogExtent
  /** Whether every segment of `e` is still there with the same frames up to its end. */
  holds(e: LogExtent): Promise<boolean>
  /** What `use` makes of the checkpoint last saved, or null when there is none. */
  readCheckpoint<T>(use: (r: CheckpointReader) => Promise<T>): Promise<T | null>
  /** Replaces the checkpoint atomically (a crash leaves the old one or the new one). */
  saveCheckpoint(parts: readonly Uint8Array[]): Promise<void>
  close(): Promise<void>
}

/** Keeps the extent of each segment while frames are read or appended. */
class Extents {
  private list: SegmentExtent[] = []

  reset(): void {
    this.list = []
  }

  /**
   * A segment read: `buf` holds its bytes from the end of `before` (the part a checkpoint covers,
   * not read again) and `bytes` of them are intact frames.
   */
  read(id: number, buf: Buffer, bytes: number, before?: SegmentExtent): void {
    const base = before?.bytes ?? 0
    let at = 0
    let tail = -1
    while (at < bytes) {
      tail = at
      at += FRAME_HEADER + buf.readUInt32LE(at)
    }
    if (tail >= 0) this.list.push({ id, bytes: base + bytes, tailAt: base + tail, tailCrc: buf.readUInt32LE(tail + 4) })
    else this.list.push(before ? { ...before } : { id, bytes: 0, tailAt: 0, tailCrc: 0 })
  }

  appended(id: number, frame: Buffer): void {
    let s = this.list.at(-1)
    if (!s || s.id !== id) this.list.push((s = { id, bytes: 0, tailAt: 0, tailCrc: 0 }))
    s.tailAt = s.bytes
    s.tailCrc = frame.readUInt32LE(4)
    s.bytes += frame.length
  }

  get(): LogExtent {
    return { segments: this.list.filter((s) => s.bytes > 0).map((s) => ({ ...s })) }
  }
}

/** Whether `buf` (a segment) still has the frame `s` ends with. */
function reaches(buf: Buffer, s: SegmentExtent): boolean {
  if (buf.length < s.bytes || s.tailAt + FRAME_HEADER > s.bytes) return false
  const len = buf.readUInt32LE(s.tailAt)
  return s.tailAt + FRAME_HEADER + len === s.bytes && buf.readUInt32LE(s.tailAt + 4) === s.tailCrc &&
    crc32(buf.subarray(s.tailAt + FRAME_HEADER, s.bytes)) === s.tailCrc
}

/** Fills `into` with the file's bytes from `position`. */
async function readFully(fh: FileHandle, into: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < into.length;) {
    const { bytesRead } = await fh.read(into, done, into.length - done, position + done)
    if (bytesRead === 0) throw new Error(`the file ended ${into.length - done} bytes early`)
    done += bytesRead
  }
}

/** A file's first `bytes` bytes. */
async function readHead(file: string, bytes: number): Promise<Buffer> {
  const fh = await open(file, 'r')
  try {
    const buf = Buffer.alloc(bytes)
    await readFully(fh, buf, 0)
    return buf
  } finally {
    await fh.close()
  }
}

/** A file's bytes from `position` to its end. */
async function readFrom(file: string, position: number): Promise<Buffer> {
  const fh = await open(file, 'r')
  try {
    const buf = Buffer.alloc(Math.max(0, (await fh.stat()).size - position))
    await readFully(fh, buf, position)
    return buf
  } finally {
    await fh.close()
  }
}

const SEGMENT_RE = /^(\d{6,})\.seg$/
/**
 * A segment is read in slices of this many bytes, the event loop turning between them: a segment
 * of 256 MiB took 3 s in one call, and a server reading its log at start (which listens meanwhile,
 * docs/measurement.md) answered nothing in that time, not even a sign-in, and took in no new
 * connection (a burst of hits then loses some to timeouts). A slice is about 10 ms of reading.
 */
const READ_SLICE_BYTES = 1 << 20

/**
 * A rebuild's slice (readAll with `until`): a quarter of READ_SLICE_BYTES, as tracking hits are
 * counted meanwhile and each waits for the slice being read (6,500 events, 15-25 ms).
 */
const REBUILD_SLICE_BYTES = READ_SLICE_BYTES / 4

/** readFrames over a whole segment, slice by slice, letting other work run in between. */
async function readFramesInTurns(buf: Buffer, visit: RecordVisitor, slice = READ_SLICE_BYTES): Promise<number> {
  let read = 0
  for (let next = readFrames(buf, visit, 0, slice); next > read; next = readFrames(buf, visit, read, slice)) {
    read = next
    await nextTurn()
  }
  return read
}

/** A new segment starts past this size (a whole segment is read into memory at start). */
const SEGMENT_BYTES = 256 << 20

const CHECKPOINT = 'checkpoint.bin'
/** `checkpoint.bin.<pid>.tmp`: the temp name of an older checkpoint writer, which a data directory may still hold. */
const OLD_CHECKPOINT_TMP_RE = /^checkpoint\.bin\.\d+\.tmp$/
/**
 * Segments are opened for synchronised writes (O_DSYNC) where the system has them: a write returns
 * once its bytes are on stable storage, as a write and an fdatasync did, in one call to the
 * thread pool instead of two (each group commit of tracking hits made both). Elsewhere (Windows)
 * each append is followed by a datasync.
 */
const SYNCED_WRITES = constants.O_DSYNC !== undefined
const APPEND_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | (constants.O_DSYNC ?? 0)

export class FileEventLog implements EventLog {
  private fh: FileHandle | null = null
  private current = 0
  private size = 0
  private extents = new Extents()
  appended = 0

  constructor(readonly dir: string) {}

  private async segments(): Promise<number[]> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const names = await readdir(this.dir)
    // A checkpoint being written when a process died stays as its temp file, as large as the whole
    // state, and is removed (one of this process's saves under way stays)
    await removeDeadTemps(join(this.dir, CHECKPOINT))
    for (const n of names) if (OLD_CHECKPOINT_TMP_RE.test(n)) await rm(join(this.dir, n), { force: true })
    return names.flatMap((n) => {
      const m = SEGMENT_RE.exec(n)
      return m ? [Number(m[1])] : []
    }).sort((a, b) => a - b)
  }

  private file(id: number): string {
    return join(this.dir, `${String(id).padStart(6, '0')}.seg`)
  }

  /** Reads the frames after `after` (a checkpoint's extent; the parts it covers are not read), or those within `until`. */
  async readAll(visit: RecordVisitor, after?: LogExtent, until?: LogExtent): Promise<number> {
    if (until) return this.readWithin(visit, until)
    let total = 0
    const ids = await this.segments()
    const done = new Map((after?.segments ?? []).map((s) => [s.id, s]))
    const last = after?.segments.at(-1)?.id ?? 0
    this.extents.reset()
    for (const id of ids) {
      const before = done.get(id)
      if (!before && id < last) continue // a segment with nothing intact when the checkpoint was taken
      const buf = await readFrom(this.file(id), before?.bytes ?? 0)
      const read = await readFramesInTurns(buf, visit)
      this.extents.read(id, buf, read, before)
      total += read
    }
    this.current = (ids.at(-1) ?? 0)
    return total
  }

  /** The frames of each segment of `until`, up to where it ended then (the segment appended to grows meanwhile). */
  private async readWithin(visit: RecordVisitor, until: LogExtent): Promise<number> {
    let total = 0
    for (const s of until.segments) total += await readFramesInTurns(await readHead(this.file(s.id), s.bytes), visit, REBUILD_SLICE_BYTES)
    return total
  }

  extent(): LogExtent {
    return this.extents.get()
  }

  async holds(e: LogExtent): Promise<boolean> {
    for (const s of e.segments) {
      const size = await stat(this.file(s.id)).then((x) => x.size, () => -1)
      if (size < s.bytes) return false
      const fh = await open(this.file(s.id), 'r')
      try {
        const buf = Buffer.alloc(s.bytes - s.tailAt)
        await fh.read(buf, 0, buf.length, s.tailAt)
        if (!reaches(buf, { ...s, tailAt: 0, bytes: buf.length })) return false
      } finally {
        await fh.close()
      }
    }
    return true
  }

  async readCheckpoint<T>(use: (r: CheckpointReader) => Promise<T>): Promise<T | null> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const fh = await open(join(this.dir, CHECKPOINT), 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null
      throw err
    })
    if (!fh) return null
    try {
      return await use({ size: (await fh.stat()).size, read: (into, position) => readFully(fh, into, position) })
    } finally {
      await fh.close()
    }
  }

  async saveCheckpoint(parts: readonly Uint8Array[]): Promise<void> {
    await writeFileAtomic(join(this.dir, CHECKPOINT), parts, this.dir)
  }

  private async rotate(): Promise<void> {
    await this.fh?.close()
    this.fh = null
    if (this.current === 0) this.current = (await this.segments()).at(-1) ?? 0
    this.current++
    this.fh = await open(this.file(this.current), APPEND_FLAGS, 0o600)
    this.size = (await this.fh.stat()).size
    await fsyncDir(this.dir)
  }

  async append(frame: Buffer): Promise<void> {
    if (!this.fh || this.size + frame.length > SEGMENT_BYTES) await this.rotate()
    try {
      await appendDurably(this.fh!, frame, this.size, !SYNCED_WRITES)
    } catch (err) {
      // The segment may end in a torn frame: the next append starts a new segment instead.
      if (err instanceof TornAppendError) await this.close().catch(() => undefined)
      throw err
    }
    this.extents.appended(this.current, frame)
    this.size += frame.length
    this.appended += frame.length
  }

  async close(): Promise<void> {
    await this.fh?.close()
    this.fh = null
  }
}

/**
 * An event log in memory (tests); survives its user, like MemoryStorage. Its frames make one
 * segment (id 1), so checkpoints behave as on files.
 */
export class MemoryEventLog implements EventLog {
  frames: Buffer[] = []
  checkpoint: Buffer | null = null
  appended = 0

  async readAll(visit: RecordVisitor, after?: LogExtent, until?: LogExtent): Promise<number> {
    const skip = after?.segments.find((s) => s.id === 1)?.bytes ?? 0
    const end = until ? (until.segments.find((s) => s.id === 1)?.bytes ?? 0) : Infinity
    let at = 0
    let n = 0
    for (const f of this.frames) {
      if (at >= end) break
      if (at >= skip) n += readFrames(f, visit)
      at += f.length
    }
    return n
  }

  async append(frame: Buffer): Promise<void> {
    this.frames.push(Buffer.from(frame))
    this.appended += frame.length
  }

  extent(): LogExtent {
    const bytes = this.frames.reduce((n, f) => n + f.length, 0)
    const last = this.frames.at(-1)
    return { segments: last ? [{ id: 1, bytes, tailAt: bytes - last.length, tailCrc: last.readUInt32LE(4) }] : [] }
  }

  async holds(e: LogExtent): Promise<boolean> {
    return e.segments.every((s) => s.id === 1 && reaches(Buffer.concat(this.frames), s))
  }

  async readCheckpoint<T>(use: (r: CheckpointReader) => Promise<T>): Promise<T | null> {
    return this.checkpoint ? use(bytesReader(this.checkpoint)) : null
  }

  async saveCheckpoint(parts: readonly Uint8Array[]): Promise<void> {
    this.checkpoint = Buffer.concat(parts)
  }

  async close(): Promise<void> {}
}
