/**
 * The panel kernel: one pass over a partition's events that keeps those of panel persons, and
 * counts them per person and cell (metrics.md: reach, GRP, projected target figures and audience
 * composition). A person with several devices is one person; cells are position x the region of
 * the person's home.
 */
import type { Partition } from '../measure/columns'
import { ensure } from '../measure/grow'
import { firstAtLeast } from '../measure/search'
import { PLATFORM, flagPlatform } from '../measure/types'
import { positionOf, selectorKey, type Selector } from './selector'
import { StampSet } from './stamp-set'
import { sameValues } from './same-values'

export interface PersonSpec {
  part: Partition
  sel: Selector
  /** identity -> person index (-1: not a panel person). */
  personOf: Int32Array
  nPos: number
  /** person -> region cells of the home region (-1 none). */
  homeFirst: Int32Array
  homeSecond: Int32Array
  nRegions: number
  /** The day whose counts go to impressionsOnDay / clicksOnDay. */
  day?: number
}

/**
 * Counts per (person, cell) with a counted event, as parallel columns (no object per entry):
 * entry j is person[j] in cell[j]. A person's entries are contiguous.
 */
export interface PersonCells {
  n: number
  person: Int32Array
  cell: Int32Array
  impressions: Uint32Array
  clicks: Uint32Array
  impressionsOnDay: Uint32Array
  clicksOnDay: Uint32Array
  /** Distinct days with an impression / a click. */
  impDays: Uint32Array
  clkDays: Uint32Array
  /** Impressions and clicks by hour of day, entry j at j * 24 (only when asked for: `hours`). */
  impHours: Uint32Array
  clkHours: Uint32Array
  /** Of the counts above, those on pc (only when asked for: `split`; the hours with `splitHours`). */
  impPc: Uint32Array
  clkPc: Uint32Array
  pcImpHours: Uint32Array
  pcClkHours: Uint32Array
}

/** What a pass counts besides impressions, clicks and those of `day`. */
export interface CellCounts {
  /** Counts by hour of day (default: no). */
  hours?: boolean
  /** Distinct days with an impression / a click (default: yes). */
  days?: boolean
  /** The pc part of each count (default: no): the calibration weighs an entry's platforms with it. */
  split?: boolean
  /** With `hours` and `split`, the pc part of the hours too (default: no). */
  splitHours?: boolean
}

/**
 * The events of a partition's panel persons, copied out grouped by person (a compact partition of
 * its own: the kernel then reads a few small arrays front to back instead of a few hundred
 * thousand scattered entries of columns of millions). `origin` is each copy's index in the partition.
 */
export interface PanelEvents {
  n: number
  day: Uint16Array<ArrayBuffer>
  hour: Uint8Array<ArrayBuffer>
  kind: Uint8Array<ArrayBuffer>
  flags: Uint8Array<ArrayBuffer>
  spot: Uint32Array<ArrayBuffer>
  keyword: Uint32Array<ArrayBuffer>
  person: Int32Array<ArrayBuffer>
  origin: Uint32Array<ArrayBuffer>
  /** The copy this one was merged from and the persons whose events were added (ascending, distinct): kept results of `base` are brought up to date for those persons only. */
  base?: { g: PanelEvents; persons: Int32Array } | undefined
}

interface PanelEventsCache {
  /** Partition events looked at (the copy is rebuilt when there are more). */
  seen: number
  generation: number
  personOf: Int32Array
  /** Indexes of the panel persons' events, in partition order. */
  events: Uint32Array
  count: number
  grouped: PanelEvents | null
}

/** Events of panel persons in a partition, remembered per partition version and panel. */
const panelEvents = new WeakMap<Partition, PanelEventsCache>()

