// spec §1, §2.6, §2.7, §4.5; vendor-notes §1.2, §1.3, §4; docs/regions.md
import { beforeAll, describe, expect, it } from 'vitest'
import { arr, validate, type Schema } from '../../../engine/contract/schema'
import { Advertiser, Agency, Brand, NamedItem, Panel, Region } from '../../../engine/contract/models'
import { demoReference } from '../../../engine/reference/demo'
import { buildRegions, GLOBAL_REGION_ID, MAINLAND_REGION_ID } from '../../../engine/reference/regions'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'

type Query = Record<string, string>
type Row = Record<string, unknown>

let t: TestEngine

beforeAll(async () => {
  t = await makeEngine()
})

// Expectations come from the seed builders, never from the engine's answers.
const ref = demoReference()
const regions = buildRegions()
const SHENZHEN = '000000000000001156440300'
const GUANGDONG = '000000000000001156440000'
const ZHEJIANG = '000000000000001156330000'

/** SQLite's BINARY collation: UTF-8 bytes, i.e. code point order. */
const binary = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
const cmp = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' ? a - b : binary(String(a), String(b)))
const numeric = (s: unknown) => Number(s)
const has = (text: string, pattern: string) => text.toLowerCase().includes(pattern.toLowerCase())

async function ok<T>(path: string, query: Query, schema: Schema<T>): Promise<T> {
  const r = await t.get(path, query)
  expect(r.status, r.raw.body).toBe(200)
  expect(r.headers['content-type']).toBe('application/json;charset=UTF-8')
  expect(validate(schema, r.body)).toEqual([])
  return r.body as T
}

async function list(path: string, query: Query, schema: Schema<unknown>): Promise<Row[]> {
  const body = await ok(path, query, arr(schema))
  expect(Array.isArray(body)).toBe(true)
  return body as Row[]
}

async function refused(path: string, query: Query, param: string): Promise<void> {
  const r = await t.get(path, query)
  expect(r.status, r.raw.body).toBe(400)
  expect(r.body.error).toBe('invalid_request')
  expect(r.body.error_description).toContain(`'${param}'`)
}

const pick = (rows: Row[], key: string) => rows.map((r) => r[key])

/** Tests shared by every endpoint: the token is required. */
function needsToken(path: string, query: Query = {}): void {
  it('refuses a call when no access token is sent', async () => {
    const r = await t.get(path, query, null)
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('token_required')
  })
}

/** order_asc / order_desc on each allowed field, a refused field, and both together. */
function orders(path: string, base: Query, schema: Schema<unknown>, fields: { name: string; key?: (v: unknown) => unknown }[], notAllowed: string, total: number): void {
  for (const f of fields) {
    for (const dir of ['order_asc', 'order_desc'] as const) {
      it(`sorts every row by ${f.name} when ${dir}=${f.name}`, async () => {
        const rows = await list(path, { ...base, [dir]: f.name, limit: '0,100000' }, schema)
        expect(rows).toHaveLength(total)
        const values = rows.map((r) => (f.key ? f.key(r[f.name]) : r[f.name]))
        const sorted = [...values].sort(cmp)
        expect(values).toEqual(dir === 'order_asc' ? sorted : sorted.reverse())
      })
    }
  }
  it(`refuses order_asc=${notAllowed} and order_desc=${notAllowed} naming the parameter when the field is not sortable`, async () => {
    await refused(path, { ...base, order_asc: notAllowed }, 'order_asc')
    await refused(path, { ...base, order_desc: notAllowed }, 'order_desc')
  })
  it('refuses order_asc and order_desc when both are given', async () => {
    const f = fields[0]!.name
    await refused(path, { ...base, order_asc: f, order_desc: f }, 'order_desc')
  })
}

/** limit M,N where M is a start row (spec §4.5, vendor-notes §1.3). */
function rowLimit(path: string, base: Query, schema: Schema<unknown>, key: string, all: () => unknown[]): void {
  it('returns exactly N rows starting at row M when limit=M,N', async () => {
    const expected = all()
    expect(expected.length).toBeGreaterThanOrEqual(4)
    const rows = await list(path, { ...base, limit: '1,2' }, schema)
    expect(pick(rows, key)).toEqual(expected.slice(1, 3))
    const first = await list(path, { ...base, limit: '0,1' }, schema)
    expect(pick(first, key)).toEqual(expected.slice(0, 1))
  })
  it('returns the rows that remain when limit runs past the end, and [] when M is past the end', async () => {
    const expected = all()
    const n = expected.length
    expect(pick(await list(path, { ...base, limit: `${n - 1},5` }, schema), key)).toEqual(expected.slice(n - 1))
    expect(await list(path, { ...base, limit: `${n},5` }, schema)).toEqual([])
    expect(await list(path, { ...base, limit: '100000,5' }, schema)).toEqual([])
  })
  it('answers the same as limit=0,500 when limit is absent', async () => {
    const absent = await list(path, base, schema)
    expect(await list(path, { ...base, limit: '0,500' }, schema)).toEqual(absent)
    expect(pick(absent, key)).toEqual(all().slice(0, 500))
  })
  it('refuses a malformed limit naming it', async () => {
    for (const limit of ['5', '0,0', '-1,5', 'a,b', '0,5,7', '0.5,5']) await refused(path, { ...base, limit }, 'limit')
  })
}

