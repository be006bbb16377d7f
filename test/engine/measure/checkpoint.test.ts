// docs/measurement.md "Start": the checkpoint of the derived state, and when it is (not) used
import { mkdtemp, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { crc32 } from 'node:zlib'
import { getHeapStatistics } from 'node:v8'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { bytesReader, decodeCheckpoint, encodeCheckpoint } from '../../../engine/measure/checkpoint'
import { Columns, Partition, type PartitionArrays } from '../../../engine/measure/columns'
import { FileEventLog, MemoryEventLog, type EventLog } from '../../../engine/measure/event-log'
import { Identities } from '../../../engine/measure/identities'
import { CLOSE_REPLAY, Ingest } from '../../../engine/measure/ingest'
import { IVT, KIND, PLATFORM, SDK, type Hit } from '../../../engine/measure/types'
import { prng } from '../../helpers/prng'

const ZONE = 'Asia/Shanghai'
const T0 = Date.parse('2025-01-10T04:00:00Z')
const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

/**
 * Seeded hits over two campaigns and a minisite, with identities that repeat and odd texts, and
 * media request ids (with `repeats`, some repeated: those are left out, so fewer events than hits).
 */
function hits(seed: number, n: number, from = T0, repeats = false): Hit[] {
  const rnd = prng(seed)
  const texts = ['idfa:a', 'oaid:牛奶', 'amid:x\u0000y', 'amid:😀', ...Array.from({ length: 40 }, (_, i) => `imei:${seed}-${i}`)]
  return Array.from({ length: n }, (_, i) => {
    const kind = rnd() < 0.1 ? KIND.minisite : rnd() < 0.2 ? KIND.click : KIND.impression
    const campaign = 1 + Math.floor(rnd() * 2)
    return {
      kind, ts: from + i * 7_000 + Math.floor(rnd() * 3_600_000), campaign, spot: 10 + Math.floor(rnd() * 3), keyword: 0,
      identity: texts[Math.floor(rnd() * texts.length)]!, platform: rnd() < 0.5 ? PLATFORM.pc : PLATFORM.mb, sdk: SDK.none,
      region: Math.floor(rnd() * 30), ivt: rnd() < 0.05 ? IVT.bot : IVT.valid,
      ...(kind === KIND.minisite ? { minisite: 3, event: 1 + Math.floor(rnd() * 2), credit: { linked: new Set([1, 2]), k: 0 } } : {}),
      // media request ids, some repeated (a repeat within a day is left out), odd texts too
      ...(kind !== KIND.minisite && rnd() < 0.4 ? { request: rnd() < 0.05 ? `req 牛奶\u0000${repeats ? '' : `${seed}-${i}`}` : repeats && rnd() < 0.05 ? `req-${seed}-again` : `req-${seed}-${i}` } : {}),
    }
  })
}

const newIngest = (log: EventLog, zone = ZONE) => new Ingest(log, new Columns(), new Identities(), () => zone)

/**
 * Everything an ingest holds, as plain data to compare. Partition columns are compared in identity
 * order (a stable sort, which is what a compaction does): a checkpoint saves them sorted, a replay
 * holds them in arrival order, and both are the same events.
 */
/**
 * Phones sending 1-3 of 12 ids a hit (links in `linkShare` of them: merges, a relabel pending), in
 * bursts within minutes (slots of recent times), over `campaigns` campaigns from 1.
 */
function phones(seed: number, n: number, from: number, linkShare = 0.15, campaigns = 2): Hit[] {
  const rnd = prng(seed)
  const ids = Array.from({ length: 12 }, (_, i) => (i % 2 ? `caid:${i}` : `idfa:${i}`))
  return Array.from({ length: n }, (_, i) => {
    const own = ids[Math.floor(rnd() * ids.length)]!
    const links = rnd() < linkShare ? [ids[Math.floor(rnd() * ids.length)]!, ...(rnd() < 0.3 ? [`idfv:${seed}-${i}`] : [])] : undefined
    return { kind: rnd() < 0.2 ? KIND.click : KIND.impression, ts: from + i * 2_000, campaign: 1 + (i % campaigns), spot: 10, keyword: 0, identity: own, ...(links ? { links } : {}),
      platform: PLATFORM.mb, sdk: SDK.none, region: 0, ivt: rnd() < 0.1 ? IVT.datacenter : IVT.valid }
  })
}

function stateOf(i: Ingest): unknown {
  const part = (p: Partition) => {
    const { sorted: _sorted, relabel: _relabel, ...columns } = p.arrays()
    const order = Array.from(columns.identity.keys()).sort((x, y) => columns.identity[x]! - columns.identity[y]! || x - y)
    return { n: p.n, ...Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, v.length === 0 ? [] : order.map((x) => v[x]!)])) }
  }
  return {
    texts: i.identities.textStore.all(),
    identities: Object.fromEntries(Object.entries(i.identities.arrays()).map(([k, v]) => [k, Array.from(v)])),
    campaigns: [...i.columns.campaigns].map(([id, p]) => [id, part(p)]),
    minisites: [...i.columns.minisites].map(([id, p]) => [id, part(p)]),
    events: i.columns.events,
    requests: (({ keys, ts }) => ({ keys, ts: Array.from(ts) }))(i.requests.arrays()),
  }
}

