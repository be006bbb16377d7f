// renderer/src/campaign/minisites.ts: the links an update sends, event names as typed, and event
// tags, checked against the engine (the update's result, and the tag counted and credited)
import { describe, expect, it } from 'vitest'
import { eventNames, eventTag, linksWith, splitByLink, tagRows, type MinisiteRecord } from '../../../renderer/src/campaign/minisites'
import { makeEngine } from '../../helpers/make-engine'

const site = (id: string, campaigns: string[], events: [string, string][] = []): MinisiteRecord => ({
  minisite_id: id, minisite_name: `site ${id}`, campaign_ids: campaigns,
  events: events.map(([event_id, event_name]) => ({ event_id, event_name })), event_url: `http://127.0.0.1:8366/e/m=${id}&ev=EVENT`,
})

describe('campaign minisites', () => {
  it('splits the minisites into those linked to the campaign and the others', () => {
    const { linked, others } = splitByLink([site('1', ['7']), site('2', ['8']), site('3', ['7', '8']), site('4', [])], '7')
    expect(linked.map((s) => s.minisite_id)).toEqual(['1', '3'])
    expect(others.map((s) => s.minisite_id)).toEqual(['2', '4'])
  })

  it('links or unlinks the campaign and keeps the other campaigns, in id order', () => {
    expect(linksWith(site('1', ['10', '9']), '7', true)).toBe('7,9,10')
    expect(linksWith(site('1', ['7', '10']), '7', true)).toBe('7,10')
    expect(linksWith(site('1', ['7', '10']), '7', false)).toBe('10')
    expect(linksWith(site('1', ['7']), '7', false)).toBe('')
  })

  it('reads event names one per line or separated by commas, drops blanks and keeps repeats for the engine to refuse', () => {
    expect(eventNames(' home \n\nproduct, checkout ,\r\n')).toEqual(['home', 'product', 'checkout'])
    expect(eventNames('a,a')).toEqual(['a', 'a'])
    expect(eventNames('  \n ')).toEqual([])
  })

  it('writes each event tag, with k= when it credits only this campaign, and one export row per event', () => {
    const s = site('3', ['7'], [['1', 'home'], ['2', 'buy']])
    expect(eventTag(s, s.events[0]!)).toBe('http://127.0.0.1:8366/e/m=3&ev=1')
    expect(eventTag(s, s.events[1]!, '7')).toBe('http://127.0.0.1:8366/e/m=3&ev=2&k=7')
    expect(tagRows([s], '7').map((r) => [r.key, r.event_name, r.tag])).toEqual([
      ['3-1', 'home', 'http://127.0.0.1:8366/e/m=3&ev=1&k=7'],
      ['3-2', 'buy', 'http://127.0.0.1:8366/e/m=3&ev=2&k=7'],
    ])
  })

  it('as the engine takes them: unlinking the last campaign leaves none, and a tag of the engine counts for the k= campaign', async () => {
    const t = await makeEngine()
    const campaign = async (name: string) => (await t.post('/cms/v1/campaigns/create', { campaign_name: name, start_date: '2025-01-10', end_date: '2025-01-25' })).body.campaign_id as string
    const [a, b] = [await campaign('A'), await campaign('B')]
    const id = (await t.post('/local/v1/minisites/create', { minisite_name: 'shop', campaign_id: a, events: eventNames('home\nbuy').join(',') })).body.minisite_id as string
    const list = async () => ((await t.get('/local/v1/minisites/list')).body as MinisiteRecord[]).find((s) => s.minisite_id === id)!
    expect((await t.post('/local/v1/minisites/update', { minisite_id: id, campaign_id: linksWith(await list(), b, true) })).status).toBe(200)
    expect((await list()).campaign_ids).toEqual([a, b])
    const s = await list()
    const tag = new URL(eventTag(s, s.events[1]!, b))
    // a browser that keeps the engine's cookie (a first contact without it waits for the cookie check: docs/attribution.md)
    const r = await t.engine.handle({ method: 'GET', path: tag.pathname, query: {}, rawQuery: tag.search.slice(1), headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36', cookie: 'amid=0123456789abcdef0123456789abcdef' }, remoteAddress: '203.0.113.9' })
    expect(r.headers['x-admonitor-counted']).toBe('1')
    const report = await t.get('/admonitor/v1/reports/basic/show_minisite', { minisite_id: id, date: '2025-01-10', by_position: 'campaign', metrics: 'day', region_id: '000000000000000000000000' })
    expect(report.status, report.raw.body).toBe(200)
    expect(report.body.items.map((i: { attributes: { campaign_id: string; event_id: string } }) => [i.attributes.campaign_id, i.attributes.event_id])).toEqual([[b, s.events[1]!.event_id]])
    for (const c of [a, b]) expect((await t.post('/local/v1/minisites/update', { minisite_id: id, campaign_id: linksWith(await list(), c, false) })).status).toBe(200)
    expect((await list()).campaign_ids).toEqual([])
  })
})
