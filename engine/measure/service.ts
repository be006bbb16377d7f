/**
 * The measurement service of an engine: the event log, the ingest, the in-memory columns and the
 * panels (reports/service.ts makes the view of them that report builders read).
 */
import { E, refuse, type ApiError } from '../contract/errors'
import type { Db } from '../storage/db'
import { refusesWrites, storageRefusal } from '../storage/refusal'
import { regionTable } from '../reference/region-table'
import { Columns } from './columns'
import type { EventLog } from './event-log'
import { Identities } from './identities'
import { Ingest } from './ingest'
import { panelCacheOf } from './panel/index'
import { KeptPanels } from './panel/kept'
import { reportPanel } from './panel/synthetic'
import type { PanelIndex } from './panel/types'
import { Attributor, identityKeyOf } from './attribute'
import { CookieChecks } from './cookie-check'
import type { Clock } from '../clock'
import type { Logger } from '../logger'
import { systemRandom, type Random } from '../random'
import { TrackingLookup } from './lookup'
import { Jobs, type Job } from './jobs'

/** The persons of a panel's identities: of each id's device (`map`) and of its own text (`own`), for ids below `filled`; `merges` as Identities had it. */
interface PersonMap {
  map: Int32Array
  own: Int32Array
  filled: number
  merges: number
}

export class Measurement {
  readonly ingest: Ingest
  /** Job ids go on from the last one the data directory gave (meta `last_job_id`). */
  readonly jobs = new Jobs(() => {
    const id = Number(this.db.meta('last_job_id') ?? 0) + 1
    this.db.tx(() => this.db.setMeta('last_job_id', String(id)))
    return id
  })
  /** Waits for the database writes of the request that runs so far (engine/index.ts: the persister's); a refused one rejects. */
  ownWritesDurable: () => Promise<void> = () => Promise.resolve()
  /** identity -> person of each panel, filled for identities below `filled` (personOf). */
  private persons = new WeakMap<PanelIndex, PersonMap>()
  private attributorInstance: Attributor | null = null
  private lookupInstance: TrackingLookup | null = null
  /** Events read from the log at the last open or rebuild. */
  loaded = 0
  private generation = 0
  /** Told each time the state is replaced by one read from the log (reports drop what they kept of the old one). */
  private readonly replacedListeners: (() => void)[] = []

  /** The data directory, named in the refusal of the event log's writes (refusal). */
  location = ''

  /** The 507 refusal of hits while the disk refuses the event log's writes (a full disk, until a heal), else null. */
  get refusal(): ApiError | null {
    const err = this.ingest.refused
    return err !== null && refusesWrites(err) ? storageRefusal(err, this.location) : null
  }

  /** Changes with every event counted and every rebuild (report caches key on it). */
  get version(): string {
    return `${this.generation}:${this.columns.events}`
  }

  constructor(
    private readonly log: EventLog,
    private readonly db: Db,
    timeZone: () => string,
    /** The engine's clock (the pace of the ingest's heals after a full disk). */
    clock?: Clock,
  ) {
    // (a data-centre hit earns minisite credit only where its spot counts data-centre hits: metrics.md)
    this.ingest = new Ingest(log, new Columns(), new Identities(), timeZone, undefined, undefined, (spot) => this.lookup().spot(spot)?.filtersDataCentres === false,
      clock ? () => clock.now() : undefined)
    // (a start's first report takes the panel it reads from what the last close kept)
    panelCacheOf(db).keeper = this.keptPanels = KeptPanels.of(log)
    // (after a full disk: reports wait for the state read again, as for a rebuild's)
    this.ingest.onReread = (healing) => void this.whileRead(() => healing.then(() => this.replaced())).catch(() => undefined)
  }

  get columns(): Columns {
    return this.ingest.columns
  }

  get identities(): Identities {
    return this.ingest.identities
  }

  /**
   * Attribution of tracking hits (its IP database is loaded on the first hit), with the data
   * directory's identity key (meta `identity_key`, made from `random` when there is none yet).
   */
  attributor(random: Random = systemRandom): Attributor {
    this.attributorInstance ??= new Attributor(undefined, { identityKey: identityKeyOf(this.db, random) })
    return this.attributorInstance
  }

  /** The data directory's key of address identities (import workers build their own Attributor with it). */
  identityKey(random: Random = systemRandom): Uint8Array {
    return identityKeyOf(this.db, random)
  }

  private checks: CookieChecks | null = null

  /** First contacts waiting for their cookie check (cookie-check.ts), counted through the ingest on expiry; made on first use. */
  cookieChecks(clock: Clock, log: Logger): CookieChecks {
    this.checks ??= new CookieChecks({
      now: () => clock.now(), failed: (err) => log.error('First contacts whose cookie check expired could not be counted', err), count: (hits) => this.ingest.add(hits),
    })
    return this.checks
  }

