/** Seed records for the reference tables (schema v1), produced by the builders in this folder. */

export interface RegionSeed {
  /** 24 digits (docs/regions.md). */
  region_id: string
  /** '' for the global region. */
  parent_id: string
  /** 0 global and mainland China, 1 province-level, 2 prefecture-level city. */
  level: number
  name_en: string
  name_cn: string
  /** GB/T 2260 code, '' for levels 0. */
  gb_code: string
}

export interface PanelSeed {
  panel_id: string
  panel_name: string
  platform: 'pc' | 'pm' | 'pmo'
  /** YYYY-MM-DD; the latest release of a platform is the default panel of new campaigns. */
  released: string
  types: { type_id: string; name_en: string; name_cn: string }[]
  tags: { tag_id: string; type_id: string; name_en: string; name_cn: string }[]
}

export interface ReferenceSeed {
  advertisers: { advertiser_id: number; advertiser_name: string }[]
  brands: { brand_id: number; brand_name: string; advertiser_id: number }[]
  agencies: { agency_id: number; agency_name: string }[]
  products: string[]
  programs: string[]
  plmttypes: string[]
  extensiontypes: string[]
  panels: PanelSeed[]
}