/** The events of a partition's panel persons grouped by person (a new copy once a panel person's event comes, merged from the last). */
export function panelEventsOf(p: Partition, personOf: Int32Array): PanelEvents {
  let c = panelEvents.get(p)
  if (!c || c.personOf !== personOf || c.seen > p.n || c.generation !== p.generation) c = { seen: 0, generation: p.generation, personOf, events: new Uint32Array(1024), count: 0, grouped: null }
  const before = c.count
  for (let i = c.seen; i < p.n; i++) {
    if ((personOf[p.identity[i]!] ?? -1) < 0) continue
    c.events = ensure(c.events, c.count + 1)
    c.events[c.count++] = i
  }
  c.seen = p.n
  panelEvents.set(p, c)
  // other identities' hits change nothing here; a panel person's events are merged into a new copy
  if (!c.grouped) c.grouped = groupByPerson(p, personOf, c.events, c.count)
  else if (c.count > before) {
    const old = c.grouped
    const added = groupByPerson(p, personOf, c.events.subarray(before, c.count), c.count - before)
    c.grouped = mergeInto(old, added)
    // one step back only: a chain of copies would keep every older one alive
    old.base = undefined
    c.grouped.base = { g: old, persons: Int32Array.from(new Set(added.person)) }
  }
  return c.grouped
}

/**
 * A new copy of `old` with the events of `added` (both grouped by person, `added`'s events later
 * in the partition), each person's events still in partition order. Grouping every panel event
 * again read the partition's columns at random (a cache miss an event and column), which took
 * 30-40 ms at the bench's 200,000 panel events; the merge reads both copies front to back.
 */
function mergeInto(old: PanelEvents, added: PanelEvents): PanelEvents {
  const n = old.n + added.n
  const g: PanelEvents = {
    n, day: new Uint16Array(n), hour: new Uint8Array(n), kind: new Uint8Array(n), flags: new Uint8Array(n),
    spot: new Uint32Array(n), keyword: new Uint32Array(n), person: new Int32Array(n), origin: new Uint32Array(n),
  }
  let a = 0
  let b = 0
  let at = 0
  const copy = (from: PanelEvents, i: number, count: number) => {
    for (const k of GROUPED_COLUMNS) g[k].set(from[k].subarray(i, i + count), at)
    at += count
  }
  while (b < added.n) {
    // old events of persons up to the next added one's (its own before it), in one block
    const person = added.person[b]!
    let end = a
    while (end < old.n && old.person[end]! <= person) end++
    copy(old, a, end - a)
    a = end
    let endB = b
    while (endB < added.n && added.person[endB] === person) endB++
    copy(added, b, endB - b)
    b = endB
  }
  copy(old, a, old.n - a)
  return g
}

const GROUPED_COLUMNS = ['day', 'hour', 'kind', 'flags', 'spot', 'keyword', 'person', 'origin'] as const

/** A counting sort of the events by person (a person may have several devices), then the copy. */
function groupByPerson(p: Partition, personOf: Int32Array, events: Uint32Array, count: number): PanelEvents {
  let persons = 0
  for (let e = 0; e < count; e++) persons = Math.max(persons, personOf[p.identity[events[e]!]!]! + 1)
  const start = new Uint32Array(persons + 1)
  for (let e = 0; e < count; e++) start[personOf[p.identity[events[e]!]!]! + 1]!++
  for (let q = 0; q < persons; q++) start[q + 1]! += start[q]!
  const origin = new Uint32Array(count)
  for (let e = 0; e < count; e++) origin[start[personOf[p.identity[events[e]!]!]!]!++] = events[e]!
  const g: PanelEvents = {
    n: count, day: new Uint16Array(count), hour: new Uint8Array(count), kind: new Uint8Array(count), flags: new Uint8Array(count),
    spot: new Uint32Array(count), keyword: new Uint32Array(count), person: new Int32Array(count), origin,
  }
  for (let e = 0; e < count; e++) {
    const i = origin[e]!
    g.day[e] = p.day[i]!
    g.hour[e] = p.hour[i]!
    g.kind[e] = p.kind[i]!
    g.flags[e] = p.flags[i]!
    g.spot[e] = p.spot[i]!
    g.keyword[e] = p.keyword[i]!
    g.person[e] = personOf[p.identity[i]!]!
  }
  return g
}

type Column = Exclude<keyof PersonCells, 'n'>

/** The columns a pass fills: one value an entry, and 24 an entry. */
interface Columns {
  one: Column[]
  hourly: Column[]
}

function columnsOf(hours: boolean, split: boolean, splitHours: boolean): Columns {
  return {
    one: ['person', 'cell', 'impressions', 'clicks', 'impressionsOnDay', 'clicksOnDay', 'impDays', 'clkDays', ...(split ? ['impPc', 'clkPc'] as const : [])],
    hourly: hours ? ['impHours', 'clkHours', ...(splitHours ? ['pcImpHours', 'pcClkHours'] as const : [])] : [],
  }
}

