/**
 * What the daily trend's range costs the engine on the demo campaign (docs/api.md, "Daily figures
 * of a range"): /local/v1/reports/basic_days over the campaign's days until yesterday, counted in
 * one pass, beside the same days asked one basic/show (metrics=day) each, a census pass a day.
 * Not a test (no timings in tests): run by hand, `npx tsx test/engine/reports/basic-days-cost.mts`.
 * An in-memory engine makes the demo data (about 760,000 hits, a minute), asks a basic/show of
 * accumulated figures first (the identity order every unique count needs is then made), then each
 * breakdown both ways; the figures are the process's CPU time (all threads) and the wall time.
 */
import { makeEngine } from '../../helpers/make-engine'
import { addDays } from './dataset'

const today = '2026-03-20'
const t = await makeEngine({ today })
const demo = await t.engine.loadDemo()
const c = String(demo.campaign_id)
const shown = await t.get('/cms/v1/campaigns/show', { campaign_id: c })
const first: string = shown.body.start_date < addDays(today, -14) ? addDays(today, -14) : shown.body.start_date
const last = addDays(today, -1)
const days: string[] = []
for (let d = first; d <= last; d = addDays(d, 1)) days.push(d)

/** CPU and wall milliseconds of `run`. */
async function cost(run: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const c0 = process.cpuUsage()
  const w0 = performance.now()
  await run()
  const c1 = process.cpuUsage(c0)
  return { cpu: (c1.user + c1.system) / 1000, wall: performance.now() - w0 }
}

const ok = (r: { status: number; raw: { body: string } }) => {
  if (r.status !== 200) throw new Error(r.raw.body)
}
ok(await t.get('/admonitor/v1/reports/basic/show', { campaign_id: c, date: last, platform: 'pm' }))
console.log(`demo campaign ${c}: ${demo.hits} hits; ${days.length} days, ${first} to ${last}`)
const choices: Record<string, string>[] = [{ platform: 'pm' }, { platform: 'pc' }, { platform: 'mb' }, { platform: 'pm', by_position: 'spot' }, { platform: 'pm', by_region: 'level1' }, { platform: 'pm', by_position: 'spot', by_region: 'level2' }]
for (const choice of choices) {
  const perDay = await cost(async () => {
    for (const date of days) ok(await t.get('/admonitor/v1/reports/basic/show', { campaign_id: c, date, metrics: 'day', ...choice }))
  })
  const range = await cost(async () => ok(await t.get('/local/v1/reports/basic_days', { campaign_id: c, start_date: first, end_date: last, ...choice })))
  const f = (x: { cpu: number; wall: number }) => `${x.cpu.toFixed(0)} ms CPU, ${x.wall.toFixed(0)} ms`
  console.log(`${JSON.stringify(choice)}: a basic/show a day ${f(perDay)}; basic_days ${f(range)}`)
}
await t.engine.close()
