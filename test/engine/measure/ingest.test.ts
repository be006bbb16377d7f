// docs/measurement.md "Flow": attributed hits -> fsynced frames (group commit) -> in-memory columns
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Columns, type Partition } from '../../../engine/measure/columns'
import { MemoryEventLog, type EventLog } from '../../../engine/measure/event-log'
import { Identities } from '../../../engine/measure/identities'
import { ApiError } from '../../../engine/contract/errors'
import { describeProblem } from '../../../engine/contract/problems'
import { CREDIT_WINDOW_MS, GATHER_EVENTS, GATHER_MS, GATHER_TURNS, Ingest, MAX_HELD, STABLE_AFTER_MS } from '../../../engine/measure/ingest'
import { readFrames, type EventRecord, type IdentityRecord } from '../../../engine/measure/record'
import { hashText } from '../../../engine/measure/text-hash'
import { IVT, KIND, PLATFORM, SDK, flagIvt, flagOver, flagPlatform, flagSdk, flagStable, type Hit, type HitColumns, type IvtClass } from '../../../engine/measure/types'
import { localDayHour } from '../../../engine/time-zone'

const ZONE = 'Asia/Shanghai'
/** 2025-01-10 12:00 in Shanghai, on a 10-minute boundary. */
const T0 = Date.parse('2025-01-10T04:00:00Z')
const HOUR = 3_600_000

/** An event log whose appends wait until the test releases or fails them. */
class FakeEventLog extends MemoryEventLog {
  waiting: { frame: Buffer; resolve: () => void; reject: (err: Error) => void }[] = []
  closed = false

