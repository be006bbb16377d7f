// spec §4.4 reach/show; docs/metrics.md (panel metrics: universe, projected impressions, GRP, n+ reach, samples)
import { beforeAll, describe, expect, it } from 'vitest'
import type { Dataset } from './dataset'
import { PATHS, SEEDS, ask, buildAll, combinations, compare, noDifferences } from './helpers'
import { NAMES, levelRows, reachShow } from './oracle'

const AUDIENCES = ['overall', 'stable', 'target'] as const

let sets: Map<number, Dataset>
beforeAll(async () => {
  sets = await buildAll()
})

describe('reports.reach_show', () => {
  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      const ds = () => sets.get(seed)!
      const A = () => ds().campaigns[0]!

      for (const by of ['campaign', 'publisher', 'spot'] as const) {
        it(`matches the oracle with by_position=${by} for every audience, region level, platform and filtration`, async () => {
          const diffs: string[] = []
          for (const c of combinations({ by_audience: AUDIENCES, by_region: ['level0', 'level1', 'level2'], platform: ['pc', 'mb', 'pm'], filtration_type: ['net', 'totalnet'] })) {
            if ((c.platform === 'pc' && c.filtration_type === 'totalnet') || (c.platform === 'mb' && c.filtration_type === 'net')) continue
            diffs.push(...(await compare(ds(), PATHS.reach, { campaign_id: A().campaign_id, date: ds().dates.today, by_position: by, ...c }, reachShow)))
          }
          noDifferences(diffs)
        })
      }

      it('matches the oracle on every kind of date', async () => {
        const d = ds().dates
        const diffs: string[] = []
        for (const c of combinations({ date: [d.beforeStart, d.first, d.middle, d.end, d.afterEnd], by_position: ['campaign', 'spot'], by_audience: AUDIENCES })) {
          diffs.push(...(await compare(ds(), PATHS.reach, { campaign_id: A().campaign_id, platform: 'pm', by_region: 'level1', filtration_type: 'totalnet', ...c }, reachShow)))
        }
        noDifferences(diffs)
      })

      it('answers exactly the metrics of each metrics value', async () => {
        const diffs: string[] = []
        for (const [metrics, names] of [['acc', NAMES.reachAcc], ['spl', NAMES.reachSpl], ['all', [...NAMES.reachAcc, ...NAMES.reachSpl]]] as const) {
          for (const audience of AUDIENCES) {
            const p = { campaign_id: A().campaign_id, date: ds().dates.today, platform: 'pm', by_position: 'publisher', by_audience: audience, metrics }
            const r = await ask(ds(), PATHS.reach, p)
            expect(r.body.items.length).toBeGreaterThan(0)
            for (const item of r.body.items) expect(Object.keys(item.metrics).sort()).toEqual([...names].sort())
            diffs.push(...(await compare(ds(), PATHS.reach, p, reachShow)))
          }
        }
        noDifferences(diffs)
      })

      it('lists the cells without data with with_null=1, and keeps only the requested spots, publishers, targets and regions', async () => {
        const c = A()
        const pubs = [...new Set(c.spots.map((s) => s.publisher_id))]
        const diffs: string[] = []
        for (const extra of [
          { with_null: '1', by_region: 'level1' },
          { with_null: '1', by_region: 'level1', by_audience: 'target' },
          { with_null: '1', by_region: 'level2', by_position: 'spot', region_id: levelRows(ds(), 'level2').filter((_, i) => i % 50 === 0).join(',') },
          { by_position: 'spot', spot_id: c.spots.slice(1, 4).map((s) => s.spot_id).join(',') },
          { by_position: 'publisher', publisher_id: pubs.slice(0, 2).join(',') },
          { by_position: 'spot', publisher_id: pubs[2]!, by_audience: 'target' },
          { by_audience: 'target', target_id: c.targets.at(-1)!.target_id, by_region: 'level2' },
          { by_region: 'level1', region_id: '000000000000001156440000,000000000000001156810000' },
          { by_region: 'level2', region_id: '000000000000001156440300,000000000000001156110100', by_audience: 'stable' },
          { by_position: 'spot', limit: '1,3' },
          { by_position: 'publisher', limit: '0,2', by_audience: 'target' },
        ]) diffs.push(...(await compare(ds(), PATHS.reach, { campaign_id: c.campaign_id, date: ds().dates.today, platform: 'pm', ...extra }, reachShow)))
        noDifferences(diffs)
      })

      it('answers rch_spl_pNN decreasing with NN, and grp_acc null wherever the universe is 0', async () => {
        const r = await ask(ds(), PATHS.reach, { campaign_id: A().campaign_id, date: ds().dates.today, platform: 'pc', by_region: 'level1', by_position: 'spot' })
        for (const item of r.body.items) {
          if (item.attributes.universe === 0) expect(item.metrics.grp_acc).toBeNull()
          for (let n = 1; n < 10; n++) expect(item.metrics[`rch_spl_p${String(n).padStart(2, '0')}`]).toBeGreaterThanOrEqual(item.metrics[`rch_spl_p${String(n + 1).padStart(2, '0')}`])
        }
      })

      it('answers from the synthetic population, labelled so, for a campaign whose panel has no persons', async () => {
        const c = ds().campaigns[1]!
        const r = await ask(ds(), PATHS.reach, { campaign_id: c.campaign_id, date: ds().dates.today, platform: 'pm' })
        expect(r.status).toBe(200)
        expect(r.body.panel).toMatchObject({ panel_id: c.panel_id, persons: 20_000, synthetic: true })
        // (the dataset's hits are of no synthetic person's device)
        expect(r.body.items).toEqual([])
      })

      it('lists every cell with the synthetic universe and null metrics for a campaign whose panel has no persons, with with_null=1', async () => {
        const r = await ask(ds(), PATHS.reach, { campaign_id: ds().campaigns[1]!.campaign_id, date: ds().dates.today, platform: 'pm', with_null: '1', by_position: 'spot' })
        for (const item of r.body.items) expect(Number.isInteger(item.attributes.universe)).toBe(true)
        noDifferences(await compare(ds(), PATHS.reach, { campaign_id: ds().campaigns[1]!.campaign_id, date: ds().dates.today, platform: 'pm', with_null: '1', by_position: 'spot', by_region: 'level1' }, reachShow))
      })

      it("labels the campaign's own panel as stored, with its calibration factors", async () => {
        const r = await ask(ds(), PATHS.reach, { campaign_id: A().campaign_id, date: ds().dates.today, platform: 'pm' })
        const panel = ds().panels.get(A().panel_id)!
        expect(r.body.panel).toMatchObject({ panel_id: A().panel_id, persons: panel.persons.length, synthetic: false })
        expect(r.body.panel.calibration.pc).toBeGreaterThan(0)
        expect(r.body.panel.calibration.mb).toBeGreaterThan(0)
      })
    })
  }
})
