// spec §4.4 basic/show; docs/metrics.md: every figure recomputed by brute force over the raw events
import { beforeAll, describe, expect, it } from 'vitest'
import type { Dataset } from './dataset'
import { PATHS, SEEDS, ask, buildAll, combinations, compare, noDifferences } from './helpers'
import { NAMES, basicMetricNames, basicShow, facts, itemKey, levelRows, reachShow } from './oracle'

const POSITIONS = ['campaign', 'publisher', 'spot', 'keyword'] as const
const AUDIENCES = ['overall', 'stable', 'target'] as const
const LEVELS = ['level0', 'level1', 'level2'] as const
const PLATFORMS = ['pc', 'mb', 'pm'] as const

let sets: Map<number, Dataset>
beforeAll(async () => {
  sets = await buildAll()
})

const A = (ds: Dataset) => ds.campaigns[0]!
const B = (ds: Dataset) => ds.campaigns[1]!

describe('the report dataset', () => {
  it('gives every event the invalid-traffic class it was built to have, and the engine holds every event sent', async () => {
    for (const ds of sets.values()) {
      const f = facts(ds)
      const wrong = ds.events.filter((e) => f.cls[e.seq] !== e.expect).map((e) => `${e.seq} ${e.identity} ${e.note}: ${f.cls[e.seq]} != ${e.expect}`)
      expect(wrong).toEqual([])
      expect(ds.events.filter((e) => e.expect === 'abnormal').length).toBe(43) // 10 + 10 + 20 (straddling a boundary) impressions, 3 clicks
      const status = await ds.t.get('/local/v1/measurement/status')
      expect(status.body.events).toBe(ds.events.length)
      for (const c of ds.campaigns) {
        const sent = ds.events.filter((e) => e.kind !== 'evt' && e.campaign_id === c.campaign_id).length
        expect(status.body.campaigns.find((x: { campaign_id: string }) => x.campaign_id === c.campaign_id).events).toBe(sent)
      }
    }
  })
})

describe('the report dataset covers', () => {
  it('every way of sending a hit and every case of the rules, for every seed', () => {
    for (const ds of sets.values()) {
      const f = facts(ds)
      const ev = ds.events
      const has = (what: string, test: (e: (typeof ev)[number]) => boolean, min = 1) => expect(ev.filter(test).length, `seed ${ds.seed}: ${what}`).toBeGreaterThanOrEqual(min)
      const tags = (e: (typeof ev)[number]) => e.via === 'tag'
      has('impressions, clicks and minisite events through the tags', (e) => tags(e) && e.kind === 'imp', 50)
      has('clicks through the tags', (e) => tags(e) && e.kind === 'clk', 5)
      has('minisite events through the tags', (e) => tags(e) && e.kind === 'evt', 3)
      has('keyword tags', (e) => tags(e) && e.keyword_id !== '', 5)
      has('SDK impressions through the tags (sdk=)', (e) => tags(e) && e.kind === 'imp' && e.sdk !== 'none', 5)
      has('SDK clicks through the tags (user agent token)', (e) => tags(e) && e.kind === 'clk' && e.sdk !== 'none')
      has('OAID devices through the tags', (e) => tags(e) && e.identity.startsWith('oaid:'))
      has('bots through the tags', (e) => tags(e) && e.bot)
      has('data centres through the tags', (e) => tags(e) && e.dc)
      has('hits located by the socket address', (e) => tags(e) && e.ip === '')
      has('imported lines located by region_id', (e) => !tags(e) && e.byRegionColumn, 1000)
      has('imported lines located by ip', (e) => !tags(e) && !e.byRegionColumn && !e.dc, 100)
      has('imported lines identified by ip and user agent', (e) => e.hashIdentity, 50)
      for (const ip of ['202.96.134.133', '61.135.169.121', '73.21.131.233', '202.45.84.58']) has(`hits from ${ip}`, (e) => e.ip === ip)
      has('province-level locations', (e) => e.region_id === '000000000000001156440000')
      has('mainland-level locations', (e) => e.region_id === '000000000000000000000008')
      has('hits before the start', (e) => e.kind !== 'evt' && f.day[e.seq]! < '2025-01-12', 20)
      has('hits after the end', (e) => e.kind !== 'evt' && f.day[e.seq]! > '2025-01-25', 20)
      has('PC hits of the stable audience', (e) => e.platform === 'pc' && f.stable[e.seq]! && e.kind !== 'evt', 100)
      has('PC hits outside the stable audience', (e) => e.platform === 'pc' && !f.stable[e.seq] && e.kind !== 'evt', 100)
      has('hits of every hour', (e) => f.hour[e.seq] === 0)
      has('hits of every hour', (e) => f.hour[e.seq] === 23)
      has('credited minisite events', (e) => e.kind === 'evt' && f.credit[e.seq] !== null, 30)
      has('uncredited minisite events', (e) => e.kind === 'evt' && f.credit[e.seq] === null, 10)
      has('minisite events credited to a campaign without a spot', (e) => e.kind === 'evt' && f.credit[e.seq]?.spot_id === '')
      has('bot minisite events', (e) => e.kind === 'evt' && e.bot)
      const panel = ds.panels.get(ds.campaigns[0]!.panel_id)!
      const devices = new Set(panel.persons.flatMap((p) => p.devices.map((d) => d.device)))
      has('hits of panel persons', (e) => devices.has(e.identity), 500)
      expect(panel.persons.some((p) => p.devices.length === 0)).toBe(true)
      expect(panel.persons.some((p) => p.home_region === '000000000000001156810000')).toBe(true)
      expect(panel.persons.some((p) => p.devices.length > 1)).toBe(true)
    }
  })
})

