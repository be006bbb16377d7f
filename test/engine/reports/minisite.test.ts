// spec §4.4 basic/show_minisite and realtime/show_minisite; docs/metrics.md (minisite metrics and credit)
import { beforeAll, describe, expect, it } from 'vitest'
import { fromBase62 } from '../../../engine/contract/base62'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { addDays, wall, type Dataset } from './dataset'
import { PATHS, SEEDS, ask, buildAll, combinations, compare, noDifferences } from './helpers'
import { facts, minisiteRealtime, minisiteShow } from './oracle'

let sets: Map<number, Dataset>
beforeAll(async () => {
  sets = await buildAll()
})

describe('reports.basic_show_minisite', () => {
  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      const ds = () => sets.get(seed)!

      for (const by of ['total', 'campaign', 'publisher', 'spot'] as const) {
        it(`matches the oracle with by_position=${by} for every audience and region level`, async () => {
          const d = ds().dates
          const diffs: string[] = []
          for (const site of ds().minisites) for (const x of combinations({ by_audience: ['overall', 'stable', 'target'], by_region: ['level0', 'level1', 'level2', 'level3'], date: [d.middle, d.late] })) {
            diffs.push(...(await compare(ds(), PATHS.basicMinisite, { minisite_id: site.minisite_id, by_position: by, metrics: 'all', ...x }, minisiteShow)))
          }
          noDifferences(diffs)
        })
      }

      it('matches the oracle on every kind of date and metrics value', async () => {
        const d = ds().dates
        const diffs: string[] = []
        for (const site of ds().minisites) for (const x of combinations({ date: [d.beforeStart, d.first, d.today, d.end, d.afterEnd, '2025-02-12'], metrics: ['acc', 'day', 'all'], by_position: ['total', 'spot'] })) {
          diffs.push(...(await compare(ds(), PATHS.basicMinisite, { minisite_id: site.minisite_id, ...x }, minisiteShow)))
        }
        noDifferences(diffs)
      })

      it('keeps only the requested campaigns, publishers, spots, events, regions and targets', async () => {
        const [A, B] = ds().campaigns as [Dataset['campaigns'][number], Dataset['campaigns'][number]]
        const m2 = ds().minisites[1]!
        const pubs = [...new Set(A.spots.map((s) => s.publisher_id))]
        const diffs: string[] = []
        for (const extra of [
          { by_position: 'campaign', campaign_id: B.campaign_id },
          { by_position: 'publisher', campaign_id: A.campaign_id, publisher_id: pubs[0]! },
          { by_position: 'spot', spot_id: [...A.spots.slice(0, 2), B.spots[0]!].map((s) => s.spot_id).join(',') },
          { by_position: 'spot', publisher_id: pubs.slice(1).join(',') },
          { event_id: m2.events[1]!.event_id },
          { by_region: 'level1', region_id: '000000000000001156440000,000000000000001156810000' },
          { by_region: 'level2', region_id: '000000000000001156440300' },
          { by_audience: 'target', target_id: A.targets[0]!.target_id, by_position: 'campaign' },
          { by_audience: 'target', target_id: B.targets[0]!.target_id },
        ]) diffs.push(...(await compare(ds(), PATHS.basicMinisite, { minisite_id: m2.minisite_id, date: ds().dates.late, metrics: 'all', ...extra }, minisiteShow)))
        noDifferences(diffs)
      })

      it('answers no items with by_region=level3 (the IP library locates to cities at most)', async () => {
        const r = await ask(ds(), PATHS.basicMinisite, { minisite_id: ds().minisites[0]!.minisite_id, date: ds().dates.late, by_region: 'level3' })
        expect(r.status).toBe(200)
        expect(r.body.items).toEqual([])
      })
    })
  }
})

