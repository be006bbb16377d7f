// spec §4.2 list_targets, list_publishers; §4.3 publish_target; vendor-notes §3.10, §5.6
import { E, badRequest, refuse } from '../contract/errors'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import { requireCampaign, assertCampaignExists } from '../storage/repos/campaigns'
import { Where, ids, limitSql, orderBy } from '../storage/repos/query'

interface TargetRow {
  target_id: number
  target_name: string
  panel_id: string
  tag_id: string
}

const listTargets: Handler<'campaigns.list_targets'> = (ctx, p) => {
  assertCampaignExists(ctx.db, p.campaign_id)
  const w = new Where().eq('campaign_id', Number(p.campaign_id)).in('panel_id', p.panel_id).in('target_id', ids(p.target_id))
  const lim = limitSql(p.limit)
  const rows = ctx.db.query<TargetRow>(
    `SELECT target_id, target_name, panel_id, tag_id FROM targets${w.sql}${orderBy(p, { panel_id: 'panel_id', target_id: 'target_id' }, 'target_id')}${lim.sql}`,
    [...w.params, ...lim.params],
  )
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
  const known = new Map(ctx.db.query<{ tag_id: string; type_id: string }>('SELECT tag_id, type_id FROM panel_tags WHERE panel_id = ?', [panelId]).map((r) => [r.tag_id, r.type_id]))
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
  const exists = ctx.db.scalar('SELECT 1 FROM targets WHERE campaign_id = ? AND target_name = ?', [campaign.campaign_id, p.target_name])
  if (exists) throw refuse(E.targetNameExists, 'target.nameExists', { param: 'target_name' })
  const tagId = checkTagExpression(ctx, campaign.panel_id, p.tag_id)
  const id = ctx.db.tx(() => ctx.db.run('INSERT INTO targets(campaign_id, target_name, panel_id, tag_id) VALUES (?,?,?,?)', [campaign.campaign_id, p.target_name, campaign.panel_id, tagId]).lastId)
  return { target_id: String(id), target_name: p.target_name, panel_id: campaign.panel_id }
}

const listPublishers: Handler<'campaigns.list_publishers'> = (ctx, p) => {
  assertCampaignExists(ctx.db, p.campaign_id)
  const w = new Where().add('p.publisher_id IN (SELECT publisher_id FROM spots WHERE campaign_id = ?)', Number(p.campaign_id)).in('p.publisher_id', ids(p.publisher_id))
  const lim = limitSql(p.limit)
  const rows = ctx.db.query<{ publisher_id: number; publisher_name: string }>(
    `SELECT p.publisher_id, p.publisher_name FROM publishers p${w.sql}${orderBy(p, { publisher_id: 'p.publisher_id' }, 'p.publisher_id')}${lim.sql}`,
    [...w.params, ...lim.params],
  )
  return rows.map((r) => ({ publisher_id: String(r.publisher_id), publisher_name: r.publisher_name }))
}

export const targetRoutes = {
  'campaigns.list_targets': listTargets,
  'campaigns.publish_target': publishTarget,
  'campaigns.list_publishers': listPublishers,
}
