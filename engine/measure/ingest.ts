/**
 * Ingest: attributed hits become raw records (identity definitions first), written to the event
 * log in groups with one fsync each, then added to the in-memory columns. `add()` resolves when
 * its hits are durable and counted, so an acknowledged hit survives a crash and is counted once.
 */
import { E, refuse } from '../contract/errors'
import { describeProblem, problem, type Problem } from '../contract/problems'
import { decodeCheckpoint, encodeTaken, takeCheckpoint, type MeasureState } from './checkpoint'
import { Columns, MAX_EVENTS, type Partition } from './columns'
import type { EventLog } from './event-log'
import type { LogExtent } from './log-extent'
import { ID_KIND, Identities, MAX_DEVICE_IDS, kindOfText, type Merge } from './identities'
import { FRAME_HEADER, FrameWriter, LINK_BYTES, readFrames, type EventRecord, type IdentityRecord, type RecordVisitor } from './record'
import { RequestIds, requestKey } from './request-ids'
import { ensure } from './grow'
import { hashText } from './text-hash'
import { IVT, KIND, PLATFORM, flagIvt, flagOver, packFlags, type Hit, type HitColumns, type IvtClass, type Kind, type PlatformCode, type SdkCode } from './types'
import { nextTurn } from '../clock'
import { localDayHour, zoneOffset } from '../time-zone'

/** A PC identity belongs to the stable audience from this long after it was first seen. */
export const STABLE_AFTER_MS = 24 * 3_600_000
/** How long after a click or impression a minisite event is credited to it (inclusive). */
export const CREDIT_WINDOW_MS = 30 * 86_400_000

/**
 * The checkpoint the state stands on (the one read at open or saved last): how far the log
 * reached, and each partition's events and generation then (a campaign's id, a minisite's as its
 * negative). What is kept beside it (reports/census-store.ts) is tied to it.
 */
export interface CheckpointBase {
  extent: LogExtent
  parts: Map<number, { n: number; generation: number }>
}

/** The partition of a key of Ingest's partitions (a campaign's id, a minisite's as its negative). */
export type PartitionOf = (key: number) => Partition | undefined

/**
 * What is kept beside each checkpoint (the reports' kept censuses): `take` runs while the
 * checkpoint's state is taken (no hit is recorded), before its partitions are sorted, with the
 * checkpoint the state stands on so far; `drop` runs before the checkpoint is replaced, `write`
 * once it is saved (or at a close that saves none).
 */
export interface BesideCheckpoint {
  take(current: CheckpointBase | null, parts: PartitionOf): { drop(): Promise<void>; write(base: CheckpointBase, parts: PartitionOf): Promise<void> }
}

/**
 * Hits recorded but not yet durable, as columns (no object per hit: imports bring millions).
 * They are added to the partitions once their frame is on stable storage.
 */
class Batch {
  n = 0
  day = new Uint16Array(1024)
  hour = new Uint8Array(1024)
  kind = new Uint8Array(1024)
  flags = new Uint8Array(1024)
  region = new Uint16Array(1024)
  campaign = new Uint32Array(1024)
  spot = new Uint32Array(1024)
  keyword = new Uint32Array(1024)
  identity = new Uint32Array(1024)
  minisite = new Uint32Array(1024)
  event = new Uint32Array(1024)
  /** Hits by partition: a campaign's id, a minisite's as its negative (Ingest.isFull). */
  private perPartition = new Map<number, number>()
  resolve!: () => void
  reject!: (err: Error) => void
  done!: Promise<void>

  constructor() {
    this.reset()
  }

  /** Empties the batch for reuse; its arrays stay. */
  reset(): this {
    this.n = 0
    this.perPartition.clear()
    this.done = new Promise<void>((res, rej) => ((this.resolve = res), (this.reject = rej)))
    this.done.catch(() => undefined)
    return this
  }

  /**
   * How many of the batch's hits go to the minisite (`site`) or campaign partition `id` (counted
   * as they are pushed: scanning the batch for each hit of a full campaign would make an import
   * chunk that mixes it with other campaigns quadratic, 4.8 s for 50,000 rows, measured).
   */
  countFor(site: boolean, id: number): number {
    return this.perPartition.get(site ? -id : id) ?? 0
  }

  push(day: number, hour: number, kind: number, flags: number, region: number, campaign: number, spot: number, keyword: number, identity: number, minisite: number, event: number): void {
    const i = this.n++
    if (i >= this.day.length) {
      const n = this.n
      this.day = ensure(this.day, n)
      this.hour = ensure(this.hour, n)
      this.kind = ensure(this.kind, n)
      this.flags = ensure(this.flags, n)
      this.region = ensure(this.region, n)
      this.campaign = ensure(this.campaign, n)
      this.spot = ensure(this.spot, n)
      this.keyword = ensure(this.keyword, n)
      this.identity = ensure(this.identity, n)
      this.minisite = ensure(this.minisite, n)
      this.event = ensure(this.event, n)
    }
    this.day[i] = day
    this.hour[i] = hour
    this.kind[i] = kind
    this.flags[i] = flags
    this.region[i] = region
    this.campaign[i] = campaign
    this.spot[i] = spot
    this.keyword[i] = keyword
    this.identity[i] = identity
    this.minisite[i] = minisite
    this.event[i] = event
    const key = kind === KIND.minisite ? -minisite : campaign
    this.perPartition.set(key, (this.perPartition.get(key) ?? 0) + 1)
  }

