/**
 * Ingest: attributed hits become raw records (identity definitions first), written to the event
 * log in groups with one fsync each, then added to the in-memory columns. `add()` resolves when
 * its hits are durable and counted, so an acknowledged hit survives a crash and is counted once.
 */
import type { Columns } from './columns'
import type { EventLog } from './event-log'
import type { Identities } from './identities'
import { FrameWriter, type EventRecord } from './record'
import { IVT, KIND, PLATFORM, flagIvt, packFlags, type Hit } from './types'
import { localDayHour } from '../runtime'

/** A PC identity belongs to the stable audience from this long after it was first seen. */
export const STABLE_AFTER_MS = 24 * 3_600_000

interface Pending {
  rec: EventRecord
  day: number
  hour: number
}

interface Batch {
  items: Pending[]
  resolve: () => void
  reject: (err: Error) => void
  done: Promise<void>
}

function newBatch(): Batch {
  let resolve!: () => void
  let reject!: (err: Error) => void
  const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
  done.catch(() => undefined)
  return { items: [], resolve, reject, done }
}

export class Ingest {
  private writer = new FrameWriter()
  private batch = newBatch()
  /** The batch being written, if any. */
  private writing: Batch | null = null
  private pumping = false
  private failure: Error | null = null
  /** Hits ingested since open (acknowledged). */
  ingested = 0

  constructor(
    private readonly log: EventLog,
    public columns: Columns,
    public identities: Identities,
    private readonly timeZone: () => string,
  ) {}

  /** Reads the whole log into the dictionary and the columns (at start, and for a rebuild). */
  async open(): Promise<number> {
    let events = 0
    await this.log.readAll({
      identity: (r) => this.identities.restore(r),
      event: (e) => {
        if (e.kind !== KIND.minisite && flagIvt(e.flags) !== IVT.bot) {
          this.identities.overLimit(e.identity, e.ts, e.kind === KIND.click)
          this.identities.touched(e.identity, e.kind === KIND.click, e.campaign, e.spot, e.ts)
        }
        const { day, hour } = localDayHour(this.timeZone(), e.ts)
        this.apply({ rec: e, day, hour })
        events++
      },
    })
    return events
  }

  /** Records hits; resolves once they are on stable storage and counted. */
  add(hits: readonly Hit[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure)
    if (hits.length === 0) return Promise.resolve()
    const batch = this.batch
    for (const h of hits) batch.items.push(this.record(h))
    this.pump()
    return batch.done
  }

  private record(h: Hit): Pending {
    let id = this.identities.get(h.identity)
    if (id === undefined) {
      const def = this.identities.add(h.identity, h.platform, h.ts)
      this.writer.identity(def)
      id = def.id
    }
    let ivt = h.ivt
    if (h.kind !== KIND.minisite && ivt !== IVT.bot) {
      if (this.identities.overLimit(id, h.ts, h.kind === KIND.click) && ivt === IVT.valid) ivt = IVT.abnormal
      this.identities.touched(id, h.kind === KIND.click, h.campaign, h.spot, h.ts)
    }
    const stable = h.platform === PLATFORM.mb || h.ts >= this.identities.firstSeen[id]! + STABLE_AFTER_MS
    const rec: EventRecord = {
      kind: h.kind, flags: packFlags({ ivt, stable, platform: h.platform, sdk: h.sdk }), region: h.region, campaign: h.campaign,
      spot: h.spot, keyword: h.keyword, identity: id, minisite: h.minisite ?? 0, event: h.event ?? 0, ts: h.ts,
    }
    this.writer.event(rec)
    const { day, hour } = localDayHour(this.timeZone(), h.ts)
    return { rec, day, hour }
  }

  /** One writer: each round takes everything recorded so far as one frame and one fsync. */
  private pump(): void {
    if (this.pumping) return
    this.pumping = true
    void (async () => {
      try {
        while (!this.writer.empty) {
          const frame = this.writer.take()
          const batch = (this.writing = this.batch)
          this.batch = newBatch()
          await this.log.append(frame)
          for (const p of batch.items) this.apply(p)
          this.ingested += batch.items.length
          batch.resolve()
        }
      } catch (err) {
        // Nothing that is not durable is acknowledged; the log refuses further writes.
        this.failure = err as Error
        this.writing?.reject(this.failure)
        this.batch.reject(this.failure)
      } finally {
        this.writing = null
        this.pumping = false
      }
    })()
  }

  private apply(p: Pending): void {
    const e = p.rec
    if (e.kind === KIND.minisite) {
      this.columns.partitionFor('minisite', e.minisite).add(p.day, p.hour, e.kind, e.flags, e.region, e.spot, e.keyword, e.identity, e.campaign, e.event)
    } else {
      this.columns.partitionFor('campaign', e.campaign).add(p.day, p.hour, e.kind, e.flags, e.region, e.spot, e.keyword, e.identity)
    }
  }

  /** Waits for everything recorded to be durable. */
  async flush(): Promise<void> {
    if (this.writing) await this.writing.done
    if (this.batch.items.length > 0) await this.batch.done
  }

  close(): Promise<void> {
    return this.log.close()
  }
}
