/**
 * The create/edit campaign form: its model (wire names, spec §4.3), how a campaign from
 * `campaigns.show` fills it, and the `campaigns.create` / `campaigns.update` parameters it sends.
 */
import type { Campaign } from '../../../engine/contract/models'
import {
  AD_CAMPAIGN_TYPES, CREATE_CALCULATION_TYPES, CREATE_PLATFORMS, EAR_ALIMAMA, EAR_NONE, PANEL_TYPES, SLOT_TYPES,
} from '../../../engine/contract/vocabulary'
import type { Params } from '../api/client'

export type Platform = (typeof CREATE_PLATFORMS)[number]
export type CreateCalculationType = (typeof CREATE_CALCULATION_TYPES)[number]
export type SlotType = (typeof SLOT_TYPES)[number]
export type PanelType = (typeof PANEL_TYPES)[number]
export type AdCampaignType = (typeof AD_CAMPAIGN_TYPES)[number]
export const EAR_OPTIONS = [EAR_NONE, EAR_ALIMAMA] as const
export type Ear = (typeof EAR_OPTIONS)[number]
export const CAMPAIGN_TYPES = ['admonitor'] as const

export interface CampaignForm {
  campaign_name: string
  start_date: string | null
  end_date: string | null
  campaign_type: (typeof CAMPAIGN_TYPES)[number] | null
  platform: Platform
  calculation_type: CreateCalculationType
  orderid: string
  schedulingCode: string
  frequency_limit: number | null
  advertiser_id: string | null
  brand_id: string | null
  agency_id: string | null
  panel_id: string | null
  ear: Ear
  /** The three parts of `wares` (advertiser|brand name|product name), edited apart. */
  wares_advertiser: string
  wares_brand: string
  wares_product: string
  linked_siteids: string
  ad_campaign_type: AdCampaignType | null
  slot_type: SlotType
  freq_capping: number | null
  description: string
  panel_type: PanelType
  /** Ids separated by commas ("123,456"); sent as a JSON array. */
  linked_tvcaids: string
  extensiontype: string | null
  play_detect: boolean
}

export type FormField = keyof CampaignForm

/** Fields only `campaigns.create` takes; an edit shows them read-only (vendor-notes §3.12). */
export const CREATE_ONLY: readonly FormField[] = [
  'platform', 'calculation_type', 'orderid', 'schedulingCode', 'frequency_limit', 'panel_id', 'ear',
  'ad_campaign_type', 'freq_capping', 'panel_type',
]

/** The form of a new campaign: the spec's defaults. */
export const emptyForm = (): CampaignForm => ({
  campaign_name: '', start_date: null, end_date: null, campaign_type: null,
  platform: 'pc', calculation_type: '1.0', orderid: '', schedulingCode: '', frequency_limit: 10,
  advertiser_id: null, brand_id: null, agency_id: null, panel_id: null, ear: EAR_NONE,
  wares_advertiser: '', wares_brand: '', wares_product: '', linked_siteids: '', ad_campaign_type: null,
  slot_type: 'display', freq_capping: null, description: '', panel_type: 'pm', linked_tvcaids: '',
  extensiontype: null, play_detect: false,
})

/** `wares` from its parts: '' when every part is empty. */
export function joinWares(f: Pick<CampaignForm, 'wares_advertiser' | 'wares_brand' | 'wares_product'>): string {
  const parts = [f.wares_advertiser, f.wares_brand, f.wares_product].map((s) => s.trim())
  return parts.every((s) => s === '') ? '' : parts.join('|')
}

/** linked_tvcaids text -> ids, or null when it is not integers separated by commas. */
export function parseTvcaids(text: string): number[] | null {
  const s = text.trim().replace(/^\[/, '').replace(/\]$/, '').trim()
  if (s === '') return []
  const parts = s.split(/\s*[,;\s]\s*/)
  if (parts.some((p) => !/^[0-9]{1,15}$/.test(p))) return null
  return parts.map(Number)
}

const tvcaidsWire = (text: string): string => JSON.stringify(parseTvcaids(text) ?? [])
const oneOf = <T extends string>(values: readonly T[], v: unknown, fallback: T): T => ((values as readonly unknown[]).includes(v) ? (v as T) : fallback)

/** Ids of the campaign's advertiser, brand and agency, found by name (show answers names only). */
export interface ResolvedRefs {
  advertiser_id: string | null
  brand_id: string | null
  agency_id: string | null
}

/**
 * The edit form of a campaign shown with pmo_info=1 and dm_info=1. `wares`, `platform` and
 * `ad_campaign_type` are not in the show answer: wares starts empty (empty = keep it as it is).
 */
