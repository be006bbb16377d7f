// spec §4.5 reference lists; shapes from vendor-notes §4
import { badRequest } from '../contract/errors'
import type { Limit } from '../contract/params'
import type { Panel } from '../contract/models'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import type { Db } from '../storage/db'
import { panelsWithTags } from '../storage/repos/panels'
import { advertiserExists, idRowById, idRowsOfList, namesOfList, panelIdsOfList, regionById, regionsOfList, type IdTable, type NamedTable } from '../storage/repos/reference'

type Lang = 'en' | 'cn'

function panels(db: Db, panelIds: string[], lang: Lang): Panel[] {
  if (panelIds.length === 0) return []
  const { types, tags, panels: heads } = panelsWithTags(db, panelIds, lang)
  const byId = new Map(heads.map((h) => [h.panel_id, { ...h, platform: h.platform as Panel['platform'] }]))
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
  return panels(ctx.db, panelIdsOfList(ctx.db, p), p.lang)
}

const regionsShow: Handler<'regions.show'> = (ctx, p) => {
  const r = regionById(ctx.db, p.region_id, p.lang)
  if (!r) throw badRequest('param.notFoundQuoted', { param: 'region_id', value: p.region_id })
  return r
}

const regionsList: Handler<'regions.list'> = (ctx, p) => {
  // vendor-notes §4: region_name also takes a batch; several patterns separated by , match any.
  const names = p.region_name?.split(',').map((s) => s.trim()).filter((s) => s !== '')
  return regionsOfList(ctx.db, p, names)
}

/** A show endpoint over a table keyed by an integer id. */
function showById<T extends object>(ctx: Ctx, table: IdTable, param: string, id: string): T {
  const row = idRowById(ctx.db, table, Number(id))
  if (!row) throw badRequest('param.notFound', { param, value: id })
  for (const [k, v] of Object.entries(row)) if (k.endsWith('_id')) row[k] = String(v)
  return row as T
}

/** A list over a table keyed by an integer id, with an id list and a name pattern. */
function listById<T extends object>(ctx: Ctx, table: IdTable, p: {
  ids: string[] | undefined; pattern: string | undefined; limit: Limit; order_asc?: string | undefined; order_desc?: string | undefined
}, advertiserId?: number): T[] {
  const rows = idRowsOfList(ctx.db, table, p, advertiserId)
  for (const row of rows) for (const [k, v] of Object.entries(row)) if (k.endsWith('_id')) row[k] = String(v)
  return rows as T[]
}

/** A list of names (products, programs, placement types, extension types); limit is page,size. */
const names = (ctx: Ctx, table: NamedTable, pattern: string | undefined, limit: Limit): { name: string }[] => namesOfList(ctx.db, table, pattern, limit)

export const referenceRoutes = {
  'panels.show': panelsShow,
  'panels.list': panelsList,
  'regions.show': regionsShow,
  'regions.list': regionsList,
  'advertisers.show': ((ctx, p) => showById(ctx, 'advertisers', 'advertiser_id', p.advertiser_id)) satisfies Handler<'advertisers.show'>,
  'advertisers.list': ((ctx, p) => listById(ctx, 'advertisers', { ...p, ids: p.advertiser_id, pattern: p.advertiser_name })) satisfies Handler<'advertisers.list'>,
  'brands.show': ((ctx, p) => showById(ctx, 'brands', 'brand_id', p.brand_id)) satisfies Handler<'brands.show'>,
  'brands.list': ((ctx, p) => {
    if (!advertiserExists(ctx.db, Number(p.advertiser_id))) throw badRequest('param.notFound', { param: 'advertiser_id', value: p.advertiser_id })
    return listById(ctx, 'brands', { ...p, ids: p.brand_id, pattern: p.brand_name }, Number(p.advertiser_id))
  }) satisfies Handler<'brands.list'>,
  'agencies.show': ((ctx, p) => showById(ctx, 'agencies', 'agency_id', p.agency_id)) satisfies Handler<'agencies.show'>,
  'agencies.list': ((ctx, p) => listById(ctx, 'agencies', { ...p, ids: p.agency_id, pattern: p.agency_name })) satisfies Handler<'agencies.list'>,
  'product.list': ((ctx, p) => names(ctx, 'products', p.product_name, p.limit)) satisfies Handler<'product.list'>,
  'programs.list': ((ctx, p) => names(ctx, 'programs', p.program_name, p.limit)) satisfies Handler<'programs.list'>,
  'plmttype.list': ((ctx, p) => names(ctx, 'plmttypes', p.plmt_type_name, p.limit)) satisfies Handler<'plmttype.list'>,
  'extensiontype.list': ((ctx, p) => names(ctx, 'extensiontypes', p.extensiontype_name, p.limit)) satisfies Handler<'extensiontype.list'>,
}
