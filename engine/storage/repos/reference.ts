/** Checks of references made by campaign and spot writes against the reference tables. */
import { badRequest } from '../../contract/errors'
import type { Db } from '../db'

export function requireAdvertiser(db: Db, id: string): void {
  if (!db.scalar('SELECT 1 FROM advertisers WHERE advertiser_id = ?', [Number(id)])) throw badRequest('ref.namesNo', { param: 'advertiser_id', value: id, what: 'advertiser', list: '/cms/v1/advertisers/list' })
}

export function requireAgency(db: Db, id: string): void {
  if (!db.scalar('SELECT 1 FROM agencies WHERE agency_id = ?', [Number(id)])) throw badRequest('ref.namesNo', { param: 'agency_id', value: id, what: 'agency', list: '/cms/v1/agencies/list' })
}

/** A brand must come with its parent advertiser (spec §4.3). */
export function requireBrandOf(db: Db, brandId: string, advertiserId: string | undefined): void {
  if (advertiserId === undefined) throw badRequest('ref.needsAdvertiser', { param: 'brand_id', otherParam: 'advertiser_id' })
  const parent = db.scalar<number>('SELECT advertiser_id FROM brands WHERE brand_id = ?', [Number(brandId)])
  if (parent === undefined) throw badRequest('ref.noBrand', { param: 'brand_id', value: brandId })
  if (String(parent) !== advertiserId) throw badRequest('ref.brandOwner', { param: 'brand_id', value: brandId, owner: String(parent), chosen: advertiserId })
}

type NamedTable = 'products' | 'programs' | 'plmttypes' | 'extensiontypes'
const LIST_PATH: Record<NamedTable, string> = { products: 'product', programs: 'programs', plmttypes: 'plmttype', extensiontypes: 'extensiontype' }

/** A value that must be a name from one of the named lists; '' is allowed (none). */
export function requireNamed(db: Db, table: NamedTable, name: string | undefined, param: string): void {
  if (name === undefined || name === '') return
  if (!db.scalar(`SELECT 1 FROM ${table} WHERE name = ?`, [name])) throw badRequest('ref.notInList', { param, value: name, list: `/cms/v1/${LIST_PATH[table]}/list` })
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
  if (!db.scalar('SELECT 1 FROM panels WHERE panel_id = ?', [id])) throw badRequest('param.notFoundSee', { param: 'panel_id', value: id, list: '/cms/v1/panels/list' })
}
