/**
 * The panel kernel: one pass over a partition's events that keeps those of panel persons, and
 * counts them per person and cell (metrics.md: reach, GRP, projected target figures and audience
 * composition). A person with several devices is one person; cells are position x the region of
 * the person's home.
 */
import type { Partition } from '../measure/columns'
import { ensure } from '../measure/grow'
import { positionOf, type Selector } from './selector'

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

/** Counts of one person in one cell. */
export interface PersonCell {
  person: number
  cell: number
  impressions: number
  clicks: number
  impressionsOnDay: number
  clicksOnDay: number
  /** Impressions by hour of day, and the distinct days with an impression / a click. */
  impHours: Uint32Array
  clkHours: Uint32Array
  impDays: Set<number>
  clkDays: Set<number>
}

/** Events of panel persons in a partition, remembered per partition version and panel. */
const panelEvents = new WeakMap<Partition, { n: number; generation: number; personOf: Int32Array; events: Uint32Array; count: number }>()

function eventsOfPersons(p: Partition, personOf: Int32Array): { events: Uint32Array; count: number } {
  let c = panelEvents.get(p)
  if (!c || c.personOf !== personOf || c.n > p.n || c.generation !== p.generation) c = { n: 0, generation: p.generation, personOf, events: new Uint32Array(1024), count: 0 }
  for (let i = c.n; i < p.n; i++) {
    if ((personOf[p.identity[i]!] ?? -1) < 0) continue
    c.events = ensure(c.events, c.count + 1)
    c.events[c.count++] = i
  }
  c.n = p.n
  panelEvents.set(p, c)
  return c
}

/** Every (person, cell) with a counted event, keyed person * nCells + cell. */
export function personCells(s: PersonSpec): Map<number, PersonCell> {
  const out = new Map<number, PersonCell>()
  const p = s.part
  const nCells = s.nPos * s.nRegions
  const bump = (person: number, cell: number, click: boolean, hour: number, day: number) => {
    const key = person * nCells + cell
    let c = out.get(key)
    if (!c) {
      c = { person, cell, impressions: 0, clicks: 0, impressionsOnDay: 0, clicksOnDay: 0, impHours: new Uint32Array(24), clkHours: new Uint32Array(24), impDays: new Set(), clkDays: new Set() }
      out.set(key, c)
    }
    if (click) (c.clicks++, c.clkHours[hour]!++, c.clkDays.add(day), day === s.day && c.clicksOnDay++)
    else (c.impressions++, c.impHours[hour]!++, c.impDays.add(day), day === s.day && c.impressionsOnDay++)
  }
  const { events, count } = eventsOfPersons(p, s.personOf)
  for (let e = 0; e < count; e++) {
    const i = events[e]!
    const person = s.personOf[p.identity[i]!]!
    const pos = positionOf(s.sel, p, i)
    if (pos < 0) continue
    const d = p.day[i]!
    const click = p.kind[i] === s.sel.clkKind
    const a = s.homeFirst[person]!
    const b = s.homeSecond[person]!
    if (a >= 0) bump(person, pos * s.nRegions + a, click, p.hour[i]!, d)
    if (b >= 0) bump(person, pos * s.nRegions + b, click, p.hour[i]!, d)
  }
  return out
}

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

/** Adds one person's counts in a cell to that cell's projection. */
export function project(into: Projection, c: PersonCell, weight: number): void {
  into.impressions += c.impressions * weight
  into.clicks += c.clicks * weight
  for (let n = 1; n <= 10 && n <= c.impressions; n++) {
    into.reach[n - 1]! += weight
    into.sample[n - 1]!++
  }
  if (c.clicks > 0) {
    into.clickers += weight
    into.clickerSample++
  }
  for (let h = 0; h < 24; h++) {
    into.impHours[h]! += c.impHours[h]! * weight
    into.clkHours[h]! += c.clkHours[h]! * weight
  }
  into.impPersonDays += c.impDays.size * weight
  into.clkPersonDays += c.clkDays.size * weight
}