/** The four name lists: limit M,N where M is a page and pages 0 and 1 are the first. */
function nameList(id: string, path: string, param: string, names: string[], patterns: { text: string; why: string }[]): void {
  describe(id, () => {
    needsToken(path)

    it('returns every name as {name} objects in catalogue order when no parameter is given', async () => {
      const rows = await list(path, {}, NamedItem)
      expect(rows).toEqual(names.map((name) => ({ name })))
      expect(names.length).toBeGreaterThanOrEqual(10)
    })

    for (const p of patterns) {
      it(`matches ${param} as a case-insensitive substring (${p.why})`, async () => {
        const expected = names.filter((n) => has(n, p.text))
        expect(expected.length).toBeGreaterThan(0)
        expect(expected.length).toBeLessThan(names.length)
        expect(pick(await list(path, { [param]: p.text }, NamedItem), 'name')).toEqual(expected)
      })
    }

    it(`returns [] when ${param} matches nothing`, async () => {
      expect(await list(path, { [param]: 'zz-no-such-name-zz' }, NamedItem)).toEqual([])
    })

    it('returns the first page when limit=0,N and when limit=1,N', async () => {
      const zero = await list(path, { limit: '0,5' }, NamedItem)
      const one = await list(path, { limit: '1,5' }, NamedItem)
      expect(pick(zero, 'name')).toEqual(names.slice(0, 5))
      expect(one).toEqual(zero)
    })

    it('returns rows N..2N-1 when limit=2,N', async () => {
      expect(pick(await list(path, { limit: '2,5' }, NamedItem), 'name')).toEqual(names.slice(5, 10))
    })

    it('returns a short last page and [] for a page past the end', async () => {
      const size = 3
      const pages = Math.ceil(names.length / size)
      expect(pick(await list(path, { limit: `${pages},${size}` }, NamedItem), 'name')).toEqual(names.slice((pages - 1) * size))
      expect(await list(path, { limit: `${pages + 1},${size}` }, NamedItem)).toEqual([])
      expect(await list(path, { limit: '100000,5' }, NamedItem)).toEqual([])
    })

    it('pages the filtered rows when a pattern and a limit come together', async () => {
      const text = patterns[0]!.text
      const expected = names.filter((n) => has(n, text))
      expect(pick(await list(path, { [param]: text, limit: '1,1' }, NamedItem), 'name')).toEqual(expected.slice(0, 1))
    })

    it('refuses a malformed limit naming it', async () => {
      for (const limit of ['0', '1,0', 'x,5', '-1,5']) await refused(path, { limit }, 'limit')
    })
  })
}

// ---------------------------------------------------------------------------------------------

describe('panels.show', () => {
  const path = '/cms/v1/panels/show'
  needsToken(path, { panel_id: 'china-pc-2025' })

  it('returns the panel with English type and tag names when lang is absent', async () => {
    const panel = await ok(path, { panel_id: 'china-pc-2025' }, Panel)
    const seed = ref.panels.find((p) => p.panel_id === 'china-pc-2025')!
    expect(panel.panel_id).toBe('china-pc-2025')
    expect(panel.platform).toBe('pc')
    expect(panel.type_list).toEqual(seed.types.map((x) => ({ type_id: x.type_id, type_name: x.name_en })))
    expect(panel.tag_list).toEqual(seed.tags.map((x) => ({ type_id: x.type_id, tag_id: x.tag_id, tag_name: x.name_en })))
    expect(panel.type_list.find((x) => x.type_id === 'gender')?.type_name).toBe('Gender')
    expect(panel.tag_list.find((x) => x.tag_id === 'male')?.tag_name).toBe('Male')
    expect(await ok(path, { panel_id: 'china-pc-2025', lang: 'en' }, Panel)).toEqual(panel)
  })

  it('returns Chinese type_name and tag_name when lang=cn', async () => {
    const panel = await ok(path, { panel_id: 'china-pc-2025', lang: 'cn' }, Panel)
    expect(panel.type_list.find((x) => x.type_id === 'gender')?.type_name).toBe('性别')
    expect(panel.tag_list.find((x) => x.tag_id === 'female')?.tag_name).toBe('女')
    expect(panel.tag_list.find((x) => x.tag_id === 'married')?.tag_name).toBe('已婚')
  })

  it('shows a panel of another platform when it is named', async () => {
    expect((await ok(path, { panel_id: 'china-pmo-2026' }, Panel)).platform).toBe('pmo')
    expect((await ok(path, { panel_id: 'china-pm-2025' }, Panel)).platform).toBe('pm')
  })

  it('refuses lang=fr naming lang', async () => {
    await refused(path, { panel_id: 'china-pc-2025', lang: 'fr' }, 'lang')
  })

  it('refuses an unknown, malformed or missing panel_id naming it', async () => {
    await refused(path, { panel_id: 'china-tv-1999' }, 'panel_id')
    await refused(path, { panel_id: 'bad id!' }, 'panel_id')
    await refused(path, {}, 'panel_id')
  })
})

