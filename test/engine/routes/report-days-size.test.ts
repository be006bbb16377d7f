// local reports.basic_days: the whole range's answer is held to the row limit of one basic/show
// answer (MAX_ANSWER_ROWS, about 300 MB of JSON), not each day alone (docs/api.md)
import { describe, expect, it } from 'vitest'
import { makeEngine } from '../../helpers/make-engine'

const PATH = '/local/v1/reports/basic_days'
/** The limit as docs/api.md states it. */
const MAX_ROWS = 250_000

const addDays = (date: string, n: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

describe('reports.basic_days, the size of the answer', () => {
  it('answers a range of up to 250,000 rows in all and refuses one more day, naming end_date', async () => {
    const t = await makeEngine()
    const c = await t.post('/cms/v1/campaigns/create', { campaign_name: 'Wide', start_date: '2025-01-10', end_date: '2025-12-31' })
    const id = String(c.body.campaign_id)
    for (const n of [1, 2, 3]) expect((await t.post('/cms/v1/campaigns/create_spot', { campaign_id: id, publisher_name: 'Pub', channel_name: 'ch', placement_name: `slot ${n}` })).status).toBe(200)
    const wide = { campaign_id: id, by_position: 'spot', by_region: 'level2', with_null: 1 }
    // a day's rows, as basic/show answers them: every spot by every city, with or without data
    const day = await t.get('/admonitor/v1/reports/basic/show', { ...wide, date: '2025-01-10', metrics: 'day' })
    expect(day.status, day.raw.body).toBe(200)
    const perDay = (day.body.items as unknown[]).length
    expect(perDay).toBeGreaterThan(3 * 300)
    const days = Math.floor(MAX_ROWS / perDay)
    const ok = await t.get(PATH, { ...wide, start_date: '2025-01-10', end_date: addDays('2025-01-10', days - 1) })
    expect(ok.status, ok.raw.body.slice(0, 300)).toBe(200)
    expect((ok.body.reports as { items: unknown[] }[]).reduce((n, r) => n + r.items.length, 0)).toBe(days * perDay)
    const over = await t.get(PATH, { ...wide, start_date: '2025-01-10', end_date: addDays('2025-01-10', days) })
    expect(over.status, over.raw.body.slice(0, 300)).toBe(400)
    expect(over.body.error).toBe('invalid_request')
    expect(over.body.error_description).toContain("'end_date'")
    expect(over.body.error_description).toContain(String(MAX_ROWS))
  }, 120_000)
})