  override append(frame: Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.waiting.push({ frame: Buffer.from(frame), resolve, reject }))
  }

  /** Makes the oldest waiting append durable. */
  release(): void {
    const w = this.waiting.shift()
    if (!w) throw new Error('no append is waiting')
    this.frames.push(w.frame)
    this.appended += w.frame.length
    w.resolve()
  }

  /** Fails the oldest waiting append. */
  fail(err: Error): void {
    const w = this.waiting.shift()
    if (!w) throw new Error('no append is waiting')
    w.reject(err)
  }

  override async close(): Promise<void> {
    this.closed = true
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Calls `add(i)` on each of the next `turns` turns of the event loop, ahead of anything scheduled later. */
function everyTurn(turns: number, add: (i: number) => void): void {
  const next = (i: number) => setImmediate(() => {
    add(i)
    if (i + 1 < turns) next(i + 1)
  })
  next(0)
}

/** Lets every pending promise callback and the ingest's writer loop run (its gathering included). */
async function settle(): Promise<void> {
  for (let i = 0; i <= GATHER_TURNS + 1; i++) await turn()
}

/** Follows a promise without awaiting it. */
function track(p: Promise<unknown>): { done: boolean; error: Error | null } {
  const s = { done: false, error: null as Error | null }
  p.then(() => (s.done = true), (err: Error) => (s.error = err))
  return s
}

function hit(over: Partial<Hit> = {}): Hit {
  return { kind: KIND.impression, ts: T0, campaign: 1, spot: 10, keyword: 0, identity: 'amid:a', platform: PLATFORM.pc, sdk: SDK.none, region: 0, ivt: IVT.valid, ...over }
}

function newIngest(log: EventLog, zone = ZONE): Ingest {
  return new Ingest(log, new Columns(), new Identities(), () => zone)
}

type Rec = { identity: IdentityRecord } | { event: EventRecord }
function recordsOf(frame: Buffer): Rec[] {
  const out: Rec[] = []
  readFrames(frame, { identity: (r) => out.push({ identity: r }), event: (e) => out.push({ event: e }) })
  return out
}

/** The ivt class of each event of a partition, in order. */
const ivtOf = (p: Partition | undefined): IvtClass[] => (p ? Array.from(p.flags.subarray(0, p.n), flagIvt) : [])

/** Every column of a partition (events in order). */
function dump(p: Partition): Record<string, number[]> {
  const n = p.n
  const cols: Record<string, number[]> = {}
  for (const k of ['day', 'hour', 'kind', 'flags', 'region', 'spot', 'keyword', 'identity'] as const) cols[k] = Array.from(p[k].subarray(0, n))
  if (p.minisite) {
    cols.campaign = Array.from({ length: n }, (_, i) => p.campaign[i] ?? -1)
    cols.event = Array.from({ length: n }, (_, i) => p.event[i] ?? -1)
  }
  return cols
}

/**
 * Stops performance.now() for the rest of a test: the gathering also stops after GATHER_MS of
 * wall-clock time, which a loaded machine spends between two turns; the tests of the turns count
 * turns alone (GATHER_MS has its own test).
 */
function stopClock(): void {
  const now = performance.now()
  vi.spyOn(performance, 'now').mockReturnValue(now)
}

describe('Ingest.add', () => {
  afterEach(() => vi.restoreAllMocks())
  it('does resolve only after the append of its frame', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    const s = track(ingest.add([hit()]))
    await settle()
    expect(log.waiting).toHaveLength(1)
    expect(s.done).toBe(false)
    log.release()
    await settle()
    expect(s.done).toBe(true)
    expect(log.frames).toHaveLength(1)
  })

  it('does write the identity definition before its first event, once', async () => {
    const log = new MemoryEventLog()
    const ingest = newIngest(log)
    await ingest.add([hit({ identity: 'idfa:x', platform: PLATFORM.mb }), hit({ identity: 'idfa:x', platform: PLATFORM.mb, ts: T0 + 1 })])
    await ingest.add([hit({ identity: 'idfa:x', platform: PLATFORM.mb, ts: T0 + 2 }), hit({ identity: 'amid:y', ts: T0 + 3 })])
    expect(log.frames.map(recordsOf).map((f) => f.map((r) => ('identity' in r ? `def ${r.identity.id} ${r.identity.text}` : `ev ${r.event.identity}`)))).toEqual([
      ['def 1 idfa:x', 'ev 1', 'ev 1'],
      ['ev 1', 'def 2 amid:y', 'ev 2'],
    ])
    const def = recordsOf(log.frames[0]!)[0]!
    expect(def).toEqual({ identity: { id: 1, text: 'idfa:x', platform: PLATFORM.mb, firstSeen: T0 } })
  })

  it('does write every field of a hit into its record', async () => {
    const log = new MemoryEventLog()
    const ingest = newIngest(log)
    await ingest.add([hit({ kind: KIND.click, campaign: 7, spot: 70, keyword: 700, region: 36, platform: PLATFORM.mb, sdk: SDK.mz, ts: T0 + 1234.5 })])
    const e = recordsOf(log.frames[0]!)[1]!
    expect(e).toEqual({ event: { kind: KIND.click, flags: expect.any(Number), region: 36, campaign: 7, spot: 70, keyword: 700, identity: 1, minisite: 0, event: 0, ts: T0 + 1234.5 } })
    const flags = 'event' in e ? e.event.flags : -1
    expect([flagIvt(flags), flagStable(flags), flagPlatform(flags), flagSdk(flags)]).toEqual([IVT.valid, true, PLATFORM.mb, SDK.mz])
  })

  it('does group every add made while an append is in flight into one more frame', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    const first = track(ingest.add([hit({ identity: 'amid:1' })]))
    await settle()
    const later = [
      track(ingest.add([hit({ identity: 'amid:2' })])),
      track(ingest.add([hit({ identity: 'amid:3' }), hit({ identity: 'amid:3', ts: T0 + 1 })])),
      track(ingest.add([hit({ identity: 'amid:1', ts: T0 + 2 })])),
    ]
    await settle()
    expect(log.waiting).toHaveLength(1)
    log.release()
    await settle()
    expect(first.done).toBe(true)
    expect(later.some((s) => s.done)).toBe(false)
    expect(log.waiting).toHaveLength(1)
    const second = recordsOf(log.waiting[0]!.frame).filter((r) => 'event' in r)
    expect(second).toHaveLength(4)
    log.release()
    await settle()
    expect(later.every((s) => s.done)).toBe(true)
    expect(log.frames).toHaveLength(2)
    expect(log.waiting).toHaveLength(0)
  })

  it('does gather hits added on consecutive turns of the event loop into one frame', async () => {
    stopClock()
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    const adds: { done: boolean }[] = []
    // scheduled before the first add, so each runs ahead of the writer's turn, as requests read
    // from sockets do
    everyTurn(3, (i) => adds.push(track(ingest.add([hit({ identity: `amid:${i + 2}` })]))))
    adds.push(track(ingest.add([hit({ identity: 'amid:1' })])))
    await settle()
    expect(log.waiting).toHaveLength(1)
    expect(recordsOf(log.waiting[0]!.frame).filter((r) => 'event' in r)).toHaveLength(4)
    log.release()
    await settle()
    expect(adds).toHaveLength(4)
    expect(adds.every((s) => s.done)).toBe(true)
  })

  it('does write a lone hit after one turn, and a steady stream after GATHER_TURNS turns', async () => {
    stopClock()
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    void ingest.add([hit({ identity: 'amid:lone' })])
    expect(log.waiting).toHaveLength(0)
    await turn()
    expect(log.waiting).toHaveLength(1)
    log.release()
    await settle()
    // a hit on every turn: the frame goes out after GATHER_TURNS turns, not when the stream stops
    everyTurn(3 * GATHER_TURNS, (i) => void ingest.add([hit({ identity: `amid:s${i + 1}` })]))
    void ingest.add([hit({ identity: 'amid:s0' })])
    for (let i = 0; i < GATHER_TURNS; i++) await turn()
    expect(log.waiting).toHaveLength(1)
    expect(recordsOf(log.waiting[0]!.frame).filter((r) => 'event' in r)).toHaveLength(GATHER_TURNS + 1)
    // the rest of the stream (turns GATHER_TURNS + 1 to 3 * GATHER_TURNS) waits for that write
    await settle()
    await settle()
    log.release()
    await settle()
    expect(log.waiting).toHaveLength(1)
    expect(recordsOf(log.waiting[0]!.frame).filter((r) => 'event' in r)).toHaveLength(2 * GATHER_TURNS)
  })

  it('does stop gathering after GATHER_MS, even while every turn brings hits', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    everyTurn(GATHER_TURNS, (i) => {
      void ingest.add([hit({ identity: `amid:${i + 1}` })])
      const until = performance.now() + GATHER_MS + 0.5
      while (performance.now() < until); // a slow turn (a long report answered on the same loop)
    })
    void ingest.add([hit({ identity: 'amid:0' })])
    await settle()
    expect(recordsOf(log.waiting[0]!.frame).filter((r) => 'event' in r)).toHaveLength(2)
  })

  it('does write a frame of GATHER_EVENTS hits at once (an import piece does not wait)', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    everyTurn(2, (i) => void ingest.add([hit({ identity: `amid:late${i}` })]))
    void ingest.add(Array.from({ length: GATHER_EVENTS }, (_, i) => hit({ identity: `amid:${i % 50}`, ts: T0 + i })))
    await settle()
    expect(recordsOf(log.waiting[0]!.frame).filter((r) => 'event' in r)).toHaveLength(GATHER_EVENTS)
  })

  it('does answer a repeated media request id from addOne, also for hits that waited behind exclusive()', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.open()
    let release!: () => void
    const held = ingest.exclusive(() => new Promise<void>((resolve) => (release = resolve)))
    const first = ingest.addOne(hit({ request: 'r1' }))
    const again = ingest.addOne(hit({ request: 'r1', ts: T0 + 5 }))
    const other = ingest.addOne(hit({ request: 'r1', spot: 11, ts: T0 + 6 }))
    await settle()
    release()
    await held
    expect([await first, await again, await other]).toEqual([{ flags: expect.any(Number) }, { repeatOf: T0 }, { flags: expect.any(Number) }])
    expect(ingest.columns.events).toBe(2)
    expect(await ingest.addOne(hit({ request: 'r1', ts: T0 + 7 }))).toEqual({ repeatOf: T0 })
  })

  it('holds at most MAX_HELD calls behind exclusive() and refuses the next with 503 and Retry-After, counting the held ones after it', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.open()
    let release!: () => void
    const reading = ingest.exclusive(() => new Promise<void>((resolve) => (release = resolve)))
    const held = Array.from({ length: MAX_HELD - 1 }, (_, i) => ingest.addOne(hit({ identity: `amid:${i % 1000}`, ts: T0 + i })))
    held.push(ingest.add([hit({ identity: 'amid:last', ts: T0 + MAX_HELD })], true).then(() => ({ flags: 0 })))
    // a job's chunk (a simulation) waits apart, taking no place
    const job = ingest.add([hit({ identity: 'amid:job', ts: T0 + MAX_HELD + 1 })])
    await settle()
    const refused = await ingest.addOne(hit({ identity: 'amid:late' })).then(() => null, (err: unknown) => err)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).def.status).toBe(503)
    expect((refused as ApiError).headers['retry-after']).toBe('5')
    await expect(ingest.add([hit({ identity: 'amid:late' })], true)).rejects.toThrow(`already holds ${MAX_HELD} hits`)
    release()
    await reading
    await Promise.all(held)
    expect(await job).toBe(0)
    expect(ingest.columns.events).toBe(MAX_HELD + 1)
    // nothing waits any more: the next one is taken
    expect(await ingest.addOne(hit({ identity: 'amid:after', ts: T0 + MAX_HELD + 1 }))).toEqual({ flags: expect.any(Number) })
  })

  it("takes no media request id for a bot's hit (counted in no report): the person's own hit with that id counts", async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.open()
    const bot = await ingest.addOne(hit({ request: 'r9', ivt: IVT.bot }))
    expect(flagIvt((bot as { flags: number }).flags)).toBe(IVT.bot)
    expect(await ingest.addOne(hit({ request: 'r9', ts: T0 + 5 }))).toEqual({ flags: expect.any(Number) })
    expect(await ingest.addOne(hit({ request: 'r9', ts: T0 + 6 }))).toEqual({ repeatOf: T0 + 5 })
    expect(ingest.columns.events).toBe(2)
  })

  it('answers the class a hit was recorded with: a valid one, then abnormal beyond the limit, a data-centre one marked over it', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.open()
    const flags: number[] = []
    for (let i = 0; i < 31; i++) flags.push(((await ingest.addOne(hit({ identity: 'amid:busy', ts: T0 + i }))) as { flags: number }).flags)
    expect([flagIvt(flags[29]!), flagIvt(flags[30]!)]).toEqual([IVT.valid, IVT.abnormal])
    const dc = ((await ingest.addOne(hit({ identity: 'amid:busy', ts: T0 + 40, ivt: IVT.datacenter }))) as { flags: number }).flags
    expect([flagIvt(dc), flagOver(dc)]).toEqual([IVT.datacenter, true])
  })

  it('does put hits into the columns only once they are durable', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    void ingest.add([hit(), hit({ ts: T0 + 1 })])
    await settle()
    expect(ingest.columns.campaign(1)).toBeUndefined()
    expect(ingest.columns.events).toBe(0)
    expect(ingest.ingested).toBe(0)
    log.release()
    await settle()
    expect(ingest.columns.campaign(1)!.n).toBe(2)
    expect(ingest.ingested).toBe(2)
  })


  it('does count each round once and only its own hits, over rounds of changing size (batches are reused)', async () => {
    const log = new MemoryEventLog()
    const ingest = newIngest(log)
    const sizes = [1, 3000, 2, 1500, 1]
    let region = 0
    const expected: number[] = []
    for (const n of sizes) {
      const hits = Array.from({ length: n }, () => hit({ region: ++region % 300, identity: `amid:${region % 7}`, ts: T0 + region }))
      expected.push(...hits.map((h) => h.region))
      await ingest.add(hits)
    }
    const p = ingest.columns.campaign(1)!
    expect(p.n).toBe(expected.length)
    expect(Array.from(p.region.subarray(0, p.n))).toEqual(expected)
    expect(ingest.ingested).toBe(expected.length)
    expect(log.frames).toHaveLength(sizes.length)
  })
  it('does resolve add([]) at once, writing nothing, even while an append is in flight', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    const empty = track(ingest.add([]))
    await settle()
    expect(empty.done).toBe(true)
    expect(log.waiting).toHaveLength(0)
    void ingest.add([hit()])
    await settle()
    const again = track(ingest.add([]))
    await settle()
    expect(again.done).toBe(true)
    expect(log.waiting).toHaveLength(1)
  })

  it('does reject the add whose append fails, every add waiting behind it and every later one', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    const boom = new Error('disk full')
    const first = track(ingest.add([hit()]))
    await settle()
    const behind = track(ingest.add([hit({ identity: 'amid:b' })]))
    log.fail(boom)
    await settle()
    expect(first.error).toBe(boom)
    expect(behind.error).toBe(boom)
    const later = track(ingest.add([hit({ identity: 'amid:c' })]))
    const empty = track(ingest.add([]))
    await settle()
    expect(later.error).toBe(boom)
    expect(empty.error).toBe(boom)
    expect(log.waiting).toHaveLength(0)
    expect(ingest.columns.events).toBe(0)
    expect(ingest.ingested).toBe(0)
    // (nothing is left to wait for: every refused hit was answered)
    await expect(ingest.flush()).resolves.toBeUndefined()
  })

  it('does keep what was durable before a failure', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    const ok = track(ingest.add([hit()]))
    await settle()
    log.release()
    await settle()
    const bad = track(ingest.add([hit({ ts: T0 + 1 })]))
    await settle()
    log.fail(new Error('EIO'))
    await settle()
    expect(ok.done).toBe(true)
    expect(bad.error?.message).toBe('EIO')
    expect(ingest.columns.campaign(1)!.n).toBe(1)
  })

  it('does fill day and hour in the time zone asked at the time of the hit', async () => {
    let zone = 'Asia/Shanghai'
    const ingest = new Ingest(new MemoryEventLog(), new Columns(), new Identities(), () => zone)
    const late = Date.parse('2025-01-10T17:30:00Z') // 01:30 on the 11th in Shanghai
    await ingest.add([hit({ ts: late })])
    zone = 'UTC'
    await ingest.add([hit({ ts: late })])
    const p = ingest.columns.campaign(1)!
    const day11 = Math.floor(Date.parse('2025-01-11T00:00:00Z') / 86_400_000)
    expect([p.day[0], p.hour[0], p.day[1], p.hour[1]]).toEqual([day11, 1, day11 - 1, 17])
    expect(localDayHour('Asia/Shanghai', late)).toEqual({ day: day11, hour: 1 })
  })

  it('does keep campaigns apart', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add([hit({ campaign: 1 }), hit({ campaign: 2 }), hit({ campaign: 1, identity: 'amid:b' })])
    expect(ingest.columns.campaign(1)!.n).toBe(2)
    expect(ingest.columns.campaign(2)!.n).toBe(1)
    expect(Array.from(ingest.columns.campaign(1)!.identity.subarray(0, 2))).toEqual([1, 2])
  })
})

