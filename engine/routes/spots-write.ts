// spec §4.3 create_spot, create_spot_with_plan, delete_spot, update_spot; vendor-notes §3.8, §3.9, §3.11, §3.13
import { toBase62 } from '../contract/base62'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import { assertCampaignExists, requireCampaign } from '../storage/repos/campaigns'
import { deleteSpot, requireSpot } from '../storage/repos/spots'
import { spotsBatch } from './spots-batch'
import { createSpot, type CreateMode, type NewSpot } from './spots-create'
import { spotsUpdate } from './spots-update'

function createOne(ctx: Ctx, p: NewSpot & { campaign_id: string }, mode: CreateMode) {
  const campaign = requireCampaign(ctx.db, p.campaign_id, ctx.today)
  return ctx.db.tx(() => createSpot(ctx, campaign, p, mode))
}

const create: Handler<'campaigns.create_spot'> = (ctx, p) => createOne(ctx, p, 'spot')

const createWithPlan: Handler<'campaigns.create_spot_with_plan'> = (ctx, p) => createOne(ctx, p, 'plan')

const remove: Handler<'campaigns.delete_spot'> = (ctx, p) => {
  assertCampaignExists(ctx.db, p.campaign_id)
  const spot = requireSpot(ctx.db, Number(p.campaign_id), p.spot_id)
  // Keywords and plan days go with the spot (ON DELETE CASCADE); the publisher stays (global registry).
  ctx.db.tx(() => deleteSpot(ctx.db, spot.spot_id))
  return { campaign_id: p.campaign_id, spot_id: String(spot.spot_id), spot_id_str: toBase62(spot.spot_id) }
}

/** Handlers of the spot write endpoints (spec §4.3, vendor-notes §3.9). */
export const spotsWrite = {
  'campaigns.create_spot': create,
  'campaigns.create_spot_with_plan': createWithPlan,
  ...spotsBatch,
  ...spotsUpdate,
  'campaigns.delete_spot': remove,
}
