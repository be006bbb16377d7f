/**
 * The measure bench's event file: a deterministic (seeded) NDJSON event log of one campaign in
 * the columns of docs/import.md, written in time order (every line's ts is strictly later than the
 * previous one, so file order = arrival order = time order, which the DuckDB side relies on).
 *
 * - identities: every identity appears at least once; activity is skewed (a few heavy ones); a
 *   share of them are devices of the campaign's panel (so reach and audience have data); a few
 *   hundred are declared bots (their lines carry a bot user agent; no other line has one);
 * - time: the campaign's days in the engine time zone (UTC+8) with a daily curve, plus a thin day
 *   before the start and after the end (kept, counted in no figure);
 * - invalid traffic: bot lines; bursts (one identity, 35-90 impressions or 7-14 clicks within
 *   seconds: abnormal frequency); data-centre lines, which carry a cloud provider's `ip` instead of
 *   `region_id` (and land on spots with and without dangerous_source_filtration).
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { Sampler } from '../engine/measure/panel/generate/random'

export interface EventPlan {
  seed: number
  events: number
  identities: number
  campaignId: number
  spotIds: number[]
  /** City (level 2) region ids, most of the traffic; other region ids (provinces, global) get a little. */
  cities: string[]
  otherRegions: string[]
  panelDevices: { device: string; platform: 'pc' | 'mb' }[]
  /** Share of identities that are panel devices (capped by the devices there are). */
  panelShare: number
  /** First campaign day (YYYY-MM-DD, local) and number of days. */
  startDay: string
  days: number
  /** Offset of the engine time zone (ms): Asia/Shanghai, +8 h. */
  zoneOffsetMs: number
  dcIps: string[]
  /** Addresses of ordinary networks (a few lines locate by ip without being data centres). */
  plainIps: string[]
  botAgents: string[]
  botIdentities: number
  bursts: number
}

export interface EventFileInfo {
  lines: number
  bytes: number
  identities: number
  panelIdentities: number
  botIdentities: number
  bursts: number
  burstLines: number
  botLines: number
  dcLines: number
  plainIpLines: number
  clicks: number
  outsideWindow: number
  ms: number
}

/** sfc32: a small, fast, seeded generator (deterministic across runs and machines). */
export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number
  constructor(seed: number) {
    this.a = 0x9e3779b9
    this.b = 0x243f6a88
    this.c = 0xb7e15162
    this.d = seed >>> 0
    for (let i = 0; i < 16; i++) this.u32()
  }
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }
  /** [0, 1) */
  next(): number {
    return this.u32() / 4294967296
  }
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  hex(n: number): string {
    let s = ''
    while (s.length < n) s += this.u32().toString(16).padStart(8, '0')
    return s.slice(0, n)
  }
}

function shuffle<T>(rng: Rng, a: T[]): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1)
    ;[a[i], a[j]] = [a[j]!, a[i]!]
  }
  return a
}

/** Local hour weights (a day's curve, evening peak). */
const HOURS = [0.35, 0.2, 0.12, 0.08, 0.07, 0.1, 0.25, 0.55, 0.85, 1.0, 1.05, 1.1, 1.15, 1.05, 1.0, 1.0, 1.05, 1.1, 1.2, 1.35, 1.5, 1.55, 1.3, 0.8]
const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000

/** Events per (day, hour) bucket, days -1 .. days (the first and last outside the campaign), summing to `total`. */
function bucketCounts(days: number, total: number): number[] {
  const w: number[] = []
  for (let d = -1; d <= days; d++) {
    const day = d < 0 || d >= days ? 0.01 : (0.8 + 0.4 * Math.min(1, d / 7)) * (d % 7 === 5 || d % 7 === 6 ? 1.1 : 1)
    for (const h of HOURS) w.push(day * h)
  }
  const sum = w.reduce((a, b) => a + b, 0)
  const exact = w.map((x) => (x * total) / sum)
  const n = exact.map(Math.floor)
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1])
  for (let k = 0, left = total - n.reduce((a, b) => a + b, 0); k < left; k++) n[order[k]![1]]!++
  return n
}

export function uuid(rng: Rng): string {
  const h = rng.hex(32)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[rng.int(4)]}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** Bytes of the file being written, flushed to `fd` in large pieces. */
