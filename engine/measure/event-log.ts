/**
 * The raw event log (docs/measurement.md): append-only segment files of frames, each append
 * fsynced before it resolves. Reading visits every intact frame of every segment in order; after
 * opening, appends go to a new segment, never after a torn tail.
 */
import { mkdir, open, readFile, readdir, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { readFrames, type RecordVisitor } from './record'

export interface EventLog {
  /** Visits every record of the log, oldest first; returns the bytes of intact frames read. */
  readAll(visit: RecordVisitor): Promise<number>
  /** Appends one frame; resolves once it is on stable storage. */
  append(frame: Buffer): Promise<void>
  /** Bytes appended since open (for progress and benchmarks). */
  readonly appended: number
  close(): Promise<void>
}

const SEGMENT_RE = /^(\d{6,})\.seg$/
/** A new segment starts past this size (a whole segment is read into memory at start). */
const SEGMENT_BYTES = 256 << 20

export class FileEventLog implements EventLog {
  private fh: FileHandle | null = null
  private current = 0
  private size = 0
  appended = 0

  constructor(readonly dir: string) {}

  private async segments(): Promise<number[]> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    return (await readdir(this.dir)).flatMap((n) => {
      const m = SEGMENT_RE.exec(n)
      return m ? [Number(m[1])] : []
    }).sort((a, b) => a - b)
  }

  async readAll(visit: RecordVisitor): Promise<number> {
    let total = 0
    const ids = await this.segments()
    for (const id of ids) total += readFrames(await readFile(join(this.dir, `${String(id).padStart(6, '0')}.seg`)), visit)
    this.current = (ids.at(-1) ?? 0)
    return total
  }

  private async rotate(): Promise<void> {
    await this.fh?.close()
    if (this.current === 0) this.current = (await this.segments()).at(-1) ?? 0
    this.current++
    this.fh = await open(join(this.dir, `${String(this.current).padStart(6, '0')}.seg`), 'a', 0o600)
    this.size = 0
    const d = await open(this.dir, 'r')
    await d.sync().catch(() => undefined)
    await d.close()
  }

  async append(frame: Buffer): Promise<void> {
    if (!this.fh || this.size + frame.length > SEGMENT_BYTES) await this.rotate()
    await this.fh!.write(frame)
    await this.fh!.datasync()
    this.size += frame.length
    this.appended += frame.length
  }

  async close(): Promise<void> {
    await this.fh?.close()
    this.fh = null
  }
}

/** An event log in memory (tests); survives its user, like MemoryStorage. */
export class MemoryEventLog implements EventLog {
  frames: Buffer[] = []
  appended = 0

  async readAll(visit: RecordVisitor): Promise<number> {
    let n = 0
    for (const f of this.frames) n += readFrames(f, visit)
    return n
  }

  async append(frame: Buffer): Promise<void> {
    this.frames.push(Buffer.from(frame))
    this.appended += frame.length
  }

  async close(): Promise<void> {}
}
