/** Checks of references made by campaign and spot writes against the reference tables. */
import { badParam } from '../../contract/errors'
import type { Db } from '../db'

export function requireAdvertiser(db: Db, id: string): void {
  if (!db.scalar('SELECT 1 FROM advertisers WHERE advertiser_id = ?', [Number(id)])) throw badParam('advertiser_id', `${id} names no advertiser (see /cms/v1/advertisers/list)`)
}

export function requireAgency(db: Db, id: string): void {
  if (!db.scalar('SELECT 1 FROM agencies WHERE agency_id = ?', [Number(id)])) throw badParam('agency_id', `${id} names no agency (see /cms/v1/agencies/list)`)
}

/** A brand must come with its parent advertiser (spec §4.3). */
export function requireBrandOf(db: Db, brandId: string, advertiserId: string | undefined): void {
  if (advertiserId === undefined) throw badParam('brand_id', 'requires advertiser_id, the brand\'s advertiser')
  const parent = db.scalar<number>('SELECT advertiser_id FROM brands WHERE brand_id = ?', [Number(brandId)])
  if (parent === undefined) throw badParam('brand_id', `${brandId} names no brand`)
  if (String(parent) !== advertiserId) throw badParam('brand_id', `${brandId} belongs to advertiser ${parent}, not to advertiser_id ${advertiserId}`)
}

type NamedTable = 'products' | 'programs' | 'plmttypes' | 'extensiontypes'
const LIST_PATH: Record<NamedTable, string> = { products: 'product', programs: 'programs', plmttypes: 'plmttype', extensiontypes: 'extensiontype' }

/** A value that must be a name from one of the named lists; '' is allowed (none). */
export function requireNamed(db: Db, table: NamedTable, name: string | undefined, param: string): void {
  if (name === undefined || name === '') return
  if (!db.scalar(`SELECT 1 FROM ${table} WHERE name = ?`, [name])) throw badParam(param, `'${name}' is not in /cms/v1/${LIST_PATH[table]}/list`)
}

/** The newest panel of a platform: the default panel of new campaigns (spec §4.3). */
export function latestPanel(db: Db, platform: string): string | undefined {
  return db.scalar<string>('SELECT panel_id FROM panels WHERE platform = ? ORDER BY released DESC, panel_id DESC LIMIT 1', [platform])
}

/** The tag types of a panel, in their order (gender, age, ...). */
export function tagTypesOf(db: Db, panelId: string): string[] {
  return db.query<{ type_id: string }>('SELECT type_id FROM panel_tag_types WHERE panel_id = ? ORDER BY ord, type_id', [panelId]).map((r) => r.type_id)
}

export function requirePanel(db: Db, id: string): void {
  if (!db.scalar('SELECT 1 FROM panels WHERE panel_id = ?', [id])) throw badParam('panel_id', `${id} cannot be found (see /cms/v1/panels/list)`)
}