function grow(out: PersonCells, n: number, cols: Columns): void {
  if (n <= out.person.length) return
  for (const k of cols.one) (out[k] as Int32Array | Uint32Array) = ensure(out[k], n)
  for (const k of cols.hourly) (out[k] as Int32Array | Uint32Array) = ensure(out[k], n * 24)
}

/** Appends entries [from, to) of `c` to `out`. */
function copyEntries(c: PersonCells, from: number, to: number, out: PersonCells, cols: Columns): void {
  const n = to - from
  if (n <= 0) return
  grow(out, out.n + n, cols)
  for (const k of cols.one) out[k].set(c[k].subarray(from, to), out.n)
  for (const k of cols.hourly) out[k].set(c[k].subarray(from * 24, to * 24), out.n * 24)
  out.n += n
}

/**
 * Every (person, cell) with a counted event: one pass over the panel persons' events, person by
 * person. The result may be a kept one (KeptCells), shared with other calls: never change it.
 */
export function personCells(s: PersonSpec & CellCounts): PersonCells {
  const hours = s.hours === true
  // distinct days (impDays, clkDays) cost a set insertion per event: only when asked for (default)
  const countDays = s.days !== false
  const split = s.split === true
  const splitHours = split && hours && s.splitHours === true
  const cols = columnsOf(hours, split, splitHours)
  const g = panelEventsOf(s.part, s.personOf)
  // per-event positions (minisites) are indexed by partition event: counted afresh each time
  const key = s.sel.eventPos ? null : `${selectorKey(s.sel)}|${s.nPos}|${s.nRegions}|${s.day ?? -1}|${hours}|${countDays}|${split}|${splitHours}`
  const kept = key === null ? undefined : keptCells.find(g, key, s.homeFirst, s.homeSecond)
  if (kept) return kept
  // the result of the copy this one was merged from: only the persons whose events came are counted
  const prev = key !== null && g.base ? keptCells.find(g.base.g, key, s.homeFirst, s.homeSecond) : undefined
  const cells = (cap: number): PersonCells => ({
    n: 0, person: new Int32Array(cap), cell: new Int32Array(cap), impressions: new Uint32Array(cap), clicks: new Uint32Array(cap),
    impressionsOnDay: new Uint32Array(cap), clicksOnDay: new Uint32Array(cap), impDays: new Uint32Array(cap), clkDays: new Uint32Array(cap),
    impHours: new Uint32Array(hours ? cap * 24 : 0), clkHours: new Uint32Array(hours ? cap * 24 : 0),
    impPc: new Uint32Array(split ? cap : 0), clkPc: new Uint32Array(split ? cap : 0),
    pcImpHours: new Uint32Array(splitHours ? cap * 24 : 0), pcClkHours: new Uint32Array(splitHours ? cap * 24 : 0),
  })
  // (counting writes to `out`: a small scratch while the persons whose events came are counted on
  // their own, below, then the result)
  let out = cells(0)
  // as many entries as the last pass over this partition made (no doubling of ten columns on the way)
  const result = () => cells(Math.max(1024, lastEntries.get(s.part) ?? 0))
  // per-event positions (minisites) are indexed by partition event: take them in the copy's order
  const sel = s.sel.eventPos ? { ...s.sel, eventPos: Int32Array.from(g.origin, (i) => s.sel.eventPos![i]!) } : s.sel
  // entry of each cell for the current person (-1: none yet); reset after each person
  const entryOf = new Int32Array(s.nPos * s.nRegions).fill(-1)
  const days = new StampSet()
  let first = 0
  const bump = (person: number, cell: number, click: boolean, hour: number, day: number, pc: boolean) => {
    let j = entryOf[cell]!
    if (j < 0) {
      j = out.n++
      grow(out, out.n, cols)
      entryOf[cell] = j
      out.person[j] = person
      out.cell[j] = cell
    }
    // distinct days per entry and kind: (entry - first of this person, kind, day) seen before?
    const key = ((j - first) * 2 + (click ? 1 : 0)) * 131_072 + day
    const fresh = countDays && days.add(key)
    if (click) {
      out.clicks[j]!++
      if (fresh) out.clkDays[j]!++
      if (day === s.day) out.clicksOnDay[j]!++
      if (hours) out.clkHours[j * 24 + hour]!++
      if (pc) (out.clkPc[j]!++, splitHours && out.pcClkHours[j * 24 + hour]!++)
    } else {
      out.impressions[j]!++
      if (fresh) out.impDays[j]!++
      if (day === s.day) out.impressionsOnDay[j]!++
      if (hours) out.impHours[j * 24 + hour]!++
      if (pc) (out.impPc[j]!++, splitHours && out.pcImpHours[j * 24 + hour]!++)
    }
  }
  /** Counts the person whose events start at `e` into new entries; returns where the next person's start. */
  const countPerson = (e: number): number => {
    const person = g.person[e]!
    first = out.n
    for (; e < g.n && g.person[e] === person; e++) {
      const pos = positionOf(sel, g, e)
      if (pos < 0) continue
      const click = g.kind[e] === sel.clkKind
      const pc = split && flagPlatform(g.flags[e]!) === PLATFORM.pc
      const a = s.homeFirst[person]!
      const b = s.homeSecond[person]!
      if (a >= 0) bump(person, pos * s.nRegions + a, click, g.hour[e]!, g.day[e]!, pc)
      if (b >= 0) bump(person, pos * s.nRegions + b, click, g.hour[e]!, g.day[e]!, pc)
    }
    for (let j = first; j < out.n; j++) entryOf[out.cell[j]!] = -1
    days.clear()
    return e
  }
  if (prev && g.base) {
    // a panel person's hit that changes none of this spec's counts (another window, position or
    // class): the result before, and whatever was kept for it downstream
    out = cells(64)
    for (const person of g.base.persons) countPerson(firstAtLeast(g.person, person))
    if (sameEntriesOf(g.base.persons, prev, out, cols)) {
      keptCells.keep(g, key!, s.homeFirst, s.homeSecond, prev)
      return prev
    }
    out = result()
    walkUpdate(prev, g.base.persons, (from, to) => copyEntries(prev, from, to, out, cols), (person) => countPerson(firstAtLeast(g.person, person)))
    // (one step back only, as the copies of panel events: a chain would keep every older result alive)
    derivations.delete(prev)
    derivations.set(out, { prev, persons: g.base.persons })
  } else {
    out = result()
    for (let e = 0; e < g.n; ) e = countPerson(e)
  }
  lastEntries.set(s.part, out.n)
  if (key !== null) keptCells.keep(g, key, s.homeFirst, s.homeSecond, out)
  return out
}