describe('panels.list', () => {
  const path = '/cms/v1/panels/list'
  const ofPlatform = (platform: string) => ref.panels.filter((p) => p.platform === platform).map((p) => p.panel_id).sort(binary)
  needsToken(path)

  it('returns only pc panels when platform is absent', async () => {
    const rows = await list(path, {}, Panel)
    expect(pick(rows, 'panel_id')).toEqual(ofPlatform('pc'))
    expect(new Set(pick(rows, 'platform'))).toEqual(new Set(['pc']))
    expect(rows.length).toBeGreaterThanOrEqual(2)
  })

  it('returns only the panels of the platform when platform=pc, pm or pmo', async () => {
    for (const platform of ['pc', 'pm', 'pmo']) {
      const rows = await list(path, { platform }, Panel)
      expect(rows.length, platform).toBeGreaterThan(0)
      expect(pick(rows, 'panel_id')).toEqual(ofPlatform(platform))
      for (const r of rows) expect(r.platform).toBe(platform)
    }
  })

  it('refuses an unknown platform naming it', async () => {
    await refused(path, { platform: 'tv' }, 'platform')
    await refused(path, { platform: 'PC' }, 'platform')
  })

  it('filters by the panel_id list AND the platform', async () => {
    expect(pick(await list(path, { panel_id: 'china-pc-2025,china-pm-2025' }, Panel), 'panel_id')).toEqual(['china-pc-2025'])
    expect(pick(await list(path, { panel_id: 'china-pc-2025,china-pm-2025', platform: 'pm' }, Panel), 'panel_id')).toEqual(['china-pm-2025'])
    expect(await list(path, { panel_id: 'china-pmo-2026' }, Panel)).toEqual([])
    expect(await list(path, { panel_id: 'no-such-panel' }, Panel)).toEqual([])
  })

  it('refuses a malformed panel_id list naming it', async () => {
    await refused(path, { panel_id: 'china-pc-2025,,china-pc-2026' }, 'panel_id')
  })

  it('returns Chinese type_name and tag_name when lang=cn and English when lang=en', async () => {
    const cn = await list(path, { lang: 'cn' }, Panel)
    const en = await list(path, { lang: 'en' }, Panel)
    expect(cn.length).toBe(en.length)
    for (const r of cn as unknown as Panel[]) expect(r.type_list.find((x) => x.type_id === 'age')?.type_name).toBe('年龄')
    for (const r of en as unknown as Panel[]) expect(r.type_list.find((x) => x.type_id === 'age')?.type_name).toBe('Age')
  })

  it('refuses lang=fr naming lang', async () => {
    await refused(path, { lang: 'fr' }, 'lang')
  })

  it('sorts by panel_id descending when order_desc=panel_id and ascending when order_asc=panel_id', async () => {
    expect(pick(await list(path, { order_desc: 'panel_id' }, Panel), 'panel_id')).toEqual(ofPlatform('pc').reverse())
    expect(pick(await list(path, { order_asc: 'panel_id' }, Panel), 'panel_id')).toEqual(ofPlatform('pc'))
  })

  it('refuses a sort on another field and both sort parameters together', async () => {
    await refused(path, { order_asc: 'platform' }, 'order_asc')
    await refused(path, { order_desc: 'panel_name' }, 'order_desc')
    await refused(path, { order_asc: 'panel_id', order_desc: 'panel_id' }, 'order_desc')
  })

  it('returns N rows from row M when limit=M,N and [] past the end', async () => {
    const pm = ofPlatform('pm')
    expect(pick(await list(path, { platform: 'pm', limit: '1,1' }, Panel), 'panel_id')).toEqual(pm.slice(1, 2))
    expect(pick(await list(path, { platform: 'pm', limit: '0,1' }, Panel), 'panel_id')).toEqual(pm.slice(0, 1))
    expect(await list(path, { platform: 'pm', limit: `${pm.length},1` }, Panel)).toEqual([])
    expect(pick(await list(path, { platform: 'pm', order_desc: 'panel_id', limit: '0,1' }, Panel), 'panel_id')).toEqual(pm.slice(-1))
  })

  it('refuses a malformed limit naming it', async () => {
    await refused(path, { limit: '0;5' }, 'limit')
  })
})