  /** Spot and minisite facts for tracking hits, cached until the next database write. */
  lookup(): TrackingLookup {
    this.lookupInstance ??= new TrackingLookup(this.db)
    return this.lookupInstance
  }

  /**
   * Reads the log: the checkpoint and the frames written after it. Resolves once it is read; the
   * engine may answer meanwhile (createEngine's `openInBackground`): the reading is done as a
   * rebuild's, hits wait for it (Ingest.exclusive), and reports and the status wait for it
   * (settled()). A log that cannot be read leaves no measurement: hits are refused and reports
   * answer why, rather than figures of an empty state.
   */
  open(): Promise<void> {
    return this.reading(async () => {
      try {
        this.loaded = await this.ingest.open()
      } catch (err) {
        this.unreadable = err as Error
        // (a 503 naming the cause: as a 500 each hit logged the same error again)
        this.ingest.refuse(this.unreadableError())
        throw err
      }
    })
  }

  /**
   * Derives everything again from the raw events (same numbers; after a panel import too). Hits go
   * on being counted meanwhile (Ingest.rebuild); reports wait for the end (settled()).
   */
  async rebuild(): Promise<number> {
    const n = await this.whileRead(async () => {
      this.loaded = await this.ingest.rebuild()
      this.replaced()
      return this.loaded
    })
    // (its partitions are sorted but for the frames written while it read: no sort while hits wait)
    await this.ingest.checkpoint(false)
    return n
  }

  /** After the ingest's state was replaced by one read from the log: what was kept of the old one is dropped. */
  private replaced(): void {
    this.generation++
    this.persons = new WeakMap()
    for (const listener of this.replacedListeners) listener()
    // (the first new hit would build the new dictionary's text index in one piece)
    void this.identities.indexInTurns()
  }

  /** The reading of the log at open or in a rebuild (the columns then hold part of it), if one runs. */
  private read: Promise<void> | null = null
  /** Why the log could not be read at open, if it could not. */
  private unreadable: Error | null = null

  /** Runs `work`, which reads the log, while no hit is recorded, and makes settled() wait for it. */
  private reading<T>(work: () => Promise<T>): Promise<T> {
    return this.whileRead(() => this.ingest.exclusive(work))
  }

  /** Runs `work`, which changes the state the reports read, and makes settled() wait for it. */
  private whileRead<T>(work: () => Promise<T>): Promise<T> {
    const reading = work()
    // (a reading that overlaps another, a heal's and a rebuild's, ends with both)
    const earlier = this.read
    const done = reading.then(() => earlier ?? undefined, () => earlier ?? undefined)
    this.read = done
    void done.then(() => { if (this.read === done) this.read = null })
    return reading
  }

  /**
   * Resolves once nothing is reading the log (the engine's start, a rebuild): reports wait for it
   * (dispatch), since half-way the columns hold only the events read so far: a report answered
   * then would show 0, then part of the figures, then the figures again. Throws when the log
   * could not be read at open.
   */
  async settled(): Promise<void> {
    while (this.read) await this.read
    if (this.unreadable) throw this.unreadableError()
  }

  private unreadableError(): ApiError {
    return refuse(E.temporarilyUnavailable, 'events.unreadable', { detail: `${this.unreadable?.message}` })
  }

  /**
   * A job (an import, a simulation) whose id is on disk before its work starts: when the disk
   * refuses the id's write, the job is forgotten and the refusal thrown, so that no event is
   * counted for a request answered 507 (docs/storage.md, "A full disk").
   */
  async startJob(kind: Job['kind'], now: number, total = 0): Promise<Job> {
    const job = this.jobs.start(kind, now, total)
    try {
      await this.ownWritesDurable()
    } catch (err) {
      this.jobs.forget(job)
      throw err
    }
    return job
  }

  /** The panel reports read: stored persons, else a built-in panel's synthetic population, else null (panel/synthetic.ts). */
  panel(panelId: string): PanelIndex | null {
    return reportPanel(this.db, panelId, regionTable())
  }