describe('Ingest: minisite events', () => {
  it('does put a minisite event into its minisite partition with campaign, spot and event', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add([hit({ kind: KIND.minisite, campaign: 3, spot: 30, minisite: 9, event: 4 }), hit({ kind: KIND.minisite, campaign: 0, spot: 0, minisite: 9, event: 5, identity: 'amid:b' })])
    expect(ingest.columns.campaign(3)).toBeUndefined()
    expect(ingest.columns.campaign(0)).toBeUndefined()
    const m = ingest.columns.minisite(9)!
    expect(m.minisite).toBe(true)
    expect(dump(m)).toMatchObject({ kind: [3, 3], spot: [30, 0], identity: [1, 2], campaign: [3, 0], event: [4, 5] })
  })

  it('does not count minisite events toward the frequency limit nor as a touch', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add(Array.from({ length: 40 }, (_, i) => hit({ kind: KIND.minisite, minisite: 9, event: 1, campaign: 5, spot: 50, ts: T0 + i })))
    await ingest.add(Array.from({ length: 30 }, (_, i) => hit({ ts: T0 + 100 + i })))
    expect(ivtOf(ingest.columns.minisite(9)).every((c) => c === IVT.valid)).toBe(true)
    expect(ivtOf(ingest.columns.campaign(1)).every((c) => c === IVT.valid)).toBe(true)
    expect(ingest.identities.lastTouch('amid:a', T0 + 200, HOUR, (c) => c === 5)).toBeNull()
  })

  it('does remember impressions and clicks as touches for minisite credit', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add([hit({ campaign: 1, spot: 10 }), hit({ kind: KIND.click, campaign: 2, spot: 20, ts: T0 + 1 })])
    expect(ingest.identities.lastTouch('amid:a', T0 + 2, HOUR, () => true)).toEqual({ campaign: 2, spot: 20 })
    expect(ingest.identities.lastTouch('amid:a', T0 + 2, HOUR, (c) => c === 1)).toEqual({ campaign: 1, spot: 10 })
  })
})

