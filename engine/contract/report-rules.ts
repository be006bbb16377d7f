/**
 * Which report parameters are valid together (spec §4.4): a parameter used where the spec says it
 * is not valid is refused, naming it. Pure, so the renderer offers only valid combinations.
 */
import { badRequest, type ApiError } from './errors'

type Given = Record<string, unknown>
const given = (p: Given, name: string) => p[name] !== undefined

/** Refuses `name` where `ok` is false: valid only with by_position one of `positions` (a,b,c), or only with by_audience=target. */
function onlyWhen(p: Given, name: string, ok: boolean, positions: string): void {
  if (given(p, name) && !ok) throw positions === 'target' ? badRequest('report.onlyTarget', { param: name }) : onlyPositions(name, positions.split(','))
}

/** The refusal of `name` valid only with by_position one of `positions` (one, two or three of them). */
function onlyPositions(param: string, [position1 = '', position2, position3]: string[]): ApiError {
  if (position2 === undefined) return badRequest('report.onlyPosition', { param, position: position1 })
  return position3 === undefined ? badRequest('report.onlyPositions', { param, position1, position2 }) : badRequest('report.onlyPositions3', { param, position1, position2, position3 })
}

const isIn = (v: unknown, list: readonly string[]) => list.includes(String(v))

export function checkBasicShow(p: Given): void {
  const pos = String(p.by_position)
  onlyWhen(p, 'publisher_id', isIn(pos, ['publisher', 'spot', 'keyword']), 'publisher,spot,keyword')
  onlyWhen(p, 'spot_id', isIn(pos, ['spot', 'keyword']), 'spot,keyword')
  onlyWhen(p, 'keyword_id', pos === 'keyword', 'keyword')
  onlyWhen(p, 'target_id', p.by_audience === 'target', 'target')
  onlyWhen(p, 'limit', isIn(pos, ['publisher', 'spot', 'keyword']), 'publisher,spot,keyword')
  if (p.metrics === 'day' && p.by_audience === 'target') throw badRequest('report.noDayWithTarget', { param: 'metrics' })
  const sdkOk = p.platform === 'mb' && (p.metrics === 'all' || (p.metrics === 'acc' && isIn(pos, ['campaign', 'publisher'])))
  // (given, even as `all`: as every other parameter, refused where the spec says it is not valid)
  if (p.sdk !== undefined && !sdkOk) throw badRequest('report.onlySdk', { param: 'sdk' })
}

export function checkRealtimeShow(p: Given): void {
  const pos = String(p.by_position)
  onlyWhen(p, 'publisher_id', isIn(pos, ['publisher', 'spot']), 'publisher,spot')
  onlyWhen(p, 'spot_id', pos === 'spot', 'spot')
  onlyWhen(p, 'limit', isIn(pos, ['publisher', 'spot']), 'publisher,spot')
}

export function checkReachShow(p: Given): void {
  checkRealtimeShow(p)
  onlyWhen(p, 'target_id', p.by_audience === 'target', 'target')
}

export function checkAudience(p: Given): void {
  const pos = String(p.by_position)
  onlyWhen(p, 'publisher_id', isIn(pos, ['publisher', 'spot']), 'publisher,spot')
  onlyWhen(p, 'spot_id', pos === 'spot', 'spot')
}

export function checkMinisite(p: Given): void {
  const pos = String(p.by_position)
  onlyWhen(p, 'campaign_id', isIn(pos, ['campaign', 'publisher', 'spot']), 'campaign,publisher,spot')
  onlyWhen(p, 'publisher_id', isIn(pos, ['publisher', 'spot']), 'publisher,spot')
  onlyWhen(p, 'spot_id', pos === 'spot', 'spot')
  onlyWhen(p, 'target_id', p.by_audience === 'target', 'target')
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
  const spots = paged === 'spots'
  if (limit.m >= total) throw badRequest(spots ? 'report.limitStart' : 'report.limitStartPublishers', { param: 'limit', m: limit.m, total })
  if (limit.m + limit.n > total) throw badRequest(spots ? 'report.limitEnd' : 'report.limitEndPublishers', { param: 'limit', end: limit.m + limit.n, total })
}