// ---------------------------------------------------------------------------------------------

describe('regions.show', () => {
  const path = '/cms/v1/regions/show'
  needsToken(path, { region_id: SHENZHEN })

  it('returns Shenzhen in English when lang is absent or en', async () => {
    const expected = { region_id: SHENZHEN, region_name: 'Shenzhen', parent_id: GUANGDONG, level: 2 }
    expect(await ok(path, { region_id: SHENZHEN }, Region)).toEqual(expected)
    expect(await ok(path, { region_id: SHENZHEN, lang: 'en' }, Region)).toEqual(expected)
  })

  it('returns Shenzhen in Chinese when lang=cn', async () => {
    expect(await ok(path, { region_id: SHENZHEN, lang: 'cn' }, Region)).toEqual({ region_id: SHENZHEN, region_name: '深圳市', parent_id: GUANGDONG, level: 2 })
  })

  it('returns the global region with an empty parent and level 0 as an integer', async () => {
    const r = await ok(path, { region_id: GLOBAL_REGION_ID }, Region)
    expect(r).toEqual({ region_id: '0'.repeat(24), region_name: 'Global', parent_id: '', level: 0 })
    expect(Number.isInteger(r.level)).toBe(true)
  })

  it('refuses lang=fr naming lang', async () => {
    await refused(path, { region_id: SHENZHEN, lang: 'fr' }, 'lang')
  })

  it('refuses an unknown or missing region_id naming it', async () => {
    await refused(path, { region_id: '999999999999999999999999' }, 'region_id')
    await refused(path, { region_id: '00001234' }, 'region_id')
    await refused(path, {}, 'region_id')
  })
})

