// spec §4.3: campaigns/create, campaigns/update, campaigns/delete; vendor-notes §3.7, §3.12
import { E, badProblem, badRequest, refuse } from '../contract/errors'
import type { ParamsFor } from '../contract/endpoints'
import { campaignDatesProblem } from '../contract/plan-rules'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import { assertCampaignExists, campaignIdByName, deleteCampaign, insertCampaign, plansOutside, requireCampaign, updateCampaignColumns } from '../storage/repos/campaigns'
import { latestPanel, requireAdvertiser, requireAgency, requireBrandOf, requireNamed, requirePanel } from '../storage/repos/reference'

/** wares: advertiser|brand name|product name. */
function parseWares(wares: string): { advertiser: string; brand: string } {
  if (wares.trim() === '') return { advertiser: '', brand: '' }
  const parts = wares.split('|').map((s) => s.trim())
  if (parts.length !== 3 || parts.some((s) => s === '')) throw badRequest('campaign.wares', { param: 'wares', got: wares })
  return { advertiser: parts[0]!, brand: parts[1]! }
}

function checkSiteIds(text: string | undefined): void {
  if (text !== undefined && text.trim() !== '' && !/^\s*[0-9]+(\s*;\s*[0-9]+)*\s*;?\s*$/.test(text))
    throw badRequest('campaign.siteIds', { param: 'linked_siteids', got: text })
}

function checkReferences(ctx: Ctx, p: { advertiser_id?: string | undefined; brand_id?: string | undefined; agency_id?: string | undefined; extensiontype?: string | undefined }): void {
  if (p.advertiser_id !== undefined) requireAdvertiser(ctx.db, p.advertiser_id)
  if (p.brand_id !== undefined) requireBrandOf(ctx.db, p.brand_id, p.advertiser_id)
  if (p.agency_id !== undefined) requireAgency(ctx.db, p.agency_id)
  requireNamed(ctx.db, 'extensiontypes', p.extensiontype, 'extensiontype')
}

function checkNotPast(ctx: Ctx, name: string, date: string): void {
  if (date < ctx.today) throw badRequest('param.beforeToday', { param: name, date, today: ctx.today, zone: ctx.settings.timeZone })
}

function nameOwner(ctx: Ctx, name: string): number | undefined {
  return campaignIdByName(ctx.db, name)
}

const create: Handler<'campaigns.create'> = (ctx, p) => {
  checkNotPast(ctx, 'start_date', p.start_date)
  const order = campaignDatesProblem(p)
  if (order) throw badProblem(order)
  const owner = nameOwner(ctx, p.campaign_name)
  if (owner !== undefined) throw refuse(E.invalidCampaignName, 'param.nameUsed', { param: 'campaign_name', value: p.campaign_name, id: String(owner) })
  checkReferences(ctx, p)
  checkSiteIds(p.linked_siteids)
  const wares = parseWares(p.wares ?? '')
  const panelPlatform = p.platform === 'pc' ? 'pc' : p.panel_type
  const panel = p.panel_id ?? latestPanel(ctx.db, panelPlatform)
  if (panel === undefined) throw badRequest('campaign.noPanel', { param: 'panel_id', platform: panelPlatform })
  requirePanel(ctx.db, panel)
  const now = new Date(ctx.clock.now()).toISOString()
  const id = ctx.db.tx(() => insertCampaign(ctx.db, {
    campaign_type: p.campaign_type ?? 'admonitor', campaign_name: p.campaign_name, start_date: p.start_date, end_date: p.end_date, description: p.description ?? '',
    advertiser_id: p.advertiser_id === undefined ? null : Number(p.advertiser_id), brand_id: p.brand_id === undefined ? null : Number(p.brand_id),
    agency_id: p.agency_id === undefined ? null : Number(p.agency_id), wares: p.wares ?? '', wares_advertiser: wares.advertiser, wares_brand: wares.brand,
    creator_name: ctx.user?.username ?? '', slot_type: p.slot_type, platform: p.platform, calculation_type: p.calculation_type, panel_id: panel, panel_type: p.panel_type,
    linked_siteids: (p.linked_siteids ?? '').trim(), linked_iplib: ctx.settings.ipLibrary, linked_tvcaids: JSON.stringify(p.linked_tvcaids ?? []), order_id: p.orderid ?? '',
    scheduling_code: p.schedulingCode ?? '', extensiontype: p.extensiontype ?? '', play_detect: p.play_detect ? 1 : 0, ear: p.ear, freq_capping: p.freq_capping ?? null,
    frequency_limit: p.frequency_limit, ad_campaign_type: p.ad_campaign_type ?? '',
  }, now))
  return { campaign_id: String(id) }
}

/** The longest campaign name (the codec's limit, also for a name with a number appended). */
const MAX_NAME = 255

/**
 * update: a duplicate name gets a number appended (spec §4.3), e.g. "Spring sale_2"; the name is
 * cut (by characters, not UTF-16 units) so that the result keeps within MAX_NAME.
 */
