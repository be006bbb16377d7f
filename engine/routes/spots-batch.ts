// vendor-notes §3.9: batch_create_spot_with_plan (JSON body, all or nothing, item-indexed errors)
import { ApiError, badRequest, refuse } from '../contract/errors'
import { BATCH_ITEM, BATCH_MAX_SPOTS } from '../contract/endpoints-cms'
import type { ParamsOf } from '../contract/params'
import { p as codecs } from '../contract/params'
import type { Handler } from '../handler'
import { requireCampaign } from '../storage/repos/campaigns'
import { createSpot, type NewSpot } from './spots-create'

type Item = ParamsOf<typeof BATCH_ITEM>

/** Item members that may also be JSON arrays (of strings or numbers), joined with ','. */
const LIST_MEMBERS: ReadonlySet<string> = new Set(['add_slot', 'est_impression_day', 'est_click_day'])

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A member's value as the text its codec reads; null means absent. */
function memberText(name: string, v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined
  if (typeof v === 'string') return v
  if (typeof v === 'number') return String(v)
  if (Array.isArray(v) && LIST_MEMBERS.has(name) && v.every((x) => typeof x === 'string' || typeof x === 'number')) return v.join(',')
  throw badRequest(LIST_MEMBERS.has(name) ? 'batch.memberList' : 'batch.member', { param: name })
}

/**
 * One item decoded with the codecs of BATCH_ITEM; members it does not declare are ignored,
 * except a campaign_id naming another campaign than the body's (a likely mistake).
 */
function decodeItem(raw: unknown, campaignId: string): NewSpot {
  if (!isRecord(raw)) throw badRequest('batch.itemsObjects', { param: 'spots' })
  const own = raw.campaign_id
  if (own !== undefined && own !== null && String(own).trim() !== campaignId)
    throw badRequest('batch.campaignDiffers', { param: 'campaign_id', own: String(own), campaign: campaignId })
  const out: Record<string, unknown> = {}
  for (const [name, codec] of Object.entries(BATCH_ITEM)) out[name] = codec.decode(memberText(name, raw[name]), name)
  return out as Item
}

/** Runs `fn` for item `index`; an error it throws says which item it is about. */
function atItem<T>(index: number, fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    if (err instanceof ApiError && err.problem) throw refuse(err.def, 'batch.item', { index, reason: err.problem }, { ...err.headers })
    throw err
  }
}

const campaignIdCodec = codecs.id().required()

/** The body: {campaign_id (string or number), spots: [1..BATCH_MAX_SPOTS objects]}. */
function readBody(json: unknown): { campaignId: string; spots: unknown[] } {
  if (!isRecord(json)) throw badRequest('batch.body', { param: 'body' })
  const id = json.campaign_id
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') throw badRequest('batch.member', { param: 'campaign_id' })
  const campaignId = campaignIdCodec.decode(id === undefined ? undefined : String(id), 'campaign_id')
  const spots = json.spots
  if (!Array.isArray(spots) || spots.length === 0) throw badRequest('batch.noSpots', { param: 'spots' })
  if (spots.length > BATCH_MAX_SPOTS) throw badRequest('batch.tooMany', { param: 'spots', n: spots.length, max: BATCH_MAX_SPOTS })
  return { campaignId, spots }
}

const batchCreate: Handler<'campaigns.batch_create_spot_with_plan'> = (ctx) => {
  const body = readBody(ctx.json)
  const campaign = requireCampaign(ctx.db, body.campaignId, ctx.today)
  const items = body.spots.map((raw, i) => atItem(i, () => decodeItem(raw, String(campaign.campaign_id))))
  // One transaction, items in array order: any failure rolls every item back.
  const created = ctx.db.tx(() => items.map((item, i) => atItem(i, () => createSpot(ctx, campaign, item, 'plan'))))
  return {
    campaign_id: String(campaign.campaign_id),
    total: created.length,
    results: created.map((r, index) => ({
      index,
      spot_id: r.spot_id,
      spot_id_str: r.spot_id_str,
      publisher_id: r.publisher_id,
      campaign_id: r.campaign_id,
      ...(r.keyword ? { keyword: r.keyword } : {}),
    })),
  }
}

/** Handler of batch_create_spot_with_plan. */
export const spotsBatch = { 'campaigns.batch_create_spot_with_plan': batchCreate }
