// The panel kernel (engine/reports/persons.ts): counts per person and cell equal to a count written
// here with Maps, for several specs over the same partition, as events come: a result is kept while
// only identities outside the panel add events, and counted again once a panel person's event comes
// (merged into the copy of panel events grouped by person)
import { describe, expect, it } from 'vitest'
import { Partition } from '../../../engine/measure/columns'
import { KIND, PLATFORM, packFlags, IVT } from '../../../engine/measure/types'
import { KeptCells, personCells, type PanelEvents, type PersonCells, type PersonSpec } from '../../../engine/reports/persons'
import { AD_KINDS, flagTable, type Selector } from '../../../engine/reports/selector'
import { prng } from '../../helpers/prng'

const FROM = 20_000
const IDENTITIES = 300
/** Identities below 120 are panel persons (identity % 60: persons with two devices); the rest are not. */
const personOf = Int32Array.from({ length: IDENTITIES }, (_, i) => (i < 120 ? i % 60 : -1))
/** Home region of each person: 0..3. */
const home = Int32Array.from({ length: 60 }, (_, p) => p % 4)

type Ev = [day: number, hour: number, kind: number, spot: number, identity: number, pc: boolean]

/** An event; identities of even number browse on pc a third of the time, odd ones never. */
function event(random: () => number, identity: number): Ev {
  return [FROM + Math.floor(random() * 10) - 1, Math.floor(random() * 24), random() < 0.2 ? KIND.click : KIND.impression, 1 + Math.floor(random() * 4), identity, identity % 2 === 0 && random() < 1 / 3]
}

const flagsOf = (e: Ev) => packFlags({ ivt: IVT.valid, stable: false, platform: e[5] ? PLATFORM.pc : PLATFORM.mb, sdk: 0 })

function selector(from: number, to: number, spots: number[]): Selector {
  const spotPos = Int32Array.from({ length: 5 }, (_, s) => spots.indexOf(s))
  return { from, to, ...AD_KINDS, flagOk: flagTable({ platforms: 3, sdk: 0, stableOnly: false, filtration: 'none' }), spotBase: 0, spotPos, spotDc: new Uint8Array(5), keywordPos: null, eventPos: null }
}

/** Region cells of a home region: level cells 0..3, and for the parent level one cell for 0-1 and one for 2-3. */
const homes = (parent: boolean, shift = 0) => ({
  homeFirst: Int32Array.from(home, (r) => (parent ? (r < 2 ? 0 : 1) : (r + shift) % 4)),
  homeSecond: new Int32Array(home.length).fill(-1),
  nRegions: parent ? 2 : 4,
})

type Spec = PersonSpec & { hours?: boolean; days?: boolean; split?: boolean; splitHours?: boolean }

const specs = (part: Partition): Spec[] => [
  { part, personOf, sel: selector(FROM, FROM + 7, [1, 2, 3, 4]), nPos: 4, ...homes(false), day: FROM + 3 },
  { part, personOf, sel: selector(FROM, FROM + 7, [1, 2, 3, 4]), nPos: 4, ...homes(true), day: FROM + 3 },
  { part, personOf, sel: selector(FROM + 2, FROM + 4, [1, 2, 3, 4]), nPos: 4, ...homes(false), day: FROM + 3 },
  { part, personOf, sel: selector(FROM + 3, FROM + 7, [1, 2, 3, 4]), nPos: 4, ...homes(false), day: FROM + 3, days: false },
  { part, personOf, sel: selector(FROM + 3, FROM + 7, [1, 2, 3, 4]), nPos: 4, ...homes(false), day: FROM + 3 },
  { part, personOf, sel: selector(FROM, FROM + 7, [2, 4]), nPos: 2, ...homes(false), day: FROM + 3 },
  { part, personOf, sel: selector(FROM, FROM + 7, [2, 4]), nPos: 2, ...homes(false), day: FROM + 3, hours: true },
  { part, personOf, sel: selector(FROM, FROM + 7, [1, 2, 3, 4]), nPos: 4, ...homes(false, 1), day: FROM + 3 },
  { part, personOf, sel: selector(FROM, FROM + 7, [1, 2, 3, 4]), nPos: 4, ...homes(false), day: FROM + 5 },
  { part, personOf, sel: selector(FROM, FROM + 7, [1, 2, 3, 4]), nPos: 4, ...homes(false), day: FROM + 3, split: true },
  { part, personOf, sel: selector(FROM, FROM + 7, [2, 4]), nPos: 2, ...homes(false), day: FROM + 3, hours: true, split: true, splitHours: true },
]

/**
 * By hand: impressions, clicks and those of the day per person and cell, impressions at 05:00,
 * days with an impression, and (split) pc impressions and clicks and pc impressions at 05:00.
 */
function byHand(events: readonly Ev[], s: Spec): Map<string, number[]> {
  const m = new Map<string, number[]>()
  const days = new Set<string>()
  for (const [day, hour, kind, spot, identity, pc] of events) {
    const person = personOf[identity]!
    const pos = s.sel.spotPos[spot]!
    if (person < 0 || day < s.sel.from || day > s.sel.to || pos < 0) continue
    const key = `${person}:${pos * s.nRegions + s.homeFirst[person]!}`
    const c = m.get(key) ?? [0, 0, 0, 0, 0, 0, 0, 0, 0]
    const click = kind === KIND.click ? 1 : 0
    c[click]!++
    if (s.split && pc) c[6 + click]!++
    if (s.splitHours && pc && !click && hour === 5) c[8]!++
    if (day === s.day) c[2 + click]!++
    if (s.hours && !click && hour === 5) c[4]!++
    if (s.days !== false && !click && !days.has(`${key}:${day}`)) (days.add(`${key}:${day}`), c[5]!++)
    m.set(key, c)
  }
  return m
}

