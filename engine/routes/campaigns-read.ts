// spec §4.2: campaigns/show and campaigns/list
import type { ParamsFor } from '../contract/endpoints'
import type { Campaign } from '../contract/models'
import { askedRows, queriedRows, rowTextsOf } from '../row-texts'
import { paged, type Handler } from '../handler'
import { campaignIdsOfList, campaignRowsByIds, requireCampaign, toCampaign } from '../storage/repos/campaigns'

const show: Handler<'campaigns.show'> = (ctx, p) =>
  toCampaign(requireCampaign(ctx.db, p.campaign_id, ctx.today), { pmo: p.pmo_info, dm: p.dm_info })

type ListParams = ParamsFor<'campaigns.list'>

/** A list asked for by campaign_id alone, in id order: its ids need no query beyond their rows'. */
const byIdsAlone = (p: ListParams): p is ListParams & { campaign_id: string[] } =>
  p.campaign_id !== undefined && p.campaign_type === undefined && p.campaign_name === undefined && p.advertiser_name === undefined &&
  p.agency_name === undefined && p.brand_name === undefined && p.creator_name === undefined && p.status === undefined &&
  p.calculation_type === undefined && (p.order_asc ?? p.order_desc ?? 'campaign_id') === 'campaign_id'

/**
 * Every matching id in answer order, then the rows' texts by id (engine/result-sets.ts pages
 * them), kept for the database version (engine/row-texts.ts): a query by ids alone reads only the
 * rows no earlier answer read.
 */
const list = paged<'campaigns.list'>((ctx, p) => {
  const opts = { pmo: p.pmo_info, dm: p.dm_info }
  const kind = `campaigns.list|${opts.pmo}|${opts.dm}`
  const texts = (ids: readonly number[]) =>
    rowTextsOf(ctx.db).of(ctx.db.version, kind, ids, (some) => campaignRowsByIds(ctx.db, some, opts, ctx.today).map((r) => [r.campaign_id, toCampaign(r, opts)] as const))
  if (byIdsAlone(p)) return askedRows<Campaign>(p.campaign_id, p.order_desc !== undefined, texts)
  return queriedRows<Campaign>(campaignIdsOfList(ctx.db, p, ctx.today), texts)
})

export const campaignsRead = { 'campaigns.show': show, 'campaigns.list': list }