describe('regions.list', () => {
  const path = '/cms/v1/regions/list'
  const inOrder = [...regions].sort((a, b) => a.level - b.level || binary(a.region_id, b.region_id))
  const asWire = (lang: 'en' | 'cn') => inOrder.map((r) => ({ region_id: r.region_id, region_name: lang === 'en' ? r.name_en : r.name_cn, parent_id: r.parent_id, level: r.level }))
  const all = { limit: '0,100000' }
  needsToken(path)

  it('returns every region in English, by level then region_id, when no parameter is given', async () => {
    expect(regions.length).toBeLessThanOrEqual(500)
    const rows = await list(path, {}, Region)
    expect(rows).toEqual(asWire('en'))
    for (const r of rows) {
      expect(typeof r.region_id).toBe('string')
      expect(typeof r.parent_id).toBe('string')
      expect(Number.isInteger(r.level)).toBe(true)
    }
  })

  it('returns Chinese region names when lang=cn', async () => {
    expect(await list(path, { lang: 'cn' }, Region)).toEqual(asWire('cn'))
  })

  it('refuses lang=fr naming lang', async () => {
    await refused(path, { lang: 'fr' }, 'lang')
  })

  it('has global and mainland China at level 0 when level=0', async () => {
    expect(await list(path, { level: '0' }, Region)).toEqual([
      { region_id: GLOBAL_REGION_ID, region_name: 'Global', parent_id: '', level: 0 },
      { region_id: MAINLAND_REGION_ID, region_name: 'Mainland China', parent_id: GLOBAL_REGION_ID, level: 0 },
    ])
    expect(GLOBAL_REGION_ID).toBe('0'.repeat(24))
    expect(MAINLAND_REGION_ID).toMatch(/^0{23}8$/)
  })

  it('has 34 province-level rows under mainland China or global when level=1', async () => {
    const rows = await list(path, { level: '1' }, Region)
    expect(rows).toHaveLength(34)
    for (const r of rows) {
      expect(r.level).toBe(1)
      expect([MAINLAND_REGION_ID, GLOBAL_REGION_ID]).toContain(r.parent_id)
    }
    expect(rows.filter((r) => r.parent_id === MAINLAND_REGION_ID)).toHaveLength(31)
  })

  it('returns the rows of any listed level when level is a comma list', async () => {
    const rows = await list(path, { level: '0,2', ...all }, Region)
    expect(rows).toHaveLength(regions.filter((r) => r.level !== 1).length)
    expect(new Set(pick(rows, 'level'))).toEqual(new Set([0, 2]))
    expect(await list(path, { level: '3' }, Region)).toEqual([])
  })

  it('refuses a level outside 0..3 or not an integer naming level', async () => {
    await refused(path, { level: '4' }, 'level')
    await refused(path, { level: 'one' }, 'level')
    await refused(path, { level: '1,' }, 'level')
  })

  it('returns the cities of a province when parent_id names it', async () => {
    const rows = await list(path, { parent_id: GUANGDONG }, Region)
    const expected = inOrder.filter((r) => r.parent_id === GUANGDONG).map((r) => r.region_id)
    expect(expected.length).toBeGreaterThan(10)
    expect(pick(rows, 'region_id')).toEqual(expected)
    for (const r of rows) expect(r.level).toBe(2)
    expect(pick(rows, 'region_id')).toContain(SHENZHEN)
  })

  it('returns the children of every listed parent when parent_id is a comma list', async () => {
    const rows = await list(path, { parent_id: `${GUANGDONG},${ZHEJIANG}`, ...all }, Region)
    expect(pick(rows, 'region_id')).toEqual(inOrder.filter((r) => r.parent_id === GUANGDONG || r.parent_id === ZHEJIANG).map((r) => r.region_id))
    expect(new Set(pick(rows, 'parent_id'))).toEqual(new Set([GUANGDONG, ZHEJIANG]))
  })

  it('returns exactly the listed regions when region_id is a comma list', async () => {
    const rows = await list(path, { region_id: `${SHENZHEN},${GLOBAL_REGION_ID},${GUANGDONG}` }, Region)
    expect(pick(rows, 'region_id')).toEqual([GLOBAL_REGION_ID, GUANGDONG, SHENZHEN])
    expect(await list(path, { region_id: '999999999999999999999999' }, Region)).toEqual([])
  })

  it('combines region_id, parent_id, level and region_name with AND', async () => {
    expect(pick(await list(path, { region_id: `${SHENZHEN},${GUANGDONG}`, level: '2' }, Region), 'region_id')).toEqual([SHENZHEN])
    expect(await list(path, { region_id: SHENZHEN, parent_id: ZHEJIANG }, Region)).toEqual([])
    const zhou = inOrder.filter((r) => r.parent_id === GUANGDONG && has(r.name_en, 'zhou')).map((r) => r.region_id)
    expect(zhou.length).toBeGreaterThan(1)
    expect(zhou.length).toBeLessThan(inOrder.filter((r) => has(r.name_en, 'zhou')).length)
    expect(pick(await list(path, { parent_id: GUANGDONG, region_name: 'zhou', level: '2' }, Region), 'region_id')).toEqual(zhou)
  })

  it('matches region_name case-insensitively in English', async () => {
    const expected = inOrder.filter((r) => has(r.name_en, 'shenzhen')).map((r) => r.region_id)
    expect(expected).toEqual([SHENZHEN])
    expect(pick(await list(path, { region_name: 'SHENZHEN' }, Region), 'region_id')).toEqual(expected)
    expect(pick(await list(path, { region_name: 'shenzhen' }, Region), 'region_id')).toEqual(expected)
  })

  it('matches region_name case-insensitively beyond ASCII (Lüliang as LÜLIANG)', async () => {
    const expected = inOrder.filter((r) => r.name_en.includes('Lüliang')).map((r) => r.region_id)
    expect(expected).toHaveLength(1)
    expect(pick(await list(path, { region_name: 'LÜLIANG' }, Region), 'region_id')).toEqual(expected)
  })

  it('matches a Chinese substring of region_name when lang=cn', async () => {
    const rows = await list(path, { region_name: '深圳', lang: 'cn' }, Region)
    expect(rows).toEqual([{ region_id: SHENZHEN, region_name: '深圳市', parent_id: GUANGDONG, level: 2 }])
    const zhou = inOrder.filter((r) => r.name_cn.includes('州')).map((r) => r.region_id)
    expect(zhou.length).toBeGreaterThan(20)
    expect(pick(await list(path, { region_name: '州', lang: 'cn' }, Region), 'region_id')).toEqual(zhou)
  })

  it('matches any of several comma-separated region_name patterns', async () => {
    const expected = inOrder.filter((r) => has(r.name_en, 'shenzhen') || has(r.name_en, 'guangzhou') || has(r.name_en, 'hangzhou')).map((r) => r.region_id)
    expect(expected.length).toBeGreaterThanOrEqual(3)
    expect(pick(await list(path, { region_name: 'Shenzhen,guangzhou, HANGZHOU' }, Region), 'region_id')).toEqual(expected)
    const cn = inOrder.filter((r) => r.name_cn.includes('深圳') || r.name_cn.includes('北京')).map((r) => r.region_id)
    expect(pick(await list(path, { region_name: '深圳,北京', lang: 'cn' }, Region), 'region_id')).toEqual(cn)
  })

  it('treats % and _ in region_name as plain characters', async () => {
    expect(await list(path, { region_name: '%' }, Region)).toEqual([])
    expect(await list(path, { region_name: '_' }, Region)).toEqual([])
  })

  orders(path, {}, Region, [{ name: 'region_id' }, { name: 'parent_id' }, { name: 'level' }], 'region_name', regions.length)

  rowLimit(path, {}, Region, 'region_id', () => inOrder.map((r) => r.region_id))

  it('pages the filtered, sorted rows when limit comes with a filter and a sort', async () => {
    const expected = inOrder.filter((r) => r.parent_id === GUANGDONG).map((r) => r.region_id).sort(binary).reverse()
    expect(pick(await list(path, { parent_id: GUANGDONG, order_desc: 'region_id', limit: '2,3' }, Region), 'region_id')).toEqual(expected.slice(2, 5))
  })
})

