// spec §4.2: campaigns/show and campaigns/list
import { PagedRows } from '../result-sets'
import { paged, type Handler } from '../handler'
import { ADVERTISER_NAME_SQL, AGENCY_NAME_SQL, BRAND_NAME_SQL, JOINS, STATUS_SQL, requireCampaign, toCampaign, wireSelect, type CampaignRow } from '../storage/repos/campaigns'
import { Where, ids, idsInOrder, inIdOrder, orderBy } from '../storage/repos/query'

const ORDER_COLUMNS = {
  campaign_id: 'c.campaign_id',
  campaign_name: 'c.campaign_name',
  advertiser_name: ADVERTISER_NAME_SQL,
  agency_name: AGENCY_NAME_SQL,
  brand_name: BRAND_NAME_SQL,
  creator_name: 'c.creator_name',
  status: STATUS_SQL,
}

const show: Handler<'campaigns.show'> = (ctx, p) =>
  toCampaign(requireCampaign(ctx.db, p.campaign_id, ctx.today), { pmo: p.pmo_info, dm: p.dm_info })

/** Every matching id in answer order, then rows by id (engine/result-sets.ts pages them). */
const list = paged<'campaigns.list'>((ctx, p) => {
  const w = new Where()
    .in('c.campaign_id', ids(p.campaign_id))
    .in('c.campaign_type', p.campaign_type)
    .pattern('c.campaign_name', p.campaign_name)
    .pattern(ADVERTISER_NAME_SQL, p.advertiser_name)
    .pattern(AGENCY_NAME_SQL, p.agency_name)
    .pattern(BRAND_NAME_SQL, p.brand_name)
    .pattern('c.creator_name', p.creator_name)
    .eq(STATUS_SQL, p.status)
    .eq('c.calculation_type', p.calculation_type)
  const opts = { pmo: p.pmo_info, dm: p.dm_info }
  const all = idsInOrder(ctx.db, 'c.campaign_id', JOINS + w.sql, orderBy(p, ORDER_COLUMNS, 'c.campaign_id'), w.params, ctx.today)
  return new PagedRows(all, (some) => {
    const rows = ctx.db.query<CampaignRow>(`${wireSelect(opts)} WHERE c.campaign_id IN (${some.join(',')})`, [ctx.today])
    return inIdOrder(rows, some, (r) => r.campaign_id).map((r) => toCampaign(r, opts))
  })
})

export const campaignsRead = { 'campaigns.show': show, 'campaigns.list': list }
