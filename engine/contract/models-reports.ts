/** Wire shapes of the report endpoints (spec §2.8, §4.4; vendor-notes §5). */
import { arr, date, dict, int, lit, nullable, obj, str, type Infer } from './schema'

/** Attribute values are strings, universe an integer (spec §2.8). */
export const ReportAttributes = obj({}, {
  audience: lit('overall', 'stable', 'target'),
  target_id: str(),
  publisher_id: str(),
  spot_id: str(),
  spot_id_str: str(),
  keyword_id: str(),
  campaign_id: str(),
  event_id: str(),
  region_id: str({ pattern: '^[0-9]{24}$' }),
  universe: nullable(int()),
  panel_id: str(),
  tag_id: str(),
})
export type ReportAttributes = Infer<typeof ReportAttributes>

/** Metric values are integers, or null for items without data when with_null=1. */
export const ReportMetrics = dict(nullable(int()), '^[a-z]+(_[a-z0-9]+)*$')
export type ReportMetrics = Infer<typeof ReportMetrics>

export const ReportItem = obj({ attributes: ReportAttributes, metrics: ReportMetrics })
export type ReportItem = Infer<typeof ReportItem>

const base = { campaign_id: int('the campaign, as a JSON integer (vendor examples)'), date: date(), items: arr(ReportItem) }

export const BasicReport = obj({ ...base, version: str(), platform: str(), total_spot_num: int() })
export type BasicReport = Infer<typeof BasicReport>
export const RealtimeReport = obj({ ...base, platform: str(), total_spot_num: int() })
export type RealtimeReport = Infer<typeof RealtimeReport>
export const AudienceReport = obj({ ...base, version: str() })
export type AudienceReport = Infer<typeof AudienceReport>
export const ProgressReport = obj({ date: date(), campaign_id: int() })
export type ProgressReport = Infer<typeof ProgressReport>
export const MinisiteReport = obj({ minisite_id: str(), minisite_name: str(), date: date(), items: arr(ReportItem) }, { version: str() })
export type MinisiteReport = Infer<typeof MinisiteReport>
