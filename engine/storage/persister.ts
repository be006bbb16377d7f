/**
 * Durability for the in-memory sql.js database (DESIGN §2).
 * - Every committed transaction becomes a journal record with the next sequence number.
 *   Records are written in groups (all that are waiting, one fsync), and `durable()` resolves
 *   when everything committed so far is on stable storage: dispatch awaits it before answering.
 * - A checkpoint exports the database with the last sequence number it contains (meta
 *   `journal_seq`), switches appends to a new segment, saves the snapshot atomically and drops
 *   the older segments. Records committed before the export but written after the switch are
 *   skipped on replay by their sequence number, so nothing is applied twice.
 */
import { Db } from './db'
import { decodeRecords, encodeRecord, type JournalRecord } from './journal'
import type { StoragePort } from './port'

export interface PersisterOptions {
  /** Checkpoint when the journal written since the last one passes this many bytes. */
  checkpointBytes?: number
  /** Checkpoint after this many ms without writes. */
  idleMs?: number
  wasmPath?: string
}

interface Waiter {
  seq: number
  resolve: () => void
  reject: (err: Error) => void
}

export class Persister {
  private seq = 0
  private durableSeq = 0
  private pending: { seq: number; bytes: Uint8Array }[] = []
  private waiters: Waiter[] = []
  private rotation: { resolve: (segment: number) => void; reject: (err: Error) => void } | null = null
  private pumping = false
  private journalBytes = 0
  private checkpointing: Promise<void> | null = null
  private idleTimer: ReturnType<typeof setTimeout> | null = null
  private failure: Error | null = null
  private closed = false
  /** The sequence number the saved snapshot holds; a checkpoint with nothing newer is skipped. */
  private savedSeq = -1
  replayed = 0

  private constructor(readonly db: Db, private readonly port: StoragePort, private readonly opts: Required<Omit<PersisterOptions, 'wasmPath'>>) {
    db.onCommit = (writes) => this.record({ seq: ++this.seq, writes })
  }

  /** Opens the stored database: snapshot, then every journal record it does not yet contain. */
  static async open(port: StoragePort, opts: PersisterOptions = {}): Promise<Persister> {
    const { snapshot, segments } = await port.load()
    const db = await Db.open(snapshot, opts.wasmPath)
    const base = snapshot ? Number(db.meta('journal_seq') ?? 0) : 0
    const records: JournalRecord[] = segments.flatMap((s) => decodeRecords(s).records).filter((r) => r.seq > base)
    records.sort((a, b) => a.seq - b.seq)
    let seq = base
    for (const r of records) {
      if (r.seq !== seq + 1) throw new Error(`journal is missing record ${seq + 1} (found ${r.seq}); the data directory is damaged`)
      db.replay(r.writes)
      seq = r.seq
    }
    const p = new Persister(db, port, { checkpointBytes: opts.checkpointBytes ?? 32 << 20, idleMs: opts.idleMs ?? 5000 })
    p.seq = p.durableSeq = seq
    p.replayed = records.length
    if (snapshot && records.length === 0) p.savedSeq = seq
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
    if (this.pumping || this.failure) return
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
          this.settle()
        }
      } catch (err) {
        // A write that cannot be made durable is never acknowledged, nor any after it.
        this.failure = err as Error
        this.rotation?.reject(this.failure)
        this.rotation = null
        this.settle()
      } finally {
        this.pumping = false
      }
      if (!this.failure && (this.pending.length > 0 || this.rotation)) this.pump()
    })()
  }

  private settle(): void {
    const still: Waiter[] = []
    for (const w of this.waiters) {
      if (this.failure) w.reject(this.failure)
      else if (w.seq <= this.durableSeq) w.resolve()
      else still.push(w)
    }
    this.waiters = still
  }

  /** Resolves once every transaction committed so far is on stable storage; rejects if it cannot be. */
  durable(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure)
    if (this.journalBytes >= this.opts.checkpointBytes) void this.checkpoint().catch(() => undefined)
    const seq = this.seq
    if (seq <= this.durableSeq) return Promise.resolve()
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }))
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
    if (this.failure) throw this.failure
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
   * lock) is closed even when the last writes fail, whose error is then thrown.
   */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    try {
      await this.durable()
      await this.checkpoint()
    } finally {
      this.closed = true
      await this.port.close()
      this.db.close()
    }
  }
}