/** The state of a fresh ingest that reads every frame of the log (what a start without checkpoint gives). */
async function replayed(log: EventLog): Promise<unknown> {
  const fresh = newIngest(log)
  await fresh.open(false)
  return stateOf(fresh)
}

/** Resolves once `done()` holds (polled), or fails after two seconds. */
async function until(done: () => boolean): Promise<void> {
  for (const end = Date.now() + 2000; !done(); await new Promise<void>((resolve) => setTimeout(resolve, 2))) {
    if (Date.now() > end) throw new Error('timed out waiting')
  }
}

/** Whether a decode refuses the bytes (answers null, or fails naming the damage); the engine then replays the log. */
const refused = (buf: Buffer) => decodeCheckpoint(bytesReader(buf)).then((s) => s === null, () => true)

describe('encodeCheckpoint / decodeCheckpoint', () => {
  it('does give back every identity, counter and column, sorted prefix included', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.open()
    await ingest.add(hits(1, 500, T0, true))
    // a partition whose events are all in identity order (as after a compaction)
    const one = ingest.columns.campaign(1)!
    const a = one.arrays()
    const order = Array.from(a.identity.keys()).sort((x, y) => a.identity[x]! - a.identity[y]! || x - y)
    const sorted = Object.fromEntries(Object.entries(a).map(([k, v]) => [k, typeof v !== 'object' || v.length === 0 ? v : v.map((_: number, i: number) => v[order[i]!]!)]))
    ingest.columns.campaigns.set(1, Partition.from(false, { ...(sorted as unknown as PartitionArrays), sorted: one.n }))
    const parts = await encodeCheckpoint({ timeZone: ZONE, extent: { segments: [{ id: 1, bytes: 9, tailAt: 0, tailCrc: 7 }] }, identities: ingest.identities, columns: ingest.columns, requests: ingest.requests })
    const back = (await decodeCheckpoint(bytesReader(Buffer.concat(parts))))!
    expect(back.timeZone).toBe(ZONE)
    expect(back.extent).toEqual({ segments: [{ id: 1, bytes: 9, tailAt: 0, tailCrc: 7 }] })
    const copy = newIngest(new MemoryEventLog())
    copy.identities = back.identities
    copy.columns = back.columns
    copy.requests = back.requests
    expect(ingest.requests.size).toBeGreaterThan(20)
    expect(stateOf(copy)).toEqual(stateOf(ingest))
    expect(back.identities.get('amid:x\u0000y')).toBe(ingest.identities.get('amid:x\u0000y'))
    expect(back.columns.campaign(1)!.arrays().sorted).toBe(one.n)
  })

  it('does give back a keyword column of zeros with keywords in a few places, pieces of a MiB apart', async () => {
    const columns = new Columns()
    const p = columns.partitionFor('campaign', 1)
    // keywords only around 1.2 MiB into the column, and in its last event
    const n = 600_000
    const keywordAt = (i: number) => (i >= 300_000 && i < 300_010) || i === n - 1 ? 1 + (i % 7) : 0
    for (let i = 0; i < n; i++) p.add(i % 30, i % 24, KIND.impression, 0, i % 300, 10 + (i % 3), keywordAt(i), 1 + (i % 1_000))
    const parts = await encodeCheckpoint({ timeZone: ZONE, extent: { segments: [] }, identities: new Identities(), columns, requests: newIngest(new MemoryEventLog()).requests })
    const back = (await decodeCheckpoint(bytesReader(Buffer.concat(parts))))!.columns.campaign(1)!.arrays()
    expect(Array.from(back.keyword)).toEqual(Array.from({ length: n }, (_, i) => keywordAt(i)))
    expect(Array.from(back.region)).toEqual(Array.from({ length: n }, (_, i) => i % 300))
  })

  it('does read into memory V8 does not count toward its collections (a start then sets off no full collection)', async () => {
    const columns = new Columns()
    const p = columns.partitionFor('campaign', 1)
    for (let i = 0; i < 600_000; i++) p.add(i % 30, i % 24, KIND.impression, 0, i % 300, 10 + (i % 3), 0, 1 + (i % 1_000))
    const parts = await encodeCheckpoint({ timeZone: ZONE, extent: { segments: [] }, identities: new Identities(), columns, requests: newIngest(new MemoryEventLog()).requests })
    const file = Buffer.concat(parts)
    const before = getHeapStatistics().external_memory
    const state = await decodeCheckpoint(bytesReader(file))
    const grown = getHeapStatistics().external_memory - before
    expect(state!.columns.campaign(1)!.n).toBe(600_000)
    // (the 2 MiB of the sparse column's read pieces are counted; the 11 MB of columns are not)
    expect(file.length).toBeGreaterThan(10_000_000)
    expect(grown).toBeLessThan(file.length / 4)
    expect(parts.length).toBeGreaterThan(0)
  })

  it('does refuse a file with a changed byte, a short file and another format', async () => {
    const ingest = newIngest(new MemoryEventLog())
    await ingest.open()
    await ingest.add(hits(2, 50))
    const buf = Buffer.concat(await encodeCheckpoint({ timeZone: ZONE, extent: { segments: [] }, identities: ingest.identities, columns: ingest.columns, requests: ingest.requests }))
    for (const at of [0, 20, buf.length >> 1, buf.length - 1]) {
      const bad = Buffer.from(buf)
      bad[at]! ^= 0x40
      expect(await refused(bad)).toBe(true)
    }
    expect(await refused(buf.subarray(0, buf.length - 9))).toBe(true)
    expect(await refused(Buffer.from('not a checkpoint at all'))).toBe(true)
    // a header that lists more bytes than the file has fails before reading them
    const json = Buffer.from('{"version":1,"arrays":[["u32",100000000]],"partitions":[]}     ')
    const head = Buffer.concat([buf.subarray(0, 8), Buffer.alloc(4)])
    head.writeUInt32LE(json.length, 8)
    await expect(decodeCheckpoint(bytesReader(Buffer.concat([head, json, Buffer.alloc(40)])))).rejects.toThrow(/runs past the end/)
  })
})