function freeName(ctx: Ctx, name: string, self: number): string {
  const owner = nameOwner(ctx, name)
  if (owner === undefined || owner === self) return name
  const chars = [...name]
  for (let n = 2; ; n++) {
    const suffix = `_${n}`
    const candidate = `${chars.slice(0, MAX_NAME - suffix.length).join('')}${suffix}`
    const o = nameOwner(ctx, candidate)
    if (o === undefined || o === self) return candidate
  }
}

type UpdateParams = ParamsFor<'campaigns.update'>

function checkUpdateDates(ctx: Ctx, p: UpdateParams, current: { campaign_id: number | string; start_date: string }): void {
  if ((p.start_date === undefined) !== (p.end_date === undefined)) {
    const [given, missing] = p.start_date === undefined ? ['end_date', 'start_date'] : ['start_date', 'end_date']
    throw badRequest('param.together', { param: given, otherParam: missing })
  }
  if (p.start_date === undefined || p.end_date === undefined) return
  // A campaign under way keeps its past start date; a new start date may not lie in the past.
  if (p.start_date !== current.start_date) checkNotPast(ctx, 'start_date', p.start_date)
  const order = campaignDatesProblem({ start_date: p.start_date, end_date: p.end_date })
  if (order) throw badProblem(order)
  checkPlansInside(ctx, Number(current.campaign_id), p.start_date, p.end_date)
}

/**
 * Plan days must lie within the campaign (docs/spots.md): new dates that would leave some outside
 * are refused, naming the date and the spots, rather than the days being dropped with their
 * estimates. The days are removed first with update_spot delete_slot.
 */
function checkPlansInside(ctx: Ctx, campaignId: number, start: string, end: string): void {
  const outside = plansOutside(ctx.db, campaignId, start, end)
  if (outside.length === 0) return
  // the date (or both) the days fall outside of; each spot by id and name, its days on each side
  // counted apart (not one count "between" its first and last day)
  const early = outside.some((o) => o.before > 0)
  const late = outside.some((o) => o.after > 0)
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`
  const sides = (o: (typeof outside)[number]) => [
    ...(o.before > 0 ? [`${days(o.before)} before ${start} (from ${o.first})`] : []),
    ...(o.after > 0 ? [`${days(o.after)} after ${end} (to ${o.last})`] : []),
  ].join(' and ')
  const named = outside.slice(0, 3).map((o) => `spot ${o.spot_id} '${o.name}' has ${sides(o)}`).join('; ')
  const more = outside.length > 3 ? `; and ${outside.length - 3} more spots` : ''
  throw badRequest(early && late ? 'campaign.plansOutsideBoth' : 'campaign.plansOutside', { param: early ? 'start_date' : 'end_date', start, end, details: `${named}${more}` })
}

const update: Handler<'campaigns.update'> = (ctx, p) => {
  const current = requireCampaign(ctx.db, p.campaign_id, ctx.today)
  checkUpdateDates(ctx, p, current)
  checkReferences(ctx, p)
  if (p.advertiser_id !== undefined && p.brand_id === undefined && current.brand_id !== null && String(current.advertiser_id) !== p.advertiser_id)
    throw badRequest('campaign.advertiserBrand', { param: 'advertiser_id', brand: String(current.brand_id), owner: String(current.advertiser_id) })
  checkSiteIds(p.linked_siteids)
  const set: Record<string, string | number | null> = {}
  if (p.campaign_type !== undefined) set.campaign_type = p.campaign_type
  if (p.campaign_name !== undefined) set.campaign_name = freeName(ctx, p.campaign_name, current.campaign_id)
  if (p.start_date !== undefined && p.end_date !== undefined) Object.assign(set, { start_date: p.start_date, end_date: p.end_date })
  if (p.advertiser_id !== undefined) set.advertiser_id = Number(p.advertiser_id)
  if (p.brand_id !== undefined) set.brand_id = Number(p.brand_id)
  if (p.agency_id !== undefined) set.agency_id = Number(p.agency_id)
  if (p.wares !== undefined) {
    const w = parseWares(p.wares)
    Object.assign(set, { wares: p.wares, wares_advertiser: w.advertiser, wares_brand: w.brand })
  }
  if (p.linked_siteids !== undefined) set.linked_siteids = p.linked_siteids.trim()
  if (p.slot_type !== undefined) set.slot_type = p.slot_type
  if (p.description !== undefined) set.description = p.description
  if (p.linked_tvcaids !== undefined) set.linked_tvcaids = JSON.stringify(p.linked_tvcaids)
  if (p.extensiontype !== undefined) set.extensiontype = p.extensiontype
  if (p.play_detect !== undefined) set.play_detect = p.play_detect ? 1 : 0
  set.updated_at = new Date(ctx.clock.now()).toISOString()
  ctx.db.tx(() => updateCampaignColumns(ctx.db, current.campaign_id, set))
  return { campaign_id: p.campaign_id }
}

const remove: Handler<'campaigns.delete'> = (ctx, p) => {
  assertCampaignExists(ctx.db, p.campaign_id)
  ctx.db.tx(() => deleteCampaign(ctx.db, Number(p.campaign_id)))
  return { campaign_id: p.campaign_id }
}

export const campaignsWrite = { 'campaigns.create': create, 'campaigns.update': update, 'campaigns.delete': remove }