  /** The minisites the batch's hits go to. */
  *minisites(): Generator<number> {
    for (const key of this.perPartition.keys()) if (key < 0) yield -key
  }
}

const DAY_MS = 86_400_000
/**
 * A checkpoint is saved once this many events have been counted since the last one, or half the
 * events the last one held when that is more (and at close): a checkpoint costs time in
 * proportion to everything held, so a fixed spacing would, at 50 million events, spend more time
 * saving checkpoints than counting; with the spacing growing, the cost per event stays bounded
 * and a start after a crash replays at most a third of the events.
 */
export const CHECKPOINT_EVERY = 2_000_000
/**
 * At close, events counted since the last checkpoint up to which the next start replays them rather
 * than the close saving the whole state again (when no partition is left for its first report to
 * sort): replaying 250,000 events takes about 0.15 s, where a checkpoint at 10 million events took
 * 1-1.5 s on a quiet machine and, at 8 million, 4.5-15 s in a soak test on a busy one, every time
 * the app quit after a few hits.
 */
export const CLOSE_REPLAY = 250_000
/**
 * Tracking hits (addOne(), add(…, true)) that may wait behind exclusive() at once; more are refused
 * with 503 and Retry-After. A job's chunks (an import, a simulation, the demo) wait apart: one at a
 * time per job, and a refusal half-way would leave the job part done. A start reads its log
 * while the server listens (seconds at millions of events; a soak test measured 12-28 s after a
 * crash on a busy machine), and a busy tracking server gets thousands of hits a second: held
 * without bound, they would fill memory (each holds its request and socket: about 8 KB, measured).
 */
export const MAX_HELD = 50_000
/** A written batch is kept for the next round up to this size (an import chunk); a larger one is let go. */
const SPARE_MAX = 32_768
/**
 * Gathering a frame (group commit, as databases delay a commit while others are coming): the
 * writer lets the event loop turn while each turn still brings hits, at most this many turns and
 * this long, and only while the frame is smaller than GATHER_EVENTS (an import's pieces are
 * written at once). A lone hit waits one turn; hits arriving together share one synchronised write.
 */
export const GATHER_TURNS = 8
export const GATHER_MS = 2
export const GATHER_EVENTS = 512
/**
 * After an append the disk refused, hits and imports are refused at once (507) for this long; the
 * first one after it tries a probe append (heal()): trying at every hit would cost a failed write
 * each on a disk that stays full.
 */
export const HEAL_EVERY_MS = 2_000
/**
 * The probe a heal appends: a frame of links of id 0 (the empty text, no identity) with itself,
 * which every reader of the log takes as nothing, of about a page, so that a disk with room for
 * less is not taken as healed (each heal after a failed batch reads the log again).
 */
const PROBE_FRAME = ((w) => {
  for (let n = 0; FRAME_HEADER + (n + 1) * LINK_BYTES <= 4096; n++) w.link(0, 0)
  return w.take()
})(new FrameWriter())

/** The key of a hit's media request id, or '' when it has none (minisite events never do). */
/** record()'s answer for a hit whose partition is full (MAX_EVENTS): not recorded. */
const FULL: unique symbol = Symbol('full')


/** What addColumns() did with its rows besides recording them. */
export interface ColumnsAdded {
  /** Rows left out as repeats of a counted media request id. */
  repeats: number
  /** Rows refused because their campaign or minisite is full. */
  full: number
  /** Why, once per full partition (fullProblem). */
  why: Problem[]
}

const requestKeyOf = (kind: Kind, campaign: number, spot: number, keyword: number, request: string): string =>
  request === '' || kind === KIND.minisite ? '' : requestKey(kind, campaign, spot, keyword, request)

export class Ingest {
  private writer = new FrameWriter()
  private batch = new Batch()
  /** The batch being written, if any. */
  private writing: Batch | null = null
  /**
   * The last batch written and acknowledged, kept for the next round: allocating a batch's
   * arrays every round cost more than the round itself at one hit per round.
   */
  private spare: Batch | null = null
  private pumping = false
  /** While set, add() waits for it (exclusive()). */
  private gate: Promise<void> | null = null
  /** Why hits are refused (refusal()). */
  private failure: Error | null = null

