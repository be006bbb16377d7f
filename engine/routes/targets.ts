// spec §4.2 list_targets, list_publishers; §4.3 publish_target; vendor-notes §3.10, §5.6
import { E, badRequest, refuse } from '../contract/errors'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import { requireCampaign, assertCampaignExists } from '../storage/repos/campaigns'
import { panelTagTypes } from '../storage/repos/panels'
import { publishersOfList } from '../storage/repos/spots'
import { insertTarget, targetNameTaken, targetsOfList } from '../storage/repos/targets'

const listTargets: Handler<'campaigns.list_targets'> = (ctx, p) => {
  assertCampaignExists(ctx.db, p.campaign_id)
  const rows = targetsOfList(ctx.db, Number(p.campaign_id), p)
  return rows.map((r) => ({
    target_id: String(r.target_id), target_name: r.target_name, panel_id: r.panel_id,
    ...(p.show_tag ? { tag_id: r.tag_id } : {}),
  }))
}

/**
 * Checks a tag expression against the panel: every tag exists, the tags of one group (joined
 * by ,) share one tag type, and no type appears in two groups (joined by &).
 */
export function checkTagExpression(ctx: Ctx, panelId: string, groups: string[][]): string {
  const known = new Map(panelTagTypes(ctx.db, panelId).map((r) => [r.tag_id, r.type_id]))
  const typesUsed = new Set<string>()
  for (const group of groups) {
    const types = new Set<string>()
    for (const tag of group) {
      const type = known.get(tag)
      if (type === undefined) throw badRequest('target.tagNotInPanel', { param: 'tag_id', value: tag, panel: panelId })
      types.add(type)
    }
    if (types.size > 1) throw badRequest('target.mixedTypes', { param: 'tag_id', types: [...types].join(', ') })
    const type = [...types][0]!
    if (typesUsed.has(type)) throw badRequest('target.typeTwice', { param: 'tag_id', type })
    typesUsed.add(type)
  }
  return groups.map((g) => g.join(',')).join('&')
}

const publishTarget: Handler<'campaigns.publish_target'> = (ctx, p) => {
  const campaign = requireCampaign(ctx.db, p.campaign_id, ctx.today)
  if (targetNameTaken(ctx.db, campaign.campaign_id, p.target_name)) throw refuse(E.targetNameExists, 'target.nameExists', { param: 'target_name' })
  const tagId = checkTagExpression(ctx, campaign.panel_id, p.tag_id)
  const id = ctx.db.tx(() => insertTarget(ctx.db, { campaign_id: campaign.campaign_id, target_name: p.target_name, panel_id: campaign.panel_id, tag_id: tagId }))
  return { target_id: String(id), target_name: p.target_name, panel_id: campaign.panel_id }
}

const listPublishers: Handler<'campaigns.list_publishers'> = (ctx, p) => {
  assertCampaignExists(ctx.db, p.campaign_id)
  const rows = publishersOfList(ctx.db, Number(p.campaign_id), p)
  return rows.map((r) => ({ publisher_id: String(r.publisher_id), publisher_name: r.publisher_name }))
}

export const targetRoutes = {
  'campaigns.list_targets': listTargets,
  'campaigns.publish_target': publishTarget,
  'campaigns.list_publishers': listPublishers,
}
