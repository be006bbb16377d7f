/**
 * Durability for the in-memory sql.js database (DESIGN §2).
 * - Every committed transaction becomes a journal record with the next sequence number.
 *   Records are written in groups (all that are waiting, one fsync). `durable()` resolves when
 *   everything committed so far is on stable storage; `durableWrites()` when the writes of one
 *   request are (persister-writes.ts): dispatch awaits those before answering.
 * - A record that cannot be written is refused with every record after it, and memory goes back
 *   to what the disk holds (read again: snapshot and journal), so a refused write leaves no trace.
 *   Writes are then refused before they start until a probe (an empty record) is written again.
 * - A checkpoint exports the database with the last sequence number it contains (meta
 *   `journal_seq`), switches appends to a new segment, saves the snapshot atomically once every
 *   record it holds is durable, and drops the older segments. Records committed before the export
 *   but written after the switch are skipped on replay by their sequence number.
 */
import type { ApiError } from '../contract/errors'
import { Db } from './db'
import { encodeRecord, recordsAfter, type JournalRecord } from './journal'
import { noteWrite, type JournalWrite } from './persister-writes'
import type { LoadedStorage, StoragePort } from './port'
import { refusesWrites, storageRefusal } from './refusal'

export interface PersisterOptions {
  /** Checkpoint when the journal written since the last one passes this many bytes. */
  checkpointBytes?: number
  /** Checkpoint after this many ms without writes. */
  idleMs?: number
  wasmPath?: string
}

/**
 * The filler of a probe record: a disk with less room than this refuses writes without trying them
 * (each write tried and refused costs a read of the data directory), and one with more has room for
 * the records of most writes.
 */
export const PROBE_BYTES = 64 * 1024

interface Waiter {
  seq: number
  resolve: () => void
  reject: (err: Error) => void
}

export class Persister {
  private seq = 0
  private durableSeq = 0
  /** The last record holding writes (probes hold none): memory holds more than the disk while it is above durableSeq. */
  private writtenSeq = 0
  private pending: { seq: number; bytes: Uint8Array }[] = []
  private waiters: Waiter[] = []
  /**
   * One per refusal, in order: the last durable record then and the refusal. A write committed in
   * generation g (after g refusals) was refused when cuts[g] exists and its number is above upTo.
   */
  private cuts: { upTo: number; error: ApiError }[] = []
  private rotation: { resolve: (segment: number) => void; reject: (err: Error) => void } | null = null
  private pumping = false
  private journalBytes = 0
  private checkpointing: Promise<void> | null = null
  private idleTimer: ReturnType<typeof setTimeout> | null = null
  /** False after a start that could only read the storage: the next probe opens it for appends. */
  private appendable = true
  private probing: Promise<boolean> | null = null
  /** Memory being brought back to the disk after a refused write. */
  private recovering: Promise<void> | null = null
  /** Set when memory could not be brought back to the disk after a refused write: nothing is written until a restart. */
  private stuck: ApiError | null = null
  private closed = false
  /** The sequence number the saved snapshot holds; a checkpoint with nothing newer is skipped. */
  private savedSeq = -1
  replayed = 0

  private constructor(readonly db: Db, private readonly port: StoragePort, private readonly opts: Required<Omit<PersisterOptions, 'wasmPath'>>) {
    db.onCommit = (writes) => {
      this.writtenSeq = this.seq + 1
      this.record({ seq: ++this.seq, writes })
      noteWrite({ seq: this.seq, generation: this.cuts.length })
    }
    // a write refused outside a request that probes first (a sync job's, a hit's) probes for the next one
    db.onRefused = () => void this.writable()
  }

  /** Where the storage is (the data directory). */
  get location(): string {
    return this.port.location
  }

