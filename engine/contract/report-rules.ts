/**
 * Which report parameters are valid together (spec §4.4): a parameter used where the spec says it
 * is not valid is refused, naming it. Pure, so the renderer offers only valid combinations.
 */
import { badParam } from './errors'

type Given = Record<string, unknown>
const given = (p: Given, name: string) => p[name] !== undefined

function onlyWhen(p: Given, name: string, ok: boolean, when: string): void {
  if (given(p, name) && !ok) throw badParam(name, `is valid only when ${when}`)
}

const isIn = (v: unknown, list: readonly string[]) => list.includes(String(v))

export function checkBasicShow(p: Given): void {
  const pos = String(p.by_position)
  onlyWhen(p, 'publisher_id', isIn(pos, ['publisher', 'spot', 'keyword']), 'by_position is publisher, spot or keyword')
  onlyWhen(p, 'spot_id', isIn(pos, ['spot', 'keyword']), 'by_position is spot or keyword')
  onlyWhen(p, 'keyword_id', pos === 'keyword', 'by_position=keyword')
  onlyWhen(p, 'target_id', p.by_audience === 'target', 'by_audience=target')
  onlyWhen(p, 'limit', isIn(pos, ['publisher', 'spot', 'keyword']), 'by_position is publisher, spot or keyword')
  if (p.metrics === 'day' && p.by_audience === 'target') throw badParam('metrics', "'day' is not valid when by_audience=target")
  const sdkOk = p.platform === 'mb' && (p.metrics === 'all' || (p.metrics === 'acc' && isIn(pos, ['campaign', 'publisher'])))
  // (given, even as `all`: as every other parameter, refused where the spec says it is not valid)
  if (p.sdk !== undefined && !sdkOk) throw badParam('sdk', 'is valid only when platform=mb and (metrics=all, or metrics=acc with by_position campaign or publisher)')
}

export function checkRealtimeShow(p: Given): void {
  const pos = String(p.by_position)
  onlyWhen(p, 'publisher_id', isIn(pos, ['publisher', 'spot']), 'by_position is publisher or spot')
  onlyWhen(p, 'spot_id', pos === 'spot', 'by_position=spot')
  onlyWhen(p, 'limit', isIn(pos, ['publisher', 'spot']), 'by_position is publisher or spot')
}

export function checkReachShow(p: Given): void {
  checkRealtimeShow(p)
  onlyWhen(p, 'target_id', p.by_audience === 'target', 'by_audience=target')
}

export function checkAudience(p: Given): void {
  const pos = String(p.by_position)
  onlyWhen(p, 'publisher_id', isIn(pos, ['publisher', 'spot']), 'by_position is publisher or spot')
  onlyWhen(p, 'spot_id', pos === 'spot', 'by_position=spot')
}

export function checkMinisite(p: Given): void {
  const pos = String(p.by_position)
  onlyWhen(p, 'campaign_id', isIn(pos, ['campaign', 'publisher', 'spot']), 'by_position is campaign, publisher or spot')
  onlyWhen(p, 'publisher_id', isIn(pos, ['publisher', 'spot']), 'by_position is publisher or spot')
  onlyWhen(p, 'spot_id', pos === 'spot', 'by_position=spot')
  onlyWhen(p, 'target_id', p.by_audience === 'target', 'by_audience=target')
}

/** The combination rules of each report endpoint that has some, by endpoint id. */
export const REPORT_CHECKS = {
  'reports.basic_show': checkBasicShow,
  'reports.realtime_show': checkRealtimeShow,
  'reports.reach_show': checkReachShow,
  'reports.audience_show_overview': checkAudience,
  'reports.audience_show': checkAudience,
  'reports.basic_show_minisite': checkMinisite,
  'reports.realtime_show_minisite': checkMinisite,
} as const satisfies Record<string, (p: Given) => void>

/**
 * The positions a basic, realtime or reach report answers without `limit` (spec §4.4: "limit
 * (O, M,N, default 0,500)"): the first 500 spots (publishers), as many as there are when fewer.
 * `total_spot_num` says how many there are.
 */
export const REPORT_DEFAULT_PAGE = 500

/**
 * Report paging (spec §4.4, §8): M,N counts spots (publishers for by_position=publisher); it is
 * valid when M is below the total and M+N does not exceed it.
 */
export function checkReportLimit(limit: { m: number; n: number } | undefined, total: number, paged: 'spots' | 'publishers' = 'spots'): void {
  if (!limit) return
  // (publisher rows page publishers, whose number is not total_spot_num: the message says which)
  const count = paged === 'spots' ? 'total_spot_num' : 'the number of publishers'
  if (limit.m >= total) throw badParam('limit', `starts at ${limit.m}, but there are ${total} ${paged} (M must be below ${count})`)
  if (limit.m + limit.n > total) throw badParam('limit', `runs to ${limit.m + limit.n}, past the ${total} ${paged} there are (M+N must not exceed ${count})`)
}