describe('Ingest: minisite credit', () => {
  const DAY = 86_400_000
  const linked = new Set([1, 2])
  const event = (over: Partial<Hit> = {}): Hit => hit({ kind: KIND.minisite, campaign: 0, spot: 0, minisite: 9, event: 1, credit: { linked, k: 0 }, ...over })
  /** [campaign, spot] of each event of minisite 9, in order. */
  async function credited(hits: Hit[]): Promise<number[][]> {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add(hits)
    const m = ingest.columns.minisite(9)!
    return Array.from({ length: m.n }, (_, i) => [m.campaign[i]!, m.spot[i]!])
  }

  it('does credit the latest linked click, else the latest linked impression, touched earlier in the same add', async () => {
    expect(await credited([
      hit({ identity: 'amid:a', campaign: 1, spot: 10, ts: T0 }),
      hit({ identity: 'amid:a', kind: KIND.click, campaign: 2, spot: 20, ts: T0 + 1 }),
      hit({ identity: 'amid:a', campaign: 1, spot: 11, ts: T0 + 2 }),
      event({ identity: 'amid:a', ts: T0 + 3 }),
      hit({ identity: 'amid:b', campaign: 1, spot: 10, ts: T0 }),
      hit({ identity: 'amid:b', kind: KIND.click, campaign: 3, spot: 30, ts: T0 + 1 }),
      event({ identity: 'amid:b', ts: T0 + 3 }),
      event({ identity: 'amid:c', ts: T0 + 3 }),
    ])).toEqual([[2, 20], [1, 10], [0, 0]])
  })

  it('does credit touches in arrival order: an event before the touch is not credited to it', async () => {
    expect(await credited([event({ ts: T0 + 5 }), hit({ ts: T0 }), event({ ts: T0 + 6 })])).toEqual([[0, 0], [1, 10]])
  })

  it('does not credit a touch later than the event', async () => {
    expect(await credited([hit({ ts: T0 + 10 }), event({ ts: T0 + 5 })])).toEqual([[0, 0]])
  })

  it('does credit within 30 days, inclusive', async () => {
    expect(CREDIT_WINDOW_MS).toBe(30 * DAY)
    expect(await credited([hit({ ts: T0 }), event({ ts: T0 + 30 * DAY }), event({ ts: T0 + 30 * DAY + 1 })])).toEqual([[1, 10], [0, 0]])
  })

  it('does credit only the campaign k when the tag names one, else k itself when linked', async () => {
    const touches = [hit({ campaign: 1, spot: 10, ts: T0 }), hit({ kind: KIND.click, campaign: 2, spot: 20, ts: T0 + 1 })]
    expect(await credited([...touches, event({ ts: T0 + 2, credit: { linked, k: 1 } })])).toEqual([[1, 10]])
    expect(await credited([hit({ campaign: 1, ts: T0 }), event({ ts: T0 + 2, credit: { linked, k: 2 } })])).toEqual([[2, 0]])
    expect(await credited([hit({ campaign: 3, ts: T0 }), event({ ts: T0 + 2, credit: { linked, k: 3 } })])).toEqual([[0, 0]])
  })

  it('does keep the campaign and spot of an event that brings no credit to decide', async () => {
    expect(await credited([hit({ campaign: 1, spot: 10 }), event({ campaign: 2, spot: 0, credit: undefined, ts: T0 + 1 })])).toEqual([[2, 0]])
  })

  it('does write the credited campaign and spot to the log, so that a rebuild gives the same', async () => {
    const log = new MemoryEventLog()
    const first = newIngest(log)
    await first.add([hit({ kind: KIND.click, campaign: 2, spot: 20 }), event({ ts: T0 + 1 })])
    const events = log.frames.flatMap(recordsOf).flatMap((r) => ('event' in r && r.event.kind === KIND.minisite ? [r.event] : []))
    expect(events.map((e) => [e.campaign, e.spot, e.minisite, e.event])).toEqual([[2, 20, 9, 1]])
    const second = newIngest(log)
    await second.open()
    expect(dump(second.columns.minisite(9)!)).toEqual(dump(first.columns.minisite(9)!))
  })
})

