/** Checks of references made by campaign and spot writes against the reference tables. */
import type { ParamsFor } from '../../contract/endpoints'
import { badRequest } from '../../contract/errors'
import type { Region } from '../../contract/models'
import type { Limit } from '../../contract/params'
import type { RegionSeed } from '../../reference/types'
import type { Db } from '../db'
import { Where, ids, limitSql, orderBy } from './query'

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

export type NamedTable = 'products' | 'programs' | 'plmttypes' | 'extensiontypes'
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

/** The ids of the panels a panels/list asks for (spec §4.5), in its order and page. */
export function panelIdsOfList(db: Db, p: ParamsFor<'panels.list'>): string[] {
  const w = new Where().eq('platform', p.platform).in('panel_id', p.panel_id)
  const lim = limitSql(p.limit)
  return db.query<{ panel_id: string }>(`SELECT panel_id FROM panels${w.sql}${orderBy(p, { panel_id: 'panel_id' }, 'panel_id')}${lim.sql}`, [...w.params, ...lim.params]).map((r) => r.panel_id)
}

const regionColumns = (lang: 'en' | 'cn') => `region_id, name_${lang} AS region_name, parent_id, level`

export const regionById = (db: Db, regionId: string, lang: 'en' | 'cn'): Region | undefined =>
  db.get<Region>(`SELECT ${regionColumns(lang)} FROM regions WHERE region_id = ?`, [regionId])

/** The regions a regions/list asks for (spec §4.5), `names` matching any of them, in its order and page. */
export function regionsOfList(db: Db, p: ParamsFor<'regions.list'>, names: readonly string[] | undefined): Region[] {
  const w = new Where().in('region_id', p.region_id).in('parent_id', p.parent_id).in('level', p.level)
  if (names && names.length > 0) w.pattern(`name_${p.lang}`, names)
  const lim = limitSql(p.limit)
  const order = orderBy(p, { region_id: 'region_id', parent_id: 'parent_id', level: 'level' }, 'level, region_id')
  return db.query<Region>(`SELECT ${regionColumns(p.lang)} FROM regions${w.sql}${order}${lim.sql}`, [...w.params, ...lim.params])
}

/** Every region id. */
export const allRegionIds = (db: Db): string[] => db.query<{ region_id: string }>('SELECT region_id FROM regions').map((r) => r.region_id)

/** Every region as seeded, by level, GB code and id. */
export const allRegionSeeds = (db: Db): RegionSeed[] => db.query<RegionSeed>('SELECT region_id, parent_id, level, name_en, name_cn, gb_code FROM regions ORDER BY level, gb_code, region_id')

export const advertiserExists = (db: Db, id: number): boolean => Boolean(db.scalar('SELECT 1 FROM advertisers WHERE advertiser_id = ?', [id]))

/** The reference tables keyed by an integer id, with the columns their show endpoint answers. */
const ID_TABLES = {
  advertisers: { key: 'advertiser_id', name: 'advertiser_name', show: 'SELECT advertiser_id, advertiser_name FROM advertisers WHERE advertiser_id = ?' },
  brands: { key: 'brand_id', name: 'brand_name', show: 'SELECT brand_id, brand_name, advertiser_id FROM brands WHERE brand_id = ?' },
  agencies: { key: 'agency_id', name: 'agency_name', show: 'SELECT agency_id, agency_name FROM agencies WHERE agency_id = ?' },
} as const
export type IdTable = keyof typeof ID_TABLES

/** One row of a reference table keyed by an integer id. */
export const idRowById = (db: Db, table: IdTable, id: number): Record<string, unknown> | undefined => db.get<Record<string, unknown>>(ID_TABLES[table].show, [id])

/** The rows of a reference table keyed by an integer id, by an id list and a name pattern (and a parent advertiser), in the list's order and page. */
export function idRowsOfList(db: Db, table: IdTable, p: {
  ids: string[] | undefined; pattern: string | undefined; limit: Limit; order_asc?: string | undefined; order_desc?: string | undefined
}, advertiserId?: number): Record<string, unknown>[] {
  const { key, name } = ID_TABLES[table]
  const w = new Where().in(key, ids(p.ids)).pattern(name, p.pattern)
  if (advertiserId !== undefined) w.eq('advertiser_id', advertiserId)
  const lim = limitSql(p.limit)
  return db.query<Record<string, unknown>>(`SELECT * FROM ${table}${w.sql}${orderBy(p, { [key]: key, [name]: name }, key)}${lim.sql}`, [...w.params, ...lim.params])
}

/** A page (limit page,size) of one of the named lists, by id, with a name pattern. */
export function namesOfList(db: Db, table: NamedTable, pattern: string | undefined, limit: Limit): { name: string }[] {
  const w = new Where().pattern('name', pattern)
  const lim = limitSql(limit)
  return db.query<{ name: string }>(`SELECT name FROM ${table}${w.sql} ORDER BY id${lim.sql}`, [...w.params, ...lim.params])
}

const NAME_OF: Record<'advertiser' | 'agency' | 'brand', string> = {
  advertiser: 'SELECT advertiser_name FROM advertisers WHERE advertiser_id = ?',
  agency: 'SELECT agency_name FROM agencies WHERE agency_id = ?',
  brand: 'SELECT brand_name FROM brands WHERE brand_id = ?',
}

/** The name of a local advertiser, agency or brand. */
export const referenceName = (db: Db, kind: 'advertiser' | 'agency' | 'brand', id: number): string | undefined => db.scalar<string>(NAME_OF[kind], [id])