  /** Opens the stored database: snapshot, then every journal record it does not yet contain. */
  static async open(port: StoragePort, opts: PersisterOptions = {}): Promise<Persister> {
    const loaded = await port.load()
    const db = await Db.open(loaded.snapshot, opts.wasmPath)
    const base = loaded.snapshot ? Number(db.meta('journal_seq') ?? 0) : 0
    const records = recordsAfter(loaded.segments, base)
    for (const r of records) db.replay(r.writes)
    const p = new Persister(db, port, { checkpointBytes: opts.checkpointBytes ?? 32 << 20, idleMs: opts.idleMs ?? 5000 })
    p.seq = p.durableSeq = p.writtenSeq = records.at(-1)?.seq ?? base
    p.replayed = records.length
    if (loaded.snapshot && records.length === 0) p.savedSeq = p.seq
    if (loaded.readOnly) {
      p.appendable = false
      db.refused = { error: storageRefusal(loaded.readOnly, port.location), atOpen: true }
    }
    return p
  }

  private record(rec: JournalRecord): void {
    if (this.closed) throw new Error('the database is closed')
    const bytes = encodeRecord(rec)
    this.pending.push({ seq: rec.seq, bytes })
    this.journalBytes += bytes.length
    this.pump()
    this.scheduleIdle()
  }

  /**
   * The one writer: a pending rotation first, then every waiting record in one append and
   * one fsync (group commit). Appends happen in commit order, so `durableSeq` only grows.
   */
  private pump(): void {
    if (this.pumping) return
    this.pumping = true
    void (async () => {
      try {
        for (;;) {
          if (this.rotation) {
            const r = this.rotation
            this.rotation = null
            await this.port.rotate().then(r.resolve, r.reject)
            continue
          }
          if (this.pending.length === 0) break
          const batch = this.pending
          this.pending = []
          await this.port.append(Buffer.concat(batch.map((b) => b.bytes)))
          this.durableSeq = batch[batch.length - 1]!.seq
          this.settle(null)
        }
      } catch (err) {
        await (this.recovering = this.refuse(err).finally(() => (this.recovering = null)))
      } finally {
        this.pumping = false
      }
      if (this.pending.length > 0 || this.rotation) this.pump()
    })()
  }

  /**
   * A write could not be made durable: it and every one after it are refused (never
   * acknowledged), memory goes back to what the disk holds, and writes are refused from now on.
   */
  private async refuse(err: unknown): Promise<void> {
    const error = storageRefusal(err, this.port.location)
    this.cuts.push({ upTo: this.durableSeq, error })
    this.db.refused = { error, atOpen: false }
    this.pending = []
    this.rotation?.reject(error)
    this.rotation = null
    if (this.writtenSeq > this.durableSeq) {
      try {
        await this.reload(await this.port.read(), this.durableSeq)
      } catch (readErr) {
        this.stuck = storageRefusal(readErr, this.port.location)
        this.db.refused = { error: this.stuck, atOpen: false }
      }
    }
    if (!this.stuck) this.seq = this.writtenSeq = this.durableSeq
    this.pending = []
    this.settle(this.stuck ?? error)
  }

  /** Replaces memory by the stored state, up to record `upTo`. */
  private async reload(loaded: LoadedStorage, upTo: number): Promise<void> {
    const fresh = await Db.open(loaded.snapshot)
    const base = loaded.snapshot ? Number(fresh.meta('journal_seq') ?? 0) : 0
    const records = recordsAfter(loaded.segments, base, upTo)
    for (const r of records) fresh.replay(r.writes)
    this.db.adopt(fresh)
    this.seq = this.durableSeq = this.writtenSeq = records.at(-1)?.seq ?? base
  }

  private settle(refusal: Error | null): void {
    const still: Waiter[] = []
    for (const w of this.waiters) {
      if (w.seq <= this.durableSeq) w.resolve()
      else if (refusal) w.reject(refusal)
      else still.push(w)
    }
    this.waiters = still
  }