describe('Ingest.addColumns', () => {
  const linked = new Set([1, 2])
  /** Hits as import columns (a credited event: the flag, its linked campaigns asked of `linkedOf`). */
  function columnsOf(hits: Hit[]): HitColumns {
    const col = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(C: new (xs: number[]) => T, f: (h: Hit) => number) => new C(hits.map(f)) as never
    return {
      n: hits.length, kind: col(Uint8Array, (h) => h.kind), ts: col(Float64Array, (h) => h.ts), campaign: col(Uint32Array, (h) => h.campaign), spot: col(Uint32Array, (h) => h.spot),
      keyword: col(Uint32Array, (h) => h.keyword), region: col(Uint16Array, (h) => h.region), platform: col(Uint8Array, (h) => h.platform), sdk: col(Uint8Array, (h) => h.sdk),
      ivt: col(Uint8Array, (h) => h.ivt), minisite: col(Uint32Array, (h) => h.minisite ?? 0), event: col(Uint32Array, (h) => h.event ?? 0),
      credit: col(Uint8Array, (h) => (h.credit ? 1 : 0)), identity: hits.map((h) => h.identity),
    }
  }
  const hits: Hit[] = [
    hit({ identity: 'amid:a', campaign: 1, spot: 10, ts: T0, region: 5 }),
    hit({ identity: 'idfa:b', kind: KIND.click, campaign: 2, spot: 20, keyword: 7, platform: PLATFORM.mb, sdk: SDK.mm, ts: T0 + 1 }),
    ...Array.from({ length: 35 }, (_, i) => hit({ identity: 'amid:a', campaign: 1, spot: 11, ts: T0 + 2 + i })),
    hit({ identity: 'amid:c', ivt: IVT.bot, ts: T0 + 50 }),
    hit({ identity: 'amid:a', kind: KIND.minisite, campaign: 0, spot: 0, minisite: 9, event: 1, credit: { linked, k: 0 }, ts: T0 + 60 }),
    hit({ identity: 'idfa:b', kind: KIND.minisite, campaign: 2, spot: 0, minisite: 9, event: 2, ts: T0 + 61 }),
    hit({ identity: 'amid:d', kind: KIND.minisite, campaign: 0, spot: 0, minisite: 9, event: 1, credit: { linked, k: 0 }, ts: T0 + 62 }),
  ]

  it('does record rows of columns as add() records the same hits: log, identities, flags and credit', async () => {
    const [byHits, byColumns] = [new MemoryEventLog(), new MemoryEventLog()]
    const a = newIngest(byHits)
    const b = newIngest(byColumns)
    await a.add(hits.slice(0, 20))
    await a.add(hits.slice(20))
    const asked: number[] = []
    const c = columnsOf(hits)
    await b.addColumns(c, 0, 20, (m) => (asked.push(m), linked))
    await b.addColumns(c, 20, c.n, (m) => (asked.push(m), linked))
    expect(asked).toEqual([9, 9])
    expect(byColumns.frames.map(recordsOf)).toEqual(byHits.frames.map(recordsOf))
    expect(dump(b.columns.campaign(1)!)).toEqual(dump(a.columns.campaign(1)!))
    expect(dump(b.columns.minisite(9)!)).toEqual(dump(a.columns.minisite(9)!))
    // the credited event of amid:a went to its latest touch; the frequency rule saw every row
    expect(dump(b.columns.minisite(9)!).campaign).toEqual([1, 2, 0])
    expect(ivtOf(b.columns.campaign(1)).filter((x) => x === IVT.abnormal)).toHaveLength(6)
  })

  it('does find each row\'s identity whatever the rows before it read ahead: new, repeated 1 to 4 rows later, known before, and texts of one table slot', async () => {
    // texts whose hashes share the first slot of the identity index (1,024 slots when it is new):
    // reading ahead finds the other one's id there
    const slotOf = (t: string) => hashText(t) & 1023
    const same = Array.from({ length: 5000 }, (_, i) => `amid:s${i}`).filter((t, _, all) => slotOf(t) === slotOf(all[0]!)).slice(0, 3)
    expect(same).toHaveLength(3)
    const texts = ['amid:known', same[0]!, 'idfa:n1', same[1]!, 'idfa:n1', 'amid:known', 'idfa:n2', same[1]!, 'idfa:n1', same[2]!, same[0]!, 'idfa:n2', 'idfa:n2', 'amid:known']
    const rows = texts.map((identity, i) => hit({ identity, ts: T0 + i, platform: identity.startsWith('idfa:') ? PLATFORM.mb : PLATFORM.pc }))
    const [byHits, byColumns] = [new MemoryEventLog(), new MemoryEventLog()]
    const a = newIngest(byHits)
    const b = newIngest(byColumns)
    await a.add([hit({ identity: 'amid:known', ts: T0 - 1 })])
    await b.add([hit({ identity: 'amid:known', ts: T0 - 1 })])
    await a.add(rows)
    await b.addColumns(columnsOf(rows), 0, rows.length, () => linked)
    expect(byColumns.frames.map(recordsOf)).toEqual(byHits.frames.map(recordsOf))
    expect(dump(b.columns.campaign(1)!).identity).toEqual([1, ...texts.map((t) => a.identities.get(t)!)])
  })

  it('does record nothing for an empty range, and waits for the append like add()', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    await ingest.addColumns(columnsOf(hits), 3, 3, () => linked)
    expect(log.waiting).toHaveLength(0)
    const s = track(ingest.addColumns(columnsOf(hits), 0, 2, () => linked).then(() => undefined))
    await settle()
    expect(s.done).toBe(false)
    log.release()
    await settle()
    expect([s.done, ingest.columns.events]).toEqual([true, 2])
  })

  it("does hold an import's chunk behind exclusive() even when MAX_HELD hits wait: an import is not refused half-way", async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.open()
    let release!: () => void
    const reading = ingest.exclusive(() => new Promise<void>((resolve) => (release = resolve)))
    const held = Array.from({ length: MAX_HELD }, (_, i) => ingest.addOne(hit({ identity: `amid:${i % 1000}`, ts: T0 + i })))
    await settle()
    await expect(ingest.addOne(hit({ identity: 'amid:late' }))).rejects.toThrow(`already holds ${MAX_HELD} hits`)
    const chunk = ingest.addColumns(columnsOf(hits), 0, hits.length, () => linked)
    release()
    await reading
    await Promise.all(held)
    expect(await chunk).toMatchObject({ repeats: 0, full: 0 })
    expect(ingest.columns.events).toBe(MAX_HELD + hits.length)
  })
})