const equalMaps = (a: Map<string, number[]>, b: Map<string, number[]>): boolean => a.size === b.size && [...a].every(([k, v]) => b.get(k)?.join() === v.join())

const asMap = (c: PersonCells, s: Spec): Map<string, number[]> => new Map(Array.from({ length: c.n }, (_, j) => [`${c.person[j]}:${c.cell[j]}`,
  [c.impressions[j]!, c.clicks[j]!, c.impressionsOnDay[j]!, c.clicksOnDay[j]!, s.hours ? c.impHours[j * 24 + 5]! : 0, s.days !== false ? c.impDays[j]! : 0,
    s.split ? c.impPc[j]! : 0, s.split ? c.clkPc[j]! : 0, s.splitHours ? c.pcImpHours[j * 24 + 5]! : 0]]))

describe('personCells', () => {
  it('counts what a count by hand gives for each spec, kept while only identities outside the panel add events', () => {
    const random = prng(7)
    const part = new Partition()
    const events: Ev[] = []
    const add = (e: Ev) => (events.push(e), part.add(e[0], e[1], e[2], flagsOf(e), 0, e[3], 0, e[4]))
    for (let i = 0; i < 3000; i++) add(event(random, Math.floor(random() * IDENTITIES)))
    let before = specs(part).map((s) => personCells(s))
    let handBefore = specs(part).map((s) => byHand(events, s))
    let changed = 0
    let reused = 0
    for (let round = 0; round < 24; round++) {
      // even rounds: events of identities outside the panel only; odd rounds: panel persons' too,
      // merged into the grouped copy (one to seven, some of one person, between the others)
      for (let i = 0; i < 20; i++) add(event(random, 120 + Math.floor(random() * (IDENTITIES - 120))))
      if (round % 2 === 1) for (let k = 0; k < 1 + (round % 7); k++) add(event(random, k % 3 === 2 ? 7 : Math.floor(random() * 120)))
      const now = specs(part).map((s) => personCells(s))
      const hand = specs(part).map((s) => byHand(events, s))
      specs(part).forEach((s, k) => expect(asMap(now[k]!, s), `round ${round}, spec ${k}`).toEqual(hand[k]))
      // the result before while no count of the spec changed: always after events outside the
      // panel, and after panel persons' events outside its window or positions
      for (let k = 0; k < now.length; k++) expect(now[k] === before[k], `round ${round}, spec ${k}: the kept result`).toBe(round % 2 === 0 || equalMaps(hand[k]!, handBefore[k]!))
      if (round % 2 === 1) changed += hand.filter((h, k) => !equalMaps(h, handBefore[k]!)).length
      reused += now.filter((c, k) => round % 2 === 1 && c === before[k]).length
      before = now
      handBefore = hand
    }
    // both kinds of panel person's hit happened: those that change a spec's counts, and those that do not
    expect(changed).toBeGreaterThan(0)
    expect(reused).toBeGreaterThan(0)
  })

  it('counts a partition afresh once its events are renumbered (compaction)', () => {
    const random = prng(8)
    const part = new Partition()
    const events: Ev[] = []
    for (let i = 0; i < 2000; i++) {
      const e = event(random, Math.floor(random() * IDENTITIES))
      events.push(e)
      part.add(e[0], e[1], e[2], flagsOf(e), 0, e[3], 0, e[4])
    }
    const s = specs(part)[0]!
    const first = personCells(s)
    part.settle(IDENTITIES, true)
    const again = personCells(s)
    expect(again).not.toBe(first)
    expect(asMap(again, s)).toEqual(byHand(events, s))
  })

  it('counts against its memory limit the copies of panel events its results keep alive, the copy merged from too', () => {
    const copy = (n: number, base?: PanelEvents): PanelEvents => ({
      n, day: new Uint16Array(n), hour: new Uint8Array(n), kind: new Uint8Array(n), flags: new Uint8Array(n), spot: new Uint32Array(n),
      keyword: new Uint32Array(n), person: new Int32Array(n), origin: new Uint32Array(n), ...(base ? { base: { g: base, persons: new Int32Array(1) } } : {}),
    })
    const cells = (n: number): PersonCells => ({
      n, person: new Int32Array(n), cell: new Int32Array(n), impressions: new Uint32Array(n), clicks: new Uint32Array(n), impressionsOnDay: new Uint32Array(n),
      clicksOnDay: new Uint32Array(n), impDays: new Uint32Array(n), clkDays: new Uint32Array(n), impHours: new Uint32Array(0), clkHours: new Uint32Array(0),
      impPc: new Uint32Array(0), clkPc: new Uint32Array(0), pcImpHours: new Uint32Array(0), pcClkHours: new Uint32Array(0),
    })
    const home = new Int32Array(10)
    // a copy is 21 bytes an event; a result 32 bytes an entry (no hours); the home cells 8 bytes a person
    const kept = new KeptCells(10_000)
    const old = copy(100)
    kept.keep(old, 'a', home, home, cells(50))
    expect(kept.bytes).toBe(2100 + 1600 + 80)
    kept.keep(copy(100, old), 'b', home, home, cells(50))
    expect(kept.bytes).toBe(2 * (2100 + 1600 + 80) + 2100)
    // over the limit, the least recently used go first, the newest stays whatever its size
    kept.keep(copy(200, old), 'c', home, home, cells(100))
    expect(kept.size).toBe(1)
    expect(kept.bytes).toBe(4200 + 3200 + 80 + 2100)
  })
})
