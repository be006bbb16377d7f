/**
 * Maps the Chinese place text of the IP library (`广东省深圳市`, `北京北京市`, `香港`,
 * `广西区南宁市`, `内蒙古自治区呼和浩特市`) onto the region table: the province whose name
 * without its administrative suffix starts the text, then the city of that province whose
 * suffix-less name starts what follows. Names are compared without suffixes because the library
 * writes `上海` and `北京` where the table has `上海市` and `北京市`.
 */
import { GLOBAL_REGION_ID, MAINLAND_REGION_ID, stripAdminSuffix } from '../../reference/regions'
import type { RegionSeed } from '../../reference/types'

interface Named {
  stem: string
  index: number
}

interface Province extends Named {
  /** Cities, longest stem first so that the longest prefix wins. */
  cities: Named[]
  /** Index of the single level-2 row of a municipality (北京市 110100), or -1. */
  municipality: number
}

/** Suffixes the library may write after a province stem (`省`, `市`, `区`, `自治区`, …). */
const PROVINCE_SUFFIX = /^(?:特别行政区|壮族自治区|回族自治区|维吾尔自治区|自治区|省|市|区)/

/**
 * Former or special prefecture names the IP library still writes, and the city they belong to
 * now: 莱芜 was merged into 济南 in 2019; 杨凌 (a demonstration zone) lies in 咸阳.
 */
const CITY_ALIASES: Readonly<Record<string, string>> = { 莱芜: '济南', 杨凌: '咸阳' }

const byStemLength = (a: Named, b: Named): number => b.stem.length - a.stem.length

function indexOfId(regions: readonly RegionSeed[], id: string): number {
  const i = regions.findIndex((r) => r.region_id === id)
  if (i < 0) throw new Error(`region table has no row ${id}`)
  return i
}

/** Finds region-table indices for the place text of Chinese addresses. */
export class PlaceMatcher {
  /** Index of the global row. */
  readonly global: number
  /** Index of the mainland China row. */
  readonly mainland: number
  private readonly provinces: Province[]

  constructor(regions: readonly RegionSeed[]) {
    this.global = indexOfId(regions, GLOBAL_REGION_ID)
    this.mainland = indexOfId(regions, MAINLAND_REGION_ID)
    const byId = new Map<string, Province>()
    regions.forEach((r, index) => {
      if (r.level === 1) byId.set(r.region_id, { stem: stripAdminSuffix(r.name_cn), index, cities: [], municipality: -1 })
    })
    regions.forEach((r, index) => {
      const province = r.level === 2 ? byId.get(r.parent_id) : undefined
      if (province === undefined) return
      province.cities.push({ stem: stripAdminSuffix(r.name_cn), index })
      if (r.name_cn === regions[province.index]?.name_cn) province.municipality = index
    })
    this.provinces = [...byId.values()].sort(byStemLength)
    for (const p of this.provinces) {
      for (const [alias, stem] of Object.entries(CITY_ALIASES)) {
        const city = p.cities.find((c) => c.stem === stem)
        if (city !== undefined) p.cities.push({ stem: alias, index: city.index })
      }
      p.cities.sort(byStemLength)
    }
  }

  /**
   * The region index of a place text that follows the country `中国`: the city when found
   * (municipalities: always their one city row), else the province, else mainland China.
   */
  match(text: string): number {
    const province = this.provinces.find((p) => text.startsWith(p.stem))
    if (province === undefined) return this.mainland
    if (province.municipality >= 0) return province.municipality
    const rest = text.slice(province.stem.length).replace(PROVINCE_SUFFIX, '')
    const city = province.cities.find((c) => rest.startsWith(c.stem))
    return city === undefined ? province.index : city.index
  }
}