describe('Ingest: a full campaign or minisite (capacity)', () => {
  const small = (log: EventLog, capacity: number) => new Ingest(log, new Columns(), new Identities(), () => ZONE, undefined, capacity)
  const many = (n: number, over: Partial<Hit> = {}) => Array.from({ length: n }, (_, i) => hit({ identity: `amid:${i}`, ts: T0 + i, ...over }))

  it('does refuse a hit beyond the capacity before writing it, and keeps counting the other campaigns', async () => {
    const log = new MemoryEventLog()
    const ingest = small(log, 3)
    expect(await ingest.add(many(2))).toBe(0)
    // the third fits; in the same add() the fourth and fifth do not (the waiting hits are counted)
    expect(await ingest.add(many(3, { ts: T0 + 100 }))).toBe(2)
    const refused = await ingest.addOne(hit({ identity: 'amid:z', ts: T0 + 200 }))
    expect(refused).toEqual({ full: 'campaign 1 is full: it holds 3 events, the most one campaign can hold (docs/measurement.md)' })
    expect(await ingest.addOne(hit({ campaign: 2, identity: 'amid:z', ts: T0 + 200 }))).toHaveProperty('flags')
    expect([ingest.columns.campaign(1)!.n, ingest.columns.campaign(2)!.n]).toEqual([3, 1])
    // nothing refused is in the log: it reads back as counted, and later hits are still taken
    const events = log.frames.flatMap(recordsOf).filter((r) => 'event' in r)
    expect(events).toHaveLength(4)
    const again = small(log, 3)
    expect(await again.open()).toBe(4)
    expect(again.started.beyondFull).toBe(0)
    expect(await again.addOne(hit({ campaign: 3 }))).toHaveProperty('flags')
  })

  it('does refuse the minisite events beyond a minisite partition\'s capacity', async () => {
    const ingest = small(new MemoryEventLog(), 1)
    const event = { kind: KIND.minisite, campaign: 0, spot: 0, minisite: 9, event: 1 } as const
    expect(await ingest.add(many(2, event))).toBe(1)
    expect(ingest.columns.minisite(9)!.n).toBe(1)
    expect(await ingest.addOne(hit({ ...event, identity: 'amid:q' }))).toEqual({ full: expect.stringMatching(/^minisite 9 is full/) })
  })

  it('does answer addColumns() with the rows refused and why, once per partition', async () => {
    const ingest = small(new MemoryEventLog(), 2)
    const rows = [...many(3), ...many(3, { campaign: 2 })]
    const cols = {
      n: rows.length, kind: new Uint8Array(rows.map((h) => h.kind)), ts: new Float64Array(rows.map((h) => h.ts)), campaign: new Uint32Array(rows.map((h) => h.campaign)),
      spot: new Uint32Array(rows.length).fill(10), keyword: new Uint32Array(rows.length), region: new Uint16Array(rows.length), platform: new Uint8Array(rows.length).fill(PLATFORM.pc),
      sdk: new Uint8Array(rows.length), ivt: new Uint8Array(rows.length), minisite: new Uint32Array(rows.length), event: new Uint32Array(rows.length), credit: new Uint8Array(rows.length),
      identity: rows.map((h) => h.identity),
    } as HitColumns
    const added = await ingest.addColumns(cols, 0, cols.n, () => new Set())
    expect({ ...added, why: added.why.map(describeProblem) }).toEqual({ repeats: 0, full: 2, why: [expect.stringMatching(/^campaign 1 is full/), expect.stringMatching(/^campaign 2 is full/)] })
    expect(ingest.columns.events).toBe(4)
  })

  it('does leave out, at open, the events of a log beyond the capacity (a log written before the check) instead of failing, and their media request ids', async () => {
    const log = new MemoryEventLog()
    await small(log, 10).add(many(5).map((h, i) => ({ ...h, request: `r${i}` })))
    const reopened = small(log, 3)
    expect(await reopened.open()).toBe(3)
    expect(reopened.started.beyondFull).toBe(2)
    // the hits counted keep their ids; the two left out do not (the live path never claims them)
    expect([0, 1, 2, 3, 4].map((i) => reopened.countedAt(hit({ identity: `amid:${i}`, ts: T0 + i, request: `r${i}` })) !== undefined)).toEqual([true, true, true, false, false])
  })

  it('does count the waiting hits of each partition when a batch mixes a full campaign with others', async () => {
    const ingest = small(new MemoryEventLog(), 3)
    const mixed = Array.from({ length: 10 }, (_, i) => hit({ identity: `amid:${i}`, ts: T0 + i, campaign: 1 + (i % 2) }))
    expect(await ingest.add(mixed)).toBe(4)
    expect([ingest.columns.campaign(1)!.n, ingest.columns.campaign(2)!.n]).toEqual([3, 3])
  })
})

describe('Ingest: stable audience', () => {
  it('does mark a mobile identity stable from its first hit', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add([hit({ identity: 'idfa:m', platform: PLATFORM.mb })])
    expect(flagStable(ingest.columns.campaign(1)!.flags[0]!)).toBe(true)
  })

  it('does mark a PC identity stable from 24 hours after it was first seen', async () => {
    const ingest = newIngest(new MemoryEventLog())
    expect(STABLE_AFTER_MS).toBe(24 * HOUR)
    await ingest.add([hit({ ts: T0 }), hit({ ts: T0 + 24 * HOUR - 1 }), hit({ ts: T0 + 24 * HOUR }), hit({ ts: T0 + 30 * 24 * HOUR })])
    await ingest.add([hit({ identity: 'amid:new', ts: T0 + 24 * HOUR })])
    const p = ingest.columns.campaign(1)!
    expect(Array.from(p.flags.subarray(0, p.n), flagStable)).toEqual([false, false, true, true, false])
  })

  it('does keep the first arrival as first seen when an older hit arrives later', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add([hit({ ts: T0 + 48 * HOUR }), hit({ ts: T0 }), hit({ ts: T0 + 71 * HOUR }), hit({ ts: T0 + 72 * HOUR })])
    const p = ingest.columns.campaign(1)!
    expect(ingest.identities.firstSeenOf(1)).toBe(T0 + 48 * HOUR)
    expect(Array.from(p.flags.subarray(0, p.n), flagStable)).toEqual([false, false, false, true])
  })

  it('does judge stability by the identity, not by the platform of a later hit', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add([hit({ identity: 'amid:x', platform: PLATFORM.pc }), hit({ identity: 'amid:x', platform: PLATFORM.mb, ts: T0 + 1 })])
    const p = ingest.columns.campaign(1)!
    expect(Array.from(p.flags.subarray(0, 2), flagStable)).toEqual([false, true])
    expect(ingest.identities.platformOf(1)).toBe(PLATFORM.pc)
  })
})

