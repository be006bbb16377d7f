// spec §4.4 (every report parameter and its validity conditions), §2.8 (report items); docs/metrics.md (keyword rows, with_null)
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints, type EndpointId } from '../../../engine/contract/endpoints'
import { validate } from '../../../engine/contract/schema'
import { buildDataset, type Dataset } from './dataset'
import { PATHS, SEEDS, ask, combinations, compare, noDifferences, refused } from './helpers'
import { audienceOverview, audienceShow, basicShow, reachShow, type Item } from './oracle'

const POSITIONS = ['campaign', 'publisher', 'spot', 'keyword'] as const
const AUDIENCES = ['overall', 'stable', 'target'] as const
const LEVELS = ['level0', 'level1', 'level2'] as const
const PLATFORMS = ['pc', 'mb', 'pm'] as const

let ds: Dataset
beforeAll(async () => {
  ds = await buildDataset(SEEDS[0])
})

const A = () => ds.campaigns[0]!
const valid = (id: EndpointId, body: unknown) => validate(endpoints[id].response, body)

describe('every meaningful combination answers 200 with items of the model', () => {
  it('reports.basic_show: by_position x by_audience x by_region x platform with metrics=all; keyword rows only with overall', async () => {
    let withItems = 0
    for (const c of combinations({ by_position: POSITIONS, by_audience: AUDIENCES, by_region: LEVELS, platform: PLATFORMS })) {
      const r = await ask(ds, PATHS.basic, { campaign_id: A().campaign_id, date: ds.dates.today, metrics: 'all', ...c })
      const label = JSON.stringify(c)
      expect(r.status, `${label} ${r.raw.body.slice(0, 200)}`).toBe(200)
      expect(valid('reports.basic_show', r.body), label).toEqual([])
      expect(r.body).toMatchObject({ campaign_id: Number(A().campaign_id), date: ds.dates.today, version: 'V1.0', platform: c.platform, total_spot_num: A().spots.length })
      if (c.by_position === 'keyword' && c.by_audience !== 'overall') expect(r.body.items, label).toEqual([])
      else if (r.body.items.length > 0) withItems++
      for (const item of r.body.items as Item[]) expect(item.attributes.audience).toBe(c.by_audience)
    }
    expect(withItems).toBeGreaterThan(60)
  })

  it('reports.basic_show: keyword rows outside the overall audience stay empty with with_null=1 too', async () => {
    for (const c of combinations({ by_audience: ['stable', 'target'], by_region: LEVELS })) {
      const r = await ask(ds, PATHS.basic, { campaign_id: A().campaign_id, date: ds.dates.today, metrics: 'all', by_position: 'keyword', with_null: '1', ...c })
      expect(r.status).toBe(200)
      expect(r.body.items).toEqual([])
    }
  })

  it('reports.reach_show: by_position x by_audience x by_region x platform x metrics', async () => {
    for (const c of combinations({ by_position: ['campaign', 'publisher', 'spot'], by_audience: AUDIENCES, by_region: LEVELS, platform: PLATFORMS, metrics: ['all', 'acc', 'spl'] })) {
      const r = await ask(ds, PATHS.reach, { campaign_id: A().campaign_id, date: ds.dates.today, ...c })
      expect(r.status, JSON.stringify(c)).toBe(200)
      expect(valid('reports.reach_show', r.body), JSON.stringify(c)).toEqual([])
    }
  })

  it('reports.realtime_show: every position, platform and metrics value', async () => {
    for (const c of combinations({ by_position: ['campaign', 'publisher', 'spot'], platform: PLATFORMS, metrics: ['day', 'hrs', 'all'] })) {
      const r = await ask(ds, PATHS.realtime, { campaign_id: A().campaign_id, date: ds.dates.today, ...c })
      expect(r.status, JSON.stringify(c)).toBe(200)
      expect(valid('reports.realtime_show', r.body)).toEqual([])
    }
  })

  it('reports.audience_show_overview and reports.audience_show: every position and metrics value', async () => {
    for (const by of ['campaign', 'publisher', 'spot']) {
      for (const metrics of ['all', 'acc', 'spl']) {
        const r = await ask(ds, PATHS.overview, { campaign_id: A().campaign_id, date: ds.dates.today, by_position: by, metrics })
        expect(r.status, `overview ${by} ${metrics} ${r.raw.body.slice(0, 200)}`).toBe(200)
        expect(valid('reports.audience_show_overview', r.body)).toEqual([])
      }
      for (const metrics of ['all', 'pct', 'idx']) {
        const r = await ask(ds, PATHS.audience, { campaign_id: A().campaign_id, date: ds.dates.today, by_position: by, metrics })
        expect(r.status, `audience ${by} ${metrics} ${r.raw.body.slice(0, 200)}`).toBe(200)
        expect(valid('reports.audience_show', r.body)).toEqual([])
      }
    }
  })

  it('reports.basic_show_minisite and reports.realtime_show_minisite: every position, audience, region level and metrics value', async () => {
    for (const site of ds.minisites) {
      for (const c of combinations({ by_position: ['total', 'campaign', 'publisher', 'spot'], by_audience: AUDIENCES, by_region: [...LEVELS, 'level3'], metrics: ['acc', 'day', 'all'] })) {
        const r = await ask(ds, PATHS.basicMinisite, { minisite_id: site.minisite_id, date: ds.dates.late, ...c })
        expect(r.status, JSON.stringify(c)).toBe(200)
        expect(valid('reports.basic_show_minisite', r.body)).toEqual([])
      }
      for (const c of combinations({ by_position: ['total', 'campaign', 'publisher', 'spot'], metrics: ['day', 'hrs', 'all'] })) {
        const r = await ask(ds, PATHS.realtimeMinisite, { minisite_id: site.minisite_id, date: ds.dates.middle, ...c })
        expect(r.status, JSON.stringify(c)).toBe(200)
        expect(valid('reports.realtime_show_minisite', r.body)).toEqual([])
      }
    }
  })

  it('reports.basic_show: sdk is taken where the spec says it is valid', async () => {
    for (const c of [
      { metrics: 'all', by_position: 'spot' }, { metrics: 'all', by_position: 'keyword' }, { metrics: 'acc', by_position: 'campaign' }, { metrics: 'acc', by_position: 'publisher' },
    ]) for (const sdk of ['all', 'mm', 'mz']) {
      const r = await ask(ds, PATHS.basic, { campaign_id: A().campaign_id, date: ds.dates.today, platform: 'mb', sdk, ...c })
      expect(r.status, JSON.stringify({ sdk, ...c })).toBe(200)
    }
  })
})

