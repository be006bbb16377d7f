/** A campaign's targets: named tag expressions over its panel (spec §4.2, §4.3). */
import type { Limit } from '../../contract/params'
import type { Db } from '../db'
import { Where, ids, limitSql, orderBy } from './query'

export interface TargetRow {
  target_id: number
  target_name: string
  panel_id: string
  tag_id: string
}

/** The targets a list_targets asks for (spec §4.2), in its order and page. */
export function targetsOfList(
  db: Db, campaignId: number,
  p: { panel_id?: readonly string[] | undefined; target_id?: readonly string[] | undefined; limit: Limit; order_asc?: string | undefined; order_desc?: string | undefined },
): TargetRow[] {
  const w = new Where().eq('campaign_id', campaignId).in('panel_id', p.panel_id).in('target_id', ids(p.target_id))
  const lim = limitSql(p.limit)
  return db.query<TargetRow>(
    `SELECT target_id, target_name, panel_id, tag_id FROM targets${w.sql}${orderBy(p, { panel_id: 'panel_id', target_id: 'target_id' }, 'target_id')}${lim.sql}`,
    [...w.params, ...lim.params],
  )
}

/** The targets of a campaign, by id. */
export const targetsOfCampaign = (db: Db, campaignId: number): TargetRow[] =>
  db.query<TargetRow>('SELECT target_id, target_name, tag_id, panel_id FROM targets WHERE campaign_id = ? ORDER BY target_id', [campaignId])

export const targetNameTaken = (db: Db, campaignId: number, name: string): boolean =>
  Boolean(db.scalar('SELECT 1 FROM targets WHERE campaign_id = ? AND target_name = ?', [campaignId, name]))

/** Inserts a target; answers its id. */
export const insertTarget = (db: Db, t: Omit<TargetRow, 'target_id'> & { campaign_id: number }): number =>
  db.run('INSERT INTO targets(campaign_id, target_name, panel_id, tag_id) VALUES (?,?,?,?)', [t.campaign_id, t.target_name, t.panel_id, t.tag_id]).lastId

/** A target's stored row, whatever its campaign. */
export const targetById = (db: Db, targetId: number): (TargetRow & { campaign_id: number }) | undefined =>
  db.get<TargetRow & { campaign_id: number }>('SELECT * FROM targets WHERE target_id = ?', [targetId])

/** The ids of a campaign's targets, in id order. */
export const targetIdsOfCampaign = (db: Db, campaignId: number): number[] =>
  db.query<{ target_id: number }>('SELECT target_id FROM targets WHERE campaign_id = ? ORDER BY target_id', [campaignId]).map((r) => r.target_id)