describe('Ingest: abnormal frequency', () => {
  it('does mark valid impressions beyond 30 in a window abnormal', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add(Array.from({ length: 33 }, (_, i) => hit({ ts: T0 + i * 1000 })))
    const got = ivtOf(ingest.columns.campaign(1))
    expect(got.slice(0, 30).every((c) => c === IVT.valid)).toBe(true)
    expect(got.slice(30)).toEqual([IVT.abnormal, IVT.abnormal, IVT.abnormal])
  })

  it('does mark clicks beyond 5 in a window abnormal, apart from impressions', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add([...Array.from({ length: 30 }, () => hit()), ...Array.from({ length: 6 }, () => hit({ kind: KIND.click }))])
    const got = ivtOf(ingest.columns.campaign(1))
    expect(got.filter((c) => c === IVT.abnormal)).toHaveLength(1)
    expect(got.at(-1)).toBe(IVT.abnormal)
  })

  it('does count across adds, campaigns and frames, per identity, over the 10 minutes up to each hit', async () => {
    const ingest = newIngest(new MemoryEventLog())
    for (let i = 0; i < 30; i++) await ingest.add([hit({ campaign: 1 + (i % 3), ts: T0 + i })])
    // the last one: 10 minutes after the 31st, every earlier one out of its window
    await ingest.add([hit({ campaign: 4, ts: T0 + 100 }), hit({ campaign: 4, identity: 'amid:other', ts: T0 + 100 }), hit({ campaign: 4, ts: T0 + 100 + 10 * 60_000 })])
    expect(ivtOf(ingest.columns.campaign(4))).toEqual([IVT.abnormal, IVT.valid, IVT.valid])
  })

  it('does not count bot hits toward the limit, and keeps them bots', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add([...Array.from({ length: 50 }, () => hit({ ivt: IVT.bot })), ...Array.from({ length: 30 }, () => hit())])
    const got = ivtOf(ingest.columns.campaign(1))
    expect(got.slice(0, 50).every((c) => c === IVT.bot)).toBe(true)
    expect(got.slice(50).every((c) => c === IVT.valid)).toBe(true)
  })

  it('does count data-centre hits toward the limit but keep their class', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.add([...Array.from({ length: 35 }, () => hit({ ivt: IVT.datacenter })), hit()])
    const got = ivtOf(ingest.columns.campaign(1))
    expect(got.slice(0, 35).every((c) => c === IVT.datacenter)).toBe(true)
    expect(got[35]).toBe(IVT.abnormal)
  })
})

describe('Ingest.open', () => {
  async function written(): Promise<{ log: MemoryEventLog; first: Ingest }> {
    const log = new MemoryEventLog()
    const first = newIngest(log)
    await first.add([
      ...Array.from({ length: 32 }, (_, i) => hit({ ts: T0 + i })),
      hit({ kind: KIND.click, identity: 'idfa:phone', platform: PLATFORM.mb, sdk: SDK.mm, campaign: 2, spot: 20, keyword: 5, region: 36 }),
      hit({ ivt: IVT.bot, identity: 'amid:bot' }),
      hit({ identity: 'amid:a', ts: T0 + 25 * HOUR }),
    ])
    await first.add([hit({ kind: KIND.minisite, identity: 'idfa:phone', platform: PLATFORM.mb, campaign: 2, spot: 20, minisite: 9, event: 4, ts: T0 + HOUR })])
    return { log, first }
  }

  it('does rebuild the identities and the columns from the log, flags as recorded', async () => {
    const { log, first } = await written()
    const second = newIngest(log)
    expect(await second.open()).toBe(36)
    expect(second.identities.textStore.all()).toEqual(first.identities.textStore.all())
    expect([0, 1, 2, 3].map((id) => second.identities.firstSeenOf(id))).toEqual([0, 1, 2, 3].map((id) => first.identities.firstSeenOf(id)))
    expect([0, 1, 2, 3].map((id) => second.identities.platformOf(id))).toEqual([0, 1, 2, 3].map((id) => first.identities.platformOf(id)))
    for (const c of [1, 2]) expect(dump(second.columns.campaign(c)!)).toEqual(dump(first.columns.campaign(c)!))
    expect(dump(second.columns.minisite(9)!)).toEqual(dump(first.columns.minisite(9)!))
    expect(ivtOf(second.columns.campaign(1)).filter((c) => c === IVT.abnormal)).toHaveLength(2)
    expect(second.columns.events).toBe(36)
  })

  it('does keep the recorded flags when opened in another time zone, recomputing day and hour only', async () => {
    const { log, first } = await written()
    const second = newIngest(log, 'UTC')
    await second.open()
    const a = dump(first.columns.campaign(1)!)
    const b = dump(second.columns.campaign(1)!)
    expect(b.flags).toEqual(a.flags)
    expect(b.hour).toEqual(a.hour!.map((h) => (h + 24 - 8) % 24))
  })

  it('does restore the frequency counters, so the window goes on counting', async () => {
    const log = new MemoryEventLog()
    await newIngest(log).add(Array.from({ length: 30 }, (_, i) => hit({ ts: T0 + i })))
    const second = newIngest(log)
    await second.open()
    await second.add([hit({ ts: T0 + 100 }), hit({ identity: 'amid:b', ts: T0 + 100 })])
    expect(ivtOf(second.columns.campaign(1)).slice(30)).toEqual([IVT.abnormal, IVT.valid])
  })

  it('does not let restored bot hits count toward the limit', async () => {
    const log = new MemoryEventLog()
    await newIngest(log).add(Array.from({ length: 40 }, (_, i) => hit({ ivt: IVT.bot, ts: T0 + i })))
    const second = newIngest(log)
    await second.open()
    await second.add([hit({ ts: T0 + 100 })])
    expect(ivtOf(second.columns.campaign(1)).at(-1)).toBe(IVT.valid)
  })

  it('does restore the touches for minisite credit', async () => {
    const { log } = await written()
    const second = newIngest(log)
    await second.open()
    expect(second.identities.lastTouch('idfa:phone', T0 + 2 * HOUR, 30 * 24 * HOUR, () => true)).toEqual({ campaign: 2, spot: 20 })
  })

  it('does continue the identity numbering after the restored ones', async () => {
    const { log } = await written()
    const second = newIngest(log)
    await second.open()
    await second.add([hit({ identity: 'amid:fresh' }), hit({ identity: 'amid:a', ts: T0 + 26 * HOUR })])
    expect(second.identities.get('amid:fresh')).toBe(4)
    const third = newIngest(log)
    await third.open()
    expect(third.identities.textStore.all()).toEqual(second.identities.textStore.all())
    expect(dump(third.columns.campaign(1)!)).toEqual(dump(second.columns.campaign(1)!))
  })

  it('does read an empty log as no events', async () => {
    const ingest = newIngest(new MemoryEventLog())
    expect(await ingest.open()).toBe(0)
    expect(ingest.identities.size).toBe(1)
  })
})

describe('Ingest.flush and close', () => {
  it('does resolve at once when nothing is pending', async () => {
    const ingest = newIngest(new FakeEventLog())
    const f = track(ingest.flush())
    await settle()
    expect(f.done).toBe(true)
  })

  it('does wait for the append in flight', async () => {
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    void ingest.add([hit()])
    await settle()
    const f = track(ingest.flush())
    await settle()
    expect(f.done).toBe(false)
    log.release()
    await settle()
    expect(f.done).toBe(true)
    expect(ingest.columns.campaign(1)!.n).toBe(1)
  })

  it('does wait for hits recorded behind the append in flight', async () => {
    // flush() resolves only once the batch queued behind the append in flight is written, though
    // the writer loop has already swapped it for an empty one
    const log = new FakeEventLog()
    const ingest = newIngest(log)
    void ingest.add([hit()])
    await settle()
    const behind = track(ingest.add([hit({ identity: 'amid:b' })]))
    const f = track(ingest.flush())
    log.release()
    await settle()
    expect(behind.done).toBe(false)
    expect(f.done).toBe(false)
    log.release()
    await settle()
    expect(behind.done).toBe(true)
    expect(f.done).toBe(true)
  })

  it('does close the log', async () => {
    const log = new FakeEventLog()
    await newIngest(log).close()
    expect(log.closed).toBe(true)
  })
})

