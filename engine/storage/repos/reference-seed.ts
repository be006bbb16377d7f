/** Writes the reference tables of schema v1 (regions, names, panels with their tag types and tags). */
import type { ReferenceSeed, RegionSeed } from '../../reference/types'
import type { Db } from '../db'

export function insertReference(db: Db, regions: readonly RegionSeed[], ref: ReferenceSeed): void {
  for (const r of regions) {
    db.run('INSERT INTO regions(region_id, parent_id, level, name_en, name_cn, gb_code) VALUES (?,?,?,?,?,?)', [r.region_id, r.parent_id, r.level, r.name_en, r.name_cn, r.gb_code])
  }
  for (const a of ref.advertisers) db.run('INSERT INTO advertisers(advertiser_id, advertiser_name) VALUES (?,?)', [a.advertiser_id, a.advertiser_name])
  for (const b of ref.brands) db.run('INSERT INTO brands(brand_id, brand_name, advertiser_id) VALUES (?,?,?)', [b.brand_id, b.brand_name, b.advertiser_id])
  for (const a of ref.agencies) db.run('INSERT INTO agencies(agency_id, agency_name) VALUES (?,?)', [a.agency_id, a.agency_name])
  const named: [string, string[]][] = [['products', ref.products], ['programs', ref.programs], ['plmttypes', ref.plmttypes], ['extensiontypes', ref.extensiontypes]]
  for (const [table, names] of named) names.forEach((name, i) => db.run(`INSERT INTO ${table}(id, name) VALUES (?,?)`, [i + 1, name]))
  for (const p of ref.panels) {
    db.run('INSERT INTO panels(panel_id, panel_name, platform, released) VALUES (?,?,?,?)', [p.panel_id, p.panel_name, p.platform, p.released])
    p.types.forEach((t, i) => db.run('INSERT INTO panel_tag_types(panel_id, type_id, ord, name_en, name_cn) VALUES (?,?,?,?,?)', [p.panel_id, t.type_id, i, t.name_en, t.name_cn]))
    p.tags.forEach((t, i) => db.run('INSERT INTO panel_tags(panel_id, tag_id, type_id, ord, name_en, name_cn) VALUES (?,?,?,?,?,?)', [p.panel_id, t.tag_id, t.type_id, i, t.name_en, t.name_cn]))
  }
}