  /** Why the log takes no hits now (an append the disk refused, until a heal; a log that could not be read), else null. */
  get refused(): Error | null {
    return this.failure
  }
  /**
   * After an append the disk refused: from when a hit or an import may try a heal (HEAL_EVERY_MS);
   * null when none is tried (no failure, or a log that could not be read at open: refuse()).
   */
  private retryAt: number | null = null
  /** Memory holds what records the disk refused changed (identities, links, frequency times, media request ids): heal() reads the log again. */
  private stale = false
  /** The heal under way, if any (heal()). */
  private healing: Promise<void> | null = null
  /**
   * Told as soon as a heal that reads the state again from the log is due, with the heal
   * (Measurement: reports wait for it from then on, and then drop what they kept of the old state).
   */
  onReread: (healing: Promise<void>) => void = () => undefined
  /** Hits ingested since open (acknowledged). */
  ingested = 0
  /**
   * Where the last open started from, how many events it read from the log itself, and how many of
   * those it left out because their partition was full (only a log of an earlier version, which
   * wrote such a hit before refusing it, can hold any).
   */
  started: { from: 'checkpoint' | 'log'; replayed: number; beyondFull: number } = { from: 'log', replayed: 0, beyondFull: 0 }
  /** Events counted when the last checkpoint was saved or loaded (-1: none). */
  private saved = -1
  /**
   * How many events of each partition (a campaign's id, a minisite's as its negative) that checkpoint held in identity order: a
   * start from it has the rest to sort (closingCheckpoint), whatever was sorted in memory since.
   */
  private savedSorted = new Map<number, number>()
  private saving: Promise<boolean> = Promise.resolve(false)
  /**
   * Set while a checkpoint the writer asked for is waiting or being saved: one at a time. (Were
   * each round to ask for another while one is being saved, they would run back to back: a
   * 10M-event import would save 32 checkpoints instead of 5, a third of its main thread.)
   */
  private autoSave: Promise<boolean> | null = null
  /** Events counted when the writer last asked for a checkpoint (a failed one is not retried every round). */
  private asked = 0
  /** Media request ids counted within their window (request-ids.ts). */
  requests = new RequestIds()
  /** Why the last checkpoint could not be saved, if it could not. */
  checkpointError: Error | null = null
  /** The checkpoint the state stands on, null when it was read from the log alone. */
  base: CheckpointBase | null = null
  /** What is kept beside each checkpoint, if anything. */
  beside: BesideCheckpoint | null = null
  /** The flags of the hit record() recorded last (read by addOne before anything else is recorded). */
  private lastFlags = 0
  /** addColumns' identity hashes of its rows, and what it read ahead of their lookups (warmAhead). */
  private ahead = { hashes: new Int32Array(1024), ids: new Int32Array(1024), starts: new Int32Array(4), sink: 0 }
  /** Calls waiting behind exclusive() (held()). */
  private waiting = 0
  /** While a rebuild reads the log: every frame written, in order, for it to replay (rebuild()). */
  private tee: Buffer[] | null = null