class Out {
  buf = Buffer.allocUnsafe(8 << 20)
  at = 0
  bytes = 0
  constructor(private readonly fd: number) {}
  room(n: number): void {
    if (this.at + n > this.buf.length) this.flush()
  }
  put(b: Buffer): void {
    b.copy(this.buf, this.at)
    this.at += b.length
  }
  /** A non-negative integer in decimal. */
  int(n: number): void {
    let digits = 1
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++
    for (let k = digits - 1; k >= 0; k--) {
      this.buf[this.at + k] = 48 + (n % 10)
      n = Math.floor(n / 10)
    }
    this.at += digits
  }
  flush(): void {
    let off = 0
    while (off < this.at) off += writeSync(this.fd, this.buf, off, this.at - off)
    this.bytes += this.at
    this.at = 0
  }
}

/** Writes the file; returns what it holds. */
export function writeEventFile(plan: EventPlan, file: string): EventFileInfo {
  const t0 = performance.now()
  const rng = new Rng(plan.seed)
  const N = plan.identities
  // Identity kinds: panel devices and bots at random indices (activity is by index, below).
  const order = new Uint32Array(N)
  for (let i = 0; i < N; i++) order[i] = i
  for (let i = N - 1; i > 0; i--) {
    const j = rng.int(i + 1)
    const x = order[i]!
    order[i] = order[j]!
    order[j] = x
  }
  const devices = shuffle(rng, [...plan.panelDevices])
  const nPanel = Math.min(devices.length, Math.round(N * plan.panelShare))
  const home = new Uint16Array(N)
  const regions = [...plan.cities, ...plan.otherRegions]
  const regionText = regions.map((r) => Buffer.from(`,"region_id":"${r}"`))
  const citySampler = new Sampler(plan.cities.map((_, k) => 1 / (k + 3) ** 0.9))
  const drawRegion = () => (rng.next() < 0.04 ? plan.cities.length + rng.int(plan.otherRegions.length) : citySampler.draw(rng))
  const sdkOf = () => {
    const x = rng.next()
    return x < 0.5 ? 'mm' : x < 0.7 ? 'mz' : 'none'
  }
  // The end of each identity's lines (identity, platform, sdk, agent), all in one buffer.
  const tailOf = new Array<string>(N)
  const isBot = new Uint8Array(N)
  for (let k = 0; k < N; k++) {
    const i = order[k]!
    home[i] = drawRegion()
    let text: string
    let platform: 'pc' | 'mb'
    let agent = ''
    if (k < nPanel) {
      ;({ device: text, platform } = devices[k]!)
    } else if (k < nPanel + plan.botIdentities) {
      text = `amid:${rng.hex(32)}`
      platform = 'pc'
      agent = plan.botAgents[rng.int(plan.botAgents.length)]!
      isBot[i] = 1
    } else {
      const x = rng.next()
      if (x < 0.35) (text = `idfa:${uuid(rng)}`), (platform = 'mb')
      else if (x < 0.65) (text = `oaid:${uuid(rng)}`), (platform = 'mb')
      else if (x < 0.75) (text = `imei:86${String(rng.int(1e9)).padStart(9, '0')}${String(rng.int(1e4)).padStart(4, '0')}`), (platform = 'mb')
      else (text = `amid:${rng.hex(32)}`), (platform = 'pc')
    }
    tailOf[i] = `,"identity":"${text}","platform":"${platform}"${platform === 'mb' ? `,"sdk":"${sdkOf()}"` : ''}${agent ? `,"user_agent":"${agent}"` : ''}}\n`
  }
  const tailStart = new Uint32Array(N + 1)
  for (let i = 0; i < N; i++) tailStart[i + 1] = tailStart[i]! + Buffer.byteLength(tailOf[i]!)
  const tails = Buffer.allocUnsafe(tailStart[N]!)
  for (let i = 0; i < N; i++) tails.write(tailOf[i]!, tailStart[i]!, 'latin1')
  tailOf.length = 0
  // Bursts, then identity slots: every identity once, the rest skewed (x^1.6: a heavy head), shuffled.
  const burst: { click: boolean; length: number }[] = Array.from({ length: plan.bursts }, () =>
    rng.next() < 0.8 ? { click: false, length: 35 + rng.int(56) } : { click: true, length: 7 + rng.int(8) })
  const burstExtra = burst.reduce((a, b) => a + b.length - 1, 0)
  const slots = plan.events - burstExtra
  if (slots < N) throw new Error(`${plan.events} events cannot hold ${N} identities and ${burstExtra} burst lines`)
  const idOf = new Uint32Array(slots)
  for (let s = 0; s < slots; s++) idOf[s] = s < N ? s : Math.min(N - 1, Math.floor(N * rng.next() ** 1.6))
  for (let s = slots - 1; s > 0; s--) {
    const j = rng.int(s + 1)
    const x = idOf[s]!
    idOf[s] = idOf[j]!
    idOf[j] = x
  }
  const starts = new Set<number>()
  while (starts.size < plan.bursts) starts.add(rng.int(slots))
  const burstSlots = [...starts].sort((a, b) => a - b)
  const spots = shuffle(rng, [...plan.spotIds])
  const spotSampler = new Sampler(spots.map((_, k) => 1 / (k + 8) ** 0.7))
  const impHead = Buffer.from('{"type":"impression","ts":')
  const clkHead = Buffer.from('{"type":"click","ts":')
  const mid = Buffer.from(`,"campaign_id":${plan.campaignId},"spot_id":`)
  const dc = plan.dcIps.map((ip) => Buffer.from(`,"ip":"${ip}"`))
  const plain = plan.plainIps.map((ip) => Buffer.from(`,"ip":"${ip}"`))
  const [y, m, d] = plan.startDay.split('-').map(Number) as [number, number, number]
  const firstMidnight = Date.UTC(y, m - 1, d) - plan.zoneOffsetMs - DAY_MS
  const counts = bucketCounts(plan.days, plan.events)
  const info: EventFileInfo = { lines: 0, bytes: 0, identities: N, panelIdentities: nPanel, botIdentities: plan.botIdentities, bursts: plan.bursts, burstLines: burstExtra + plan.bursts, botLines: 0, dcLines: 0, plainIpLines: 0, clicks: 0, outsideWindow: 0, ms: 0 }
  const fd = openSync(file, 'w')
  const out = new Out(fd)
  let slot = 0
  let nextBurst = 0
  let left = 0
  let bId = 0
  let bSpot = 0
  let bClick = false
  try {
    counts.forEach((n, b) => {
      const start = firstMidnight + b * HOUR_MS
      if (b < 24 || b >= counts.length - 24) info.outsideWindow += n
      for (let j = 0; j < n; j++) {
        const ts = start + Math.floor((j * HOUR_MS) / n)
        let id: number
        let spot: number
        let click: boolean
        if (left > 0) {
          left--
          id = bId
          spot = bSpot
          click = bClick
        } else {
          id = idOf[slot]!
          spot = spots[spotSampler.draw(rng)]!
          if (burstSlots[nextBurst] === slot) {
            const bu = burst[nextBurst++]!
            click = bu.click
            left = bu.length - 1
            bId = id
            bSpot = spot
            bClick = click
          } else click = rng.next() < 0.015
          slot++
        }
        const x = rng.next()
        let where: Buffer
        if (x < 0.004) {
          where = dc[rng.int(dc.length)]!
          info.dcLines++
        } else if (x < 0.0045) {
          where = plain[rng.int(plain.length)]!
          info.plainIpLines++
        } else where = regionText[rng.next() < 0.85 ? home[id]! : drawRegion()]!
        if (click) info.clicks++
        if (isBot[id]) info.botLines++
        const t0 = tailStart[id]!
        const t1 = tailStart[id + 1]!
        out.room(200 + t1 - t0)
        out.put(click ? clkHead : impHead)
        out.int(ts)
        out.put(mid)
        out.int(spot)
        out.put(where)
        tails.copy(out.buf, out.at, t0, t1)
        out.at += t1 - t0
      }
      info.lines += n
    })
    out.flush()
  } finally {
    closeSync(fd)
  }
  info.bytes = out.bytes
  if (slot !== slots || left !== 0) throw new Error(`event file: ${slot} of ${slots} identity slots used, ${left} burst lines left`)
  info.ms = performance.now() - t0
  return info
}