describe('parameters used where the spec says they are not valid are refused, naming them', () => {
  const n = () => A().spots.length
  const kw = () => A().spots.find((s) => s.keywords.length > 0)!
  const base = () => ({ campaign_id: A().campaign_id, date: ds.dates.today })

  it('reports.basic_show', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ publisher_id: A().spots[0]!.publisher_id }, 'publisher_id'],
      [{ by_position: 'campaign', publisher_id: A().spots[0]!.publisher_id }, 'publisher_id'],
      [{ spot_id: A().spots[0]!.spot_id }, 'spot_id'],
      [{ by_position: 'publisher', spot_id: A().spots[0]!.spot_id }, 'spot_id'],
      [{ by_position: 'spot', keyword_id: kw().keywords[0]! }, 'keyword_id'],
      [{ by_position: 'publisher', keyword_id: kw().keywords[0]! }, 'keyword_id'],
      [{ target_id: A().targets[0]!.target_id }, 'target_id'],
      [{ by_audience: 'stable', target_id: A().targets[0]!.target_id }, 'target_id'],
      [{ by_audience: 'target', metrics: 'day' }, 'metrics'],
      [{ sdk: 'mm' }, 'sdk'],
      [{ sdk: 'all' }, 'sdk'],
      [{ sdk: 'all', platform: 'mb', metrics: 'day' }, 'sdk'],
      [{ sdk: 'mz', platform: 'pm', metrics: 'all' }, 'sdk'],
      [{ sdk: 'mm', platform: 'mb', metrics: 'day' }, 'sdk'],
      [{ sdk: 'mm', platform: 'mb', metrics: 'acc', by_position: 'spot' }, 'sdk'],
      [{ sdk: 'mm', platform: 'mb', metrics: 'avg_day', by_position: 'campaign' }, 'sdk'],
      [{ limit: '0,1' }, 'limit'],
      [{ by_position: 'campaign', limit: '0,1' }, 'limit'],
      [{ by_position: 'spot', limit: `${n()},1` }, 'limit'],
      [{ by_position: 'spot', limit: `0,${n() + 1}` }, 'limit'],
      [{ by_position: 'spot', limit: `${n() - 1},2` }, 'limit'],
      [{ by_position: 'keyword', limit: `${n()},1` }, 'limit'],
      [{ by_position: 'spot', publisher_id: A().spots[0]!.publisher_id, limit: `0,${n()}` }, 'limit'],
      [{ region_id: '000000000000001156999999' }, 'region_id'],
      [{ region_id: '000000000000001156440300' }, 'region_id'],
      [{ by_region: 'level1', region_id: '000000000000000000000008' }, 'region_id'],
      [{ by_region: 'level1', region_id: '000000000000001156440000,000000000000001156440300' }, 'region_id'],
      [{ by_region: 'level2', region_id: '000000000000001156440000' }, 'region_id'],
      [{ by_region: 'level2', region_id: '000000000000001156810000' }, 'region_id'],
      [{ order_asc: 'imp_acc', order_desc: 'clk_acc' }, 'order_'],
      [{ order_asc: 'nothing' }, 'order_asc'],
      [{ order_desc: 'imp_day', metrics: 'acc' }, 'order_desc'],
      [{ order_desc: 'imp_day', by_audience: 'target', metrics: 'all' }, 'order_desc'],
      [{ order_asc: 'spot_id', by_position: 'publisher' }, 'order_asc'],
      [{ order_asc: 'keyword_id', by_position: 'spot' }, 'order_asc'],
    ]
    for (const [extra, param] of cases) {
      const r = await ask(ds, PATHS.basic, { ...base(), ...extra })
      expect(r.status, `${JSON.stringify(extra)} ${r.raw.body}`).toBe(400)
      expect(r.body.error, JSON.stringify(extra)).toBe('invalid_request')
      expect(r.body.error_description, JSON.stringify(extra)).toContain(param === 'order_' ? 'order_' : `'${param}'`)
    }
  })

  it('reports.realtime_show, reach_show and the audience reports', async () => {
    const s = A().spots[0]!
    const cases: [string, Record<string, string>, string][] = [
      [PATHS.realtime, { publisher_id: s.publisher_id }, 'publisher_id'],
      [PATHS.realtime, { by_position: 'publisher', spot_id: s.spot_id }, 'spot_id'],
      [PATHS.realtime, { limit: '0,1' }, 'limit'],
      [PATHS.realtime, { by_position: 'spot', limit: `${n()},1` }, 'limit'],
      [PATHS.realtime, { by_position: 'spot', limit: `1,${n()}` }, 'limit'],
      [PATHS.realtime, { order_asc: 'uim_acc' }, 'order_asc'],
      [PATHS.reach, { publisher_id: s.publisher_id }, 'publisher_id'],
      [PATHS.reach, { by_position: 'publisher', spot_id: s.spot_id }, 'spot_id'],
      [PATHS.reach, { target_id: A().targets[0]!.target_id }, 'target_id'],
      [PATHS.reach, { limit: '0,1' }, 'limit'],
      [PATHS.reach, { by_position: 'spot', limit: `0,${n() + 1}` }, 'limit'],
      [PATHS.reach, { by_region: 'level2', region_id: '000000000000001156440000' }, 'region_id'],
      [PATHS.reach, { region_id: 'nowhere' }, 'region_id'],
      [PATHS.reach, { by_position: 'keyword' }, 'by_position'],
      [PATHS.reach, { order_desc: 'imp_day' }, 'order_desc'],
      [PATHS.overview, { publisher_id: s.publisher_id }, 'publisher_id'],
      [PATHS.overview, { by_position: 'publisher', spot_id: s.spot_id }, 'spot_id'],
      [PATHS.audience, { publisher_id: s.publisher_id }, 'publisher_id'],
      [PATHS.audience, { by_position: 'publisher', spot_id: s.spot_id }, 'spot_id'],
      [PATHS.audience, { order_asc: 'uim_acc' }, 'order_asc'],
      [PATHS.audience, { panel_id: 'no-such-panel' }, 'panel_id'],
      [PATHS.overview, { panel_id: 'no-such-panel' }, 'panel_id'],
      [PATHS.audience, { type_id: 'no-such-type' }, 'type_id'],
      // (a panel_id leaving the campaign's panel out answers no rows, but a tag type must still be one)
      [PATHS.audience, { panel_id: ['china-pc-2025', 'china-pm-2025'].find((x) => x !== A().panel_id)!, type_id: 'no-such-type' }, 'type_id'],
    ]
    for (const [path, extra, param] of cases) {
      const r = await ask(ds, path, { ...base(), ...extra })
      expect(r.status, `${path} ${JSON.stringify(extra)} ${r.raw.body}`).toBe(400)
      refused(r, param)
    }
  })

  it("says an order field that is a metric not asked for by 'metrics' is answered only when asked", async () => {
    const hours = await ask(ds, PATHS.realtime, { ...base(), metrics: 'day', order_asc: 'clk_h19' })
    expect(hours.status).toBe(400)
    expect(hours.body.error_description).toMatch(/^The 'order_asc' 'clk_h19' is not an attribute or metric of this answer; one of: .*imp_day, clk_day\. A metric is answered, and can order, only when 'metrics' asks for it \(metrics=all asks for every one\)\.$/)
    const other = await ask(ds, PATHS.realtime, { ...base(), order_asc: 'nothing' })
    expect(other.body.error_description).not.toContain("'metrics' asks for it")
  })

  it('says what limit pages when it runs past the end: spots (total_spot_num) or publishers', async () => {
    const pubs = new Set(A().spots.map((s) => s.publisher_id)).size
    const publisherPage = await ask(ds, PATHS.basic, { ...base(), by_position: 'publisher', limit: `0,${pubs + 1}` })
    expect(publisherPage.body.error_description).toBe(`The 'limit' runs to ${pubs + 1}, past the ${pubs} publishers there are (M+N must not exceed the number of publishers).`)
    const spotPage = await ask(ds, PATHS.realtime, { ...base(), by_position: 'spot', limit: `${n()},1` })
    expect(spotPage.body.error_description).toBe(`The 'limit' starts at ${n()}, but there are ${n()} spots (M must be below total_spot_num).`)
  })

  it('the minisite reports', async () => {
    const m = ds.minisites[1]!
    const s = A().spots[0]!
    const cases: [string, Record<string, string>, string][] = [
      [PATHS.basicMinisite, { campaign_id: A().campaign_id }, 'campaign_id'],
      [PATHS.basicMinisite, { by_position: 'campaign', publisher_id: s.publisher_id }, 'publisher_id'],
      [PATHS.basicMinisite, { by_position: 'publisher', spot_id: s.spot_id }, 'spot_id'],
      [PATHS.basicMinisite, { target_id: A().targets[0]!.target_id }, 'target_id'],
      [PATHS.basicMinisite, { by_region: 'level1', region_id: '000000000000001156440300' }, 'region_id'],
      [PATHS.basicMinisite, { by_region: 'level3', region_id: 'not-a-region' }, 'region_id'],
      [PATHS.basicMinisite, { order_asc: 'imp_acc' }, 'order_asc'],
      [PATHS.realtimeMinisite, { campaign_id: A().campaign_id }, 'campaign_id'],
      [PATHS.realtimeMinisite, { by_position: 'campaign', spot_id: s.spot_id }, 'spot_id'],
      [PATHS.realtimeMinisite, { metrics: 'acc' }, 'metrics'],
    ]
    for (const [path, extra, param] of cases) refused(await ask(ds, path, { minisite_id: m.minisite_id, date: ds.dates.today, ...extra }), param)
  })
})

