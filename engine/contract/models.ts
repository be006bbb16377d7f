/**
 * Wire shapes of responses (spec §2), declared once: types for the code, JSON Schema for the
 * OpenAPI document, and validators for the contract tests. Member names are verbatim.
 */
import { any, arr, bool, date, dict, idStr, int, lit, nullable, obj, str, type Infer } from './schema'

// spec §2.1 plus the vendor's extra members that have a meaning here (vendor-notes §2)
export const TokenResponse = obj({
  access_token: str(),
  token_type: lit('bearer'),
  expires_in: int('lifetime in seconds'),
  refresh_token: str(),
  scope: str({ description: 'space-delimited categories: cms admonitor local' }),
  uid: int('account id'),
  uname: str(),
  user_number: str(),
})
export type TokenResponse = Infer<typeof TokenResponse>

// spec §2.2; the pmo_info and dm_info members are optional
export const Campaign = obj(
  {
    campaign_id: idStr(),
    campaign_type: str(),
    campaign_name: str(),
    start_date: date(),
    end_date: date(),
    description: str(),
    agency_name: str(),
    advertiser_name: str(),
    brand_name: str(),
    creator_name: str(),
    slot_type: lit('display', 'search', 'display+search'),
    calculation_type: str(),
    linked_panels: arr(str()),
    linked_siteids: str(),
    linked_iplib: str(),
  },
  {
    panel_type: int('0 = pm, 1 = pmo (pmo_info=1)'),
    linked_tvcaids: arr(int()),
    order_id: str(),
    scheduling_code: str(),
    extensiontype: str(),
    play_detect: lit('true', 'false'),
    ear: str(),
    total_net: str(),
    freq_capping: str(),
    frequency_limit: int(),
    linked_minisites: arr(str({ description: 'minisites whose events the campaign is credited with (vendor-notes §1.8)' })),
  },
)
export type Campaign = Infer<typeof Campaign>

export const ShowKeyword = obj({ keyword_id: int(), keyword_name: str(), landing_page: str() })
export type ShowKeyword = Infer<typeof ShowKeyword>

/** Spot members stored as plain strings and shown by show_spot (vendor-notes §3.2). */
export const SPOT_TEXT_FIELDS = [
  'publisher_name', 'channel_name', 'placement_name', 'placement_type', 'program_purchasing_type', 'program',
  'report_metrics', 'market', 'adposition_type', 'vending_model', 'GUID', 'CAGUID', 'customize', 'description',
  'landing_page', 'referrer_url', 'other_impr_tracking_tag', 'shop_id', 'freq_capping', 'tracking_timing',
] as const

/** Customer-defined spot fields (spec §4.3 create_spot). */
export const CUSTOMER_FIELDS = [
  'category', 'brand', 'product', 'copy_name', 'buying_model', 'buying_model_subtype', 'media_subtype',
  'general_buyingtype', 'spot_type', 'spot_plan', 'spot_plan_record_id', 'buying_platform', 'campaign_group',
  'campaign', 'kpi', 'site_type', 'site_name', 'buying_basis', 'paid_or_bonus', 'ext_info_md5_format_type',
] as const

const textMembers = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, str()])) as { [P in K]: ReturnType<typeof str> }

// spec §2.3 show_spot, with the members the vendor's example also carries
export const Spot = obj(
  {
    spot_id: idStr(),
    spot_id_str: str({ pattern: '^[0-9A-Za-z]+$' }),
    publisher_id: idStr(),
    linked_siteid: nullable(int()),
    ...textMembers(SPOT_TEXT_FIELDS),
    ...textMembers(CUSTOMER_FIELDS),
  },
  {
    keyword: arr(ShowKeyword),
    budgetInput: str(),
    dangerous_source_filtration: int('1 = dangerous-source filtration on (show_filtration_status=1)'),
  },
)
export type Spot = Infer<typeof Spot>

export const TrackingTags = obj({ impression_url: str(), click_url: str() })
export type TrackingTags = Infer<typeof TrackingTags>

// list_spots keyword items (vendor-notes §3.6): camelCase members and one-key tag objects
export const ListKeyword = obj({
  deletedTime: str(),
  isDeleted: str(),
  keyword: str(),
  keywordId: int(),
  landingPage: str(),
  spid: int(),
  tracking_tags: arr(obj({}, { impression_url: str(), click_url: str() })),
})
export type ListKeyword = Infer<typeof ListKeyword>

export const PlanDay = obj({ date: date(), est_impression: int(), est_click: int() })
export type PlanDay = Infer<typeof PlanDay>

// spec §2.3 list_spots
export const ListSpot = obj(
  {
    spot_id: idStr(),
    spot_id_str: str({ pattern: '^[0-9A-Za-z]+$' }),
    publisher_id: idStr(),
    publisher_name: str(),
    channel_name: str(),
    placement_name: str(),
    placement_type: str(),
    report_metrics: str(),
    GUID: str(),
    CAGUID: str(),
    adposition_type: str(),
    vending_model: str(),
    market: str(),
    customize: str(),
    description: str(),
    landing_page: str(),
    tracking_tags: TrackingTags,
    keyword: arr(ListKeyword),
  },
  {
    spot_plan: arr(PlanDay),
    budgetInput: str(),
    dangerous_source_filtration: int(),
    program_purchasing_type: str(),
    program: str(),
    shop_id: str(),
  },
)
export type ListSpot = Infer<typeof ListSpot>