  private until(seq: number): Promise<void> {
    if (seq <= this.durableSeq) return Promise.resolve()
    if (this.stuck) return Promise.reject(this.stuck)
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }))
  }

  /**
   * Resolves once every transaction committed so far is on stable storage; rejects (with the
   * 507 refusal) when one of them was refused: memory no longer holds it then.
   */
  durable(): Promise<void> {
    this.checkpointWhenDue()
    return this.until(this.seq)
  }

  /**
   * Resolves once `writes` (one request's: persister-writes.ts) are on stable storage; rejects
   * with the 507 refusal when the disk refused one of them, also one refused before this call
   * (the numbers after a refusal are given again: the generation tells them apart).
   */
  durableWrites(writes: readonly JournalWrite[]): Promise<void> {
    this.checkpointWhenDue()
    let last = 0
    for (const w of writes) {
      const cut = this.cuts[w.generation]
      if (!cut) last = Math.max(last, w.seq)
      else if (w.seq > cut.upTo) return Promise.reject(cut.error)
    }
    return this.until(last)
  }

  private checkpointWhenDue(): void {
    if (this.journalBytes >= this.opts.checkpointBytes) void this.checkpoint().catch(() => undefined)
  }

  /**
   * Whether writes are taken now. While they are refused, tries (callers that come together share
   * a try) to write an empty record of PROBE_BYTES, opening the storage for appends first if the
   * start could not: once it is written, the disk has room again and writes are taken.
   */
  async writable(): Promise<boolean> {
    // (a probe begun before this call may have met the disk before space returned: one more then)
    if (this.probing && (await this.probing)) return true
    if (!this.db.refused) return true
    this.probing ??= this.probe().finally(() => (this.probing = null))
    return this.probing
  }

  private async probe(): Promise<boolean> {
    await this.recovering
    if (this.stuck || this.closed) return false
    try {
      if (!this.appendable) {
        await this.port.openForWrites()
        // another process may have written the directory while this one had no lock
        await this.reload(await this.port.read(), Infinity)
        this.appendable = true
      }
      const seq = ++this.seq
      this.record({ seq, writes: [], padding: PROBE_BYTES })
      await this.until(seq)
    } catch (err) {
      // (a failed append has set the refusal already; a failed open sets it here)
      if (!this.appendable && refusesWrites(err)) this.db.refused = { error: storageRefusal(err, this.port.location), atOpen: true }
      return false
    }
    this.db.refused = null
    return true
  }

  private scheduleIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => void this.checkpoint().catch(() => undefined), this.opts.idleMs)
    this.idleTimer.unref?.()
  }

  /** Folds the journal into a new snapshot. Concurrent calls share one checkpoint. */
  checkpoint(): Promise<void> {
    this.checkpointing ??= this.doCheckpoint().finally(() => (this.checkpointing = null))
    return this.checkpointing
  }

  private async doCheckpoint(): Promise<void> {
    if (this.db.refused) throw this.db.refused.error
    if (this.seq === this.savedSeq) return
    const seq = this.seq
    this.db.setMetaUnjournaled('journal_seq', String(seq))
    const image = this.db.export()
    this.journalBytes = 0
    // Every append from now on goes to a new segment. The segments before it hold only records
    // the image contains; records committed before the export but appended after the rotation
    // carry sequence numbers the image already has, and replay skips them.
    const segment = await new Promise<number>((resolve, reject) => {
      this.rotation = { resolve, reject }
      this.pump()
    })
    // The image holds every record up to seq: saved only once they are all durable, it never
    // holds a write that was refused.
    await this.until(seq)
    await this.port.save(image, segment)
    this.savedSeq = seq
  }

  /** Saves a copy of the current image under `name` (before a migration). */
  async backup(name: string): Promise<void> {
    await this.port.backup(name, this.db.export())
  }

  /** Closes without saving (the open was refused, e.g. by a migration): releases the storage. */
  async abandon(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.closed = true
    await this.port.close()
    this.db.close()
  }

  /**
   * Writes everything and closes; the database cannot be written afterwards. The port (and its
   * lock) is closed even when the last writes fail, whose error is then thrown. While writes are
   * refused no snapshot is saved: the disk already holds everything memory holds.
   */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    // a probe of a refused disk under way may be opening the port for writes (taking its lock):
    // it ends first, so the port closed below is the one it opened
    await this.probing
    try {
      await this.durable()
      if (!this.db.refused) await this.checkpoint()
    } finally {
      this.closed = true
      await this.port.close()
      this.db.close()
    }
  }
}