/** An ingest on a log in memory that counted `hits` and saved a checkpoint (`sort`: Ingest.checkpoint's). */
async function checkpointed(hits: Hit[], sort = true): Promise<{ log: MemoryEventLog; a: Ingest }> {
  const log = new MemoryEventLog()
  const a = newIngest(log)
  await a.open()
  await a.add(hits)
  await a.checkpoint(sort)
  return { log, a }
}

/**
 * An ingest that counted `before`, saved a checkpoint (`saved` events, `savedOne` of campaign 1),
 * then counted each of `after`; and `b`, one started on the same log.
 */
async function startedAfter(before: Hit[], ...after: Hit[][]): Promise<{ log: MemoryEventLog; a: Ingest; saved: number; savedOne: number; b: Ingest }> {
  const { log, a } = await checkpointed(before)
  const [saved, savedOne] = [a.columns.events, a.columns.size('campaign', 1)]
  for (const h of after) await a.add(h)
  const b = newIngest(log)
  await b.open()
  return { log, a, saved, savedOne, b }
}

describe('Ingest with checkpoints', () => {
  it('does start from the checkpoint saved at close and read nothing else', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(3, 400))
    expect(await a.checkpoint()).toBe(true)
    const b = newIngest(log)
    expect(await b.open()).toBe(a.columns.events)
    expect(b.started).toEqual({ from: 'checkpoint', replayed: 0, beyondFull: 0 })
    expect(stateOf(b)).toEqual(await replayed(log))
  })

  it('does read the frames written after the checkpoint, once, and end in the state of a full replay', async () => {
    const { log, a, saved, b } = await startedAfter(hits(4, 300), hits(5, 200, T0 + 86_400_000, true), hits(6, 100, T0 + 2 * 86_400_000, true))
    // (repeats of a media request id are left out: fewer events than hits)
    expect(a.columns.events - saved).toBeGreaterThan(270)
    expect(b.started).toEqual({ from: 'checkpoint', replayed: a.columns.events - saved, beyondFull: 0 })
    expect(stateOf(b)).toEqual(await replayed(log))
    // and the counters go on as if it had never stopped: the next hits are attributed alike
    const more = hits(7, 150, T0 + 3 * 86_400_000)
    await b.add(more)
    const c = newIngest(log)
    await c.open(false)
    expect(stateOf(b)).toEqual(stateOf(c))
  })

  it('does take the frames after the checkpoint and the next hits into the columns it read, with the identity texts indexed at the first lookup', async () => {
    // new identities (imei:12-*) and events after the checkpoint, a few against the events before it
    const { log, a, savedOne: saved, b } = await startedAfter(hits(11, 4_000), hits(12, 100, T0 + 86_400_000))
    expect(b.started.from).toBe('checkpoint')
    expect(b.started.replayed).toBeGreaterThan(50)
    // the replay adds identities without building the text index (the build reads them from the texts)
    expect(b.identities.indexed).toBe(false)
    // the columns had room for them: none was copied into one of twice the events
    const p = b.columns.campaign(1)!
    expect(p.n).toBeGreaterThan(saved)
    expect(p.day.length).toBeLessThan(2 * saved)
    const more = hits(13, 100, T0 + 2 * 86_400_000)
    await b.add(more)
    expect(p.day.length).toBeLessThan(2 * saved)
    expect(b.identities.get('imei:12-3')).toBe(a.identities.get('imei:12-3'))
    expect(stateOf(b)).toEqual(await replayed(log))
  })

  it('does start from a checkpoint of version 4 (a field of the identities\' records an array each) and save the next one in the current version', async () => {
    // (fixtures/checkpoint-v4.json: a log of phones with linked devices, merged, and frequency times held, and the checkpoint version 4 took of it before its last frames)
    const f = JSON.parse(await readFile(new URL('./fixtures/checkpoint-v4.json', import.meta.url), 'utf8')) as { frames: string[]; checkpoint: string }
    const log = new MemoryEventLog()
    log.frames = f.frames.map((b) => Buffer.from(b, 'base64'))
    log.checkpoint = Buffer.from(f.checkpoint, 'base64')
    expect(log.checkpoint.readUInt32LE(4)).toBe(4)
    const b = newIngest(log)
    await b.open()
    expect(b.started.from).toBe('checkpoint')
    expect(b.started.replayed).toBeGreaterThan(0)
    expect(stateOf(b)).toEqual(await replayed(log))
    await b.add(phones(24, 50, T0 + 3 * 86_400_000))
    // (unsorted, as the checkpoints saved while hits arrive: a sorted one has its devices relabelled, which a replay leaves pending)
    expect(await b.checkpoint(false)).toBe(true)
    expect(log.checkpoint.readUInt32LE(4)).toBe(5)
    const c = newIngest(log)
    await c.open()
    expect(c.started).toEqual({ from: 'checkpoint', replayed: 0, beyondFull: 0 })
    expect(stateOf(c)).toEqual(await replayed(log))
  })

  it('does read the whole log when the checkpoint\'s identity records are of another layout', async () => {
    const { log, a } = await checkpointed(phones(5, 200, T0), false)
    // the same file but for the layout its header names, with its CRC made again: only the layout differs
    const buf = Buffer.from(log.checkpoint!)
    const json = buf.toString('utf8', 12, 12 + buf.readUInt32LE(8))
    expect(json).toContain('\\"REC\\":8')
    buf.write(json.replace('\\"REC\\":8', '\\"REC\\":9'), 12, 'utf8')
    buf.writeUInt32LE(crc32(buf.subarray(0, buf.length - 4)), buf.length - 4)
    log.checkpoint = buf
    const b = newIngest(log)
    await b.open()
    expect(b.started.from).toBe('log')
    expect(stateOf(b)).toEqual(stateOf(a))
  })

  it('does give the state of a full replay with devices linked and merged and frequency times held, before and after more hits', async () => {
    const { log, a } = await checkpointed(phones(1, 400, T0), false)
    await a.add(phones(2, 300, T0 + 600_000))
    expect(a.identities.linked).toBe(true)
    expect(a.identities.merges).toBeGreaterThan(0)
    expect(a.identities.arrays().recent.length).toBeGreaterThan(2)
    const b = newIngest(log)
    await b.open()
    expect(b.started.from).toBe('checkpoint')
    expect(stateOf(b)).toEqual(await replayed(log))
    expect(stateOf(b)).toEqual(stateOf(a))
    await b.add(phones(3, 300, T0 + 1_200_000))
    const c = newIngest(log)
    await c.open(false)
    expect(stateOf(b)).toEqual(stateOf(c))
  })

  it('does hold the partitions in the order a full replay makes them when a merge came while the first hits of a campaign were on their way', async () => {
    // (seed 21: a hit of campaign 2 merges a device while campaign 1's first hits are on their way)
    const { log, a } = await checkpointed(phones(21, 400, T0), false)
    await a.add(phones(22, 300, T0 + 600_000))
    const b = newIngest(log)
    await b.open()
    expect(b.started.from).toBe('checkpoint')
    const c = newIngest(log)
    await c.open(false)
    const order = (i: Ingest) => [...i.columns.campaigns.keys()]
    expect(order(a)).toEqual([1, 2])
    expect(order(b)).toEqual(order(c))
    expect(stateOf(b)).toEqual(stateOf(c))
    expect(stateOf(a)).toEqual(stateOf(c))
  })

  it('writes the state it took while hits, merges and a relabel by a report change the partitions before the write ends', async () => {
    let release!: () => void
    let writing = false
    const log = new (class extends MemoryEventLog {
      override async saveCheckpoint(parts: readonly Uint8Array[]): Promise<void> {
        writing = true
        await new Promise<void>((resolve) => (release = resolve))
        await super.saveCheckpoint(parts)
      }
    })()
    const a = newIngest(log)
    await a.open()
    await a.add(phones(1, 400, T0, 0.3, 1))
    const part = a.columns.campaigns.get(1)!
    expect(part.arrays().relabel).toBe(true)
    const saving = a.checkpoint(false)
    await until(() => writing)
    // while the parts are written: more hits, and a report's pass relabels and sorts the partition
    await a.add(phones(2, 200, T0 + 3_600_000, 0.3, 1))
    part.settle(a.identities.size, true)
    expect(part.arrays().relabel).toBe(false)
    release()
    expect(await saving).toBe(true)
    const b = newIngest(log)
    await b.open()
    expect(b.started.from).toBe('checkpoint')
    expect(stateOf(b)).toEqual(await replayed(log))
  })

  it('sorts a rebuild\'s partitions before they take the old ones\' place, and keeps the frames written meanwhile as a tail', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(41, 3_000))
    expect([...a.columns.campaigns.values()].some((p) => p.sortedCount < p.n)).toBe(true)
    // a hit written while the rebuild reads: replayed on the new state, after the sort
    const rebuilt = a.rebuild()
    await a.add(hits(42, 1, T0 + 86_400_000))
    await rebuilt
    const parts = [...a.columns.campaigns.values()]
    expect(parts.reduce((n, p) => n + (p.n - p.sortedCount), 0)).toBeLessThanOrEqual(1)
    expect(stateOf(a)).toEqual(await replayed(log))
  })

  it('saves no checkpoint at close for a few events since the last one: the next start replays them after it', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(21, 500))
    expect(await a.checkpoint()).toBe(true)
    const saved = log.checkpoint
    await a.add(hits(22, 300, T0 + 86_400_000, true))
    expect(await a.closingCheckpoint()).toBe(false)
    expect(log.checkpoint).toBe(saved)
    const b = newIngest(log)
    await b.open()
    expect(b.started.from).toBe('checkpoint')
    expect(b.started.replayed).toBeGreaterThan(270)
    expect(stateOf(b)).toEqual(await replayed(log))
  })

  it('saves the checkpoint at close, sorted, past CLOSE_REPLAY events since the last one or with a tail a report would sort', async () => {
    // a tail past 65,536 events, an eighth of the partition: its first report would sort it
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(23, 500))
    await a.checkpoint()
    await a.add(hits(24, 160_000, T0 + 86_400_000))
    expect(a.columns.events - 500).toBeLessThan(CLOSE_REPLAY)
    expect(a.columns.campaign(1)!.longTail()).toBe(true)
    expect(await a.closingCheckpoint()).toBe(true)
    const b = newIngest(log)
    await b.open()
    expect(b.started).toMatchObject({ from: 'checkpoint', replayed: 0 })
    expect(b.columns.campaign(1)!.longTail()).toBe(false)
    // many events, each partition's tail short (sorted meanwhile, as a report does)
    await b.add(hits(25, CLOSE_REPLAY + 10_000, T0 + 2 * 86_400_000))
    for (const p of [...b.columns.campaigns.values(), ...b.columns.minisites.values()]) p.settle(b.identities.size, true)
    expect(await b.closingCheckpoint()).toBe(true)
    const c = newIngest(log)
    await c.open()
    expect(c.started).toMatchObject({ from: 'checkpoint', replayed: 0 })
    // and without any checkpoint yet, the close saves one
    const fresh = new MemoryEventLog()
    const d = newIngest(fresh)
    await d.open()
    await d.add(hits(26, 50))
    expect(await d.closingCheckpoint()).toBe(true)
  })

  it('saves the checkpoint at close when the saved one holds a long unsorted tail, though it was sorted in memory since', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(31, 160_000))
    // the writer's own checkpoint keeps the tail unsorted; a report then sorts it in memory only
    expect(await a.checkpoint(false)).toBe(true)
    const part = a.columns.campaign(1)!
    expect(part.longTail()).toBe(true)
    part.settle(a.identities.size)
    expect(part.longTail()).toBe(false)
    await a.add(hits(32, 50, T0 + 86_400_000))
    expect(await a.closingCheckpoint()).toBe(true)
    const b = newIngest(log)
    await b.open()
    expect(b.started).toMatchObject({ from: 'checkpoint', replayed: 0 })
    expect(b.columns.campaign(1)!.longTail()).toBe(false)
  })

  it('does save a long unsorted partition in identity order, so that a start from it has nothing to sort', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(11, 160_000))
    const before = a.columns.campaign(1)!
    const visits = (p: Partition, size: number) => {
      const out: number[][] = []
      p.visitByIdentity(size, (events, count, identity) => out.push([identity, ...Array.from(events.subarray(0, count), (i) => p.day[i]! * 100 + p.hour[i]!)]))
      return out
    }
    expect(before.arrays().sorted).toBeLessThan(before.n - 65_536)
    expect(await a.checkpoint()).toBe(true)
    const b = newIngest(log)
    await b.open()
    const after = b.columns.campaign(1)!
    expect(after.arrays().sorted).toBe(after.n)
    const generation = after.generation
    expect(visits(after, b.identities.size)).toEqual(visits(before, a.identities.size))
    expect(after.generation).toBe(generation)
  })

  it('does keep the unsorted tail in the checkpoints it saves by itself, and a start from one visits the same identity order', async () => {
    const log = new MemoryEventLog()
    const a = new Ingest(log, new Columns(), new Identities(), () => ZONE, 1000)
    await a.open()
    await a.add(hits(12, 900))
    await a.add(hits(13, 1600, T0 + 86_400_000))
    await until(() => log.checkpoint !== null)
    await a.flush()
    const b = newIngest(log)
    await b.open()
    expect(b.started.from).toBe('checkpoint')
    const part = b.columns.campaign(1)!
    // saved as it was: nothing sorted (a report would have sorted it)
    expect(part.arrays().sorted).toBe(0)
    const visits = (p: Partition, size: number) => {
      const out: number[][] = []
      p.visitByIdentity(size, (events, count, identity) => out.push([identity, ...Array.from(events.subarray(0, count), (i) => p.day[i]! * 100 + p.hour[i]!)]))
      return out
    }
    expect(visits(part, b.identities.size)).toEqual(visits(a.columns.campaign(1)!, a.identities.size))
    expect(stateOf(b)).toEqual(await replayed(log))
  })

  it('does know the media request ids counted before a start, from the log and from the checkpoint', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    const one = (request: string, ts: number): Hit => ({ kind: KIND.impression, ts, campaign: 1, spot: 10, keyword: 0, identity: 'idfa:a', platform: PLATFORM.mb, sdk: SDK.none, region: 0, ivt: IVT.valid, request })
    await a.add([one('before-checkpoint', T0), one('before-checkpoint', T0 + 1)])
    expect(a.columns.events).toBe(1)
    await a.checkpoint()
    await a.add([one('after-checkpoint', T0 + 2)])
    for (const useCheckpoint of [true, false]) {
      const b = newIngest(log)
      await b.open(useCheckpoint)
      expect(b.started.from).toBe(useCheckpoint ? 'checkpoint' : 'log')
      expect([b.countedAt(one('before-checkpoint', T0 + 10)), b.countedAt(one('after-checkpoint', T0 + 10)), b.countedAt(one('never', T0 + 10))]).toEqual([T0, T0 + 2, undefined])
      await b.add([one('after-checkpoint', T0 + 11)])
      expect(b.columns.events).toBe(2)
    }
  })

  it('does not save again while nothing was counted since the last checkpoint', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(8, 20))
    expect(await a.checkpoint()).toBe(true)
    expect(await a.checkpoint()).toBe(false)
    const b = newIngest(log)
    await b.open()
    expect(await b.checkpoint()).toBe(false)
  })

  it('does save one checkpoint at a time as events are counted, not one per round while one is being saved', async () => {
    // saves wait until released, so that many rounds are written while the first is being saved
    let release!: () => void
    let saves = 0
    const log = new (class extends MemoryEventLog {
      override async saveCheckpoint(parts: readonly Uint8Array[]): Promise<void> {
        saves++
        await new Promise<void>((resolve) => (release = resolve))
        await super.saveCheckpoint(parts)
      }
    })()
    const a = new Ingest(log, new Columns(), new Identities(), () => ZONE, 100)
    await a.open()
    await a.add(hits(9, 99))
    expect(saves).toBe(0)
    await a.add(hits(10, 1))
    await until(() => saves === 1)
    for (let round = 0; round < 10; round++) await a.add(hits(11 + round, 20))
    release()
    await until(() => log.checkpoint !== null)
    await new Promise<void>((resolve) => setTimeout(resolve, 20))
    expect(saves).toBe(1)
    // the next one is due 100 events after the last asked for: the next round asks
    await a.add(hits(30, 1))
    await until(() => saves === 2)
    release()
    await a.flush()
  })

  it('does space checkpoints by half the events the last one held once that is more than the spacing', async () => {
    let saves = 0
    const log = new (class extends MemoryEventLog {
      override async saveCheckpoint(parts: readonly Uint8Array[]): Promise<void> {
        saves++
        await super.saveCheckpoint(parts)
      }
    })()
    const a = new Ingest(log, new Columns(), new Identities(), () => ZONE, 100)
    await a.open()
    await a.add(hits(9, 1_000))
    await until(() => saves === 1)
    // the next is due 500 events later (half of 1,000), not 100
    for (let round = 0; round < 4; round++) await a.add(hits(10 + round, 100))
    await new Promise<void>((resolve) => setTimeout(resolve, 20))
    expect(saves).toBe(1)
    await a.add(hits(20, 100))
    await until(() => saves === 2)
    // then 750 after 1,500
    for (let round = 0; round < 7; round++) await a.add(hits(30 + round, 100))
    await new Promise<void>((resolve) => setTimeout(resolve, 20))
    expect(saves).toBe(2)
    await a.add(hits(40, 50))
    await until(() => saves === 3)
    await a.flush()
  })

  it('does read the whole log when the time zone changed since the checkpoint', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(9, 100))
    await a.checkpoint()
    const b = newIngest(log, 'America/New_York')
    await b.open()
    expect(b.started).toEqual({ from: 'log', replayed: 100, beyondFull: 0 })
  })

  it('does read the whole log when the checkpoint is damaged', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(10, 100))
    await a.checkpoint()
    log.checkpoint![log.checkpoint!.length >> 1]! ^= 1
    const b = newIngest(log)
    await b.open()
    expect(b.started.from).toBe('log')
    expect(stateOf(b)).toEqual(await replayed(log))
  })

  it('does read the whole log when a frame the checkpoint lists is no longer there', async () => {
    const log = new MemoryEventLog()
    const a = newIngest(log)
    await a.open()
    await a.add(hits(11, 100))
    await a.checkpoint()
    log.frames.pop()
    const b = newIngest(log)
    await b.open()
    expect(b.started.from).toBe('log')
  })
})

