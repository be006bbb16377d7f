// renderer/src/reports/load.ts: what the screen loads, through a fake caller
import { describe, expect, it } from 'vitest'
import type { EndpointId } from '../../../engine/contract/endpoints'
import type { Params } from '../../../renderer/src/api/client'
import { completing, loadContext, loadTrend, mapLimit, type Caller } from '../../../renderer/src/reports/load'
import type { Coverage } from '../../../renderer/src/reports/paging'
import { buildView } from '../../../renderer/src/reports/params'
import { defaultPickers } from '../../../renderer/src/reports/pickers'
import { env } from './fixtures'

function fake(answers: Partial<Record<EndpointId, (p: Params) => unknown>>): { call: Caller; calls: [EndpointId, Params][] } {
  const calls: [EndpointId, Params][] = []
  const call = (async (id: EndpointId, p: Params = {}) => {
    calls.push([id, p])
    const a = answers[id]
    if (!a) throw new Error(`unexpected ${id}`)
    return a(p)
  }) as Caller
  return { call, calls }
}

describe('loadContext', () => {
  it('loads the campaign, spots with plans, names, today, progress per filtration and its minisites', async () => {
    const { call, calls } = fake({
      'campaigns.show': () => ({ campaign_id: '7', linked_panels: [] }),
      'campaigns.list_spots': () => [],
      'campaigns.list_publishers': () => [],
      'campaigns.list_targets': () => [],
      'local.status': () => ({ today: '2026-03-06' }),
      'reports.basic_progress': (p) => ({ date: p.filtration_type === 'net' ? '2026-03-05' : '2026-03-04', campaign_id: 7 }),
      'minisites.list': () => [{ minisite_id: '1', campaign_ids: ['7'] }, { minisite_id: '2', campaign_ids: ['8'] }],
    })
    const ctx = await loadContext(call, '7')
    expect(ctx.today).toBe('2026-03-06')
    expect(ctx.progress).toEqual({ net: '2026-03-05', totalnet: '2026-03-04' })
    expect(ctx.minisites.map((m) => m.minisite_id)).toEqual(['1'])
    expect(calls.find(([id]) => id === 'campaigns.list_spots')![1]).toMatchObject({ campaign_id: '7', show_plan: 1 })
  })
})

describe('mapLimit', () => {
  it('keeps the order and never runs more than the limit at once', async () => {
    let running = 0
    let most = 0
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
      running++
      most = Math.max(most, running)
      await new Promise((r) => setTimeout(r, n))
      running--
      return n * 10
    })
    expect(out).toEqual([50, 10, 40, 20, 30])
    expect(most).toBe(2)
  })
})

describe('loadTrend', () => {
  it('asks the basic report of every date in one range request, and keys the answers by date', async () => {
    const { call, calls } = fake({ 'reports.basic_days': () => ({ reports: [{ date: '2026-03-01', items: [] }, { date: '2026-03-02', items: [] }] }) })
    const [r] = buildView(defaultPickers(), 'trend', env)
    const out = await loadTrend(call, r!, ['2026-03-01', '2026-03-02'])
    expect([...out.keys()]).toEqual(['2026-03-01', '2026-03-02'])
    expect(calls).toHaveLength(1)
    expect(calls[0]![1]).toMatchObject({ start_date: '2026-03-01', end_date: '2026-03-02', campaign_id: '7' })
    expect(calls[0]![1]).not.toHaveProperty('date')
    expect(calls[0]![1]).not.toHaveProperty('metrics')
  })

  it('asks a trend longer than the range endpoint takes (367 days) in consecutive ranges, and keys every date', async () => {
    // the engine's limit: a range of more than 367 days is refused naming end_date
    const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000 + 1
    const { call, calls } = fake({
      'reports.basic_days': (p) => {
        const [from, to] = [String(p.start_date), String(p.end_date)]
        if (days(from, to) > 367) throw new Error("The 'end_date' leaves more than 367 days after start_date")
        return { reports: Array.from({ length: days(from, to) }, (_, i) => ({ date: new Date(Date.parse(from) + i * 86_400_000).toISOString().slice(0, 10), items: [] })) }
      },
    })
    const [r] = buildView(defaultPickers(), 'trend', env)
    const dates = Array.from({ length: 800 }, (_, i) => new Date(Date.parse('2025-01-01') + i * 86_400_000).toISOString().slice(0, 10))
    const out = await loadTrend(call, r!, dates)
    expect([...out.keys()]).toEqual(dates)
    expect([...out.entries()].every(([d, a]) => a.date === d)).toBe(true)
    expect(calls.map(([, p]) => [p.start_date, p.end_date])).toEqual([['2025-01-01', '2026-01-02'], ['2026-01-03', '2027-01-04'], ['2027-01-05', '2027-03-11']])
  })

  it('asks nothing for no dates', async () => {
    const { call, calls } = fake({})
    const [r] = buildView(defaultPickers(), 'trend', env)
    expect((await loadTrend(call, r!, [])).size).toBe(0)
    expect(calls).toHaveLength(0)
  })
})

