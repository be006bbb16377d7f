// spec §4.2: campaigns/show and campaigns/list
import { PagedRows } from '../result-sets'
import { paged, type Handler } from '../handler'
import { campaignIdsOfList, campaignRowsByIds, requireCampaign, toCampaign } from '../storage/repos/campaigns'
import { inIdOrder } from '../storage/repos/query'

const show: Handler<'campaigns.show'> = (ctx, p) =>
  toCampaign(requireCampaign(ctx.db, p.campaign_id, ctx.today), { pmo: p.pmo_info, dm: p.dm_info })

/** Every matching id in answer order, then rows by id (engine/result-sets.ts pages them). */
const list = paged<'campaigns.list'>((ctx, p) => {
  const opts = { pmo: p.pmo_info, dm: p.dm_info }
  const all = campaignIdsOfList(ctx.db, p, ctx.today)
  return new PagedRows(all, (some) => {
    const rows = campaignRowsByIds(ctx.db, some, opts, ctx.today)
    return inIdOrder(rows, some, (r) => r.campaign_id).map((r) => toCampaign(r, opts))
  })
})

export const campaignsRead = { 'campaigns.show': show, 'campaigns.list': list }