describe("a start's rest of the identities (devices, touches, recent times, uncounted campaigns)", () => {
  /**
   * `a`: phones with linked devices, touches of both campaigns, frequency times and uncounted hits,
   * checkpointed; `b`: an ingest started from that checkpoint with no frame after it.
   */
  async function startedOnRest(): Promise<{ log: MemoryEventLog; a: Ingest; b: Ingest }> {
    const { log, a } = await checkpointed(phones(31, 600, T0), false)
    const rest = a.identities.arrays()
    expect(a.identities.linked).toBe(true)
    expect([rest.earlier.length, rest.uncounted.length]).not.toContain(0)
    expect(rest.recent.length).toBeGreaterThan(2)
    const b = newIngest(log)
    await b.open()
    expect(b.started).toMatchObject({ from: 'checkpoint', replayed: 0 })
    return { log, a, b }
  }

  // (phones(31) spans 20 minutes from T0: hits from then on are judged against its recent times)
  const NEXT = T0 + 1_200_000

  it('is not taken by a start nor by what a report reads (roots, devices linked or not), and hits after it count as a full replay counts them', async () => {
    const { log, a, b } = await startedOnRest()
    expect(b.identities.restTaken).toBe(false)
    expect(b.identities.linked).toBe(true)
    for (let id = 1; id < a.identities.size; id++) expect(b.identities.rootOf(id)).toBe(a.identities.rootOf(id))
    expect(b.identities.restTaken).toBe(false)
    await b.add(phones(32, 300, NEXT))
    expect(b.identities.restTaken).toBe(true)
    expect(stateOf(b)).toEqual(await replayed(log))
    // the same hits counted by one ingest that never started from a checkpoint
    const alone = newIngest(new MemoryEventLog())
    await alone.open()
    await alone.add(phones(31, 600, T0))
    await alone.add(phones(32, 300, NEXT))
    expect(stateOf(b)).toEqual(stateOf(alone))
  })

  it('is taken between turns of the event loop, and hits and device links between two turns find it whole', async () => {
    const { log, b } = await startedOnRest()
    const taking = b.identities.settleInTurns()
    // (the ids' devices taken in the first turn, the touches and recent times not yet)
    expect(b.identities.restTaken).toBe(false)
    await b.add(phones(33, 300, NEXT, 0.5))
    expect(b.identities.restTaken).toBe(true)
    await taking
    expect(stateOf(b)).toEqual(await replayed(log))
  })

  it('is in a checkpoint taken before it is', async () => {
    const { a, b } = await startedOnRest()
    const { timeZone, extent, identities, columns, requests } = { timeZone: ZONE, extent: { segments: [] }, identities: b.identities, columns: b.columns, requests: b.requests }
    const saved = await decodeCheckpoint(bytesReader(Buffer.concat(await encodeCheckpoint({ timeZone, extent, identities, columns, requests }))))
    expect(b.identities.restTaken).toBe(true)
    expect(saved!.identities.arrays()).toEqual(a.identities.arrays())
  })

  it('loses nothing acknowledged when the process ends while it is being taken', async () => {
    const { log, b } = await startedOnRest()
    void b.identities.settleInTurns()
    await b.add(phones(34, 200, NEXT, 0.5))
    // (b is dropped as a crash drops it: no close, no checkpoint; the next start reads the frames after the old one)
    const c = newIngest(log)
    await c.open()
    expect(c.started.replayed).toBeGreaterThan(0)
    expect(stateOf(c)).toEqual(await replayed(log))
    expect(stateOf(c)).toEqual(stateOf(b))
  })
})