/** Whether `counted` (the entries of `persons` alone, counted again) holds exactly their entries in `prev`. */
function sameEntriesOf(persons: Int32Array, prev: PersonCells, counted: PersonCells, cols: Columns): boolean {
  let at = 0
  for (const person of persons) {
    const from = firstAtLeast(prev.person.subarray(0, prev.n), person)
    let to = from
    while (to < prev.n && prev.person[to] === person) to++
    let end = at
    while (end < counted.n && counted.person[end] === person) end++
    if (end - at !== to - from) return false
    for (const k of cols.one) for (let j = 0; j < to - from; j++) if (prev[k][from + j] !== counted[k][at + j]) return false
    for (const k of cols.hourly) for (let j = 0; j < (to - from) * 24; j++) if (prev[k][from * 24 + j] !== counted[k][at * 24 + j]) return false
    at = end
  }
  return at === counted.n
}

/**
 * Brings a result up to date from `prev` for `persons` (ascending), in entry order: entries are
 * grouped by person, persons ascending, so the others' entries are copied in blocks (`copy` of
 * prev's entries [from, to)) and each of `persons` counted again (`recount`) where it goes.
 */
export function walkUpdate(prev: { n: number; person: Int32Array }, persons: Int32Array, copy: (from: number, to: number) => void, recount: (person: number) => void): void {
  let j = 0
  for (const person of persons) {
    let end = j
    while (end < prev.n && prev.person[end]! < person) end++
    copy(j, end)
    j = end
    while (j < prev.n && prev.person[j] === person) j++
    recount(person)
  }
  copy(j, prev.n)
}

/** A result brought up to date from the one before (walkUpdate), and for which persons. */
export interface Derivation {
  prev: PersonCells
  persons: Int32Array
}