export const Target = obj({ target_id: idStr(), target_name: str(), panel_id: str() }, { tag_id: str() })
export type Target = Infer<typeof Target>

export const Publisher = obj({ publisher_id: idStr(), publisher_name: str() })
export type Publisher = Infer<typeof Publisher>

export const CampaignIdResult = obj({ campaign_id: idStr() })
export const CreateKeyword = obj({ keyword_id: int(), landing_page: str(), keyword_name: str() })
export const SpotResult = obj(
  { campaign_id: idStr(), spot_id: idStr(), spot_id_str: str(), publisher_id: idStr() },
  { keyword: arr(CreateKeyword) },
)
export type SpotResult = Infer<typeof SpotResult>
export const BatchResult = obj({
  campaign_id: idStr(),
  total: int(),
  results: arr(obj({ index: int(), spot_id: idStr(), spot_id_str: str(), publisher_id: idStr(), campaign_id: idStr() }, { keyword: arr(CreateKeyword) })),
})
export type BatchResult = Infer<typeof BatchResult>
export const DeleteSpotResult = obj({ campaign_id: idStr(), spot_id: idStr(), spot_id_str: str() })
export const UpdateSpotResult = obj(
  { campaign_id: idStr(), spot_id: idStr(), spot_id_str: str() },
  { add_keyword: arr(CreateKeyword), update_keyword: arr(CreateKeyword) },
)
export type UpdateSpotResult = Infer<typeof UpdateSpotResult>

// spec §2.6, §2.7 and vendor-notes §4
export const PanelType = obj({ type_id: str(), type_name: str() })
export const PanelTag = obj({ type_id: str(), tag_id: str(), tag_name: str() })
export const Panel = obj({
  panel_id: str(),
  panel_name: str(),
  platform: lit('pc', 'pm', 'pmo'),
  type_list: arr(PanelType),
  tag_list: arr(PanelTag),
})
export type Panel = Infer<typeof Panel>
export const Region = obj({ region_id: str({ pattern: '^[0-9]{24}$' }), region_name: str(), parent_id: str(), level: int() })
export type Region = Infer<typeof Region>
export const Advertiser = obj({ advertiser_id: idStr(), advertiser_name: str() })
export const Brand = obj({ brand_id: idStr(), brand_name: str(), advertiser_id: idStr() })
export const Agency = obj({ agency_id: idStr(), agency_name: str() })
export const NamedItem = obj({ name: str() })

export const ErrorResponse = obj({ error: str(), error_description: str() })

export const ServerStatus = obj({
  name: str(),
  version: str(),
  schema_version: int(),
  time_zone: str(),
  today: date(),
  started_at: str(),
  base_url: str({ description: 'the address this engine is served at (tracking tags point here)' }),
  storage: obj({
    writable: bool('false while the data directory takes no writes (a full disk), in its database or its event log: writes (and, for the event log, tracking hits and imports) answer 507, reads work (docs/storage.md, "A full disk")'),
    opened_read_only: bool('true when this start found no room and opened the data directory read-only'),
    cause: str({ description: "the system's error code of the refusal (ENOSPC, EDQUOT, EFBIG, EROFS, EIO), empty while writable" }),
    path: str({ description: 'the data directory that refuses writes, empty while writable' }),
  }),
})
export type ServerStatus = Infer<typeof ServerStatus>

/** The OpenAPI document itself (shape not restated). */
export const OpenApiDocument = any('OpenAPI 3.1 document')

// local: panel persons (docs/panel.md)
const PanelFormat = lit('ndjson', 'csv')
export const PanelImportResult = obj({
  panel_id: str(),
  format: PanelFormat,
  mode: lit('replace', 'merge'),
  imported: int('good lines written'),
  rejected: int('bad lines, every one counted'),
  errors: arr(obj({ line: int('1-based line number'), error: str() })),
  persons: int('persons of the panel after the import'),
})
export type PanelImportResult = Infer<typeof PanelImportResult>
/** The export answers the file itself (application/x-ndjson or text/csv), not JSON. */
export const PanelExportFile = any('the file: application/x-ndjson or text/csv, in the import format')
const PanelCell = { persons: int(), weight: int('sum of weights, rounded') }
export const PanelSummary = obj({
  panel_id: str(),
  synthetic: bool('true: the panel has no persons and reports read its seeded synthetic population (docs/panel.md)'),
  persons: int(),
  devices: int(),
  weight_total: int('sum of weights, rounded'),
  by_type: dict(arr(obj({ tag_id: str(), ...PanelCell }))),
  by_region_level1: arr(obj({ region_id: str(), ...PanelCell })),
})
export type PanelSummary = Infer<typeof PanelSummary>
export const PanelGenerateResult = obj({ panel_id: str(), persons: int(), devices: int(), weight_total: int('sum of weights, rounded') })
export type PanelGenerateResult = Infer<typeof PanelGenerateResult>
