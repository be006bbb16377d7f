// spec §4.4 audience/show_overview and audience/show; docs/metrics.md (panel metrics: uim/ucl, samples, pct, idx)
import { beforeAll, describe, expect, it } from 'vitest'
import type { Dataset } from './dataset'
import { PATHS, SEEDS, ask, buildAll, combinations, compare, noDifferences, refused } from './helpers'
import { audienceOverview, audienceShow } from './oracle'

let sets: Map<number, Dataset>
beforeAll(async () => {
  sets = await buildAll()
})

describe('reports.audience_show_overview', () => {
  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      const ds = () => sets.get(seed)!
      const A = () => ds().campaigns[0]!

      it('matches the oracle by campaign on every kind of date and metrics value', async () => {
        const d = ds().dates
        const diffs: string[] = []
        for (const x of combinations({ date: [d.beforeStart, d.first, d.middle, d.today, d.afterEnd], metrics: ['all', 'acc', 'spl'] })) {
          diffs.push(...(await compare(ds(), PATHS.overview, { campaign_id: A().campaign_id, by_position: 'campaign', ...x }, audienceOverview)))
        }
        noDifferences(diffs)
      })

      it('matches the oracle by publisher and by spot (default limit)', async () => {
        const diffs: string[] = []
        for (const by of ['publisher', 'spot']) for (const date of [ds().dates.middle, ds().dates.afterEnd]) {
          diffs.push(...(await compare(ds(), PATHS.overview, { campaign_id: A().campaign_id, date, by_position: by }, audienceOverview)))
        }
        noDifferences(diffs)
      })

      it('keeps only the requested publishers and spots, and the requested panel', async () => {
        const c = A()
        const pubs = [...new Set(c.spots.map((s) => s.publisher_id))]
        const diffs: string[] = []
        const n = c.spots.length
        for (const extra of [
          { by_position: 'publisher', publisher_id: pubs[0]!, limit: '0,1' },
          { by_position: 'spot', spot_id: c.spots.slice(0, 2).map((s) => s.spot_id).join(','), limit: '0,2' },
          { by_position: 'spot', limit: `0,${n}` },
          { panel_id: c.panel_id },
          { panel_id: 'china-pm-2026' },
        ]) diffs.push(...(await compare(ds(), PATHS.overview, { campaign_id: c.campaign_id, date: ds().dates.today, ...extra }, audienceOverview)))
        noDifferences(diffs)
        expect((await ask(ds(), PATHS.overview, { campaign_id: c.campaign_id, date: ds().dates.today, panel_id: 'china-pm-2026' })).body.items).toEqual([])
      })

      it('answers from the synthetic population, labelled so, for a campaign whose panel has no persons', async () => {
        const c = ds().campaigns[1]!
        const r = await ask(ds(), PATHS.overview, { campaign_id: c.campaign_id, date: ds().dates.today })
        expect(r.status).toBe(200)
        expect(r.body.panel).toMatchObject({ panel_id: c.panel_id, persons: 20_000, synthetic: true })
        // (the dataset's hits are of no synthetic person's device)
        expect(r.body.items).toEqual([])
      })

      it('gives each row the persons it rests on (base), counted from the raw events', async () => {
        const r = await ask(ds(), PATHS.overview, { campaign_id: A().campaign_id, date: ds().dates.today, by_position: 'spot' })
        const want = audienceOverview(ds(), { campaign_id: A().campaign_id, date: ds().dates.today, by_position: 'spot', metrics: 'spl' })
        expect(r.body.items.length).toBeGreaterThan(0)
        for (const item of r.body.items) {
          const w = want.items.find((x) => x.attributes.spot_id === item.attributes.spot_id)!
          expect(item.base).toEqual({ uim: w.metrics.uim_spl, ucl: w.metrics.ucl_spl })
        }
      })
    })
  }
})

describe('reports.audience_show', () => {
  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      const ds = () => sets.get(seed)!
      const A = () => ds().campaigns[0]!

      it('matches the oracle by campaign for every metrics value and tag type selection', async () => {
        const d = ds().dates
        const diffs: string[] = []
        for (const x of combinations({ date: [d.beforeStart, d.first, d.today, d.afterEnd], metrics: ['all', 'pct', 'idx'], type_id: [undefined, 'gender', 'age,city_tier,marital'] })) {
          diffs.push(...(await compare(ds(), PATHS.audience, { campaign_id: A().campaign_id, by_position: 'campaign', ...x }, audienceShow)))
        }
        noDifferences(diffs)
      })

      it('matches the oracle by publisher and by spot (default limit)', async () => {
        const diffs: string[] = []
        for (const by of ['publisher', 'spot']) diffs.push(...(await compare(ds(), PATHS.audience, { campaign_id: A().campaign_id, date: ds().dates.today, by_position: by, type_id: 'gender,age' }, audienceShow)))
        noDifferences(diffs)
      })

      it('answers an index of null for a tag nobody in the panel has, and a row per tag of the panel', async () => {
        const r = await ask(ds(), PATHS.audience, { campaign_id: A().campaign_id, date: ds().dates.today, type_id: 'age' })
        expect(r.status).toBe(200)
        const young = r.body.items.find((i: { attributes: { tag_id: string } }) => i.attributes.tag_id === '0-17Y')
        expect(young.metrics).toEqual({ uim_pct: 0, ucl_pct: 0, uim_idx: null, ucl_idx: null })
        expect(r.body.items.map((i: { attributes: { tag_id: string } }) => i.attributes.tag_id)).toEqual(ds().panels.get(A().panel_id)!.tags.filter((t) => t.type_id === 'age').map((t) => t.tag_id))
      })

      it("refuses a type_id that is not a tag type of the campaign's panel, naming it", async () => {
        refused(await ask(ds(), PATHS.audience, { campaign_id: A().campaign_id, date: ds().dates.today, type_id: 'gender,shoe_size' }), 'type_id')
      })

      it('answers from the synthetic population for a campaign whose panel has no persons', async () => {
        const r = await ask(ds(), PATHS.audience, { campaign_id: ds().campaigns[1]!.campaign_id, date: ds().dates.today })
        expect(r.status).toBe(200)
        expect(r.body.panel).toMatchObject({ persons: 20_000, synthetic: true })
        expect(r.body.items).toEqual([])
      })

      it("gives each tag row its position's exposed and clicking persons as base", async () => {
        const r = await ask(ds(), PATHS.audience, { campaign_id: A().campaign_id, date: ds().dates.today, by_position: 'publisher', type_id: 'gender' })
        const want = audienceOverview(ds(), { campaign_id: A().campaign_id, date: ds().dates.today, by_position: 'publisher', metrics: 'spl' })
        expect(r.body.items.length).toBeGreaterThan(0)
        for (const item of r.body.items) {
          const w = want.items.find((x) => x.attributes.publisher_id === item.attributes.publisher_id)!
          expect(item.base).toEqual({ uim: w.metrics.uim_spl, ucl: w.metrics.ucl_spl })
        }
      })
    })
  }
})