describe('Ingest: devices (docs/attribution.md, "Devices")', () => {
  const phone = (over: Partial<Hit> = {}) => hit({ identity: 'idfa:a', platform: PLATFORM.mb, ...over })

  it('does write a new linked id and the link before the event, and records the event under the device root', async () => {
    const log = new MemoryEventLog()
    const ingest = newIngest(log)
    await ingest.add([phone({ links: ['caid:b'] }), phone({ identity: 'caid:b', ts: T0 + 1 })])
    const seen: string[] = []
    for (const f of log.frames) readFrames(f, { identity: (r) => seen.push(`identity ${r.id} ${r.text}`), link: (a, b) => seen.push(`link ${a} ${b}`), event: (e) => seen.push(`event ${e.identity}`) })
    expect(seen).toEqual(['identity 1 idfa:a', 'identity 2 caid:b', 'link 1 2', 'event 1', 'event 1'])
    expect(ingest.identities.rootOf(2)).toBe(1)
  })

  it('does link neither cookies nor address identities with device ids, and an address identity with its legacy text only when known', async () => {
    const ingest = newIngest(new MemoryEventLog())
    const ipua = 'ipua:0123456789abcdef0123456789abcdef'
    await ingest.add([
      hit({ identity: 'amid:0123456789abcdef0123456789abcdef', links: ['idfa:x'] }),
      phone({ links: ['amid:0123456789abcdef0123456789abcdef', 'ipua:ffffffffffffffffffffffffffffffff'] }),
      hit({ identity: ipua, legacy: 'amid:99999999999999999999999999999999' }),
    ])
    const ids = ingest.identities
    expect(ids.get('idfa:x')).toBeUndefined()
    expect(ids.get('ipua:ffffffffffffffffffffffffffffffff')).toBeUndefined()
    expect(ids.get('amid:99999999999999999999999999999999')).toBeUndefined()
    expect(ids.linked).toBe(false)
    await ingest.add([hit({ identity: 'amid:legacy0000000000000000000000000' }), hit({ identity: 'ipua:11111111111111111111111111111111', legacy: 'amid:legacy0000000000000000000000000' })])
    expect(ids.rootOf(ids.get('ipua:11111111111111111111111111111111')!)).toBe(ids.get('amid:legacy0000000000000000000000000'))
  })

  it('does count a merged device once in a census after the merge, and the same after a replay and from a checkpoint', async () => {
    const log = new MemoryEventLog()
    const ingest = newIngest(log)
    await ingest.add([phone({ identity: 'idfa:p' }), phone({ identity: 'caid:q', ts: T0 + 1 }), phone({ identity: 'idfa:r', ts: T0 + 2 })])
    const part = ingest.columns.campaign(1)!
    const runs = (p: Partition) => {
      const out: number[] = []
      p.visitByIdentity(ingest.identities.size, (_e, count, id) => out.push(id, count))
      return out
    }
    expect(runs(part)).toEqual([1, 1, 2, 1, 3, 1])
    const generation = part.generation
    await ingest.add([phone({ identity: 'caid:q', links: ['idfa:p'], ts: T0 + 3 })])
    expect(part.generation).toBeGreaterThan(generation)
    expect(runs(part)).toEqual([1, 3, 3, 1])
    const replay = newIngest(log)
    await replay.open(false)
    expect(runs(replay.columns.campaign(1)!)).toEqual([1, 3, 3, 1])
    await ingest.checkpoint(false)
    const started = newIngest(log)
    await started.open()
    expect(started.started.from).toBe('checkpoint')
    expect(runs(started.columns.campaign(1)!)).toEqual([1, 3, 3, 1])
  })

  it('does keep a relabel pending through a checkpoint saved before the next report', async () => {
    const log = new MemoryEventLog()
    const ingest = newIngest(log)
    await ingest.add([phone({ identity: 'idfa:p' }), phone({ identity: 'caid:q', ts: T0 + 1 }), phone({ identity: 'caid:q', links: ['idfa:p'], ts: T0 + 2 })])
    expect(ingest.columns.campaign(1)!.relabelPending).toBe(true)
    await ingest.checkpoint(false)
    const started = newIngest(log)
    await started.open()
    const p = started.columns.campaign(1)!
    expect(p.relabelPending).toBe(true)
    const ids: number[] = []
    p.visitByIdentity(started.identities.size, (_e, count, id) => ids.push(id, count))
    expect(ids).toEqual([1, 3])
  })
})

describe('Ingest: minisite credit only from counted touches (metrics.md)', () => {
  const event = (over: Partial<Hit> = {}) => hit({ kind: KIND.minisite, campaign: 0, spot: 0, minisite: 9, event: 1, ts: T0 + 60_000, credit: { linked: new Set([1]), k: 0 }, ...over })
  const credited = (ingest: Ingest) => {
    const p = ingest.columns.minisite(9)!
    return Array.from({ length: p.n }, (_, i) => p.spot[i]!)
  }

  it('does credit a data-centre impression only on a spot that counts data-centre hits, and never a bot\'s or an abnormal one', async () => {
    const ingest = new Ingest(new MemoryEventLog(), new Columns(), new Identities(), () => ZONE, undefined, undefined, (spot) => spot === 20)
    await ingest.add([
      hit({ identity: 'amid:dc-filtered', ivt: IVT.datacenter, spot: 10 }), event({ identity: 'amid:dc-filtered' }),
      hit({ identity: 'amid:dc-counted', ivt: IVT.datacenter, spot: 20 }), event({ identity: 'amid:dc-counted' }),
      hit({ identity: 'amid:bot', ivt: IVT.bot }), event({ identity: 'amid:bot' }),
      hit({ identity: 'amid:valid' }), event({ identity: 'amid:valid' }),
    ])
    expect(credited(ingest)).toEqual([0, 20, 0, 10])
    // the 31st impression within 10 minutes is abnormal: the event is credited to the 30th's spot
    const burst = newIngest(new MemoryEventLog())
    await burst.add([...Array.from({ length: 30 }, (_, i) => hit({ ts: T0 + i })), hit({ ts: T0 + 40, spot: 11 }), event()])
    expect(credited(burst)).toEqual([10])
  })
})