// ---------------------------------------------------------------------------------------------

describe('advertisers.show', () => {
  const path = '/cms/v1/advertisers/show'
  needsToken(path, { advertiser_id: '1' })

  it('returns the advertiser with a string id', async () => {
    const a = await ok(path, { advertiser_id: '1' }, Advertiser)
    expect(a).toEqual({ advertiser_id: '1', advertiser_name: ref.advertisers[0]!.advertiser_name })
    expect(a.advertiser_name).toBe('宝洁 Procter & Gamble')
    const last = ref.advertisers.at(-1)!
    expect(await ok(path, { advertiser_id: String(last.advertiser_id) }, Advertiser)).toEqual({ advertiser_id: String(last.advertiser_id), advertiser_name: last.advertiser_name })
  })

  it('refuses an unknown, malformed or missing advertiser_id naming it', async () => {
    await refused(path, { advertiser_id: '999' }, 'advertiser_id')
    await refused(path, { advertiser_id: 'abc' }, 'advertiser_id')
    await refused(path, { advertiser_id: '0' }, 'advertiser_id')
    await refused(path, {}, 'advertiser_id')
  })
})

describe('advertisers.list', () => {
  const path = '/cms/v1/advertisers/list'
  const names = ref.advertisers.map((a) => ({ advertiser_id: String(a.advertiser_id), advertiser_name: a.advertiser_name }))
  const idsWhere = (f: (name: string) => boolean) => names.filter((a) => f(a.advertiser_name)).map((a) => a.advertiser_id)
  needsToken(path)

  it('returns every advertiser by id with string ids when no parameter is given', async () => {
    expect(await list(path, {}, Advertiser)).toEqual(names)
  })

  it('returns only the listed ids when advertiser_id is a comma list', async () => {
    expect(pick(await list(path, { advertiser_id: '3,1,2' }, Advertiser), 'advertiser_id')).toEqual(['1', '2', '3'])
    expect(await list(path, { advertiser_id: '999' }, Advertiser)).toEqual([])
  })

  it('refuses a malformed advertiser_id list naming it', async () => {
    await refused(path, { advertiser_id: '1,x' }, 'advertiser_id')
    await refused(path, { advertiser_id: '1,,2' }, 'advertiser_id')
  })

  it("matches advertiser_name case-insensitively ('procter' finds Procter & Gamble)", async () => {
    expect(await list(path, { advertiser_name: 'procter' }, Advertiser)).toEqual([{ advertiser_id: '1', advertiser_name: '宝洁 Procter & Gamble' }])
    expect(pick(await list(path, { advertiser_name: 'PROCTER & gamble' }, Advertiser), 'advertiser_id')).toEqual(['1'])
  })

  it('matches a Chinese substring of advertiser_name', async () => {
    expect(pick(await list(path, { advertiser_name: '宝洁' }, Advertiser), 'advertiser_id')).toEqual(['1'])
    const expected = idsWhere((n) => n.includes('可'))
    expect(expected.length).toBeGreaterThan(0)
    expect(pick(await list(path, { advertiser_name: '可' }, Advertiser), 'advertiser_id')).toEqual(expected)
  })

  it('folds case beyond ASCII in advertiser_name (NESTLÉ finds Nestlé, L’ORÉAL finds L’Oréal)', async () => {
    expect(pick(await list(path, { advertiser_name: 'NESTLÉ' }, Advertiser), 'advertiser_id')).toEqual(idsWhere((n) => n.includes('Nestlé')))
    expect(pick(await list(path, { advertiser_name: "L'ORÉAL" }, Advertiser), 'advertiser_id')).toEqual(idsWhere((n) => n.includes("L'Oréal")))
    expect(idsWhere((n) => n.includes('Nestlé'))).toHaveLength(1)
  })

  it('treats % and _ in advertiser_name as plain characters', async () => {
    expect(await list(path, { advertiser_name: '%' }, Advertiser)).toEqual([])
    expect(await list(path, { advertiser_name: '_' }, Advertiser)).toEqual([])
  })

  it('combines advertiser_id and advertiser_name with AND', async () => {
    const expected = idsWhere((n) => has(n, 'e')).filter((id) => Number(id) <= 10)
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(idsWhere((n) => has(n, 'e')).length)
    expect(expected.length).toBeLessThan(10)
    expect(pick(await list(path, { advertiser_id: '1,2,3,4,5,6,7,8,9,10', advertiser_name: 'E' }, Advertiser), 'advertiser_id')).toEqual(expected)
  })

  orders(path, {}, Advertiser, [{ name: 'advertiser_id', key: numeric }, { name: 'advertiser_name' }], 'brand_name', ref.advertisers.length)

  it('sorts before it pages when order_desc and limit come together', async () => {
    const n = ref.advertisers.length
    expect(pick(await list(path, { order_desc: 'advertiser_id', limit: '0,3' }, Advertiser), 'advertiser_id')).toEqual([n, n - 1, n - 2].map(String))
  })

  rowLimit(path, {}, Advertiser, 'advertiser_id', () => names.map((a) => a.advertiser_id))
})

