// spec §4.2 show_spot, list_spots; vendor-notes §3.2, §3.6, §7
import { toBase62 } from '../contract/base62'
import { badRequest } from '../contract/errors'
import type { ListKeyword, ListSpot, PlanDay } from '../contract/models'
import { askedRows, queriedRows, rowTextsOf } from '../row-texts'
import { paged, type Handler } from '../handler'
import { assertCampaignExists, requireCampaignName } from '../storage/repos/campaigns'
import { plansIn } from '../storage/repos/spot-plan'
import { keywordsIn, keywordsOf, listSpotRows, requireSpot, spotIdsOfList, toSpot, type KeywordRow, type ListSpotRow } from '../storage/repos/spots'
import { tagShape, trackingTags, utmFor, withUtm, type TagCampaign, type TagShape, type TagSpot } from '../tracking/tags'

const show: Handler<'campaigns.show_spot'> = (ctx, p) => {
  assertCampaignExists(ctx.db, p.campaign_id)
  const row = requireSpot(ctx.db, Number(p.campaign_id), p.spot_id_str, 'spot_id_str', `${toBase62(p.spot_id_str)} (spot_id ${p.spot_id_str})`)
  return toSpot(row, {
    keywords: p.keyword ? keywordsOf(ctx.db, row.spot_id) : undefined,
    budget: p.show_extInfo,
    filtration: p.show_filtration_status,
  })
}

type ListParams = Parameters<Handler<'campaigns.list_spots'>>[1]

interface ListContext {
  campaign: TagCampaign
  shape: TagShape
  p: ListParams
  keywords: Map<number, KeywordRow[]>
  plans: Map<number, PlanDay[]> | null
}

function listKeyword(c: ListContext, spot: TagSpot, spotId: number, k: KeywordRow): ListKeyword {
  const kw = { keyword_id: k.keyword_id, keyword_name: k.keyword_name, landing_page: k.landing_page }
  const tags = trackingTags(c.shape, c.campaign, spot, kw)
  const landing = c.p.landingpage === 'utm' ? withUtm(k.landing_page, utmFor(c.campaign, spot, kw)) : k.landing_page
  return {
    deletedTime: '',
    isDeleted: '',
    keyword: k.keyword_name,
    keywordId: k.keyword_id,
    landingPage: landing,
    spid: spotId,
    tracking_tags: [{ impression_url: tags.impression_url }, { click_url: tags.click_url }],
  }
}

function listSpot(c: ListContext, r: ListSpotRow): ListSpot {
  const tag: TagSpot = { spot_id_str: toBase62(r.spot_id), publisher_name: r.publisher_name, placement_type: r.placement_type, landing_page: r.landing_page }
  const out: ListSpot = {
    spot_id: String(r.spot_id),
    spot_id_str: tag.spot_id_str,
    publisher_id: String(r.publisher_id),
    publisher_name: r.publisher_name,
    channel_name: r.channel_name,
    placement_name: r.placement_name,
    placement_type: r.placement_type,
    report_metrics: r.report_metrics,
    GUID: r.GUID,
    CAGUID: r.CAGUID,
    adposition_type: r.adposition_type,
    vending_model: r.vending_model,
    market: r.market,
    customize: r.customize,
    description: r.description,
    landing_page: c.p.landingpage === 'utm' ? withUtm(r.landing_page, utmFor(c.campaign, tag)) : r.landing_page,
    tracking_tags: trackingTags(c.shape, c.campaign, tag),
    keyword: (c.keywords.get(r.spot_id) ?? []).map((k) => listKeyword(c, tag, r.spot_id, k)),
  }
  if (c.plans) out.spot_plan = c.plans.get(r.spot_id) ?? []
  if (c.p.show_extInfo) out.budgetInput = r.budgetInput ?? ''
  if (c.p.show_filtration_status) out.dangerous_source_filtration = r.dangerous_source_filtration
  if (c.p.dm_info) Object.assign(out, { program_purchasing_type: r.program_purchasing_type, program: r.program, shop_id: r.shop_id })
  return out
}

/** A list asked for by spot_id alone, in id order: its ids need no query beyond their rows'. */
const byIdsAlone = (p: ListParams): p is ListParams & { spot_id: string[] } =>
  p.spot_id !== undefined && p.publisher_id === undefined && (p.order_asc ?? p.order_desc ?? 'spot_id') === 'spot_id'

/**
 * Every matching id in answer order, then the rows' texts by id (engine/result-sets.ts pages
 * them), kept for the database version (engine/row-texts.ts) per campaign and every option a
 * row's text depends on: three queries for the rows no earlier answer read, whatever their
 * number (the spots, their keywords and their plan days); none for a query by ids alone whose
 * rows were all read before.
 */
const list = paged<'campaigns.list_spots'>((ctx, p) => {
  const texts = rowTextsOf(ctx.db)
  const campaign = texts.value(ctx.db.version, `campaign ${p.campaign_id}`, () => requireCampaignName(ctx.db, p.campaign_id))
  if (p.from_date !== undefined && p.to_date !== undefined && p.from_date > p.to_date)
    throw badRequest('plan.beforeOther', { param: 'to_date', date: p.to_date, otherParam: 'from_date', otherDate: p.from_date })
  const shape = tagShape(ctx.settings.publicUrl, p.code_type ?? [])
  const { publisher_id: _p, spot_id: _s, limit: _l, order_asc: _a, order_desc: _d, ...options } = p
  const kind = JSON.stringify(['campaigns.list_spots', campaign.campaign_id, campaign.campaign_name, ctx.settings.publicUrl, options])
  const read = (some: readonly number[]) => {
    const list = some.join(',')
    const c: ListContext = {
      campaign,
      shape,
      p,
      keywords: keywordsIn(ctx.db, list, []),
      plans: p.show_plan ? plansIn(ctx.db, list, [], p.from_date, p.to_date) : null,
    }
    return listSpotRows(ctx.db, campaign.campaign_id, list).map((r) => [r.spot_id, listSpot(c, r)] as const)
  }
  const textsOf = (ids: readonly number[]) => texts.of(ctx.db.version, kind, ids, read)
  if (byIdsAlone(p)) return askedRows<ListSpot>(p.spot_id, p.order_desc !== undefined, textsOf)
  return queriedRows<ListSpot>(spotIdsOfList(ctx.db, campaign.campaign_id, p), textsOf)
})

/** Handlers of show_spot and list_spots. */
export const spotsRead = { 'campaigns.show_spot': show, 'campaigns.list_spots': list }