describe('completing', () => {
  const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ attributes: { spot_id: String(from + i + 1) }, metrics: { imp_acc: 1 } }))
  // an API that answers the first 500 spots without limit, and the page asked with one
  const api = () => fake({
    'reports.basic_show': (p) => {
      const [m, n] = p.limit ? String(p.limit).split(',').map(Number) : [0, 500]
      return { total_spot_num: 620, items: rows(m!, Math.min(n!, 620 - m!)) }
    },
  })

  it('tells that an answer is cut to the first 500 spots', async () => {
    const { call } = api()
    const seen: (Coverage | null)[] = []
    const r = (await completing(call, { all: false, spots: [], seen: (c) => seen.push(c) })('reports.basic_show', { by_position: 'spot', campaign_id: '7' })) as { items: unknown[] }
    expect(r.items).toHaveLength(500)
    expect(seen).toEqual([{ unit: 'spots', shown: 500, total: 620 }])
  })

  it('fetches every spot with a limit the API accepts when asked for all', async () => {
    const { call, calls } = api()
    const seen: (Coverage | null)[] = []
    const r = (await completing(call, { all: true, spots: [], seen: (c) => seen.push(c) })('reports.basic_show', { by_position: 'spot', campaign_id: '7' })) as { items: unknown[]; total_spot_num: number }
    expect(r.items).toHaveLength(620)
    expect(calls.map(([, p]) => p.limit)).toEqual([undefined, '0,620'])
    expect(seen).toEqual([null])
  })

  it("checks and completes each day of a range request from the same pages", async () => {
    const { call, calls } = fake({
      'reports.basic_days': (p) => {
        const [m, n] = p.limit ? String(p.limit).split(',').map(Number) : [0, 500]
        const day = () => ({ total_spot_num: 620, items: rows(m!, Math.min(n!, 620 - m!)) })
        return { reports: [day(), day()] }
      },
    })
    const seen: (Coverage | null)[] = []
    const cut = (await completing(call, { all: false, spots: [], seen: (c) => seen.push(c) })('reports.basic_days', { by_position: 'spot', campaign_id: '7' })) as { reports: { items: unknown[] }[] }
    expect(cut.reports.map((r) => r.items.length)).toEqual([500, 500])
    expect(seen).toEqual([{ unit: 'spots', shown: 500, total: 620 }])
    const whole = (await completing(call, { all: true, spots: [], seen: () => {} })('reports.basic_days', { by_position: 'spot', campaign_id: '7' })) as { reports: { items: unknown[] }[] }
    expect(whole.reports.map((r) => r.items.length)).toEqual([620, 620])
    expect(calls.map(([, p]) => p.limit)).toEqual([undefined, undefined, '0,620'])
  })

  it('sends no limit where the API refuses one (campaign rows)', async () => {
    const { call, calls } = api()
    await completing(call, { all: true, spots: [], seen: () => {} })('reports.basic_show', { by_position: 'campaign', campaign_id: '7' })
    expect(calls).toHaveLength(1)
  })
})
