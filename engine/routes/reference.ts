// spec §4.5 reference lists; shapes from vendor-notes §4
import { badRequest } from '../contract/errors'
import type { Limit } from '../contract/params'
import type { Panel, Region } from '../contract/models'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import type { Db } from '../storage/db'
import { Where, ids, limitSql, orderBy } from '../storage/repos/query'

type Lang = 'en' | 'cn'

function panels(db: Db, panelIds: string[], lang: Lang): Panel[] {
  if (panelIds.length === 0) return []
  const marks = panelIds.map(() => '?').join(',')
  const types = db.query<{ panel_id: string; type_id: string; name: string }>(
    `SELECT panel_id, type_id, name_${lang} AS name FROM panel_tag_types WHERE panel_id IN (${marks}) ORDER BY ord`, panelIds)
  const tags = db.query<{ panel_id: string; type_id: string; tag_id: string; name: string }>(
    `SELECT panel_id, type_id, tag_id, name_${lang} AS name FROM panel_tags WHERE panel_id IN (${marks}) ORDER BY ord`, panelIds)
  const heads = db.query<{ panel_id: string; panel_name: string; platform: Panel['platform'] }>(
    `SELECT panel_id, panel_name, platform FROM panels WHERE panel_id IN (${marks})`, panelIds)
  const byId = new Map(heads.map((h) => [h.panel_id, h]))
  return panelIds.flatMap((id) => {
    const h = byId.get(id)
    if (!h) return []
    return [{
      ...h,
      type_list: types.filter((t) => t.panel_id === id).map((t) => ({ type_id: t.type_id, type_name: t.name })),
      tag_list: tags.filter((t) => t.panel_id === id).map((t) => ({ type_id: t.type_id, tag_id: t.tag_id, tag_name: t.name })),
    }]
  })
}

const panelsShow: Handler<'panels.show'> = (ctx, p) => {
  const [panel] = panels(ctx.db, [p.panel_id], p.lang)
  if (!panel) throw badRequest('param.notFoundQuoted', { param: 'panel_id', value: p.panel_id })
  return panel
}

const panelsList: Handler<'panels.list'> = (ctx, p) => {
  const w = new Where().eq('platform', p.platform).in('panel_id', p.panel_id)
  const lim = limitSql(p.limit)
  const found = ctx.db.query<{ panel_id: string }>(`SELECT panel_id FROM panels${w.sql}${orderBy(p, { panel_id: 'panel_id' }, 'panel_id')}${lim.sql}`, [...w.params, ...lim.params])
  return panels(ctx.db, found.map((r) => r.panel_id), p.lang)
}

const regionColumns = (lang: Lang) => `region_id, name_${lang} AS region_name, parent_id, level`

const regionsShow: Handler<'regions.show'> = (ctx, p) => {
  const r = ctx.db.get<Region>(`SELECT ${regionColumns(p.lang)} FROM regions WHERE region_id = ?`, [p.region_id])
  if (!r) throw badRequest('param.notFoundQuoted', { param: 'region_id', value: p.region_id })
  return r
}

const regionsList: Handler<'regions.list'> = (ctx, p) => {
  // vendor-notes §4: region_name also takes a batch; several patterns separated by , match any.
  const names = p.region_name?.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const w = new Where().in('region_id', p.region_id).in('parent_id', p.parent_id).in('level', p.level)
  if (names && names.length > 0) w.pattern(`name_${p.lang}`, names)
  const lim = limitSql(p.limit)
  const order = orderBy(p, { region_id: 'region_id', parent_id: 'parent_id', level: 'level' }, 'level, region_id')
  return ctx.db.query<Region>(`SELECT ${regionColumns(p.lang)} FROM regions${w.sql}${order}${lim.sql}`, [...w.params, ...lim.params])
}

/** A show endpoint over a table keyed by an integer id. */
function showById<T extends object>(ctx: Ctx, sql: string, param: string, id: string): T {
  const row = ctx.db.get<Record<string, unknown>>(sql, [Number(id)])
  if (!row) throw badRequest('param.notFound', { param, value: id })
  for (const [k, v] of Object.entries(row)) if (k.endsWith('_id')) row[k] = String(v)
  return row as T
}