describe('reports.realtime_show_minisite', () => {
  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      const ds = () => sets.get(seed)!

      it('matches the oracle on every day for every position and metrics value', async () => {
        const diffs: string[] = []
        const f = facts(ds())
        const days = [...new Set(ds().events.filter((e) => e.kind === 'evt').map((e) => f.day[e.seq]!))].sort()
        for (const site of ds().minisites) for (const date of [addDays(days[0]!, -1), ...days]) {
          for (const by of ['total', 'campaign', 'publisher', 'spot']) diffs.push(...(await compare(ds(), PATHS.realtimeMinisite, { minisite_id: site.minisite_id, date, by_position: by, metrics: 'all' }, minisiteRealtime)))
        }
        for (const x of combinations({ metrics: ['day', 'hrs'], by_position: ['campaign', 'spot'] })) {
          diffs.push(...(await compare(ds(), PATHS.realtimeMinisite, { minisite_id: ds().minisites[0]!.minisite_id, date: ds().dates.middle, ...x }, minisiteRealtime)))
        }
        const m2 = ds().minisites[1]!
        diffs.push(...(await compare(ds(), PATHS.realtimeMinisite, { minisite_id: m2.minisite_id, date: ds().dates.middle, by_position: 'campaign', campaign_id: ds().campaigns[1]!.campaign_id, event_id: m2.events[0]!.event_id }, minisiteRealtime)))
        noDifferences(diffs)
      })
    })
  }
})

/**
 * Small scenarios, each isolating one rule of minisite credit (metrics.md). Before them the
 * minisite gets 300 filler events (an event of its own, never asked for), so that the scenarios do
 * not fall among a minisite's first 256 events (see the first test).
 */