// ---------------------------------------------------------------------------------------------

describe('brands.show', () => {
  const path = '/cms/v1/brands/show'
  needsToken(path, { brand_id: '1' })

  it('returns the brand with string ids and its advertiser', async () => {
    for (const b of [ref.brands[0]!, ref.brands[6]!, ref.brands.at(-1)!]) {
      expect(await ok(path, { brand_id: String(b.brand_id) }, Brand)).toEqual({ brand_id: String(b.brand_id), brand_name: b.brand_name, advertiser_id: String(b.advertiser_id) })
    }
  })

  it('refuses an unknown, malformed or missing brand_id naming it', async () => {
    await refused(path, { brand_id: '99999' }, 'brand_id')
    await refused(path, { brand_id: '1.5' }, 'brand_id')
    await refused(path, {}, 'brand_id')
  })
})

describe('brands.list', () => {
  const path = '/cms/v1/brands/list'
  const brandsOf = (advertiserId: number) =>
    ref.brands.filter((b) => b.advertiser_id === advertiserId).map((b) => ({ brand_id: String(b.brand_id), brand_name: b.brand_name, advertiser_id: String(b.advertiser_id) }))
  needsToken(path, { advertiser_id: '1' })

  it("returns only that advertiser's brands, in id order, when advertiser_id is given", async () => {
    for (const id of [1, 2, 20]) {
      const expected = brandsOf(id)
      expect(expected.length).toBeGreaterThan(1)
      expect(await list(path, { advertiser_id: String(id) }, Brand)).toEqual(expected)
    }
  })

  it('refuses a missing advertiser_id naming it', async () => {
    await refused(path, {}, 'advertiser_id')
    await refused(path, { brand_name: 'dove' }, 'advertiser_id')
  })

  it('refuses an unknown or malformed advertiser_id naming it', async () => {
    await refused(path, { advertiser_id: '999' }, 'advertiser_id')
    await refused(path, { advertiser_id: 'pg' }, 'advertiser_id')
  })

  it('returns only the listed brands of the advertiser when brand_id is given (AND)', async () => {
    const unilever = brandsOf(2)
    const otherAdvertisersBrand = brandsOf(1)[0]!.brand_id
    const ids = [unilever[1]!.brand_id, unilever[0]!.brand_id, otherAdvertisersBrand]
    expect(pick(await list(path, { advertiser_id: '2', brand_id: ids.join(',') }, Brand), 'brand_id')).toEqual([unilever[0]!.brand_id, unilever[1]!.brand_id])
    expect(await list(path, { advertiser_id: '2', brand_id: otherAdvertisersBrand }, Brand)).toEqual([])
  })

  it("matches brand_name within the advertiser's brands only ('dove' under Unilever is not Mars' Dove Chocolate)", async () => {
    const everywhere = ref.brands.filter((b) => has(b.brand_name, 'dove'))
    expect(new Set(everywhere.map((b) => b.advertiser_id)).size).toBeGreaterThan(1)
    expect(await list(path, { advertiser_id: '2', brand_name: 'DOVE' }, Brand)).toEqual(brandsOf(2).filter((b) => has(b.brand_name, 'dove')))
    expect(await list(path, { advertiser_id: '20', brand_name: 'dove' }, Brand)).toEqual(brandsOf(20).filter((b) => has(b.brand_name, 'dove')))
  })

  it('matches a Chinese or accented brand_name substring', async () => {
    expect(pick(await list(path, { advertiser_id: '3', brand_name: '可乐' }, Brand), 'brand_name')).toEqual(brandsOf(3).filter((b) => b.brand_name.includes('可乐')).map((b) => b.brand_name))
    const lancome = brandsOf(6).filter((b) => b.brand_name.includes('Lancôme'))
    expect(lancome).toHaveLength(1)
    expect(await list(path, { advertiser_id: '6', brand_name: 'LANCÔME' }, Brand)).toEqual(lancome)
  })

  orders(path, { advertiser_id: '1' }, Brand, [{ name: 'brand_id', key: numeric }, { name: 'brand_name' }], 'advertiser_id', brandsOf(1).length)

  rowLimit(path, { advertiser_id: '1' }, Brand, 'brand_id', () => brandsOf(1).map((b) => b.brand_id))
})

