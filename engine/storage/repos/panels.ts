/** Panels and their tags (reference data of the audience reports, spec §4.1). */
import type { Db } from '../db'

/** The tags of a panel with their tag types; in the panel's order (ord, tag_id) when `ordered`. */
export const panelTagTypes = (db: Db, panelId: string, ordered = false): { tag_id: string; type_id: string }[] =>
  db.query<{ tag_id: string; type_id: string }>(`SELECT tag_id, type_id FROM panel_tags WHERE panel_id = ?${ordered ? ' ORDER BY ord, tag_id' : ''}`, [panelId])

/** Panels, tag types and tags of these panels, with names in `lang` ('en' or 'cn'), each in the panels' order (ord). */
export function panelsWithTags(db: Db, panelIds: readonly string[], lang: 'en' | 'cn'): {
  types: { panel_id: string; type_id: string; name: string }[]
  tags: { panel_id: string; type_id: string; tag_id: string; name: string }[]
  panels: { panel_id: string; panel_name: string; platform: string }[]
} {
  const marks = panelIds.map(() => '?').join(',')
  return {
    types: db.query(`SELECT panel_id, type_id, name_${lang} AS name FROM panel_tag_types WHERE panel_id IN (${marks}) ORDER BY ord`, panelIds),
    tags: db.query(`SELECT panel_id, type_id, tag_id, name_${lang} AS name FROM panel_tags WHERE panel_id IN (${marks}) ORDER BY ord`, panelIds),
    panels: db.query(`SELECT panel_id, panel_name, platform FROM panels WHERE panel_id IN (${marks})`, panelIds),
  }
}