/** A list over a table keyed by an integer id, with an id list and a name pattern. */
function listById<T extends object>(ctx: Ctx, table: string, key: string, name: string, p: {
  ids: string[] | undefined; pattern: string | undefined; limit: Limit; order_asc?: string | undefined; order_desc?: string | undefined
}, extra?: (w: Where) => void): T[] {
  const w = new Where().in(key, ids(p.ids)).pattern(name, p.pattern)
  extra?.(w)
  const lim = limitSql(p.limit)
  const rows = ctx.db.query<Record<string, unknown>>(`SELECT * FROM ${table}${w.sql}${orderBy(p, { [key]: key, [name]: name }, key)}${lim.sql}`, [...w.params, ...lim.params])
  for (const row of rows) for (const [k, v] of Object.entries(row)) if (k.endsWith('_id')) row[k] = String(v)
  return rows as T[]
}

/** A list of names (products, programs, placement types, extension types); limit is page,size. */
function names(ctx: Ctx, table: string, pattern: string | undefined, limit: Limit): { name: string }[] {
  const w = new Where().pattern('name', pattern)
  const lim = limitSql(limit)
  return ctx.db.query<{ name: string }>(`SELECT name FROM ${table}${w.sql} ORDER BY id${lim.sql}`, [...w.params, ...lim.params])
}

export const referenceRoutes = {
  'panels.show': panelsShow,
  'panels.list': panelsList,
  'regions.show': regionsShow,
  'regions.list': regionsList,
  'advertisers.show': ((ctx, p) => showById(ctx, 'SELECT advertiser_id, advertiser_name FROM advertisers WHERE advertiser_id = ?', 'advertiser_id', p.advertiser_id)) satisfies Handler<'advertisers.show'>,
  'advertisers.list': ((ctx, p) => listById(ctx, 'advertisers', 'advertiser_id', 'advertiser_name', { ...p, ids: p.advertiser_id, pattern: p.advertiser_name })) satisfies Handler<'advertisers.list'>,
  'brands.show': ((ctx, p) => showById(ctx, 'SELECT brand_id, brand_name, advertiser_id FROM brands WHERE brand_id = ?', 'brand_id', p.brand_id)) satisfies Handler<'brands.show'>,
  'brands.list': ((ctx, p) => {
    if (!ctx.db.scalar('SELECT 1 FROM advertisers WHERE advertiser_id = ?', [Number(p.advertiser_id)])) throw badRequest('param.notFound', { param: 'advertiser_id', value: p.advertiser_id })
    return listById(ctx, 'brands', 'brand_id', 'brand_name', { ...p, ids: p.brand_id, pattern: p.brand_name }, (w) => w.eq('advertiser_id', Number(p.advertiser_id)))
  }) satisfies Handler<'brands.list'>,
  'agencies.show': ((ctx, p) => showById(ctx, 'SELECT agency_id, agency_name FROM agencies WHERE agency_id = ?', 'agency_id', p.agency_id)) satisfies Handler<'agencies.show'>,
  'agencies.list': ((ctx, p) => listById(ctx, 'agencies', 'agency_id', 'agency_name', { ...p, ids: p.agency_id, pattern: p.agency_name })) satisfies Handler<'agencies.list'>,
  'product.list': ((ctx, p) => names(ctx, 'products', p.product_name, p.limit)) satisfies Handler<'product.list'>,
  'programs.list': ((ctx, p) => names(ctx, 'programs', p.program_name, p.limit)) satisfies Handler<'programs.list'>,
  'plmttype.list': ((ctx, p) => names(ctx, 'plmttypes', p.plmt_type_name, p.limit)) satisfies Handler<'plmttype.list'>,
  'extensiontype.list': ((ctx, p) => names(ctx, 'extensiontypes', p.extensiontype_name, p.limit)) satisfies Handler<'extensiontype.list'>,
}