// ---------------------------------------------------------------------------------------------

nameList('product.list', '/cms/v1/product/list', 'product_name', ref.products, [
  { text: '华为', why: 'a Chinese substring' },
  { text: 'REDMI', why: 'upper case finds Redmi' },
  { text: '%', why: '% is a plain character' },
])

describe('agencies.show', () => {
  const path = '/cms/v1/agencies/show'
  needsToken(path, { agency_id: '1' })

  it('returns the agency with a string id', async () => {
    for (const a of [ref.agencies[0]!, ref.agencies.at(-1)!]) {
      expect(await ok(path, { agency_id: String(a.agency_id) }, Agency)).toEqual({ agency_id: String(a.agency_id), agency_name: a.agency_name })
    }
  })

  it('refuses an unknown, malformed or missing agency_id naming it', async () => {
    await refused(path, { agency_id: '999' }, 'agency_id')
    await refused(path, { agency_id: '-1' }, 'agency_id')
    await refused(path, {}, 'agency_id')
  })
})

describe('agencies.list', () => {
  const path = '/cms/v1/agencies/list'
  const names = ref.agencies.map((a) => ({ agency_id: String(a.agency_id), agency_name: a.agency_name }))
  needsToken(path)

  it('returns every agency by id with string ids when no parameter is given', async () => {
    expect(await list(path, {}, Agency)).toEqual(names)
  })

  it('returns only the listed ids when agency_id is a comma list', async () => {
    expect(pick(await list(path, { agency_id: '5,2' }, Agency), 'agency_id')).toEqual(['2', '5'])
    await refused(path, { agency_id: '2,b' }, 'agency_id')
  })

  it('matches agency_name case-insensitively and in Chinese', async () => {
    expect(pick(await list(path, { agency_name: 'groupm' }, Agency), 'agency_name')).toEqual(['群邑 GroupM'])
    expect(pick(await list(path, { agency_name: '蓝色' }, Agency), 'agency_name')).toEqual(['蓝色光标 BlueFocus'])
    const expected = names.filter((a) => has(a.agency_name, 'O')).map((a) => a.agency_id)
    expect(pick(await list(path, { agency_name: 'O' }, Agency), 'agency_id')).toEqual(expected)
  })

  it('combines agency_id and agency_name with AND', async () => {
    const pool = ['1', '2', '3', '4', '5', '6']
    const expected = names.filter((a) => pool.includes(a.agency_id) && has(a.agency_name, 'a')).map((a) => a.agency_id)
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(names.filter((a) => has(a.agency_name, 'a')).length)
    expect(expected.length).toBeLessThan(pool.length)
    expect(pick(await list(path, { agency_id: pool.join(','), agency_name: 'a' }, Agency), 'agency_id')).toEqual(expected)
  })

  orders(path, {}, Agency, [{ name: 'agency_id', key: numeric }, { name: 'agency_name' }], 'advertiser_name', ref.agencies.length)

  rowLimit(path, {}, Agency, 'agency_id', () => names.map((a) => a.agency_id))
})

nameList('programs.list', '/cms/v1/programs/list', 'program_name', ref.programs, [
  { text: '联赛', why: 'a Chinese substring' },
  { text: 'nba', why: 'lower case finds NBA' },
])

nameList('plmttype.list', '/cms/v1/plmttype/list', 'plmt_type_name', ref.plmttypes, [
  { text: '富媒体Banner', why: "the vendor's example" },
  { text: 'BANNER', why: 'upper case finds Banner' },
  { text: '贴片', why: 'a Chinese substring' },
])

nameList('extensiontype.list', '/cms/v1/extensiontype/list', 'extensiontype_name', ref.extensiontypes, [
  { text: '效果类活动', why: 'a level-1 name' },
  { text: '-促销', why: 'a level-2 name with its hyphen' },
])
