// spec §4.3 create_spot, create_spot_with_plan; vendor-notes §3.8, §3.9, §8.1
import { toBase62 } from '../contract/base62'
import { badProblem, badRequest } from '../contract/errors'
import type { BATCH_ITEM } from '../contract/endpoints-cms'
import type { SpotResult } from '../contract/models'
import type { ParamsOf } from '../contract/params'
import { isBiddingChannel, keywordChannelProblem } from '../contract/plan-rules'
import type { Ctx } from '../context'
import type { Db, Param } from '../storage/db'
import { requireNamed } from '../storage/repos/reference'
import { insertPlan } from '../storage/repos/spot-plan'
import { insertKeywords, insertRow, publisherIdFor, textColumns, type KeywordRow } from '../storage/repos/spots'
import { newSpotPlan, type CampaignDates } from './spots-plan'

type Item = ParamsOf<typeof BATCH_ITEM>

/**
 * A new spot as create_spot, create_spot_with_plan and batch items give it: the batch item's
 * fields, of which a single create sends a subset (create_spot has no plan, with_plan no
 * freq_capping and no add_slot).
 */
export type NewSpot = Partial<Item> & Pick<Item, 'publisher_name' | 'channel_name' | 'placement_name'>

/** 'plan' for create_spot_with_plan and batch items: a keyword spot needs a Bidding channel. */
export type CreateMode = 'spot' | 'plan'

/** The campaign a spot is created in. */
export interface SpotCampaign extends CampaignDates {
  campaign_id: number
}

/**
 * Program names separated by ',', each one from programs/list; '' clears. Returns the stored
 * text (names trimmed, joined by ','), or undefined when not sent.
 */
export function checkedPrograms(db: Db, text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return text === undefined ? undefined : ''
  const names = text.split(',').map((s) => s.trim())
  if (names.some((s) => s === '')) throw badRequest('spot.programEmpty', { param: 'program', got: text })
  for (const name of names) requireNamed(db, 'programs', name, 'program')
  return [...new Set(names)].join(',')
}

/** Checks programs and adposition_type against the reference lists; returns the program text to store. */
export function checkSpotReferences(db: Db, s: { program?: string | undefined; adposition_type?: string | undefined }): string | undefined {
  requireNamed(db, 'plmttypes', s.adposition_type, 'adposition_type')
  return checkedPrograms(db, s.program)
}

/** Column values of a new spot, defaults applied (docs/spots.md). */
function newSpotColumns(s: NewSpot, now: string): Record<string, Param> {
  const placementType = s.placement_type ?? 'display'
  const keywordSpot = (s.keyword?.length ?? 0) > 0 || isBiddingChannel(s.channel_name)
  const defaults: Record<string, Param> = { placement_type: placementType, report_metrics: 'impression+click' }
  return {
    ...defaults,
    ...textColumns(s),
    freq_capping: s.freq_capping ?? 'S0+',
    tracking_timing: s.tracking_timing ?? (placementType === 'video' ? '1s' : ''),
    referrer_url: s.referrer_url ?? '',
    linked_siteid: s.linked_siteid ?? null,
    budgetInput: s.budgetInput ?? null,
    dangerous_source_filtration: s.dangerous_source_filtration === undefined ? (keywordSpot ? 0 : 1) : s.dangerous_source_filtration ? 1 : 0,
    created_at: now,
    updated_at: now,
  }
}

const createdKeyword = (k: KeywordRow) => ({ keyword_id: k.keyword_id, landing_page: k.landing_page, keyword_name: k.keyword_name })

/**
 * Checks and writes one spot with its keywords and plan. The one code path of create_spot,
 * create_spot_with_plan and every batch item; call it inside `ctx.db.tx`.
 */
export function createSpot(ctx: Ctx, campaign: SpotCampaign, s: NewSpot, mode: CreateMode): SpotResult {
  const channel = mode === 'plan' && s.keyword !== undefined ? keywordChannelProblem(s.channel_name) : null
  if (channel) throw badProblem(channel)
  const program = checkSpotReferences(ctx.db, s)
  const plan = newSpotPlan(s, campaign)
  const publisherId = publisherIdFor(ctx.db, s.publisher_name)
  const now = new Date(ctx.clock.now()).toISOString()
  const columns = { ...newSpotColumns(s, now), ...(program === undefined ? {} : { program }) }
  const spotId = insertRow(ctx.db, 'spots', { campaign_id: campaign.campaign_id, publisher_id: publisherId, ...columns })
  const keywords = insertKeywords(ctx.db, spotId, s.keyword ?? [])
  insertPlan(ctx.db, spotId, plan)
  return {
    campaign_id: String(campaign.campaign_id),
    spot_id: String(spotId),
    spot_id_str: toBase62(spotId),
    publisher_id: String(publisherId),
    ...(keywords.length > 0 ? { keyword: keywords.map(createdKeyword) } : {}),
  }
}
