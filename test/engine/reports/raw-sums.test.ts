// The calibration's raw projection (engine/reports/raw-sums.ts): per position, platform and kind,
// the persons' weight units summed over their counted events. Brought up to date as panel persons'
// events come, its sums must be those a pass over every event of a fresh partition gives, to the
// last bit (a rebuild answers the same), with weights of many decimals, whose float sums depend
// on their order; and they must be the sums a count by hand gives.
import { describe, expect, it } from 'vitest'
import { Partition } from '../../../engine/measure/columns'
import type { PanelIndex } from '../../../engine/measure/panel/types'
import { IVT, KIND, PLATFORM, packFlags } from '../../../engine/measure/types'
import { rawSums } from '../../../engine/reports/raw-sums'
import { AD_KINDS, flagTable, type Selector } from '../../../engine/reports/selector'
import { prng } from '../../helpers/prng'

const FROM = 20_000
const IDENTITIES = 400
const PERSONS = 80
/** Identities below 160 are panel persons' devices (two each); the rest are not. */
const personOf = Int32Array.from({ length: IDENTITIES }, (_, i) => (i < 2 * PERSONS ? i % PERSONS : -1))

type Ev = [day: number, kind: number, spot: number, identity: number, pc: boolean]

/** Only the fields rawSums reads: a panel's persons and their weight units. */
function panelOf(units: number[]): PanelIndex {
  return { panelId: 'test', size: units.length, units: Float64Array.from(units), unit: 1 } as unknown as PanelIndex
}

function selector(): Selector {
  // spots 1..3 at positions 0..2; spot 4 outside the report
  return { from: FROM, to: FROM + 6, ...AD_KINDS, flagOk: flagTable({ platforms: 3, sdk: 0, stableOnly: false, filtration: 'net' }), spotBase: 0, spotPos: Int32Array.from([-1, 0, 1, 2, -1]), spotDc: new Uint8Array(5), keywordPos: null, eventPos: null }
}

const flagsOf = (e: Ev) => packFlags({ ivt: IVT.valid, stable: false, platform: e[4] ? PLATFORM.pc : PLATFORM.mb, sdk: 0 })
const build = (events: readonly Ev[]) => {
  const part = new Partition()
  for (const e of events) part.add(e[0], 12, e[1], flagsOf(e), 0, e[2], 0, e[3])
  return part
}

/** By hand: each counted event adds its person's weight to its slot. */
function byHand(events: readonly Ev[], panel: PanelIndex, audience: Uint8Array): number[] {
  const sums = new Array<number>(12).fill(0)
  for (const [day, kind, spot, identity, pc] of events) {
    const person = personOf[identity]!
    if (person < 0 || audience[person] !== 1 || day < FROM || day > FROM + 6 || spot < 1 || spot > 3) continue
    sums[(spot - 1) * 4 + (pc ? 0 : 2) + (kind === KIND.click ? 1 : 0)]! += panel.units[person]!
  }
  return sums
}

describe('rawSums', () => {
  it('brought up to date as panel persons\' events come, sums exactly what a pass over a fresh partition sums, and what a count by hand gives', () => {
    const random = prng(11)
    // weights of 17 significant digits, from 0.3 to 40,000: float sums of them depend on their order
    const panel = panelOf(Array.from({ length: PERSONS }, () => 0.3 + random() * 40_000))
    const audience = Uint8Array.from({ length: PERSONS }, (_, p) => (p % 7 === 3 ? 0 : 1))
    const event = (identity: number): Ev => [FROM - 1 + Math.floor(random() * 9), random() < 0.15 ? KIND.click : KIND.impression, 1 + Math.floor(random() * 4), identity, random() < 0.4]
    const events: Ev[] = Array.from({ length: 3000 }, () => event(Math.floor(random() * IDENTITIES)))
    const part = build(events)
    const sel = selector()
    let kept = rawSums(part, personOf, panel, sel, 3, audience)
    let differs = 0
    let unchanged = 0
    for (let round = 0; round < 40; round++) {
      // one to five panel persons' events (one person's several), and others'
      const added: Ev[] = []
      for (let k = 0; k < 1 + (round % 5); k++) added.push(event(round % 3 === 0 ? 17 : Math.floor(random() * 2 * PERSONS)))
      for (let k = 0; k < 10; k++) added.push(event(2 * PERSONS + Math.floor(random() * (IDENTITIES - 2 * PERSONS))))
      for (const e of added) (events.push(e), part.add(e[0], 12, e[1], flagsOf(e), 0, e[2], 0, e[3]))
      const now = rawSums(part, personOf, panel, sel, 3, audience)
      const fresh = rawSums(build(events), personOf, panel, sel, 3, audience)
      expect(Array.from(now), `round ${round}`).toEqual(Array.from(fresh))
      // the sums before (the same object) when the panel persons' events changed none
      const same = Array.from(fresh).every((x, i) => x === kept[i])
      expect(now === kept, `round ${round}: the sums before`).toBe(same)
      unchanged += same ? 1 : 0
      const hand = byHand(events, panel, audience)
      hand.forEach((x, i) => expect(Math.abs(now[i]! - x), `round ${round}, slot ${i}`).toBeLessThanOrEqual(Math.abs(x) * 1e-12))
      differs += hand.filter((x, i) => x !== now[i]).length
      kept = now
    }
    // (the float sums by hand differ from the exact ones in the last bits: the order matters)
    expect(differs).toBeGreaterThan(0)
    // some rounds' panel events were all outside the window or the positions
    expect(unchanged).toBeGreaterThan(0)
    expect(unchanged).toBeLessThan(40)
  })

  it('answers the kept sums while only other identities\' events come', () => {
    const panel = panelOf([1.5, 2.25])
    const audience = Uint8Array.from([1, 1])
    const events: Ev[] = [[FROM, KIND.impression, 1, 0, true], [FROM, KIND.click, 2, 1, false]]
    const part = build(events)
    const first = rawSums(part, personOf, panel, selector(), 3, audience)
    expect(Array.from(first)).toEqual([1.5, 0, 0, 0, 0, 0, 0, 2.25, 0, 0, 0, 0])
    part.add(FROM, 12, KIND.impression, flagsOf([FROM, KIND.impression, 1, 300, true]), 0, 1, 0, 300)
    expect(rawSums(part, personOf, panel, selector(), 3, audience)).toBe(first)
  })
})
