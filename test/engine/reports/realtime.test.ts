// spec §4.4 realtime/show; docs/metrics.md (realtime: every class, bots too, global, on the campaign's dates)
import { beforeAll, describe, expect, it } from 'vitest'
import { addDays, type Dataset } from './dataset'
import { PATHS, SEEDS, ask, buildAll, combinations, compare, noDifferences } from './helpers'
import { NAMES, realtimeShow } from './oracle'

let sets: Map<number, Dataset>
beforeAll(async () => {
  sets = await buildAll()
})

const DAYS = Array.from({ length: 19 }, (_, i) => addDays('2025-01-09', i)) // the day before the first hit .. 2025-01-27

describe('reports.realtime_show', () => {
  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      const ds = () => sets.get(seed)!

      it('matches the oracle on every day, before, during and after the campaign (every class; no rows outside its dates)', async () => {
        const diffs: string[] = []
        for (const c of ds().campaigns) for (const date of [...DAYS, ds().dates.late]) {
          diffs.push(...(await compare(ds(), PATHS.realtime, { campaign_id: c.campaign_id, date, by_position: 'spot', platform: 'pm', metrics: 'all' }, realtimeShow)))
        }
        noDifferences(diffs)
      })

      it('matches the oracle for every position, platform and metrics value', async () => {
        const diffs: string[] = []
        const d = ds().dates
        for (const x of combinations({ date: [d.first, d.middle, d.afterEnd], by_position: ['campaign', 'publisher', 'spot'], platform: ['pc', 'mb', 'pm'], metrics: ['day', 'hrs', 'all'] })) {
          diffs.push(...(await compare(ds(), PATHS.realtime, { campaign_id: ds().campaigns[0]!.campaign_id, ...x }, realtimeShow)))
        }
        noDifferences(diffs)
      })

      it('answers exactly the metrics of each metrics value, audience overall and the global region', async () => {
        for (const [metrics, names] of [['day', NAMES.realtimeDay], ['hrs', NAMES.realtimeHrs], ['all', [...NAMES.realtimeDay, ...NAMES.realtimeHrs]]] as const) {
          const r = await ask(ds(), PATHS.realtime, { campaign_id: ds().campaigns[0]!.campaign_id, date: ds().dates.middle, by_position: 'spot', platform: 'pm', metrics })
          expect(r.body.items.length).toBeGreaterThan(0)
          for (const item of r.body.items) {
            expect(Object.keys(item.metrics).sort()).toEqual([...names].sort())
            expect(item.attributes.audience).toBe('overall')
            expect(item.attributes.region_id).toBe('000000000000000000000000')
          }
        }
      })

      it('keeps only the requested publishers and spots, and pages with limit', async () => {
        const c = ds().campaigns[0]!
        const pubs = [...new Set(c.spots.map((s) => s.publisher_id))]
        const n = c.spots.length
        const diffs: string[] = []
        for (const extra of [
          { by_position: 'publisher', publisher_id: pubs[1]! },
          { by_position: 'spot', publisher_id: `${pubs[0]},${pubs[2]}` },
          { by_position: 'spot', spot_id: c.spots.slice(0, 3).map((s) => s.spot_id).join(',') },
          { by_position: 'spot', limit: '0,2' },
          { by_position: 'spot', limit: `${n - 3},3` },
          { by_position: 'publisher', limit: '1,2' },
          { by_position: 'spot', publisher_id: pubs[0]!, limit: '0,1' },
        ]) diffs.push(...(await compare(ds(), PATHS.realtime, { campaign_id: c.campaign_id, date: ds().dates.today, platform: 'pm', metrics: 'all', ...extra }, realtimeShow)))
        noDifferences(diffs)
      })
    })
  }
})