export function formFromCampaign(c: Campaign, refs: ResolvedRefs): CampaignForm {
  const freq = c.freq_capping === undefined || c.freq_capping === '' ? null : Number(c.freq_capping)
  return {
    ...emptyForm(),
    ...refs,
    campaign_name: c.campaign_name,
    start_date: c.start_date,
    end_date: c.end_date,
    campaign_type: c.campaign_type === 'admonitor' ? 'admonitor' : null,
    calculation_type: oneOf(CREATE_CALCULATION_TYPES, c.calculation_type, '1.0'),
    orderid: c.order_id ?? '',
    schedulingCode: c.scheduling_code ?? '',
    frequency_limit: c.frequency_limit ?? null,
    panel_id: c.linked_panels[0] ?? null,
    ear: oneOf(EAR_OPTIONS, c.ear, EAR_NONE),
    linked_siteids: c.linked_siteids,
    slot_type: c.slot_type,
    freq_capping: Number.isFinite(freq) ? freq : null,
    description: c.description,
    panel_type: c.panel_type === 1 ? 'pmo' : 'pm',
    linked_tvcaids: (c.linked_tvcaids ?? []).join(','),
    extensiontype: c.extensiontype ? c.extensiontype : null,
    play_detect: c.play_detect === 'true',
  }
}

/** `campaigns.create` parameters: every field the form holds a value for. */
export function createParams(f: CampaignForm): Params {
  const params: Params = {
    campaign_name: f.campaign_name.trim(),
    start_date: f.start_date,
    end_date: f.end_date,
    campaign_type: f.campaign_type,
    platform: f.platform,
    calculation_type: f.calculation_type,
    orderid: f.orderid.trim(),
    schedulingCode: f.schedulingCode.trim(),
    frequency_limit: f.frequency_limit,
    advertiser_id: f.advertiser_id,
    brand_id: f.brand_id,
    agency_id: f.agency_id,
    panel_id: f.panel_id,
    ear: f.ear,
    wares: joinWares(f),
    linked_siteids: f.linked_siteids.trim(),
    ad_campaign_type: f.ad_campaign_type,
    slot_type: f.slot_type,
    freq_capping: f.freq_capping,
    description: f.description,
    panel_type: f.panel_type,
    linked_tvcaids: parseTvcaids(f.linked_tvcaids)?.length ? tvcaidsWire(f.linked_tvcaids) : undefined,
    extensiontype: f.extensiontype,
    play_detect: f.play_detect,
  }
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== ''))
}

/** What an update sends: the parameters, and those among them that are sent empty on purpose (cleared). */
export interface UpdateRequest {
  params: Params
  /** Text parameters cleared by the user: sent as '' (which clears the stored value). */
  keepEmpty: string[]
}

/** Text fields of update that an empty value clears. */
const CLEARABLE_TEXT = ['description', 'linked_siteids', 'extensiontype', 'wares'] as const

/**
 * `campaigns.update` parameters: only what update accepts and only what changed since `initial`,
 * so an untouched campaign is not rewritten (no renamed duplicate, no past-start check). The dates
 * go together (spec §4.3), and a brand goes with its advertiser (the engine checks the pair).
 */
export function updateParams(campaignId: string, f: CampaignForm, initial: CampaignForm): UpdateRequest {
  const params: Params = { campaign_id: campaignId }
  const changed = <K extends FormField>(k: K): boolean => f[k] !== initial[k]
  const name = f.campaign_name.trim()
  if (name !== initial.campaign_name.trim()) params.campaign_name = name
  if (f.campaign_type !== initial.campaign_type && f.campaign_type !== null) params.campaign_type = f.campaign_type
  if (changed('start_date') || changed('end_date')) Object.assign(params, { start_date: f.start_date, end_date: f.end_date })
  if (changed('advertiser_id') || changed('brand_id')) {
    params.advertiser_id = f.advertiser_id
    if (f.brand_id !== null) params.brand_id = f.brand_id
  }
  if (changed('agency_id')) params.agency_id = f.agency_id
  if (changed('slot_type')) params.slot_type = f.slot_type
  if (changed('play_detect')) params.play_detect = f.play_detect
  const tv = (text: string) => tvcaidsWire(text)
  if (tv(f.linked_tvcaids) !== tv(initial.linked_tvcaids)) params.linked_tvcaids = tv(f.linked_tvcaids)
  const text: Record<(typeof CLEARABLE_TEXT)[number], [string, string]> = {
    description: [f.description, initial.description],
    linked_siteids: [f.linked_siteids.trim(), initial.linked_siteids.trim()],
    extensiontype: [f.extensiontype ?? '', initial.extensiontype ?? ''],
    wares: [joinWares(f), joinWares(initial)],
  }
  const keepEmpty: string[] = []
  for (const k of CLEARABLE_TEXT) {
    const [now, before] = text[k]
    if (now === before) continue
    params[k] = now
    if (now === '') keepEmpty.push(k)
  }
  for (const [k, v] of Object.entries(params)) if (v === null || v === undefined) delete params[k]
  return { params, keepEmpty }
}

/** Whether an update would change anything (campaign_id alone is nothing). */
export const updateIsEmpty = (u: UpdateRequest): boolean => Object.keys(u.params).length <= 1
