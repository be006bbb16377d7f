// spec §4.3 update_spot; vendor-notes §3.13, §8.1, §8.3
import { toBase62 } from '../contract/base62'
import { badRequest } from '../contract/errors'
import type { KeywordInput, KeywordUpdate } from '../contract/params'
import type { Handler } from '../handler'
import type { Db, Param } from '../storage/db'
import { requireCampaign } from '../storage/repos/campaigns'
import { deletePlanDays, insertPlan, planOf, updatePlanDays } from '../storage/repos/spot-plan'
import { insertKeywords, keywordsOf, publisherIdFor, renameKeywords, requireSpot, showKeyword, textColumns, updateSpotRow, type KeywordRow } from '../storage/repos/spots'
import { checkSpotReferences } from './spots-create'
import { slotChanges } from './spots-plan'

/**
 * Checks keyword changes against the spot's keywords: updated ids belong to the spot, and after
 * the renames no two keywords share a name, nor does an added one with any of them.
 */
function checkKeywords(spotId: number, existing: readonly KeywordRow[], add: readonly KeywordInput[] = [], upd: readonly KeywordUpdate[] = []): void {
  const ids = new Set(existing.map((k) => String(k.keyword_id)))
  const missing = upd.find((u) => !ids.has(u.keyword_id))
  if (missing) throw badRequest('spot.keywordNotOfSpot', { param: 'update_keyword', id: missing.keyword_id, spot: String(spotId) })
  const renamed = new Map(upd.map((u) => [u.keyword_id, u.keyword_name]))
  const owner = new Map<string, string>()
  for (const k of existing) {
    const id = String(k.keyword_id)
    const name = renamed.get(id) ?? k.keyword_name
    const other = owner.get(name)
    if (other !== undefined) {
      const [moved, kept] = renamed.has(id) ? [id, other] : [other, id]
      throw badRequest('spot.keywordRenamed', { param: 'update_keyword', id: moved, value: name, owner: kept })
    }
    owner.set(name, id)
  }
  const dup = add.find((a) => owner.has(a.keyword_name))
  if (dup) throw badRequest('spot.keywordTwice', { param: 'add_keyword', value: dup.keyword_name, id: `${owner.get(dup.keyword_name)}` })
}

const applyKeywordUpdates = (db: Db, upd: readonly KeywordUpdate[]): void => renameKeywords(db, upd)

/** The spot columns an update sets; '' clears a text field. */
function updatedColumns(p: Parameters<Handler<'campaigns.update_spot'>>[1], program: string | undefined, trackingTiming: string, now: string): Record<string, Param> {
  const set: Record<string, Param> = { ...textColumns(p), updated_at: now }
  if (program !== undefined) set.program = program
  if (p.dangerous_source_filtration !== undefined) set.dangerous_source_filtration = p.dangerous_source_filtration ? 1 : 0
  // A spot that becomes a video spot gets the video default of tracking_timing when it has none.
  if (p.placement_type === 'video' && trackingTiming === '') set.tracking_timing = '1s'
  return set
}

const updateSpot: Handler<'campaigns.update_spot'> = (ctx, p) => {
  const campaign = requireCampaign(ctx.db, p.campaign_id, ctx.today)
  const spot = requireSpot(ctx.db, campaign.campaign_id, p.spot_id)
  const program = checkSpotReferences(ctx.db, p)
  const keywords = keywordsOf(ctx.db, spot.spot_id)
  checkKeywords(spot.spot_id, keywords, p.add_keyword, p.update_keyword)
  const slots = slotChanges(p, new Set(planOf(ctx.db, spot.spot_id).map((d) => d.date)), campaign)
  const set = updatedColumns(p, program, spot.tracking_timing, new Date(ctx.clock.now()).toISOString())
  const added = ctx.db.tx(() => {
    if (p.publisher_name !== undefined) set.publisher_id = publisherIdFor(ctx.db, p.publisher_name)
    updateSpotRow(ctx.db, spot.spot_id, set)
    applyKeywordUpdates(ctx.db, p.update_keyword ?? [])
    const rows = insertKeywords(ctx.db, spot.spot_id, p.add_keyword ?? [])
    deletePlanDays(ctx.db, spot.spot_id, slots.remove)
    updatePlanDays(ctx.db, spot.spot_id, slots.update)
    insertPlan(ctx.db, spot.spot_id, slots.add)
    return rows
  })
  const updated = (p.update_keyword ?? []).map((u) => ({ keyword_id: Number(u.keyword_id), keyword_name: u.keyword_name, landing_page: u.landing_page }))
  return {
    campaign_id: String(campaign.campaign_id),
    spot_id: String(spot.spot_id),
    spot_id_str: toBase62(spot.spot_id),
    ...(added.length > 0 ? { add_keyword: added.map(showKeyword) } : {}),
    ...(updated.length > 0 ? { update_keyword: updated } : {}),
  }
}

/** Handler of update_spot. */
export const spotsUpdate = { 'campaigns.update_spot': updateSpot }
