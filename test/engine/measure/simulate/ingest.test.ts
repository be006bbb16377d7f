// docs/simulator.md: simulated hits, ingested, give every basic report cell data
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../../../../engine/contract/endpoints'
import { simulate } from '../../../../engine/measure/simulate'
import { datesOf, fixture, type Fixture } from './fixture'

const FROM = '2025-01-13'
const TO = '2025-01-16'
const BASIC = endpoints['reports.basic_show'].path

describe('simulate into the ingest', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await fixture(FROM, TO, [
      { plan: { dates: datesOf(FROM, TO), impressions: [8000, 9000, 10_000, 11_000], clicks: [40, 45, 50, 55] } },
      { form: { keyword: 'milk^>cheese^' } },
    ], 2000)
    const sim = simulate(f.input())
    for (const chunk of sim.chunks) await f.t.engine.measure.ingest.add(chunk)
  }, 60_000)

  const report = (query: Record<string, string | number>) => f.t.get(BASIC, { campaign_id: f.campaignId, date: TO, ...query })

  it.each(['level0', 'level1', 'level2'].flatMap((by_region) => ['pc', 'mb', 'pm'].map((platform) => ({ by_region, platform }))))(
    'answers items with impressions, clicks and audiences for by_region $by_region and platform $platform',
    async (q) => {
      const r = await report({ ...q, metrics: 'acc' })
      expect(r.status).toBe(200)
      expect(r.body.items.length).toBeGreaterThan(q.by_region === 'level0' ? 1 : 20)
      const total = (name: string) => r.body.items.reduce((s: number, i: { metrics: Record<string, number> }) => s + (i.metrics[name] ?? 0), 0)
      for (const m of ['imp_acc', 'clk_acc', 'uim_acc', 'ucl_acc']) expect(total(m)).toBeGreaterThan(0)
    },
  )

  it('counts fewer impressions net than totalnet: the ingest marks the bursts abnormal', async () => {
    const imp = async (filtration_type: string) => (await report({ platform: 'pm', filtration_type })).body.items[0].metrics.imp_acc as number
    const net = await imp('net')
    const totalnet = await imp('totalnet')
    expect(totalnet).toBeGreaterThan(net)
    expect(net).toBeGreaterThan(0.9 * totalnet)
  })

  it('has data by spot and by keyword, and a stable audience', async () => {
    type Item = { attributes: Record<string, string>; metrics: Record<string, number> }
    const ids = async (by_position: string, attribute: string) =>
      new Set((await report({ platform: 'pm', by_position })).body.items.filter((i: Item) => i.metrics.imp_acc! > 0).map((i: Item) => i.attributes[attribute]))
    expect(await ids('spot', 'spot_id')).toEqual(new Set(['1', '2']))
    expect(await ids('keyword', 'keyword_id')).toEqual(new Set(['1', '2']))
    const stable = await report({ platform: 'pc', by_audience: 'stable' })
    expect(stable.body.items[0].metrics.imp_acc).toBeGreaterThan(0)
  })
})
