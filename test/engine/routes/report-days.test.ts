// local reports.basic_days: every day of a range as basic/show with metrics=day answers it (docs/api.md)
import { beforeAll, describe, expect, it } from 'vitest'
import { addDays, buildDataset, type Dataset } from '../reports/dataset'
import { refused } from '../reports/helpers'
import { basicShow, diffItems, type Item, type Params } from '../reports/oracle'

const PATH = '/local/v1/reports/basic_days'
let ds: Dataset
beforeAll(async () => {
  ds = await buildDataset(1)
})

const defined = (p: Params): Record<string, string> => Object.fromEntries(Object.entries(p).filter((e): e is [string, string] => e[1] !== undefined))

describe('reports.basic_days', () => {
  it("answers each day of the range with the brute-force count of that day's traffic, in date order", async () => {
    const c = ds.campaigns[0]!
    const first = ds.dates.beforeStart
    const last = ds.dates.today
    const diffs: string[] = []
    for (const choice of [{ platform: 'pm' }, { platform: 'pc', by_position: 'spot' }, { platform: 'pm', by_region: 'level1', filtration_type: 'totalnet' }, { platform: 'mb', by_audience: 'stable' }] as Params[]) {
      const r = await ds.t.get(PATH, defined({ campaign_id: c.campaign_id, start_date: first, end_date: last, ...choice }))
      expect(r.status, r.raw.body).toBe(200)
      const reports = r.body.reports as { date: string; items: Item[] }[]
      const days: string[] = []
      for (let d = first; d <= last; d = addDays(d, 1)) days.push(d)
      expect(reports.map((x) => x.date)).toEqual(days)
      for (const [i, date] of days.entries()) {
        const want = basicShow(ds, { campaign_id: c.campaign_id, date, metrics: 'day', ...choice })
        diffs.push(...diffItems(reports[i]!.items, want.items).map((d) => `${date} ${JSON.stringify(choice)}: ${d}`))
      }
    }
    expect(diffs.slice(0, 20), `${diffs.length} differences`).toEqual([])
  })

  it('gives the same bytes for a day as basic/show with that date and metrics=day', async () => {
    const c = ds.campaigns[0]!
    const r = await ds.t.get(PATH, { campaign_id: c.campaign_id, start_date: ds.dates.first, end_date: ds.dates.middle, platform: 'pm' })
    const one = await ds.t.get('/admonitor/v1/reports/basic/show', { campaign_id: c.campaign_id, date: ds.dates.middle, platform: 'pm', metrics: 'day' })
    expect(r.body.reports.at(-1)).toEqual(one.body)
  })

  it('refuses a range that runs backwards or is too long, a missing end, a bad value and target audiences, naming the parameter', async () => {
    const c = ds.campaigns[0]!.campaign_id
    refused(await ds.t.get(PATH, { campaign_id: c, start_date: ds.dates.middle, end_date: ds.dates.first }), 'end_date')
    refused(await ds.t.get(PATH, { campaign_id: c, start_date: '2024-01-01', end_date: '2025-06-01' }), 'end_date')
    refused(await ds.t.get(PATH, { campaign_id: c, start_date: ds.dates.first }), 'end_date')
    refused(await ds.t.get(PATH, { campaign_id: c, start_date: ds.dates.first, end_date: '2025-02-30' }), 'end_date')
    const bad = await ds.t.get(PATH, { campaign_id: c, start_date: ds.dates.first, end_date: ds.dates.middle, platform: 'tv' })
    refused(bad, 'platform')
    refused(await ds.t.get(PATH, { campaign_id: c, start_date: ds.dates.first, end_date: ds.dates.middle, by_audience: 'target' }), 'by_audience')
  })
})