/** The order the spec's order_asc / order_desc give: stable, nulls last, numeric ids as numbers. */
function ordered(items: Item[], field: string, desc: boolean): Item[] {
  const value = (it: Item) => (field in it.metrics ? it.metrics[field] : it.attributes[field]) ?? null
  const cmp = (x: string | number, y: string | number) => {
    if (typeof x === 'number' && typeof y === 'number') return x - y
    const a = String(x)
    const b = String(y)
    if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0
    return a < b ? -1 : a > b ? 1 : 0
  }
  return items.map((it, i) => ({ it, i })).sort((p, q) => {
    const x = value(p.it)
    const y = value(q.it)
    if (x === null || y === null) return x === y ? p.i - q.i : x === null ? 1 : -1
    const c = cmp(x, y)
    return c !== 0 ? (desc ? -c : c) : p.i - q.i
  }).map((e) => e.it)
}

describe('order_asc and order_desc', () => {
  const cases: [string, Record<string, string>, string][] = [
    [PATHS.basic, { by_position: 'spot', by_region: 'level1', metrics: 'all' }, 'imp_acc'],
    [PATHS.basic, { by_position: 'spot', by_region: 'level1', metrics: 'all' }, 'ucl_day'],
    [PATHS.basic, { by_position: 'keyword', by_region: 'level0', platform: 'pm' }, 'uim_acc'],
    [PATHS.basic, { by_position: 'spot', by_region: 'level2', with_null: '1', platform: 'pm', region_id: '000000000000001156440300,000000000000001156110100,000000000000001156510100,000000000000001156650100' }, 'clk_acc'],
    [PATHS.basic, { by_position: 'spot', by_region: 'level1', with_null: '1', platform: 'pm' }, 'spot_id'],
    [PATHS.basic, { by_position: 'spot', by_region: 'level1', platform: 'pm' }, 'region_id'],
    [PATHS.basic, { by_position: 'keyword', platform: 'pm' }, 'keyword_id'],
    [PATHS.basic, { by_position: 'publisher', by_audience: 'target', by_region: 'level1', with_null: '1', platform: 'pm' }, 'universe'],
    [PATHS.basic, { by_position: 'publisher', by_audience: 'target', by_region: 'level1', platform: 'pm' }, 'target_id'],
    [PATHS.reach, { by_position: 'spot', by_region: 'level1', with_null: '1', platform: 'pm' }, 'grp_acc'],
    [PATHS.reach, { by_position: 'spot', by_region: 'level1', platform: 'pm' }, 'rch_acc_p03'],
    [PATHS.realtime, { by_position: 'spot', platform: 'pm', metrics: 'all' }, 'imp_h10'],
    [PATHS.realtime, { by_position: 'spot', platform: 'pm' }, 'spot_id'],
    [PATHS.audience, { type_id: 'age' }, 'uim_idx'],
  ]
  for (const [path, extra, field] of cases) {
    it(`orders ${path.split('/reports/')[1]} by ${field} ${JSON.stringify(extra)}, ascending and descending, stably, nulls last`, async () => {
      const p = { campaign_id: A().campaign_id, date: ds.dates.today, ...extra }
      const plain = await ask(ds, path, p)
      expect(plain.status, plain.raw.body).toBe(200)
      const items = plain.body.items as Item[]
      expect(items.length).toBeGreaterThan(1)
      expect(new Set(items.map((i) => JSON.stringify(i.attributes[field] ?? i.metrics[field]))).size, 'the field takes several values').toBeGreaterThan(1)
      for (const desc of [false, true]) {
        const r = await ask(ds, path, { ...p, [desc ? 'order_desc' : 'order_asc']: field })
        expect(r.status, r.raw.body).toBe(200)
        expect(r.body.items).toEqual(ordered(items, field, desc))
      }
    })
  }

  it('orders the minisite reports by an attribute and by a metric', async () => {
    const p = { minisite_id: ds.minisites[0]!.minisite_id, date: ds.dates.late, by_position: 'total', by_region: 'level1', metrics: 'all' }
    const plain = (await ask(ds, PATHS.basicMinisite, p)).body.items as Item[]
    expect(plain.length).toBeGreaterThan(1)
    for (const field of ['evt_acc', 'region_id', 'event_id']) for (const desc of [false, true]) {
      const r = await ask(ds, PATHS.basicMinisite, { ...p, [desc ? 'order_desc' : 'order_asc']: field })
      expect(r.status, r.raw.body).toBe(200)
      expect(r.body.items).toEqual(ordered(plain, field, desc))
    }
  })
})