describe('minisite credit', () => {
  let t: TestEngine
  let A = ''
  let B = ''
  let spotA = ''
  let spotA2 = ''
  let spotB = ''
  let site = ''
  let fresh = ''
  const ev: Record<string, string> = {}
  const pcUa = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
  const amid = (n: number) => `${'c'.repeat(28)}${String(n).padStart(4, '0')}`
  let loggedInAt = 0
  /** A token that has not expired (tags move the clock). */
  const freshToken = async () => {
    if (t.clock.now() - loggedInAt > 30 * 60_000) (t.token = await t.login()), (loggedInAt = t.clock.now())
  }
  const importLines = async (lines: object[]) => {
    await freshToken()
    const r = await t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'ndjson' }, body: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
    expect(JSON.parse(r.body)).toMatchObject({ state: 'done', rejected: 0 })
  }
  const tag = async (path: string, cookie: number, at: number) => {
    t.clock.advance(at - t.clock.now())
    const r = await t.engine.handle({ method: 'GET', path, query: {}, rawQuery: '', headers: { 'user-agent': pcUa, cookie: `amid=${amid(cookie)}` }, remoteAddress: '127.0.0.1' })
    expect(r.headers['x-admonitor-counted']).toBe('1')
  }
  const spotTag = async (kind: 'x' | 'r', campaign: string, spot: string, cookie: number, at: number) => tag(`/${kind}/k=${campaign}&p=${spot}&o=`, cookie, at)
  /** The items of the day D (metrics=day), global region, of the listed events. */
  const report = async (by: string, date: string, events: string[]) => {
    await freshToken()
    const r = await t.get(PATHS.basicMinisite, { minisite_id: site, date, by_position: by, metrics: 'day', region_id: '000000000000000000000000', event_id: events.join(',') })
    expect(r.status, r.raw.body).toBe(200)
    const items = r.body.items as { attributes: Record<string, string>; metrics: Record<string, number> }[]
    return items.filter((i) => i.metrics.evt_day! > 0).map((i) => [i.attributes.event_id, i.attributes.campaign_id ?? '', i.attributes.spot_id_str ?? '', i.metrics.evt_day]).sort()
  }

  beforeAll(async () => {
    t = await makeEngine({ today: '2025-01-09' })
    loggedInAt = t.clock.now()
    const campaign = async (name: string) => (await t.post('/cms/v1/campaigns/create', { campaign_name: name, start_date: '2025-01-12', end_date: '2025-01-25' })).body.campaign_id as string
    A = await campaign('credit A')
    B = await campaign('credit B')
    const spot = async (cid: string) => (await t.post('/cms/v1/campaigns/create_spot', { campaign_id: cid, publisher_name: 'Sina', channel_name: 'news', placement_name: 'banner' })).body.spot_id_str as string
    spotA = await spot(A)
    spotA2 = await spot(A)
    spotB = await spot(B)
    site = (await t.post('/local/v1/minisites/create', { minisite_name: 'credit site', campaign_id: A, events: 'filler,home,buy' })).body.minisite_id
    fresh = (await t.post('/local/v1/minisites/create', { minisite_name: 'fresh site', campaign_id: A, events: 'home' })).body.minisite_id
    const list = (await t.get('/local/v1/minisites/list')).body as { minisite_id: string; events: { event_id: string; event_name: string }[] }[]
    for (const e of list.find((m) => m.minisite_id === site)!.events) ev[e.event_name] = e.event_id
    await importLines(Array.from({ length: 300 }, (_, i) => ({ type: 'event', ts: wall(`2025-01-10T08:00:00`) + i * 1000, minisite_id: site, event_id: ev.filler, identity: `amid:${'f'.repeat(28)}${String(i).padStart(4, '0')}`, user_agent: pcUa, platform: 'pc' })))
  })

  it("counts a minisite's first events (fewer than 256)", async () => {
    const home = ((await t.get('/local/v1/minisites/list')).body as { minisite_id: string; events: { event_id: string }[] }[]).find((m) => m.minisite_id === fresh)!.events[0]!.event_id
    await importLines([1, 2, 3].map((i) => ({ type: 'event', ts: `2025-01-11T10:0${i}:00+08:00`, minisite_id: fresh, event_id: home, identity: `amid:${amid(900 + i)}`, user_agent: pcUa, platform: 'pc' })))
    const r = await t.get(PATHS.basicMinisite, { minisite_id: fresh, date: '2025-01-11', region_id: '000000000000000000000000' })
    // (the universe: the global region of the campaign's panel, here its synthetic population, whose
    // weights add up to China's internet population, 1,099,670,000: docs/panel.md)
    expect(r.body.items).toEqual([{ attributes: { audience: 'overall', event_id: home, region_id: '000000000000000000000000', universe: 1_099_670_000 }, metrics: { evt_acc: 3, uev_acc: 3 } }])
  })

  it('answers rows in id order, not the order their first events came in (a rebuild changes that: paging moved rows)', async () => {
    const ordered = (await t.post('/local/v1/minisites/create', { minisite_name: 'order site', campaign_id: A, events: 'home' })).body.minisite_id as string
    const home = ((await t.get('/local/v1/minisites/list')).body as { minisite_id: string; events: { event_id: string }[] }[]).find((m) => m.minisite_id === ordered)!.events[0]!.event_id
    // the later spot's event first
    await importLines([spotA2, spotA].map((spot, i) => ({ type: 'event', ts: `2025-01-12T10:0${i}:00+08:00`, minisite_id: ordered, event_id: home, campaign_id: A, ...(i === 0 ? { spot_id: fromBase62(spot) } : { spot_id_str: spot }), identity: `amid:${amid(950 + i)}`, user_agent: pcUa, platform: 'pc' })))
    const r = await t.get(PATHS.basicMinisite, { minisite_id: ordered, date: '2025-01-12', by_position: 'spot', region_id: '000000000000000000000000' })
    expect(r.body.items.map((i: { attributes: { spot_id_str: string } }) => i.attributes.spot_id_str)).toEqual([spotA, spotA2])
    const page = await t.get(PATHS.basicMinisite, { minisite_id: ordered, date: '2025-01-12', by_position: 'spot', region_id: '000000000000000000000000', limit: '0,1' })
    expect(page.body.items.map((i: { attributes: { spot_id_str: string } }) => i.attributes.spot_id_str)).toEqual([spotA])
  })

  it('refuses a campaign_id filter naming no campaign with invalid_campaign_id; a campaign not linked answers no rows', async () => {
    for (const path of [PATHS.basicMinisite, PATHS.realtimeMinisite]) {
      const none = await t.get(path, { minisite_id: site, date: '2025-01-13', by_position: 'campaign', campaign_id: '999' })
      expect([none.status, none.body.error, none.body.error_description]).toEqual([400, 'invalid_campaign_id', "The 'campaign_id' 999 cannot be found."])
      const unlinked = await t.get(path, { minisite_id: site, date: '2025-01-13', by_position: 'campaign', campaign_id: B })
      expect([unlinked.status, unlinked.body.items]).toEqual([200, []])
    }
  })

  it('credits an imported event to a click earlier in the same import file', async () => {
    await importLines([
      { type: 'click', ts: '2025-01-13T10:00:00+08:00', campaign_id: A, spot_id_str: spotA, identity: `amid:${amid(1)}`, user_agent: pcUa, platform: 'pc' },
      { type: 'event', ts: '2025-01-13T11:00:00+08:00', minisite_id: site, event_id: ev.home, identity: `amid:${amid(1)}`, user_agent: pcUa, platform: 'pc' },
    ])
    expect(await report('spot', '2025-01-13', [ev.home!])).toEqual([[ev.home, A, spotA, 1]])
  })

  it('credits the latest click on a linked campaign, not a later click on a campaign the minisite is not linked to', async () => {
    await spotTag('r', A, spotA, 2, wall('2025-01-14T10:00:00'))
    await spotTag('r', B, spotB, 2, wall('2025-01-14T10:30:00'))
    await tag(`/e/m=${site}&ev=${ev.buy}`, 2, wall('2025-01-14T11:00:00'))
    expect(await report('spot', '2025-01-14', [ev.buy!])).toEqual([[ev.buy, A, spotA, 1]])
  })

  it('credits the latest click before a later impression, and a k= campaign without a touch with no spot', async () => {
    await spotTag('r', A, spotA, 3, wall('2025-01-15T10:00:00'))
    await spotTag('x', A, spotA, 3, wall('2025-01-15T10:20:00'))
    await tag(`/e/m=${site}&ev=${ev.home}`, 3, wall('2025-01-15T11:00:00'))
    await tag(`/e/m=${site}&ev=${ev.buy}&k=${A}`, 4, wall('2025-01-15T12:00:00'))
    const events = [ev.home!, ev.buy!]
    expect(await report('total', '2025-01-15', events)).toEqual([[ev.buy, '', '', 1], [ev.home, '', '', 1]].sort())
    expect(await report('campaign', '2025-01-15', events)).toEqual([[ev.buy, A, '', 1], [ev.home, A, '', 1]].sort())
    expect(await report('spot', '2025-01-15', events)).toEqual([[ev.home, A, spotA, 1]])
  })

  it('credits the spot a tag names with k= and p= (as an imported line naming them), and by the k= rule when p= is no spot of it', async () => {
    await spotTag('x', A, spotA, 7, wall('2025-01-17T10:00:00'))
    await tag(`/e/m=${site}&ev=${ev.buy}&k=${A}&p=${spotA2}`, 7, wall('2025-01-17T11:00:00'))
    await tag(`/e/m=${site}&ev=${ev.home}&k=${A}&p=${spotB}`, 7, wall('2025-01-17T12:00:00'))
    await tag(`/e/m=${site}&ev=${ev.filler}&p=${spotA2}`, 7, wall('2025-01-17T13:00:00'))
    expect(await report('spot', '2025-01-17', [ev.buy!, ev.home!, ev.filler!])).toEqual([[ev.buy, A, spotA2, 1], [ev.home, A, spotA, 1], [ev.filler, A, spotA, 1]].sort())
  })

  it('credits an imported event naming only campaign_id as a tag naming only k=: its latest touch on that campaign, else the campaign without a spot', async () => {
    // (the line and the tag are credited alike)
    await spotTag('x', A, spotA2, 8, wall('2025-01-18T10:00:00'))
    await tag(`/e/m=${site}&ev=${ev.buy}&k=${A}`, 8, wall('2025-01-18T11:00:00'))
    await importLines([
      { type: 'impression', ts: '2025-01-18T10:00:00+08:00', campaign_id: A, spot_id_str: spotA2, identity: `amid:${amid(9)}`, user_agent: pcUa, platform: 'pc' },
      { type: 'event', ts: '2025-01-18T11:00:00+08:00', minisite_id: site, event_id: ev.home, campaign_id: A, identity: `amid:${amid(9)}`, user_agent: pcUa, platform: 'pc' },
      { type: 'event', ts: '2025-01-18T12:00:00+08:00', minisite_id: site, event_id: ev.filler, campaign_id: A, identity: `amid:${amid(10)}`, user_agent: pcUa, platform: 'pc' },
    ])
    const events = [ev.buy!, ev.home!, ev.filler!]
    expect(await report('spot', '2025-01-18', events)).toEqual([[ev.buy, A, spotA2, 1], [ev.home, A, spotA2, 1]].sort())
    expect(await report('campaign', '2025-01-18', events)).toEqual([[ev.buy, A, '', 1], [ev.home, A, '', 1], [ev.filler, A, '', 1]].sort())
  })

  it('answers a HEAD request of an event tag without counting it', async () => {
    t.clock.advance(wall('2025-01-19T10:00:00') - t.clock.now())
    const r = await t.engine.handle({ method: 'HEAD', path: `/e/m=${site}&ev=${ev.home}`, query: {}, rawQuery: '', headers: { 'user-agent': pcUa, cookie: `amid=${amid(8)}` }, remoteAddress: '127.0.0.1' })
    expect([r.status, r.headers['x-admonitor-counted']]).toEqual([200, '0; a HEAD request, which shows no ad'])
    expect(await report('total', '2025-01-19', [ev.home!])).toEqual([])
  })

  it('reads m and ev as the codes write them: 01, 1.0 or 0x1 names nothing', async () => {
    const get = async (query: string) => (await t.engine.handle({ method: 'GET', path: `/e/${query}`, query: {}, rawQuery: '', headers: { 'user-agent': pcUa, cookie: `amid=${amid(9)}` }, remoteAddress: '127.0.0.1' })).headers['x-admonitor-counted']
    expect(await get(`m=0${site}&ev=${ev.home}`)).toBe(`0; minisite 0${site} does not exist`)
    for (const bad of [`0${ev.home}`, `${ev.home}.0`, `0x${Number(ev.home).toString(16)}`]) expect(await get(`m=${site}&ev=${bad}`)).toBe(`0; event ${bad} is not an event of minisite ${site}`)
    expect(await get(`m=${site}&ev=${ev.home}`)).toBe('1')
  })

  it('credits touches within 30 days only', async () => {
    await spotTag('x', A, spotA, 5, wall('2025-01-16T09:00:00'))
    await spotTag('x', A, spotA, 6, wall('2025-01-18T09:00:00'))
    await tag(`/e/m=${site}&ev=${ev.home}`, 5, wall('2025-02-16T10:00:00')) // 31 days after its impression
    await tag(`/e/m=${site}&ev=${ev.home}`, 6, wall('2025-02-16T11:00:00')) // 29 days after
    expect(await report('total', '2025-02-16', [ev.home!])).toEqual([[ev.home, '', '', 2]])
    expect(await report('spot', '2025-02-16', [ev.home!])).toEqual([[ev.home, A, spotA, 1]])
  })
})
