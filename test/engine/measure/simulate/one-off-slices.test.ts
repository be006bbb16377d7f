/**
 * The two pieces a simulation makes once per process, a built-in panel's synthetic population and
 * the simulator's address space, are made in slices with a pause between two (simulate/run answers
 * tracking hits there: docs/simulator.md, "Pauses"), and give what one piece gave: the population
 * as the same persons load once stored, every range of the IP library visited once, in order.
 */
import { describe, expect, it } from 'vitest'
import { eachIpv4Range } from '../../../../engine/measure/attribute/ip-ranges'
import { generatePanel } from '../../../../engine/measure/panel/generate'
import { PERSONS_SLICE } from '../../../../engine/measure/panel/generate/persons'
import { loadPanel } from '../../../../engine/measure/panel/index'
import { panelPopulation, reportPanel, syntheticSeed } from '../../../../engine/measure/panel/synthetic'
import { importPersons } from '../../../../engine/measure/panel/import'
import { addressSpaceInSlices, RANGES_SLICE } from '../../../../engine/measure/simulate/address-space'
import { buildRegions } from '../../../../engine/reference/regions'
import { idfa, ndjson, panelDb, person } from '../panel/helpers'

const regions = buildRegions()

/** The pauses of a generator run to its end, and what it returned. */
function run<T>(g: Generator<void, T>): { pauses: number; value: T } {
  let pauses = 0
  let step = g.next()
  for (; !step.done; step = g.next()) pauses++
  return { pauses, value: step.value }
}

describe('panelPopulation', () => {
  it("makes a built-in panel's population in slices, which reportPanel then answers: the generator's persons as they load once stored", async () => {
    const db = await panelDb()
    expect(run(panelPopulation(db, 'china-pm-2026', regions)).pauses).toBe(20_000 / PERSONS_SLICE - 1)
    expect(run(panelPopulation(db, 'china-pm-2026', regions)).pauses).toBe(0)
    const p = reportPanel(db, 'china-pm-2026', regions)!
    generatePanel(db, 'china-pm-2025', 20_000, syntheticSeed('china-pm-2026'))
    const stored = loadPanel(db, 'china-pm-2025', regions)
    for (const k of ['units', 'homeRegion', 'tags', 'platforms'] as const) expect(p[k], k).toEqual(stored[k])
    expect([...p.personOfDevice].sort()).toEqual([...stored.personOfDevice].sort())
  })

  it('makes nothing for a panel with stored persons, an emptied one or one not built in', async () => {
    const db = await panelDb()
    importPersons(db, 'china-pm-2026', ndjson([person('p1', { devices: [{ device: idfa(1), platform: 'mb' }] })]), 'ndjson', 'merge')
    importPersons(db, 'china-pc-2026', '', 'ndjson', 'replace')
    for (const panel of ['china-pm-2026', 'china-pc-2026', 'remote-panel-7']) expect(run(panelPopulation(db, panel, regions)).pauses, panel).toBe(0)
    expect(reportPanel(db, 'china-pm-2026', regions)).toMatchObject({ size: 1 })
  })
})

describe('addressSpaceInSlices', () => {
  it('visits every range of the IP library once, in order, slice by slice', () => {
    const whole: number[] = []
    const total = eachIpv4Range((start) => void whole.push(start))
    expect(total).toBe(whole.length)
    const sliced: number[] = []
    for (let from = 0; from < total; from += RANGES_SLICE) expect(eachIpv4Range((start) => void sliced.push(start), from, RANGES_SLICE)).toBe(total)
    expect(sliced).toEqual(whole)
  })

  it('builds the address space in slices once per region table, then answers it at once', () => {
    const first = run(addressSpaceInSlices(regions))
    let ranges = 0
    eachIpv4Range(() => void ranges++)
    expect(first.pauses).toBe(Math.ceil(ranges / RANGES_SLICE) - 1)
    const again = run(addressSpaceInSlices(regions))
    expect(again.pauses).toBe(0)
    expect(again.value).toBe(first.value)
    expect(first.value.datacentre.empty || first.value.foreign.empty).toBe(false)
  })
})
