// spec §4.4 realtime/show and basic/progress; vendor-notes §5.2, §5.4
import type { ParamsFor } from '../contract/endpoints'
import { metricNames as catalogueNames } from '../contract/metrics-catalogue'
import type { ProgressReport, RealtimeReport } from '../contract/models-reports'
import { checkRealtimeShow } from '../contract/report-rules'
import { GLOBAL_REGION_ID } from '../reference/regions'
import { dateIn, dayDate, dayNumber } from '../time-zone'
import type { ReportEnv } from './env'
import { finish, metricsIn, type Row } from './items'
import { loadCampaignMeta } from './meta'
import { regionCells } from './region-cells'
import { LATE_HIT_MS, flagPlatform } from '../measure/types'
import { platformMask, positions, selector } from './setup'

type P = ParamsFor<'reports.realtime_show'>

/** The catalogue's realtime metrics of a `metrics` value (all: every group). */
const metricNames = (metrics: string): readonly string[] => catalogueNames('realtime', metrics === 'all' ? undefined : metrics)

/** Which flags realtime counts: every class (declared bots too: vendor-notes §5.2), the platforms of `mask`. */
function everyClass(mask: number): Uint8Array {
  const t = new Uint8Array(512)
  for (let f = 0; f < 512; f++) t[f] = (mask & (1 << flagPlatform(f & 255))) !== 0 ? 1 : 0
  return t
}

/** everyClass of each platform mask (1 pc, 2 mobile, 3 both). */
const EVERY_CLASS = [new Uint8Array(512), everyClass(1), everyClass(2), everyClass(3)]

/**
 * The hits of one day as they arrive (metrics.md, realtime): every recorded impression and click
 * of a day on the campaign's dates, whatever its invalid-traffic class (the vendor's realtime is
 * not filtered), the global region and the overall audience only; no rows on other days.
 */
export function realtimeShow(env: ReportEnv, p: P): RealtimeReport {
  checkRealtimeShow(p)
  const meta = loadCampaignMeta(env.db, p.campaign_id, env.today)
  const part = env.columns.campaign(meta.campaign_id)
  const pos = positions(meta, p.by_position, p)
  const cells = regionCells('level0', [GLOBAL_REGION_ID])
  const day = dayNumber(p.date)
  const names = metricNames(p.metrics)
  const sel = { ...selector(pos, day, day, { platforms: platformMask(p.platform), sdk: 0, stableOnly: false, filtration: 'none' }), flagOk: EVERY_CLASS[platformMask(p.platform)]! }
  const onDates = day >= meta.start && day <= meta.end
  const r = part && onDates ? env.census({
    part, identities: env.identities.size, sel, day, nPos: pos.n,
    regionFirst: cells.first, regionSecond: cells.second, nRegions: 1, uniques: false, averages: false,
  }) : null
  const rows: Row[] = []
  // (only positions with hits today are rows: realtime has no with_null)
  for (let i = 0; r !== null && i < pos.n; i++) {
    if (r.seen[i] !== 1) continue
    const m: Record<string, number> = { imp_day: r.impDay[i]!, clk_day: r.clkDay[i]! }
    for (let h = 0; h < 24; h++) {
      m[`imp_h${String(h).padStart(2, '0')}`] = r.impHour[i * 24 + h]!
      m[`clk_h${String(h).padStart(2, '0')}`] = r.clkHour[i * 24 + h]!
    }
    rows.push({ attributes: { audience: 'overall', region_id: GLOBAL_REGION_ID, ...pos.attrs[i] }, metrics: metricsIn(names, m), hasData: true })
  }
  const attributeNames = ['audience', 'region_id', ...(p.by_position !== 'campaign' ? ['publisher_id'] : []), ...(p.by_position === 'spot' ? ['spot_id', 'spot_id_str'] : [])]
  return {
    campaign_id: meta.campaign_id, date: p.date, platform: p.platform, total_spot_num: pos.totalSpots,
    items: finish(rows, { order_asc: p.order_asc, order_desc: p.order_desc, metricNames: names, attributeNames }),
  }
}


/**
 * The last day whose figures are complete (metrics.md, Progress): the latest day whose end lies
 * at least 3 hours before now in the engine time zone (a server-to-server hit dated by the media
 * may land in it until then), never past the campaign's end. `now` is the engine's clock and
 * zone; without it, yesterday of `env.today`.
 */
export function basicProgress(env: ReportEnv, p: ParamsFor<'reports.basic_progress'>, now?: { ms: number; timeZone: string }): ProgressReport {
  const meta = loadCampaignMeta(env.db, p.campaign_id, env.today)
  const last = (now ? dayNumber(dateIn(now.timeZone, now.ms - LATE_HIT_MS)) : dayNumber(env.today)) - 1
  return { date: dayDate(Math.min(last, meta.end)), campaign_id: meta.campaign_id }
}