describe('FileEventLog checkpoints', () => {
  async function dirWithCheckpoint(): Promise<{ dir: string; events: number }> {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-checkpoint-'))
    dirs.push(dir)
    const log = new FileEventLog(dir)
    const a = newIngest(log)
    await a.open()
    await a.add(hits(12, 200))
    await a.add(hits(13, 100, T0 + 86_400_000))
    await a.checkpoint()
    await log.close()
    return { dir, events: a.columns.events }
  }

  it('does start from the checkpoint file, and append to a new segment after it', async () => {
    const { dir, events } = await dirWithCheckpoint()
    expect((await readdir(dir)).sort()).toEqual(['000001.seg', 'checkpoint.bin'])
    const log = new FileEventLog(dir)
    const b = newIngest(log)
    expect(await b.open()).toBe(events)
    expect(b.started).toEqual({ from: 'checkpoint', replayed: 0, beyondFull: 0 })
    await b.add(hits(14, 50, T0 + 2 * 86_400_000))
    await b.checkpoint()
    await log.close()
    const c = newIngest(new FileEventLog(dir))
    await c.open()
    expect(c.started).toEqual({ from: 'checkpoint', replayed: 0, beyondFull: 0 })
    expect(stateOf(c)).toEqual(await replayed(new FileEventLog(dir)))
  })

  it("removes the temp files of checkpoints a dead process was writing at the open, one with this process's id too", async () => {
    const { dir, events } = await dirWithCheckpoint()
    const stale = `checkpoint.bin.${process.pid + 1}.tmp`
    const sameId = `checkpoint.bin.${process.pid}.tmp`
    await writeFile(join(dir, stale), Buffer.alloc(4096))
    await writeFile(join(dir, sameId), Buffer.alloc(16))
    const b = newIngest(new FileEventLog(dir))
    expect(await b.open()).toBe(events)
    expect((await readdir(dir)).sort()).toEqual(['000001.seg', 'checkpoint.bin'])
  })

  it('does read every segment again when one the checkpoint lists was cut short or removed', async () => {
    const { dir } = await dirWithCheckpoint()
    await truncate(join(dir, '000001.seg'), 100)
    const b = newIngest(new FileEventLog(dir))
    await b.open()
    expect(b.started.from).toBe('log')
    await rm(join(dir, '000001.seg'))
    const c = newIngest(new FileEventLog(dir))
    expect(await c.open()).toBe(0)
    expect(c.started.from).toBe('log')
  })

  it('does read every segment again when the checkpoint file is damaged', async () => {
    const { dir } = await dirWithCheckpoint()
    const file = join(dir, 'checkpoint.bin')
    const buf = await readFile(file)
    buf[100]! ^= 0xff
    await writeFile(file, buf)
    const b = newIngest(new FileEventLog(dir))
    await b.open()
    expect(b.started.from).toBe('log')
    expect(stateOf(b)).toEqual(await replayed(new FileEventLog(dir)))
  })
})
