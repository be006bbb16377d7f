// spec §4.4 reports; vendor-notes §5 (date required, /report/ alias, metrics names)
import { get } from './endpoint'
import * as m from './models-reports'
import { p } from './params'

export const POSITIONS = ['campaign', 'publisher', 'spot', 'keyword'] as const
export const AUDIENCES = ['overall', 'stable', 'target'] as const
export const REGION_LEVELS = ['level0', 'level1', 'level2'] as const
export const PLATFORMS = ['pc', 'pm', 'mb'] as const
export const FILTRATIONS = ['net', 'totalnet'] as const

const date = () => p.date().required('cut-off date: accumulated metrics run from the campaign start to this day')
const campaignId = () => p.id().required()
const order = () => p.key().optional('any attribute or metric name of the items')
/** Report paging counts spots (or publishers); it is checked against total_spot_num, not defaulted. */
const limit = () => p.limit('offset').optional('M,N over spots: M below total_spot_num, M+N not above it; without it, the first 500 (the spec\'s default page, 0,500)')
const meta = (summary: string) => ({ summary, spec: 'interface §4.4', cache: 'measure' as const })

export const reportEndpoints = {
  'reports.basic_show': get('/admonitor/v1/reports/basic/show', 'admonitor', {
    date: date(), campaign_id: campaignId(),
    by_position: p.oneOf(POSITIONS).default('campaign'),
    by_audience: p.oneOf(AUDIENCES).default('overall'),
    by_region: p.oneOf(REGION_LEVELS).default('level0'),
    platform: p.oneOf(PLATFORMS).default('pc'),
    publisher_id: p.idList().optional('valid when by_position is publisher, spot or keyword'),
    spot_id: p.idList().optional('valid when by_position is spot or keyword'),
    keyword_id: p.idList().optional('valid when by_position=keyword'),
    target_id: p.idList().optional('valid when by_audience=target'),
    region_id: p.keyList().optional('regions of the by_region level'),
    metrics: p.oneOfCi(['acc', 'day', 'avg_day', 'acc_hrs', 'all']).default('acc'),
    sdk: p.oneOf(['all', 'mm', 'mz']).optional('all (when absent), mm or mz; valid when platform=mb and (metrics=all, or metrics=acc with by_position campaign or publisher), sdk=all too'),
    filtration_type: p.oneOf(FILTRATIONS).default('net'),
    limit: limit(), order_asc: order(), order_desc: order(),
    with_null: p.flag01().default(false, '1 also returns items without data, their metrics null'),
  }, m.BasicReport, meta('Basic report: impressions, clicks and unique audiences')),
  // not kept by the answer cache, which keeps an answer for its day: this one moves at 03:00 with the clock alone
  'reports.basic_progress': get('/admonitor/v1/reports/basic/progress', 'admonitor', {
    campaign_id: campaignId(),
    filtration_type: p.oneOf(FILTRATIONS).default('net'),
  }, m.ProgressReport, { summary: 'The last day whose figures are complete', spec: 'interface §4.4' }),
  'reports.basic_show_minisite': get('/admonitor/v1/reports/basic/show_minisite', 'admonitor', {
    date: date(), minisite_id: p.id().required(),
    by_position: p.oneOf(['total', 'campaign', 'publisher', 'spot']).default('total'),
    by_audience: p.oneOf(AUDIENCES).default('overall'),
    by_region: p.oneOf([...REGION_LEVELS, 'level3']).default('level0'),
    campaign_id: p.idList().optional('valid when by_position is campaign, publisher or spot'),
    publisher_id: p.idList().optional('valid when by_position is publisher or spot'),
    spot_id: p.idList().optional('valid when by_position=spot'),
    event_id: p.idList().optional(),
    region_id: p.keyList().optional(),
    target_id: p.idList().optional('valid when by_audience=target'),
    metrics: p.oneOfCi(['acc', 'day', 'all']).default('acc'),
    limit: p.limit('offset').default({ m: 0, n: 500, offset: 0, count: 500 }), order_asc: order(), order_desc: order(),
  }, m.MinisiteReport, meta('Minisite report: event page views and unique visitors')),
  'reports.realtime_show': get('/admonitor/v1/reports/realtime/show', 'admonitor', {
    date: date(), campaign_id: campaignId(),
    by_position: p.oneOf(['campaign', 'publisher', 'spot']).default('campaign'),
    platform: p.oneOf(PLATFORMS).default('pc'),
    publisher_id: p.idList().optional('valid when by_position is publisher or spot'),
    spot_id: p.idList().optional('valid when by_position=spot'),
    metrics: p.oneOfCi(['day', 'hrs', 'all']).default('day'),
    limit: limit(), order_asc: order(), order_desc: order(),
  }, m.RealtimeReport, meta("Realtime report: the day's impressions and clicks, global and overall")),
  'reports.realtime_show_minisite': get('/admonitor/v1/reports/realtime/show_minisite', 'admonitor', {
    date: date(), minisite_id: p.id().required(),
    by_position: p.oneOf(['total', 'campaign', 'publisher', 'spot']).default('total'),
    campaign_id: p.idList().optional('valid when by_position is campaign, publisher or spot'),
    publisher_id: p.idList().optional('valid when by_position is publisher or spot'),
    spot_id: p.idList().optional('valid when by_position=spot'),
    event_id: p.idList().optional(),
    metrics: p.oneOfCi(['day', 'hrs', 'all']).default('day'),
    limit: p.limit('offset').default({ m: 0, n: 500, offset: 0, count: 500 }), order_asc: order(), order_desc: order(),
  }, m.MinisiteReport, meta("Realtime minisite report: the day's events")),
  'reports.reach_show': get('/admonitor/v1/reports/reach/show', 'admonitor', {
    date: date(), campaign_id: campaignId(),
    by_position: p.oneOf(['campaign', 'publisher', 'spot']).default('campaign'),
    by_audience: p.oneOf(AUDIENCES).default('overall'),
    by_region: p.oneOf(REGION_LEVELS).default('level0'),
    platform: p.oneOf(PLATFORMS).default('pc'),
    publisher_id: p.idList().optional('valid when by_position is publisher or spot'),
    spot_id: p.idList().optional('valid when by_position=spot'),
    target_id: p.idList().optional('valid when by_audience=target'),
    region_id: p.keyList().optional(),
    metrics: p.oneOfCi(['all', 'acc', 'spl']).default('all'),
    filtration_type: p.oneOf(FILTRATIONS).default('net'),
    with_null: p.flag01().default(false),
    limit: limit(), order_asc: order(), order_desc: order(),
  }, m.BasicReport, meta('Reach report: n+ reach, GRP and panel sample sizes')),
  'reports.audience_show_overview': get('/admonitor/v1/reports/audience/show_overview', 'admonitor', {
    date: date(), campaign_id: campaignId(),
    panel_id: p.keyList().optional(),
    by_position: p.oneOf(['campaign', 'publisher', 'spot']).default('campaign'),
    publisher_id: p.idList().optional('valid when by_position is publisher or spot'),
    spot_id: p.idList().optional('valid when by_position=spot'),
    metrics: p.oneOfCi(['all', 'acc', 'spl']).default('all'),
    limit: p.limit('offset').default({ m: 0, n: 500, offset: 0, count: 500 }), order_asc: order(), order_desc: order(),
  }, m.AudienceReport, meta('Audience overview: projected unique audience and panel sample')),
  'reports.audience_show': get('/admonitor/v1/reports/audience/show', 'admonitor', {
    date: date(), campaign_id: campaignId(),
    panel_id: p.keyList().optional(),
    type_id: p.keyList().optional('tag types, e.g. gender,age'),
    by_position: p.oneOf(['campaign', 'publisher', 'spot']).default('campaign'),
    publisher_id: p.idList().optional('valid when by_position is publisher or spot'),
    spot_id: p.idList().optional('valid when by_position=spot'),
    metrics: p.oneOfCi(['all', 'pct', 'idx']).default('all'),
    limit: p.limit('offset').default({ m: 0, n: 500, offset: 0, count: 500 }), order_asc: order(), order_desc: order(),
  }, m.AudienceReport, meta('Audience composition: tag percentages and indexes')),
} as const
