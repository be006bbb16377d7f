/**
 * Who a spot's media reaches (docs/simulator.md, "Audience profiles"): every client belongs to a
 * demographic class (gender, age group, high income); a spot's profile is the chance that an
 * impression drawn for a client of each class is kept (else it is drawn again), from what the spot
 * says of its media. Panel devices take their person's class, other clients one drawn from the
 * population, so a spot's census and panel audiences lean the same way.
 */
import type { PanelIndex } from '../panel/types'
import { AGES, AGE_POPULATION, GENDER_POPULATION } from '../panel/generate/population'
import type { SimRandom } from './random'

/** Class bits: female (bit 0), age group (bits 1-2: under 18, 18-34, 35-54, 55 and over), high income (bit 3). */
export const CLASSES = 16
const FEMALE = 1
const HIGH_INCOME = 8
const ageGroupOf = (band: number): number => (band === 0 ? 0 : band <= 3 ? 1 : band <= 7 ? 2 : 3)

/** Personal income tags counted as high income (12,000 yuan a month and more). */
export const HIGH_INCOME_TAGS: readonly string[] = ['inc-12k-20k', 'inc-20k-plus']
/** Share of the internet population with a high income, for clients that are no panel device. */
export const HIGH_INCOME_SHARE = 0.1

/** The class of a client that is no panel device, drawn from the population's shares. */
export function drawClass(rng: SimRandom): number {
  const female = rng.next() < GENDER_POPULATION[1] ? FEMALE : 0
  let u = rng.next()
  let band = 0
  while (band < AGE_POPULATION.length - 1 && u >= AGE_POPULATION[band]!) u -= AGE_POPULATION[band++]!
  const rich = band > 0 && rng.next() < HIGH_INCOME_SHARE / (1 - AGE_POPULATION[0]!) ? HIGH_INCOME : 0
  return female | (ageGroupOf(band) << 1) | rich
}

/** The class of each panel person, from its tags (a person without gender or age tags: male, 35-54). */
export function panelClasses(panel: PanelIndex): Uint8Array {
  const bit = (tag: string): number => panel.tagIds.indexOf(tag)
  const has = (person: number, b: number): boolean => b >= 0 && (panel.tags[person * panel.tagBytes + (b >> 3)]! & (1 << (b & 7))) !== 0
  const female = bit('female')
  const ages = AGES.map(bit)
  const rich = HIGH_INCOME_TAGS.map(bit)
  const out = new Uint8Array(panel.size)
  for (let p = 0; p < panel.size; p++) {
    const band = ages.findIndex((b) => has(p, b))
    out[p] = (has(p, female) ? FEMALE : 0) | (ageGroupOf(band < 0 ? 5 : band) << 1) | (rich.some((b) => has(p, b)) ? HIGH_INCOME : 0)
  }
  return out
}

/** Relative reach of a class: by gender [male, female], age group and income [other, high]. */
interface Lean {
  gender: readonly [number, number]
  age: readonly [number, number, number, number]
  income: readonly [number, number]
}

/**
 * Audience profiles by what a spot names (publisher, channel, placement, format; first match wins).
 * A documented table (docs/simulator.md): games and sports lean to men of 18-34, beauty, fashion,
 * mothers and 小红书 to women, finance, business and cars to high incomes, short-video and social
 * apps to the young, news portals to the older. Anything else reaches the population as it is.
 */
export const PROFILES: readonly (readonly [RegExp, Lean])[] = [
  [/游戏|电竞|gaming|\bgames?\b|体育|\bsports?\b|\bnba\b|虎扑|hupu|足球|篮球/i, { gender: [1, 0.15], age: [0.4, 1, 0.45, 0.2], income: [1, 1] }],
  [/美妆|beauty|时尚|fashion|小红书|xiaohongshu|女性|母婴|化妆/i, { gender: [0.15, 1], age: [0.3, 1, 0.6, 0.25], income: [1, 1] }],
  [/财经|finance|理财|银行|\bbank|证券|基金|汽车|\bautos?\b|商务|business/i, { gender: [1, 0.8], age: [0.1, 0.7, 1, 0.6], income: [0.15, 1] }],
  [/抖音|douyin|快手|kuaishou|bilibili|哔哩|微博|weibo/i, { gender: [1, 1], age: [0.7, 1, 0.55, 0.3], income: [1, 1] }],
  [/头条|toutiao|新闻|门户|portal/i, { gender: [1, 0.8], age: [0.3, 0.6, 1, 1], income: [1, 1] }],
]

/** The keep chance of each class for a spot's media text, or null for the population as it is. */
export function profileOf(text: string): Float64Array | null {
  const lean = PROFILES.find(([pattern]) => pattern.test(text))?.[1]
  if (lean === undefined) return null
  const keep = new Float64Array(CLASSES)
  for (let c = 0; c < CLASSES; c++) keep[c] = lean.gender[c & FEMALE]! * lean.age[(c >> 1) & 3]! * lean.income[(c & HIGH_INCOME) === 0 ? 0 : 1]!
  const top = Math.max(...keep)
  for (let c = 0; c < CLASSES; c++) keep[c] = keep[c]! / top
  return keep
}