describe('reports.basic_show', () => {
  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      const ds = () => sets.get(seed)!

      for (const by of POSITIONS) {
        it(`matches the oracle with by_position=${by} for every audience, region level, platform and filtration (metrics=all)`, async () => {
          const diffs: string[] = []
          for (const c of combinations({ by_audience: AUDIENCES, by_region: LEVELS, platform: PLATFORMS, filtration_type: ['net', 'totalnet'] })) {
            // both filtrations on pm; net on pc and totalnet on mb
            if ((c.platform === 'pc' && c.filtration_type === 'totalnet') || (c.platform === 'mb' && c.filtration_type === 'net')) continue
            diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.today, by_position: by, metrics: 'all', ...c }, basicShow)))
          }
          noDifferences(diffs)
        })
      }

      it('matches the oracle on every kind of date: before the start, the first day, mid-way, the end, after the end, weeks later', async () => {
        const d = ds().dates
        const diffs: string[] = []
        for (const date of [d.beforeStart, d.first, d.middle, d.end, d.afterEnd, d.late]) {
          for (const c of combinations({ by_position: ['campaign', 'spot'], by_audience: AUDIENCES, by_region: ['level1'], platform: ['pm'], filtration_type: ['net', 'totalnet'] })) {
            diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date, metrics: 'all', ...c }, basicShow)))
          }
          diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date, metrics: 'all', by_position: 'keyword', platform: 'pm' }, basicShow)))
        }
        noDifferences(diffs)
      })

      it('answers no items when the date is before the start, and day figures of 0 after the end', async () => {
        const before = await ask(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.beforeStart, metrics: 'all', platform: 'pm' })
        expect(before.status).toBe(200)
        expect(before.body.items).toEqual([])
        const after = await ask(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.afterEnd, metrics: 'all', platform: 'pm' })
        expect(after.body.items.length).toBeGreaterThan(0)
        for (const item of after.body.items) {
          expect(item.metrics.imp_acc).toBeGreaterThan(0)
          expect([item.metrics.imp_day, item.metrics.clk_day, item.metrics.uim_day, item.metrics.ucl_day]).toEqual([0, 0, 0, 0])
        }
      })

      it('answers exactly the metrics of each metrics value', async () => {
        const diffs: string[] = []
        for (const c of combinations({ metrics: ['acc', 'day', 'avg_day', 'acc_hrs', 'all'], by_audience: AUDIENCES, by_position: ['campaign', 'publisher'], platform: ['pc', 'mb'] })) {
          if (c.metrics === 'day' && c.by_audience === 'target') continue // refused (combinations.test.ts)
          const p = { campaign_id: A(ds()).campaign_id, date: ds().dates.middle, ...c }
          const r = await ask(ds(), PATHS.basic, p)
          for (const item of r.body.items) expect(Object.keys(item.metrics).sort()).toEqual([...basicMetricNames(c.metrics, c.by_audience)].sort())
          diffs.push(...(await compare(ds(), PATHS.basic, p, basicShow)))
        }
        noDifferences(diffs)
        expect(basicMetricNames('all', 'overall').length).toBe(NAMES.basicAcc.length * 3 + 48)
      })

      it('lists the cells without data, every metric null, with with_null=1', async () => {
        const diffs: string[] = []
        const some2 = levelRows(ds(), 'level2').filter((_, i) => i % 40 === 0).join(',')
        for (const c of combinations({ by_position: ['campaign', 'spot', 'keyword'], by_audience: AUDIENCES, by_region: ['level0', 'level1'] })) {
          diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.today, metrics: 'acc', with_null: '1', ...c }, basicShow)))
        }
        for (const audience of AUDIENCES) {
          diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.today, metrics: 'all', with_null: '1', by_region: 'level2', region_id: some2, by_audience: audience, platform: 'mb' }, basicShow)))
        }
        diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.today, with_null: '1', by_region: 'level2', by_position: 'spot' }, basicShow)))
        diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.beforeStart, with_null: '1', by_region: 'level1', by_position: 'publisher', metrics: 'all' }, basicShow)))
        noDifferences(diffs)
        const r = await ask(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.today, with_null: '1', by_region: 'level2', by_position: 'spot' })
        expect(r.body.items.length).toBe(A(ds()).spots.length * levelRows(ds(), 'level2').length)
      })

      it('keeps only the requested publishers, spots, keywords, targets and regions', async () => {
        const c = A(ds())
        const pubs = [...new Set(c.spots.map((s) => s.publisher_id))]
        const kwSpots = c.spots.filter((s) => s.keywords.length > 0)
        const requests: Record<string, string>[] = [
          { by_position: 'publisher', publisher_id: pubs[0]! },
          { by_position: 'spot', publisher_id: pubs.slice(1).join(',') },
          { by_position: 'spot', spot_id: c.spots.filter((_, i) => i % 2 === 0).map((s) => s.spot_id).join(',') },
          { by_position: 'keyword', spot_id: kwSpots[0]!.spot_id },
          { by_position: 'keyword', keyword_id: [kwSpots[0]!.keywords[0]!, kwSpots[1]!.keywords.at(-1)!].join(',') },
          { by_position: 'keyword', publisher_id: kwSpots[1]!.publisher_id, keyword_id: kwSpots[1]!.keywords[0]! },
          { by_audience: 'target', target_id: c.targets[1]!.target_id },
          { by_audience: 'target', by_position: 'spot', target_id: c.targets.map((t) => t.target_id).join(','), spot_id: c.spots[0]!.spot_id },
          { by_region: 'level0', region_id: '000000000000000000000008' },
          { by_region: 'level1', region_id: '000000000000001156440000,000000000000001156810000,000000000000001156110000' },
          { by_region: 'level2', region_id: '000000000000001156440300,000000000000001156310100,000000000000001156429004', by_position: 'spot' },
          { by_region: 'level2', region_id: '000000000000001156440300', by_audience: 'target', with_null: '1' },
        ]
        const diffs: string[] = []
        for (const extra of requests) for (const platform of ['pc', 'pm']) {
          diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: c.campaign_id, date: ds().dates.today, metrics: 'all', platform, ...extra }, basicShow)))
        }
        noDifferences(diffs)
      })

      it('counts only the hits of one SDK with sdk=mm or sdk=mz (platform=mb)', async () => {
        const diffs: string[] = []
        for (const c of combinations({ sdk: ['mm', 'mz', 'all'], by_position: ['campaign', 'publisher'], by_audience: ['overall', 'stable'], by_region: ['level0', 'level2'] })) {
          diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.today, platform: 'mb', metrics: 'acc', ...c }, basicShow)))
        }
        for (const sdk of ['mm', 'mz']) for (const by of ['spot', 'keyword']) {
          diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.end, platform: 'mb', metrics: 'all', sdk, by_position: by, filtration_type: 'totalnet' }, basicShow)))
        }
        noDifferences(diffs)
      })

      it('counts only the hits of one SDK in target rows too (sdk=mm, by_audience=target)', async () => {
        const diffs: string[] = []
        for (const sdk of ['mm', 'mz']) for (const by of ['campaign', 'spot']) {
          diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: A(ds()).campaign_id, date: ds().dates.today, platform: 'mb', metrics: 'all', sdk, by_position: by, by_audience: 'target' }, basicShow)))
        }
        noDifferences(diffs)
      })

      it('pages spots with limit M,N (spot, keyword) and publishers (publisher)', async () => {
        const c = A(ds())
        const n = c.spots.length
        const nPub = new Set(c.spots.map((s) => s.publisher_id)).size
        const diffs: string[] = []
        for (const by of ['spot', 'keyword']) for (const limit of ['0,1', `0,${n}`, `${n - 1},1`, '2,3', `1,${n - 1}`]) {
          diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: c.campaign_id, date: ds().dates.today, by_position: by, limit, platform: 'pm', metrics: 'all' }, basicShow)))
        }
        for (const limit of ['0,1', `1,${nPub - 1}`]) diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: c.campaign_id, date: ds().dates.today, by_position: 'publisher', limit, platform: 'pm' }, basicShow)))
        diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: c.campaign_id, date: ds().dates.today, by_position: 'spot', limit: '0,2', publisher_id: c.spots[0]!.publisher_id }, basicShow)))
        noDifferences(diffs)
      })

      it('carries the synthetic universes on a campaign whose panel has no persons', async () => {
        const c = B(ds())
        const diffs: string[] = []
        for (const x of combinations({ by_position: ['campaign', 'spot'], by_audience: ['overall', 'stable'], by_region: ['level0', 'level1'], platform: PLATFORMS })) {
          diffs.push(...(await compare(ds(), PATHS.basic, { campaign_id: c.campaign_id, date: ds().dates.today, metrics: 'all', ...x }, basicShow)))
        }
        noDifferences(diffs)
        const r = await ask(ds(), PATHS.basic, { campaign_id: c.campaign_id, date: ds().dates.today, platform: 'pm' })
        expect(r.body.items.length).toBeGreaterThan(0)
        for (const item of r.body.items) expect(item.attributes.universe).toBeGreaterThan(0)
        expect(r.body.panel).toEqual({ panel_id: c.panel_id, persons: 20_000, synthetic: true })
        const target = await ask(ds(), PATHS.basic, { campaign_id: c.campaign_id, date: ds().dates.today, platform: 'pm', by_audience: 'target' })
        expect(target.body.items).toEqual([])
        expect(target.body.panel).toMatchObject({ panel_id: c.panel_id, persons: 20_000, synthetic: true })
      })

      it('lists target cells with the synthetic universes and null metrics when the panel has no persons and with_null=1', async () => {
        const c = B(ds())
        noDifferences(await compare(ds(), PATHS.basic, { campaign_id: c.campaign_id, date: ds().dates.today, platform: 'pm', by_audience: 'target', with_null: '1' }, basicShow))
      })

      it('gives each target row the persons it rests on (base), counted from the raw events', async () => {
        const c = ds().campaigns[0]!
        const p = { campaign_id: c.campaign_id, date: ds().dates.today, platform: 'pm', by_audience: 'target', by_position: 'spot', filtration_type: 'totalnet' }
        const r = await ask(ds(), PATHS.basic, p)
        const reach = reachShow(ds(), { ...p, metrics: 'spl' })
        expect(r.body.items.length).toBeGreaterThan(0)
        let clickers = 0
        for (const item of r.body.items) {
          const w = reach.items.find((x) => itemKey(x.attributes) === itemKey(item.attributes))
          expect(item.base.uim).toBe(w?.metrics.rch_spl_p01 ?? 0)
          clickers += item.base.ucl
        }
        expect(clickers).toBeGreaterThan(0)
      })
    })
  }
})