  constructor(
    private readonly log: EventLog,
    public columns: Columns,
    public identities: Identities,
    private readonly timeZone: () => string,
    /** A checkpoint is saved once this many events have been counted since the last one (CHECKPOINT_EVERY). */
    private readonly checkpointEvery = CHECKPOINT_EVERY,
    /** The most events a campaign's or a minisite's partition takes (MAX_EVENTS; tests lower it). */
    readonly capacity = MAX_EVENTS,
    /**
     * Whether a spot counts data-centre hits (dangerous_source_filtration=0): such a hit earns
     * minisite credit there when within the frequency limit (metrics.md), elsewhere none.
     */
    private readonly countsDataCentres: (spot: number) => boolean = () => false,
    /** Milliseconds, for the pace of heals (HEAL_EVERY_MS): the engine's clock. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A new, empty ingest of the same log and settings, for a state read beside this one (rebuild(), heal()). */
  private blank(): Ingest {
    return new Ingest(this.log, new Columns(), new Identities(), this.timeZone, this.checkpointEvery, this.capacity, this.countsDataCentres, this.now)
  }

  /** Takes the state `fresh` read in place of this one's (rebuild(), heal()). */
  private adopt(fresh: Ingest, started: Ingest['started']): void {
    this.columns = fresh.columns
    this.identities = fresh.identities
    this.requests = fresh.requests
    this.started = started
    this.saved = fresh.saved
    this.savedSorted = fresh.savedSorted
    this.base = fresh.base
    this.asked = 0
  }

  /** Why a hit of a full partition is not counted (the tracking answer, the jobs' message). */
  fullMessage(site: boolean, id: number): string {
    return describeProblem(this.fullProblem(site, id))
  }

  /** The problem of fullMessage. */
  fullProblem(site: boolean, id: number): Problem {
    return problem(site ? 'measure.fullMinisite' : 'measure.fullCampaign', { id, capacity: this.capacity.toLocaleString('en-US') })
  }

  /**
   * Reads the log into the dictionary and the columns: the checkpoint and the frames written after
   * it, or (without a usable checkpoint, and for a rebuild) every frame, or the frames within
   * `until` (a rebuild's, which reads while hits are appended). Returns the events held.
   */
  async open(useCheckpoint = true, until?: LogExtent): Promise<number> {
    const cp = useCheckpoint ? await this.usableCheckpoint() : null
    if (cp) {
      this.identities = cp.identities
      this.columns = cp.columns
      this.requests = cp.requests
      this.saved = cp.columns.events
      this.savedSorted = this.sortedCounts()
    }
    this.base = cp ? this.baseOf(cp.extent) : null
    const r = this.reader()
    await this.log.readAll(r.visit, cp?.extent, until)
    this.started = { from: cp ? 'checkpoint' : 'log', replayed: r.events, beyondFull: r.beyondFull }
    return this.columns.events
  }

  /**
   * A visitor that counts the records of the log into this state, as a start reads them, with how
   * many events it counted and how many it left out because their partition was full.
   */
  private reader(): { visit: RecordVisitor; events: number; beyondFull: number } {
    let last: EventRecord | null = null
    const r = {
      events: 0,
      beyondFull: 0,
      visit: {
        identity: (id: IdentityRecord) => this.identities.restore(id),
        link: (a: number, b: number) => {
          const m = this.identities.link(a, b)
          if (m) this.merged(m)
        },
        request: (id: string) => {
          // (a log of an earlier version holds the ids of bots' hits too: they take none)
          if (last && flagIvt(last.flags) !== IVT.bot) this.requests.add(requestKey(last.kind, last.campaign, last.spot, last.keyword, id), last.ts)
        },
        event: (e: EventRecord) => {
          if (this.columns.size(e.kind === KIND.minisite ? 'minisite' : 'campaign', e.kind === KIND.minisite ? e.minisite : e.campaign) >= this.capacity) {
            // (left out, its media request id too: the live path refuses such a hit before claiming it)
            last = null
            r.beyondFull++
            return
          }
          last = e
          this.identities.noteEvent(e.identity)
          const ivt = flagIvt(e.flags)
          if (e.kind !== KIND.minisite && ivt !== IVT.bot) {
            // (the class is the one recorded: the rule's state is brought along, its answer is in the flags)
            this.identities.overLimit(e.identity, e.ts, e.kind === KIND.click)
            this.touch(e.identity, e.kind === KIND.click, ivt, flagOver(e.flags), e.campaign, e.spot, e.ts)
          }
          const { day, hour } = localDayHour(this.timeZone(), e.ts)
          this.apply(day, hour, e.kind, e.flags, e.region, e.campaign, e.spot, e.keyword, e.identity, e.minisite, e.event)
          r.events++
        },
      },
    }
    return r
  }

  /** The saved checkpoint when it is whole, of this time zone, and the log still holds what it lists. */
  private async usableCheckpoint(): Promise<MeasureState | null> {
    let cp: MeasureState | null = null
    try {
      cp = await this.log.readCheckpoint(decodeCheckpoint)
    } catch {
      return null
    }
    if (!cp || cp.timeZone !== this.timeZone() || !(await this.log.holds(cp.extent))) return null
    return cp
  }

  /**
   * Saves a checkpoint of the state when events were counted since the last one. The state is
   * taken while no hit is being recorded (exclusive), written after. Never throws: the checkpoint
   * is derived data, and a start without it replays the log. `sort` puts every partition in
   * identity order first (at close and after a rebuild), so that a start from the checkpoint has
   * nothing to sort; the checkpoints saved while hits arrive keep each partition's unsorted tail
   * as it is (a report sorts it when it is long, and a start after a crash from such a checkpoint
   * sorts it at its first report): sorting ten million events at each of an import's checkpoints
   * would take 7% of its main thread.
   */
  checkpoint(sort = true): Promise<boolean> {
    this.saving = this.saving.then(async () => {
      if (this.failure || this.columns.events === this.saved) return false
      try {
        const taken = await this.exclusive(async () => {
          // (after an append the disk refused, memory holds what the refused records changed until a heal)
          if (this.failure) return null
          // (before the sort: what is kept of the events as they are numbered now)
          const beside = this.beside?.take(this.base, this.partitionOf) ?? null
          if (sort) for (const map of [this.columns.campaigns, this.columns.minisites]) for (const p of map.values()) p.settle(this.identities.size, true)
          const extent = this.log.extent()
          return {
            state: takeCheckpoint({ timeZone: this.timeZone(), extent, identities: this.identities, columns: this.columns, requests: this.requests }),
            events: this.columns.events,
            sorted: this.sortedCounts(),
            base: this.baseOf(extent),
            beside,
          }
        })
        if (!taken) return false
        const { state, events, sorted, base, beside } = taken
        await beside?.drop()
        // (encoded once hits are recorded again: what it reads no hit changes, checkpoint.ts TakenState)
        await this.log.saveCheckpoint(await encodeTaken(state))
        this.saved = events
        this.savedSorted = sorted
        this.base = base
        this.checkpointError = null
        await beside?.write(base, this.partitionOf)
        return true
      } catch (err) {
        this.checkpointError = err as Error
        return false
      }
    })
    return this.saving
  }

  /**
   * The checkpoint at close: none when the last one is at most CLOSE_REPLAY events behind and a
   * start from it would have no partition with a tail its first report sorts (the next start
   * replays those events after it, as after a crash); else saved, every partition sorted
   * (checkpoint()).
   */
  closingCheckpoint(): Promise<boolean> {
    const few = this.saved >= 0 && this.columns.events - this.saved <= CLOSE_REPLAY
    // (the tails a start from the saved checkpoint would have: what it held sorted, not what was sorted in memory since)
    const sorts = () => [...this.partitions()].some(([key, p]) => p.longTail(this.savedSorted.get(key) ?? 0))
    if (few && !sorts()) return Promise.resolve(false)
    return this.checkpoint()
  }

  /**
   * At a close that saves no checkpoint: writes what is kept beside the one the state stands on
   * (the events counted since it are replayed by the next start, in the same order).
   */
  besideAtClose(): Promise<boolean> {
    this.saving = this.saving.then(async () => {
      const base = this.base
      if (this.failure || !base || !this.beside) return false
      await this.exclusive(async () => this.beside?.take(base, this.partitionOf)).then((t) => t?.write(base, this.partitionOf))
      return true
    })
    return this.saving
  }

  /** The partition of a key of partitions(). */
  private readonly partitionOf: PartitionOf = (key) => (key < 0 ? this.columns.minisites.get(-key) : this.columns.campaigns.get(key))

  /** The checkpoint base of the state now, with the log's extent `extent`. */
  private baseOf(extent: LogExtent): CheckpointBase {
    return { extent, parts: new Map([...this.partitions()].map(([key, p]) => [key, { n: p.n, generation: p.generation }])) }
  }

  /** Every partition, keyed by a campaign's id, a minisite's as its negative (as Batch counts them). */
  private *partitions(): Generator<[number, Partition]> {
    for (const [id, p] of this.columns.campaigns) yield [id, p]
    for (const [id, p] of this.columns.minisites) yield [-id, p]
  }

  /** How many events of each partition are in identity order now. */
  private sortedCounts(): Map<number, number> {
    return new Map([...this.partitions()].map(([key, p]) => [key, p.sortedCount]))
  }

  /**
   * Derives the state again from every frame (a rebuild) while hits go on being counted: the frames
   * up to where the log ends as it starts are read into a new state without holding the ingest;
   * the frames written meanwhile are kept as they are written, replayed on the new state while
   * hits wait (exclusive(): a replay of what came during the reading, milliseconds), and the new
   * state takes the old one's place. The same records in the same order make the same state, so
   * a hit decided on the old state is recorded as the new one has it. Both states are held until
   * then. Returns the events held.
   */
  async rebuild(): Promise<number> {
    const written: Buffer[] = []
    const upTo = await this.exclusive(async () => {
      this.tee = written
      return this.log.extent()
    })
    try {
      const fresh = this.blank()
      await fresh.open(false, upTo)
      // (sorted while hits are counted on the old state: the checkpoint after a rebuild then has
      // only the frames written meanwhile to keep unsorted, rather than every event to sort at once)
      for (const p of fresh.columns.campaigns.values()) await p.sortInTurns(fresh.identities.size)
      for (const p of fresh.columns.minisites.values()) await p.sortInTurns(fresh.identities.size)
      return await this.exclusive(async () => {
        const r = fresh.reader()
        for (const frame of written) readFrames(frame, r.visit)
        this.adopt(fresh, { from: 'log', replayed: fresh.started.replayed + r.events, beyondFull: fresh.started.beyondFull + r.beyondFull })
        return this.columns.events
      })
    } finally {
      this.tee = null
    }
  }

  /**
   * Records hits; resolves once they are on stable storage and counted (repeats of a counted media
   * request id left out), with how many were refused because their campaign or minisite is full.
   * `tracking`: a tracking request's hit, which takes a place among the MAX_HELD that may wait
   * behind exclusive(); a job's chunk (a simulation, the demo) waits apart, as an import's does.
   */
  add(hits: readonly Hit[], tracking = false): Promise<number> {
    const refused = this.refusal()
    if (refused) return Promise.reject(refused)
    if (hits.length === 0) return Promise.resolve(0)
    if (this.gate) return this.held(tracking).then(() => this.add(hits, tracking))
    const batch = this.batch
    let full = 0
    for (const h of hits) if (this.recordHit(batch, h) === FULL) full++
    // every hit a repeat of a counted media request id, or refused: nothing to write, nothing to wait for
    if (batch.n === 0) return Promise.resolve(full)
    this.pump()
    return batch.done.then(() => full)
  }

  /**
   * add() of one hit (a tracking request): resolves once it is durable and counted with the flags
   * it was recorded with (its class decided), or at once with when the hit it repeats was counted
   * (its media request id; nothing recorded), or with why it was refused (its campaign is full).
   */
  async addOne(h: Hit): Promise<{ flags: number } | { repeatOf: number } | { full: string }> {
    while (this.failure || this.gate) {
      const refused = this.refusal()
      if (refused) throw refused
      if (this.gate) await this.held()
    }
    const batch = this.batch
    const repeatOf = this.recordHit(batch, h)
    if (repeatOf === FULL) return { full: this.fullMessage(h.kind === KIND.minisite, h.kind === KIND.minisite ? h.minisite ?? 0 : h.campaign) }
    if (repeatOf !== undefined) return { repeatOf }
    const flags = this.lastFlags
    this.pump()
    await batch.done
    return { flags }
  }

  /** When a hit with the same media request id was counted, within REQUEST_WINDOW_MS of this one; undefined when this one counts. */
  countedAt(h: Hit): number | undefined {
    const key = h.ivt === IVT.bot ? '' : requestKeyOf(h.kind, h.campaign, h.spot, h.keyword, h.request ?? '')
    return key === '' ? undefined : this.requests.countedAt(key, h.ts)
  }

  private recordHit(batch: Batch, h: Hit): number | typeof FULL | undefined {
    return this.record(batch, h.kind, h.ts, h.campaign, h.spot, h.keyword, h.identity, h.platform, h.sdk, h.region, h.ivt, h.minisite ?? 0, h.event ?? 0, h.credit, h.request ?? '', h.links, h.legacy)
  }

  /**
   * add() for rows [from, to) of hit columns (an import: no object per hit). A credited row's
   * linked campaigns are `linked(minisite)`. Resolves, once the rows are durable, with how many
   * were left out as repeats of a counted media request id, and the rows refused because their
   * campaign or minisite is full, with why (one message per partition).
   */
  addColumns(h: HitColumns, from: number, to: number, linked: (minisite: number) => ReadonlySet<number>): Promise<ColumnsAdded> {
    const refused = this.refusal()
    if (refused) return Promise.reject(refused)
    const added: ColumnsAdded = { repeats: 0, full: 0, why: [] }
    if (to <= from) return Promise.resolve(added)
    // (an import's chunks wait without a place among MAX_HELD, MAX_HELD says why)
    if (this.gate) return this.held(false).then(() => this.addColumns(h, from, to, linked))
    const batch = this.batch
    const hashes = this.hashRows(h, from, to)
    for (let i = from; i < to; i++) {
      this.warmAhead(i - from, to - from)
      const credit = h.credit[i] === 1 ? { linked: linked(h.minisite[i]!), k: h.campaign[i]! } : undefined
      const r = this.record(batch, h.kind[i] as Kind, h.ts[i]!, h.campaign[i]!, h.spot[i]!, h.keyword[i]!, h.identity[i]!, h.platform[i] as PlatformCode, h.sdk[i] as SdkCode, h.region[i]!, h.ivt[i]!, h.minisite[i]!, h.event[i]!, credit, h.request?.[i] ?? '',
        h.links?.[i], h.legacy?.[i], hashes[i - from])
      if (r === FULL) {
        added.full++
        const site = h.kind[i] === KIND.minisite
        const why = this.fullProblem(site, site ? h.minisite[i]! : h.campaign[i]!)
        if (!added.why.some((w) => w.key === why.key && w.args.id === why.args.id)) added.why.push(why)
      } else if (r !== undefined) added.repeats++
    }
    if (batch.n === 0) return Promise.resolve(added)
    this.pump()
    return batch.done.then(() => added)
  }

  /** The hashText of the identity of each of rows [from, to), by row - from. */
  private hashRows(h: HitColumns, from: number, to: number): Int32Array {
    const a = this.ahead
    a.hashes = ensure(a.hashes, to - from)
    a.ids = ensure(a.ids, to - from)
    for (let i = from; i < to; i++) a.hashes[i - from] = hashText(h.identity[i]!)
    return a.hashes
  }

  /**
   * Reads ahead of row `k`'s identity lookup what the lookups of the next rows will read, one step
   * of each a row (an identity dictionary of a million texts is far larger than the cache, and a
   * lookup reads its table slot, then where text id starts, then its bytes, each waiting for the
   * one before, about 0.45 us): row k + 3's slot, row k + 2's start, row k + 1's first byte. Each row's own
   * lookup then finds them in the cache; the reads of three rows wait together, not in turn.
   */
  private warmAhead(k: number, n: number): void {
    const a = this.ahead
    const ids = this.identities
    if (k + 3 < n) a.ids[k + 3] = ids.peek(a.hashes[k + 3]!)
    const texts = ids.textStore
    if (k + 2 < n) a.starts[(k + 2) & 3] = a.ids[k + 2] === 0 ? -1 : texts.start(a.ids[k + 2]!)
    if (k + 1 < n && a.starts[(k + 1) & 3]! >= 0) a.sink ^= texts.byteAt(a.starts[(k + 1) & 3]!)
  }

  /**
   * Whether the partition a hit goes to has no room for it (`capacity`), counting the hits recorded
   * and not yet added to it (the batches count them by partition; asked only when that close).
   */
  private isFull(kind: Kind, campaign: number, minisite: number): boolean {
    const site = kind === KIND.minisite
    const id = site ? minisite : campaign
    const held = this.columns.size(site ? 'minisite' : 'campaign', id)
    if (held >= this.capacity) return true
    if (held + this.batch.n + (this.writing?.n ?? 0) < this.capacity) return false
    return held + this.batch.countFor(site, id) + (this.writing?.countFor(site, id) ?? 0) >= this.capacity
  }

  /**
   * One hit (the fields of a Hit; minisite and event 0 when not a minisite event; request '' when
   * the tag carried no media request id). Undefined when recorded; a repeat of a counted media
   * request id is left out, answering when that one was counted; a hit whose campaign or minisite
   * is full is refused (FULL) before anything is written. The event is recorded under the root of
   * its identity's device, after the hit's links are made (linkHit). `hash`: the identity's
   * hashText when the caller has it (addColumns, which hashes its rows ahead).
   */
  private record(batch: Batch, kind: Kind, ts: number, hitCampaign: number, hitSpot: number, keyword: number, identity: string, platform: PlatformCode, sdk: SdkCode,
    region: number, hitIvt: number, minisite: number, event: number, credit: Hit['credit'], request: string,
    links: readonly string[] | undefined, legacy: string | undefined, hash?: number): number | typeof FULL | undefined {
    if (this.isFull(kind, hitCampaign, minisite)) return FULL
    // (remembered now: a repeat in the same batch is left out too; nothing fails from here on.
    // A bot's hit, counted in no report, takes no id: a link scanner fetching a tag first must
    // not have the person's own impression left out as its repeat)
    const requested = hitIvt === IVT.bot ? '' : requestKeyOf(kind, hitCampaign, hitSpot, keyword, request)
    const repeatOf = requested === '' ? undefined : this.requests.claim(requested, ts)
    if (repeatOf !== undefined) return repeatOf
    const ids = this.identities
    let own = ids.get(identity, hash)
    if (own === undefined) {
      const def = ids.add(identity, platform, ts)
      this.writer.identity(def)
      own = def.id
    }
    // the device: most hits carry one id and are past this in one read of its record
    const id = links === undefined && legacy === undefined ? ids.rootOf(own) : this.linkHit(own, links, legacy, platform, ts)
    ids.noteEvent(id)
    let ivt = hitIvt
    let over = false
    if (kind !== KIND.minisite && ivt !== IVT.bot) {
      over = ids.overLimit(id, ts, kind === KIND.click)
      if (over && ivt === IVT.valid) ivt = IVT.abnormal
      this.touch(id, kind === KIND.click, ivt, over, hitCampaign, hitSpot, ts)
    }
    let campaign = hitCampaign
    let spot = hitSpot
    if (kind === KIND.minisite && credit) {
      const { linked, k } = credit
      const c = ids.creditOf(id, ts, CREDIT_WINDOW_MS, (x) => linked.has(x) && (!k || x === k))
      ;({ campaign, spot } = c ?? (k && linked.has(k) ? { campaign: k, spot: 0 } : { campaign: 0, spot: 0 }))
    }
    const stable = platform === PLATFORM.mb || ts >= ids.firstSeenOf(id) + STABLE_AFTER_MS
    const flags = (this.lastFlags = packFlags({ ivt: ivt as IvtClass, stable, platform, sdk, over }))
    this.writer.eventFields(kind, flags, region, campaign, spot, keyword, id, minisite, event, ts)
    if (requested !== '') this.writer.request(request)
    const local = ts + zoneOffset(this.timeZone(), ts)
    const day = Math.floor(local / DAY_MS)
    batch.push(day, Math.floor((local - day * DAY_MS) / 3_600_000), kind, flags, region, campaign, spot, keyword, id, minisite, event)
    return undefined
  }

  /**
   * An impression's or click's touch: a minisite event is credited only to one that counts in its
   * spot's net figures (metrics.md): valid and within the frequency limit, or a data-centre hit
   * within it on a spot that counts data-centre hits. Any other is noted for relabels (Identities.noteUncounted).
   */
  private touch(id: number, click: boolean, ivt: number, over: boolean, campaign: number, spot: number, ts: number): void {
    const counts = ivt === IVT.valid || (ivt === IVT.datacenter && !over && this.countsDataCentres(spot))
    if (counts) this.identities.touched(id, click, campaign, spot, ts)
    else this.identities.noteUncounted(id, campaign)
  }

  /**
   * Links the ids that arrived with a hit's identity `own` (docs/attribution.md, "Devices"):
   * its `links` (other device ids: a text not yet known becomes an id of the device, when the
   * device has room) and its `legacy` text (when already known). Each link made is written to the
   * log before the event. Returns the device's root.
   */
  private linkHit(own: number, links: readonly string[] | undefined, legacy: string | undefined, platform: PlatformCode, ts: number): number {
    const ids = this.identities
    if (legacy !== undefined) {
      const old = ids.get(legacy)
      if (old !== undefined && ids.linkable(own, old, true)) this.linkIds(own, old)
    }
    if (links !== undefined && (ids.kindOf(own) & (ID_KIND.address | ID_KIND.cookie)) === 0) {
      for (const text of links) {
        let other = ids.get(text)
        if (other === undefined) {
          // (a text that cannot join is not kept: it counts alone when it arrives as a hit's identity)
          if (text === '' || kindOfText(text) !== 0 || ids.membersOf(ids.rootOf(own)).length >= MAX_DEVICE_IDS) continue
          const def = ids.add(text, platform, ts)
          this.writer.identity(def)
          other = def.id
        } else if (!ids.linkable(own, other, false)) continue
        this.linkIds(own, other)
      }
    }
    return ids.rootOf(own)
  }

  private linkIds(a: number, b: number): void {
    const m = this.identities.link(a, b)
    if (!m) return
    this.writer.link(a, b)
    this.merged(m)
  }

  /**
   * After a merge of a device that had events: the partitions holding them (its campaigns, every
   * minisite and those of the hits on their way) rewrite their identities before the next report
   * pass (Partition.markRelabel), so that the device is counted once.
   */
  private merged(m: Merge): void {
    if (!m.campaigns) return
    const ids = this.identities
    for (const c of m.campaigns) this.columns.markRelabel('campaign', c, ids)
    const sites = new Set(this.columns.minisites.keys())
    for (const b of [this.batch, this.writing]) for (const site of b?.minisites() ?? []) sites.add(site)
    for (const site of sites) this.columns.markRelabel('minisite', site, ids)
  }

  /**
   * One writer: each round gathers what is being recorded (gather()), then writes it as one
   * frame with one synchronised write.
   */
  private pump(): void {
    if (this.pumping) return
    this.pumping = true
    void this.rounds()
  }

  /**
   * Lets the event loop turn while each turn adds hits to the waiting batch (GATHER_TURNS,
   * GATHER_MS, GATHER_EVENTS). At 50 connections a frame holds 24-37 hits this way, against 16-17
   * when written at once: the synchronised write, about 120 us of CPU, is shared by twice as many.
   */
  private async gather(): Promise<void> {
    const until = performance.now() + GATHER_MS
    for (let turns = 0, seen = -1; turns < GATHER_TURNS && this.batch.n > seen && this.batch.n < GATHER_EVENTS && performance.now() < until; turns++) {
      seen = this.batch.n
      await nextTurn()
    }
  }

  private async rounds(): Promise<void> {
    try {
      while (!this.writer.empty) {
        await this.gather()
        const frame = this.writer.take()
        const batch = (this.writing = this.batch)
        this.batch = this.spare?.reset() ?? new Batch()
        this.spare = null
        await this.log.append(frame)
        this.tee?.push(frame)
        this.applyBatch(batch)
        // (its hits are in the partitions now: isFull() must not count them twice)
        this.writing = null
        this.ingested += batch.n
        batch.resolve()
        if (batch.day.length <= SPARE_MAX) this.spare = batch
        const last = Math.max(this.saved, this.asked)
        if (!this.autoSave && this.columns.events - last >= Math.max(this.checkpointEvery, Math.floor(last / 2))) {
          this.asked = this.columns.events
          this.autoSave = this.checkpoint(false).finally(() => (this.autoSave = null))
        }
      }
    } catch (err) {
      // Nothing that is not durable is acknowledged: the batch written and the one waiting are
      // refused, and so is every hit until a heal; their records are dropped, and what they
      // changed in memory is read again from the log.
      this.failed(err as Error)
      this.writing?.reject(err as Error)
      this.batch.reject(err as Error)
      this.batch = new Batch()
      this.writer = new FrameWriter()
      this.spare = null
      this.stale = true
      void this.heal(false)
    } finally {
      this.writing = null
      this.pumping = false
    }
  }

  private apply(day: number, hour: number, kind: number, flags: number, region: number, campaign: number, spot: number, keyword: number, identity: number, minisite: number, event: number): void {
    if (kind === KIND.minisite) this.columns.partitionFor('minisite', minisite).add(day, hour, kind, flags, region, spot, keyword, identity, campaign, event)
    else this.columns.partitionFor('campaign', campaign).add(day, hour, kind, flags, region, spot, keyword, identity)
  }

  private applyBatch(b: Batch): void {
    for (let i = 0; i < b.n; i++) this.apply(b.day[i]!, b.hour[i]!, b.kind[i]!, b.flags[i]!, b.region[i]!, b.campaign[i]!, b.spot[i]!, b.keyword[i]!, b.identity[i]!, b.minisite[i]!, b.event[i]!)
  }

  /** Waits for everything recorded to be durable. */
  async flush(): Promise<void> {
    // Take the waiting batch's promise first: the writer may pick it up while we wait for the one
    // in flight, and a batch is reused once acknowledged.
    const pending = this.batch.n > 0 ? this.batch.done : null
    if (this.writing) await this.writing.done
    if (pending) await pending
  }

  /** Refuses every further hit with `err` (the log could not be read at open: counting on top of nothing would be wrong). */
  refuse(err: Error): void {
    this.failure ??= err
    this.retryAt = null
  }

  /** Refuses hits with `err`, the first try of a heal HEAL_EVERY_MS from now. */
  private failed(err: Error): void {
    this.failure = err
    this.retryAt = this.now() + HEAL_EVERY_MS
  }

  /**
   * Why a hit or an import is refused now, or null. Once HEAL_EVERY_MS have passed after an
   * append the disk refused, the first one starts a heal, which holds the ingest (exclusive()):
   * the caller waits for it behind the gate and asks again.
   */
  private refusal(): Error | null {
    if (this.failure === null) return null
    if (this.retryAt === null || this.now() < this.retryAt) return this.failure
    void this.heal(true)
    return null
  }

  /**
   * After an append the disk refused, while hits wait (exclusive()): when memory holds what the
   * refused records changed, the state is read again from the log (the checkpoint and the frames
   * after it, as a start reads it), so that it holds exactly what is durable (a refused hit's
   * identity, links, frequency times and media request id are gone); then, with `probe`, a probe
   * frame is appended, and once the disk takes it hits are taken again. A failure keeps them
   * refused, the next try HEAL_EVERY_MS later.
   */
  private heal(probe: boolean): Promise<void> {
    if (this.healing) return this.healing
    const healing: Promise<void> = this.exclusive(async () => {
      try {
        if (this.stale) await this.reread()
        if (!probe) return
        await this.log.append(PROBE_FRAME)
        this.tee?.push(PROBE_FRAME)
        this.failure = null
        this.retryAt = null
      } catch (err) {
        this.failed(err as Error)
      } finally {
        // (before the gate opens: a hit let through then starts the next heal, if one is due)
        if (this.healing === healing) this.healing = null
      }
    }).catch((err: Error) => {
      // (exclusive() failed before the heal ran: what was waiting could not be written)
      this.failed(err)
      if (this.healing === healing) this.healing = null
    })
    this.healing = healing
    // (at once: a report must not read the refused records while the heal waits for its turn)
    if (this.stale) this.onReread(healing)
    return healing
  }

  /** The state read again from the log, in place of this one (heal()). */
  private async reread(): Promise<void> {
    const fresh = this.blank()
    await fresh.open()
    this.adopt(fresh, fresh.started)
    this.stale = false
  }

  /** Resolves once no exclusive() holds the ingest; refuses (503) when MAX_HELD `counted` calls wait already. */
  private async held(counted = true): Promise<void> {
    if (!counted) {
      while (this.gate) await this.gate
      return
    }
    if (this.waiting >= MAX_HELD) {
      throw refuse(E.temporarilyUnavailable, 'measure.busy', { max: MAX_HELD }, { 'retry-after': '5' })
    }
    this.waiting++
    try {
      while (this.gate) await this.gate
    } finally {
      this.waiting--
    }
  }

  /** Holds every add() until `work` is done (a rebuild must not see new hits half-way). */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const previous = this.gate
    this.gate = gate
    try {
      await previous
      // (a failure of what was waiting, an append the disk refused, opens the gate too)
      await this.flush()
      return await work()
    } finally {
      if (this.gate === gate) this.gate = null
      release()
    }
  }

  close(): Promise<void> {
    return this.log.close()
  }
}
