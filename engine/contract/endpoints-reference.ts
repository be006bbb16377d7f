// spec §4.5 reference lists; record shapes from vendor-notes §4
import { get } from './endpoint'
import * as m from './models'
import { p } from './params'
import { arr } from './schema'

const rows = () => p.limit('offset').default({ m: 0, n: 500, offset: 0, count: 500 }, 'M,N: start row M (from 0), at most N rows')
const pages = () => p.limit('page').default({ m: 0, n: 500, offset: 0, count: 500 }, 'M,N: page M (0 and 1 are the first page), N rows a page')
const lang = () => p.oneOf(['en', 'cn']).default('en', 'en (default) or cn')
const meta = (summary: string) => ({ summary, spec: 'interface §4.5', cache: true })

export const referenceEndpoints = {
  'panels.show': get('/cms/v1/panels/show', 'cms', { panel_id: p.key().required(), lang: lang() }, m.Panel, meta('One panel with its tag types and tags')),
  'panels.list': get('/cms/v1/panels/list', 'cms', {
    panel_id: p.keyList().optional(),
    platform: p.oneOf(['pc', 'pm', 'pmo']).default('pc'),
    lang: lang(),
    limit: rows(),
    order_asc: p.order(['panel_id']).optional(),
    order_desc: p.order(['panel_id']).optional(),
  }, arr(m.Panel), meta('Panels of a platform')),
  'regions.show': get('/cms/v1/regions/show', 'cms', { region_id: p.key().required(), lang: lang() }, m.Region, meta('One region')),
  'regions.list': get('/cms/v1/regions/list', 'cms', {
    region_id: p.keyList().optional(),
    parent_id: p.keyList().optional(),
    level: p.intList(0, 3).optional('levels separated by ,: 0 global and mainland, 1 province, 2 city'),
    region_name: p.pattern().optional('PATTERN; several patterns separated by , match any of them'),
    lang: lang(),
    limit: rows(),
    order_asc: p.order(['region_id', 'parent_id', 'level']).optional(),
    order_desc: p.order(['region_id', 'parent_id', 'level']).optional(),
  }, arr(m.Region), meta('Regions')),
  'advertisers.show': get('/cms/v1/advertisers/show', 'cms', { advertiser_id: p.id().required() }, m.Advertiser, meta('One advertiser')),
  'advertisers.list': get('/cms/v1/advertisers/list', 'cms', {
    advertiser_id: p.idList().optional(),
    advertiser_name: p.pattern().optional('PATTERN'),
    limit: rows(),
    order_asc: p.order(['advertiser_id', 'advertiser_name']).optional(),
    order_desc: p.order(['advertiser_id', 'advertiser_name']).optional(),
  }, arr(m.Advertiser), meta('Advertisers')),
  'brands.show': get('/cms/v1/brands/show', 'cms', { brand_id: p.id().required() }, m.Brand, meta('One brand')),
  'brands.list': get('/cms/v1/brands/list', 'cms', {
    advertiser_id: p.id().required('the parent advertiser'),
    brand_id: p.idList().optional(),
    brand_name: p.pattern().optional('PATTERN'),
    limit: rows(),
    order_asc: p.order(['brand_id', 'brand_name']).optional(),
    order_desc: p.order(['brand_id', 'brand_name']).optional(),
  }, arr(m.Brand), meta("Brands of an advertiser")),
  'product.list': get('/cms/v1/product/list', 'cms', { product_name: p.pattern().optional('PATTERN'), limit: pages() }, arr(m.NamedItem), meta('Products')),
  'agencies.show': get('/cms/v1/agencies/show', 'cms', { agency_id: p.id().required() }, m.Agency, meta('One agency')),
  'agencies.list': get('/cms/v1/agencies/list', 'cms', {
    agency_id: p.idList().optional(),
    agency_name: p.pattern().optional('PATTERN'),
    limit: rows(),
    order_asc: p.order(['agency_id', 'agency_name']).optional(),
    order_desc: p.order(['agency_id', 'agency_name']).optional(),
  }, arr(m.Agency), meta('Agencies')),
  'programs.list': get('/cms/v1/programs/list', 'cms', { program_name: p.pattern().optional('PATTERN'), limit: pages() }, arr(m.NamedItem), meta('Programs')),
  'plmttype.list': get('/cms/v1/plmttype/list', 'cms', { plmt_type_name: p.pattern().optional('PATTERN'), limit: pages() }, arr(m.NamedItem), meta('Placement (ad position) types')),
  'extensiontype.list': get('/cms/v1/extensiontype/list', 'cms', { extensiontype_name: p.pattern().optional('PATTERN'), limit: pages() }, arr(m.NamedItem), meta('Extension (promotion) types, level1-level2')),
} as const
