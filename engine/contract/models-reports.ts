/** Wire shapes of the report endpoints (spec §2.8, §4.4; vendor-notes §5). */
import { arr, bool, date, dict, int, lit, nullable, num, obj, str, type Infer } from './schema'

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
  universe: int(),
  panel_id: str(),
  tag_id: str(),
})
export type ReportAttributes = Infer<typeof ReportAttributes>

/** Metric values are integers, or null for items without data when with_null=1. */
export const ReportMetrics = dict(nullable(int()), '^[a-z]+(_[a-z0-9]+)*$')
export type ReportMetrics = Infer<typeof ReportMetrics>

/** The unweighted panel persons a row's figures rest on (extra member; docs/metrics.md, "Bases"). */
export const ReportBase = obj({ uim: int('panel persons with an impression'), ucl: int('panel persons with a click') })
export type ReportBase = Infer<typeof ReportBase>

export const ReportItem = obj({ attributes: ReportAttributes, metrics: ReportMetrics }, { base: ReportBase })
export type ReportItem = Infer<typeof ReportItem>

const base = { campaign_id: int('the campaign, as a JSON integer (vendor examples)'), date: date(), items: arr(ReportItem) }

/** The panel an answer's panel figures and universes come from (extra member; docs/panel.md). */
export const ReportPanel = obj({
  panel_id: str(),
  persons: int('persons of the panel (0: none)'),
  synthetic: bool('true: the seeded synthetic population of a built-in panel without persons'),
}, {
  calibration: obj({}, { pc: nullable(num('census / raw panel projection of impressions on pc; null: no panel person exposed')), mb: nullable(num('the same on mobile')) }),
})
export type ReportPanel = Infer<typeof ReportPanel>

export const BasicReport = obj({ ...base, version: str(), platform: str(), total_spot_num: int() }, { panel: ReportPanel })
export type BasicReport = Infer<typeof BasicReport>
export const RealtimeReport = obj({ ...base, platform: str(), total_spot_num: int() })
export type RealtimeReport = Infer<typeof RealtimeReport>
export const AudienceReport = obj({ ...base, version: str() }, { panel: ReportPanel })
export type AudienceReport = Infer<typeof AudienceReport>
export const ProgressReport = obj({ date: date(), campaign_id: int() })
export type ProgressReport = Infer<typeof ProgressReport>
export const MinisiteReport = obj({ minisite_id: str(), minisite_name: str(), date: date(), items: arr(ReportItem) }, { version: str() })
export type MinisiteReport = Infer<typeof MinisiteReport>