// These change the engine's state: they come last.
describe('figures derived again', () => {
  const requests = (): [string, Record<string, string>][] => [
    [PATHS.basic, { by_position: 'spot', by_region: 'level1', platform: 'pm', metrics: 'all', filtration_type: 'totalnet' }],
    [PATHS.basic, { by_position: 'keyword', by_audience: 'overall', by_region: 'level2', platform: 'mb', metrics: 'all' }],
    [PATHS.basic, { by_position: 'publisher', by_audience: 'stable', platform: 'pc', metrics: 'all' }],
    [PATHS.basic, { by_position: 'spot', by_audience: 'target', by_region: 'level1', platform: 'pm', metrics: 'all' }],
    [PATHS.reach, { by_position: 'spot', by_audience: 'target', by_region: 'level1', platform: 'pm' }],
    [PATHS.reach, { by_position: 'publisher', by_audience: 'stable', by_region: 'level2', platform: 'pm', filtration_type: 'totalnet' }],
    [PATHS.realtime, { by_position: 'spot', platform: 'pm', metrics: 'all' }],
    [PATHS.overview, { by_position: 'campaign' }],
    [PATHS.audience, { by_position: 'campaign' }],
  ]

  it('answers the same figures after POST /local/v1/measurement/rebuild', async () => {
    const before: string[] = []
    for (const [path, p] of requests()) before.push((await ask(ds, path, { campaign_id: A().campaign_id, date: ds.dates.today, ...p })).raw.body)
    const r = await ds.t.post('/local/v1/measurement/rebuild', {})
    expect(r.status, r.raw.body).toBe(200)
    expect(r.body.events).toBe(ds.events.length)
    for (const [i, [path, p]] of requests().entries()) expect((await ask(ds, path, { campaign_id: A().campaign_id, date: ds.dates.today, ...p })).raw.body, `${path} ${JSON.stringify(p)}`).toBe(before[i])
  })

  it('applies a panel imported again to the events already counted', async () => {
    const panel = ds.panels.get(A().panel_id)!
    // keep four persons in five, with new weights and homes every third person
    panel.persons = panel.persons.filter((_, i) => i % 5 !== 4).map((p, i) => ({ ...p, weight: p.weight * 2 + 0.125, home_region: i % 3 === 0 ? '000000000000001156440300' : p.home_region }))
    const body = panel.persons.map((p) => JSON.stringify(p)).join('\n')
    const r = await ds.t.engine.handle({ method: 'POST', path: '/local/v1/panels/persons/import', query: { access_token: ds.t.token, panel_id: panel.panel_id, format: 'ndjson', mode: 'replace' }, body, headers: { 'content-type': 'application/x-ndjson' } })
    expect(r.status, r.body).toBe(200)
    const diffs: string[] = []
    const oracles = { [PATHS.basic]: basicShow, [PATHS.reach]: reachShow, [PATHS.overview]: audienceOverview, [PATHS.audience]: audienceShow } as Record<string, (d: Dataset, p: Record<string, string | undefined>) => { items: Item[] }>
    for (const [path, p] of requests()) if (oracles[path]) diffs.push(...(await compare(ds, path, { campaign_id: A().campaign_id, date: ds.dates.today, ...p }, oracles[path]!)))
    noDifferences(diffs)
  })
})