const derivations = new WeakMap<PersonCells, Derivation>()

/** How `c` was made from the result before it, when it was brought up to date (else undefined): results computed per entry follow it. */
export const derivationOf = (c: PersonCells): Derivation | undefined => derivations.get(c)

/**
 * personCells results kept while their partition's panel events are unchanged: most hits are not
 * a panel person's (a panel of 20,000 persons among a million identities), and a report after them
 * would count the same events again (reach/show by target over the bench's 10M events spent about
 * half of a cold answer there). A result is valid for the grouped copy it was counted from
 * (panelEventsOf makes a new one when a panel person's event comes, or the partition is
 * renumbered) and for the same spec: selector, cells, day, counts, and home cells compared whole;
 * the result of the copy a new one was merged from is brought up to date by personCells.
 */
export class KeptCells {
  /** Least recently used first. */
  private entries: { g: PanelEvents; key: string; homeFirst: Int32Array; homeSecond: Int32Array; out: PersonCells; bytes: number }[] = []

  constructor(private readonly limit: number) {}

  find(g: PanelEvents, key: string, homeFirst: Int32Array, homeSecond: Int32Array): PersonCells | undefined {
    const k = this.entries.findIndex((e) => e.g === g && e.key === key && sameValues(e.homeFirst, homeFirst) && sameValues(e.homeSecond, homeSecond))
    if (k < 0) return undefined
    const e = this.entries.splice(k, 1)[0]!
    this.entries.push(e)
    return e.out
  }

  keep(g: PanelEvents, key: string, homeFirst: Int32Array, homeSecond: Int32Array, out: PersonCells): void {
    // the same spec over another copy: almost always the copy these panel events were merged from
    // (the spec names the campaign's spots), whose result was just brought up to date into `out`
    // and is not asked for again; at worst a recount
    this.entries = this.entries.filter((e) => e.g === g || e.key !== key)
    // (the copy of the panel events counts too, although entries may share it: an entry keeps it
    // alive, also once its partition is gone, as after a rebuild; and so does the copy it was
    // merged from, which it keeps alive through `base`; and the result `out` was brought up to
    // date from, which it keeps alive for the results computed per entry: derivationOf)
    const bytes = [out, g, g.base?.g, derivations.get(out)?.prev].reduce((n, o) => n + viewBytes(o), 8 * homeFirst.length)
    this.entries.push({ g, key, homeFirst: homeFirst.slice(), homeSecond: homeSecond.slice(), out, bytes })
    let total = this.bytes
    while (total > this.limit && this.entries.length > 1) total -= this.entries.shift()!.bytes
  }

  /** Memory held by the kept results, as counted against the limit. */
  get bytes(): number {
    return this.entries.reduce((n, e) => n + e.bytes, 0)
  }

  get size(): number {
    return this.entries.length
  }
}

/** Bytes of the typed arrays an object holds directly (0 for none). */
const viewBytes = (o: object | undefined): number => (o ? Object.values(o).reduce<number>((n, v) => n + (ArrayBuffer.isView(v) ? v.byteLength : 0), 0) : 0)

/** Memory of kept results with their copies of panel events: a reach by target over the bench's 10M events is about 8 MiB. */
const keptCells = new KeptCells(64 * 2 ** 20)

/** Entries of the last personCells pass per partition: the next one's starting capacity. */
const lastEntries = new WeakMap<Partition, number>()

/** Projected figures of a cell from its persons (those the `include` filter keeps). */
export interface Projection {
  impressions: number
  clicks: number
  /** Weighted persons with at least n impressions, n = 1..10 ([0] is 1+). */
  reach: Float64Array
  /** Persons (unweighted) with at least n impressions. */
  sample: Uint32Array
  clickers: number
  clickerSample: number
  impHours: Float64Array
  clkHours: Float64Array
  /** Weighted person-days with an impression / a click (for daily averages). */
  impPersonDays: number
  clkPersonDays: number
}

export function emptyProjection(): Projection {
  return {
    impressions: 0, clicks: 0, reach: new Float64Array(10), sample: new Uint32Array(10), clickers: 0, clickerSample: 0,
    impHours: new Float64Array(24), clkHours: new Float64Array(24), impPersonDays: 0, clkPersonDays: 0,
  }
}
