/**
 * Where generated persons live (docs/panel.md): the mainland's level-2 cities weighted by a
 * population proxy, with a city tier each. Province totals and the large cities' populations
 * are the 2020 census (millions); the rest of a province is shared among its other cities.
 * Tiers follow the 2024 city business-attractiveness ranking: 4 tier-1, 15 new tier-1 and 30
 * tier-2 cities; of the others, the 70 largest are tier 3 and the rest tier 4-5.
 */
import type { RegionSeed } from '../../../reference/types'
import { TIER_PENETRATION, type Tier } from './population'

/** Province populations, 2020 census (millions), by the first two digits of the GB code. */
const PROVINCES: Readonly<Record<string, number>> = {
  11: 21.89, 12: 13.87, 13: 74.61, 14: 34.92, 15: 24.05, 21: 42.59, 22: 24.07, 23: 31.85, 31: 24.87, 32: 84.75,
  33: 64.57, 34: 61.03, 35: 41.54, 36: 45.19, 37: 101.53, 41: 99.37, 42: 57.75, 43: 66.44, 44: 126.01, 45: 50.13,
  46: 10.08, 50: 32.05, 51: 83.67, 52: 38.56, 53: 47.21, 54: 3.65, 61: 39.53, 62: 25.02, 63: 5.92, 64: 7.2, 65: 25.85,
}

/** Populations of large cities, 2020 census (millions), by GB code. */
const CITIES: Readonly<Record<string, number>> = {
  110100: 21.89, 120100: 13.87, 310100: 24.87, 500100: 32.05, 440100: 18.68, 440300: 17.56, 510100: 20.94,
  330100: 11.94, 420100: 12.33, 610100: 12.96, 320500: 12.75, 320100: 9.31, 430100: 10.05, 410100: 12.6,
  441900: 10.47, 320200: 7.46, 330200: 9.4, 370200: 10.07, 340100: 9.37, 440600: 9.5, 210100: 9.07, 530100: 8.46,
  370100: 9.2, 350200: 5.16, 350100: 8.29, 330300: 9.57, 230100: 10.01, 130100: 11.24, 210200: 7.45, 450100: 8.74,
  350500: 8.78, 330700: 7.05, 520100: 5.99, 320400: 5.28, 220100: 9.07, 360100: 6.26, 320600: 7.73, 330400: 5.4,
  320300: 9.08, 441300: 6.04, 140100: 5.3, 331000: 6.62, 330600: 5.27, 130600: 9.24, 442000: 4.42, 370700: 9.39,
  371300: 11.02, 440400: 2.44, 370600: 7.1, 130200: 7.72, 130400: 9.41, 130500: 7.11, 130900: 7.3, 131000: 5.46,
  410300: 7.06, 410700: 6.25, 411300: 9.71, 411600: 9.03, 411700: 7.01, 440500: 5.5, 440800: 6.98, 440900: 6.17,
  445200: 5.58, 370300: 4.7, 370800: 8.36, 371400: 5.61, 371500: 5.95, 371700: 8.8, 340200: 3.64, 340300: 3.3,
  341200: 8.2, 341300: 5.32, 420500: 4.01, 420600: 5.26, 421000: 5.23, 430600: 5.05, 430700: 5.28, 510700: 4.87,
  511300: 5.61, 150100: 3.45, 150200: 2.71, 620100: 4.36, 630100: 2.47, 640100: 2.86, 650100: 4.05, 540100: 0.87,
  460100: 2.87, 460200: 1.03,
}

const TIER_1 = ['110100', '310100', '440100', '440300']
const NEW_TIER_1 = ['510100', '330100', '500100', '420100', '320500', '610100', '320100', '430100', '120100', '410100', '441900', '320200', '330200', '370200', '340100']
const TIER_2 = [
  '440600', '210100', '530100', '370100', '350200', '350100', '330300', '230100', '130100', '210200', '450100', '350500', '330700', '520100', '320400',
  '220100', '360100', '320600', '330400', '320300', '441300', '140100', '331000', '330600', '130600', '442000', '370700', '371300', '440400', '370600',
]
const TIER_3_COUNT = 70

/** Every code named above, for a test that they are all in the region table. */
export const NAMED_CITY_CODES: readonly string[] = [...new Set([...Object.keys(CITIES), ...TIER_1, ...NEW_TIER_1, ...TIER_2])]

/** A home city of generated persons. */
export interface City {
  region_id: string
  /** Two-digit province code. */
  province: string
  /** Internet users, millions (population x the tier's penetration). */
  online: number
  tier: Tier
}

/** Relative size of a city without a census figure: county-level cities and prefectures are smaller. */
function shareFactor(c: RegionSeed): number {
  if (c.gb_code.slice(2, 4) === '90') return 0.3
  return /(?:自治州|地区|盟)$/.test(c.name_cn) ? 0.6 : 1
}

/** The level-2 cities of the mainland provinces with their online population and tier. */
export function cityFrame(regions: readonly RegionSeed[]): City[] {
  const cities = regions.filter((r) => r.level === 2 && PROVINCES[r.gb_code.slice(0, 2)] !== undefined)
  const population = new Map<string, number>()
  for (const [prov, total] of Object.entries(PROVINCES)) {
    const mine = cities.filter((c) => c.gb_code.startsWith(prov))
    const known = mine.filter((c) => CITIES[c.gb_code] !== undefined)
    const rest = mine.filter((c) => CITIES[c.gb_code] === undefined)
    for (const c of known) population.set(c.gb_code, CITIES[c.gb_code]!)
    const left = Math.max(total - known.reduce((s, c) => s + CITIES[c.gb_code]!, 0), total * 0.05)
    const factors = rest.reduce((s, c) => s + shareFactor(c), 0)
    for (const c of rest) population.set(c.gb_code, (left * shareFactor(c)) / factors)
  }
  const tierOf = new Map<string, Tier>()
  for (const code of TIER_1) tierOf.set(code, 'tier-1')
  for (const code of NEW_TIER_1) tierOf.set(code, 'tier-new1')
  for (const code of TIER_2) tierOf.set(code, 'tier-2')
  const others = cities.filter((c) => !tierOf.has(c.gb_code)).sort((a, b) => population.get(b.gb_code)! - population.get(a.gb_code)! || a.gb_code.localeCompare(b.gb_code))
  others.forEach((c, i) => tierOf.set(c.gb_code, i < TIER_3_COUNT ? 'tier-3' : 'tier-4-5'))
  return cities.map((c) => {
    const tier = tierOf.get(c.gb_code)!
    return { region_id: c.region_id, province: c.gb_code.slice(0, 2), online: population.get(c.gb_code)! * TIER_PENETRATION[tier], tier }
  })
}