  /**
   * identity -> person of a panel (-1: none), extended as identities are added. Every id of a
   * device (docs/attribution.md, "Devices") maps to the person owning any of its texts (the lowest
   * person index when several do). It is filled in place while its capacity lasts, which doubles:
   * the panel kernel's copy of the panel persons' events (reports/persons.ts) is kept per array, so
   * a new identity must not make a new array; a link that gives ids mapped before another person
   * makes one.
   */
  personOf(panel: PanelIndex): Int32Array {
    const ids = this.identities
    let p = this.persons.get(panel)
    // (a first map over many identities: each device of the panel looked up by its text, rather
    // than every identity's text looked up among the panel's devices)
    if (!p && ids.indexed && ids.size > panel.personOfDevice.size * 4) return this.devicePersons(panel, this.ownPersons(panel), ids.size).map
    const kept = p?.map
    if (p && p.merges !== ids.merges) p = this.devicePersons(panel, p.own, p.filled)
    if (!p || p.map.length < ids.size) {
      const cap = Math.max(ids.size, 1024, (p?.map.length ?? 0) * 2)
      const map = new Int32Array(cap).fill(-1)
      const own = new Int32Array(cap).fill(-1)
      if (p) (map.set(p.map.subarray(0, p.filled)), own.set(p.own.subarray(0, p.filled)))
      p = { map, own, filled: p?.filled ?? 1, merges: ids.merges }
      this.persons.set(panel, p)
    }
    // ids below `handed` are mapped in an array reports may hold: changed only in a new array
    let handed = p.map === kept ? p.filled : 0
    for (let id = p.filled; id < ids.size; id++) {
      const person = (p.own[id] = panel.personOfDevice.get(ids.text(id)) ?? -1)
      const root = ids.rootOf(id)
      if (root === id) {
        p.map[id] = person
        continue
      }
      const was = p.map[root]!
      if (person < 0 || (was >= 0 && was <= person)) {
        p.map[id] = was
        continue
      }
      // the device's person changes: in place only when none of its ids was handed out mapped
      if (root < handed) {
        p = this.devicePersons(panel, p.own, id + 1)
        handed = 0
        continue
      }
      for (const m of ids.membersOf(root)) if (m <= id) p.map[m] = person
    }
    p.filled = Math.max(p.filled, ids.size)
    return p.map
  }

  /** The person owning each identity's own text (-1: none), for every identity: the panel's devices looked up by text. */
  private ownPersons(panel: PanelIndex): Int32Array {
    const ids = this.identities
    const own = new Int32Array(Math.max(ids.size, 1024)).fill(-1)
    for (const [text, person] of panel.personOfDevice) {
      const id = ids.get(text)
      if (id !== undefined) own[id] = person
    }
    return own
  }

  /** A new map of the persons of ids [1, filled) from their own persons (`own`), every device's ids taking its lowest. */
  private devicePersons(panel: PanelIndex, own: Int32Array, filled: number): PersonMap {
    const ids = this.identities
    const map = new Int32Array(own.length).fill(-1)
    map.set(own.subarray(0, filled))
    if (ids.linked) {
      for (let id = 1; id < filled; id++) {
        const root = ids.rootOf(id)
        const person = own[id]!
        if (root !== id && root < filled && person >= 0 && (map[root]! < 0 || person < map[root]!)) map[root] = person
      }
      for (let id = 1; id < filled; id++) {
        const root = ids.rootOf(id)
        if (root !== id && root < filled) map[id] = map[root]!
      }
    }
    const p = { map, own, filled, merges: ids.merges }
    this.persons.set(panel, p)
    return p
  }

  /** Calls `listener` each time the state is replaced by one read from the log (a rebuild, a heal after a full disk). */
  onReplaced(listener: () => void): void {
    this.replacedListeners.push(listener)
  }

  /** Event log bytes written since start. */
  logBytes(): number {
    return this.log.appended
  }

  /** The event log (what is kept beside its checkpoint lives with it: reports/census-store.ts). */
  get eventLog(): EventLog {
    return this.log
  }

  /**
   * Waits for every hit to be durable, saves a checkpoint when one is worth it (for a fast next
   * start; Ingest.closingCheckpoint), else what is kept beside the last one, and closes the log.
   */
  close(): Promise<void> {
    const pending = this.checks?.close() ?? Promise.resolve()
    return pending.then(() => this.ingest.flush()).then(() => this.ingest.closingCheckpoint())
      .then((saved) => saved || this.ingest.besideAtClose()).then(() => this.keepPanels()).then(() => this.log.close())
  }

  /** The panels kept for the next start (panel/kept.ts). */
  private readonly keptPanels: KeptPanels

  /**
   * Writes the panels loaded since the start for the next one, when one was read from the database
   * (a start that took every panel it read from the file leaves the file as it is). A failure to
   * write costs the next start the reading only.
   */
  private async keepPanels(): Promise<void> {
    const cache = panelCacheOf(this.db)
    // (the file goes with a token the database keeps: a database that refuses writes keeps none)
    if (!cache.readSinceStart || this.db.refused) return
    await this.keptPanels.write(this.db, cache.current(this.db), systemRandom).catch(() => undefined)
  }
}
