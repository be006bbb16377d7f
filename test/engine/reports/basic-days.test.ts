// /local/v1/reports/basic_days, counted in one pass over the range (census-days.ts), answers each
// day byte for byte as basic/show with that date and metrics=day answers alone: on the report
// dataset (two campaigns, several publishers, spots and keywords, 18 days in Asia/Shanghai, whose
// midnight is 16:00 UTC, bots, data-centre and abnormal traffic), for days before the start and
// after the end, over the breakdowns, filters and paging of basic/show; and again after events of
// earlier days arrive late (kept censuses brought up to date)
import { beforeAll, describe, expect, it } from 'vitest'
import { addDays, buildDataset, importEvents, type Dataset, type RawEvent } from './dataset'
import { prng } from '../../helpers/prng'

const PATH = '/local/v1/reports/basic_days'
let ds: Dataset
beforeAll(async () => {
  ds = await buildDataset(4)
})

const FIRST = '2025-01-10'
const LAST = '2025-01-27'

type Choice = Record<string, string | number>

/** Breakdowns, filters and paging of basic/show (the range takes all but date and metrics). */
function choices(): Choice[] {
  const spots = [...ds.spots.values()]
  const a = ds.campaigns[0]!
  const aSpot = spots.find((s) => s.campaign_id === a.campaign_id)!
  return [
    { platform: 'pm' },
    { platform: 'pc', by_position: 'spot' },
    { platform: 'mb', by_position: 'publisher', filtration_type: 'totalnet' },
    { platform: 'pm', by_position: 'keyword', spot_id: aSpot.spot_id },
    { platform: 'pm', by_region: 'level1', filtration_type: 'totalnet' },
    { platform: 'pm', by_region: 'level2', by_position: 'spot', order_desc: 'uim_day' },
    { platform: 'pm', by_region: 'level1', with_null: 1, order_asc: 'imp_day' },
    { platform: 'mb', by_audience: 'stable', by_region: 'level2' },
    { platform: 'pc', by_position: 'spot', limit: '1,1' },
  ]
}

/** Each day's difference between the range's answer and basic/show's, as "campaign date choice". */
async function differences(campaignId: string, choice: Choice): Promise<string[]> {
  const range = await ds.t.get(PATH, { campaign_id: campaignId, start_date: FIRST, end_date: LAST, ...choice })
  expect(range.status, range.raw.body).toBe(200)
  const reports = range.body.reports as unknown[]
  const out: string[] = []
  let i = 0
  for (let date = FIRST; date <= LAST; date = addDays(date, 1), i++) {
    const one = await ds.t.get('/admonitor/v1/reports/basic/show', { campaign_id: campaignId, date, metrics: 'day', ...choice })
    expect(one.status, one.raw.body).toBe(200)
    if (JSON.stringify(reports[i]) !== one.raw.body) out.push(`campaign ${campaignId} ${date} ${JSON.stringify(choice)}`)
  }
  expect(i).toBe(reports.length)
  return out
}

async function allDifferences(): Promise<string[]> {
  const out: string[] = []
  for (const c of ds.campaigns) for (const choice of choices()) out.push(...(await differences(c.campaign_id, choice)))
  return out
}

describe('reports.basic_days in one pass', () => {
  it('answers every day as basic/show alone does, over breakdowns, filters and paging', async () => {
    // the days carry figures (the comparison is not of empty answers)
    const range = await ds.t.get(PATH, { campaign_id: ds.campaigns[0]!.campaign_id, start_date: FIRST, end_date: LAST, platform: 'pm' })
    const imp = (range.body.reports as { items: { metrics: { imp_day: number } }[] }[]).map((r) => r.items[0]?.metrics.imp_day ?? 0)
    expect(imp.filter((x) => x > 0).length).toBeGreaterThan(8)
    const diffs = await allDifferences()
    expect(diffs.slice(0, 20), `${diffs.length} days differ`).toEqual([])
  })

  it('still does after events of earlier days arrive late, for identities already counted', async () => {
    const random = prng(41)
    // impressions and clicks of imported identities again, on other days (some before their first ones)
    const base = ds.events.filter((e): e is RawEvent => e.via === 'import' && e.kind !== 'evt' && !e.hashIdentity)
    const late = Array.from({ length: 400 }, (_, k) => {
      const e = base[Math.floor(random() * base.length)]!
      return { ...e, seq: ds.events.length + k, ts: e.ts - Math.floor(random() * 6) * 86_400_000 + Math.floor(random() * 3_600_000) }
    })
    await importEvents(ds.t, late, ds.spots)
    const diffs = await allDifferences()
    expect(diffs.slice(0, 20), `${diffs.length} days differ`).toEqual([])
  })
})
