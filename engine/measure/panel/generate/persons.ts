/**
 * The demo panel's persons (docs/panel.md): homes spread over every mainland province by online
 * population, demographics drawn from the tables of population.ts, one to three devices, and
 * weights post-stratified by gender x age band to China's internet population.
 */
import type { RegionSeed } from '../../../reference/types'
import { COOKIE_NAME, identityText } from '../../attribute/identity'
import type { PersonDevice, PersonRecord } from '../person'
import { cityFrame, type City } from './cities'
import * as pop from './population'
import { Rng, Sampler } from './random'

/** Persons per province: at least one each, the rest by online population (largest remainder). */
function allocate(shares: readonly number[], count: number): number[] {
  const n = shares.map(() => 1)
  const free = Math.max(0, count - shares.length)
  const total = shares.reduce((a, b) => a + b, 0)
  const exact = shares.map((s) => (free * s) / total)
  exact.forEach((x, i) => (n[i]! += Math.floor(x)))
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1])
  for (let k = 0, left = count - n.reduce((a, b) => a + b, 0); k < left; k++) n[order[k % order.length]![1]]!++
  return n
}

/** The home city of every person, provinces shuffled so that person ids say nothing of place. */
function homes(rng: Rng, frame: readonly City[], count: number): City[] {
  const provinces = [...new Set(frame.map((c) => c.province))].sort()
  const cities = provinces.map((p) => frame.filter((c) => c.province === p))
  const n = allocate(cities.map((cs) => cs.reduce((s, c) => s + c.online, 0)), count)
  const out: City[] = []
  cities.forEach((cs, p) => {
    const sampler = new Sampler(cs.map((c) => c.online))
    for (let k = 0; k < n[p]!; k++) out.push(cs[sampler.draw(rng)]!)
  })
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.u32() % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

const clamp = (x: number, hi: number): number => Math.min(hi, Math.max(0, x))

function shift(rng: Rng, band: number, chance: number, hi: number): number {
  if (chance > 0 && rng.chance(chance)) return clamp(band + 1, hi)
  if (chance < 0 && rng.chance(-chance)) return clamp(band - 1, hi)
  return band
}

function incomes(rng: Rng, age: number, edu: number, marital: number, tier: pop.Tier): [number, number] {
  const up = pop.TIER_INCOME_SHIFT[tier]
  if (age === 0) return [0, shift(rng, rng.pick(pop.HOUSEHOLD_OF_MINORS), up, 4)]
  let inc = shift(rng, rng.pick(pop.INCOME_BY_EDUCATION[edu]!), up, 5)
  // Students and the retired earn less.
  if ((age === 1 || age === pop.AGES.length - 1) && rng.chance(0.5)) inc = clamp(inc - 1, 5)
  let hh = [0, 0, 1, 2, 3, 4][inc]!
  if (marital > 0 && rng.chance(0.6)) hh = clamp(hh + 1, 4)
  if (rng.chance(0.2)) hh = clamp(hh + (rng.chance(0.5) ? 1 : -1), 4)
  return [inc, hh]
}

function uuid(rng: Rng): string {
  const h = rng.hex(32)
  const variant = '89ab'[rng.u32() % 4]!
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** An IMEI: a Chinese-market type allocation code prefix (86), 12 digits and the Luhn check digit. */
function imei(rng: Rng): string {
  const body = `86${rng.digits(12)}`
  let sum = 0
  for (let i = 0; i < 14; i++) {
    let d = Number(body[i])
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return `${body}${(10 - (sum % 10)) % 10}`
}

function mobileId(rng: Rng): string {
  if (rng.chance(pop.DEVICE_SHARES.ios)) return identityText('idfa', uuid(rng))
  return rng.chance(pop.DEVICE_SHARES.androidOaid) ? identityText('oaid', uuid(rng)) : identityText('imei', imei(rng))
}

function devices(rng: Rng, taken: Set<string>): PersonDevice[] {
  const out: PersonDevice[] = []
  const add = (make: () => string, platform: PersonDevice['platform']) => {
    let id = make()
    while (taken.has(id)) id = make()
    taken.add(id)
    out.push({ device: id, platform })
  }
  const mobile = rng.chance(pop.DEVICE_SHARES.mobile)
  if (mobile) {
    add(() => mobileId(rng), 'mb')
    if (rng.chance(pop.DEVICE_SHARES.secondMobile)) add(() => mobileId(rng), 'mb')
  }
  if (!mobile || rng.chance(pop.DEVICE_SHARES.pcWithMobile)) add(() => identityText(COOKIE_NAME, rng.hex(32)), 'pc')
  return out
}

/** The filled cell nearest to an empty one: same gender by age distance first, then the other gender. */
function nearestFilled(counts: readonly number[], cell: number): number | undefined {
  const bands = pop.AGES.length
  const g = Math.floor(cell / bands)
  const a = cell % bands
  for (const gender of [g, 1 - g]) {
    for (let d = 0; d < bands; d++) {
      for (const x of [a - d, a + d]) if (x >= 0 && x < bands && counts[gender * bands + x]! > 0) return gender * bands + x
    }
  }
  return undefined
}

/**
 * Weight of each gender x age cell: its population over its persons. The population of a cell
 * without persons goes to the nearest filled cell, so that the weights always add up to the
 * internet population.
 */
function cellWeights(counts: readonly number[]): number[] {
  const bands = pop.AGES.length
  const population = counts.map((_, c) => pop.INTERNET_POPULATION * pop.GENDER_POPULATION[Math.floor(c / bands)]! * pop.AGE_POPULATION[c % bands]!)
  counts.forEach((n, c) => {
    const to = n > 0 ? undefined : nearestFilled(counts, c)
    if (to === undefined) return
    population[to]! += population[c]!
    population[c] = 0
  })
  return population.map((p, c) => (counts[c]! > 0 ? p / counts[c]! : 0))
}

/** Persons made between two pauses of personsInSlices: about 15 ms on the 2-core build machine. */
export const PERSONS_SLICE = 1_000

/** `count` persons of a demo panel, the same for the same seed and region table. */
export function generatePersons(regions: readonly RegionSeed[], count: number, seed: number): PersonRecord[] {
  const making = personsInSlices(regions, count, seed)
  let step = making.next()
  while (!step.done) step = making.next()
  return step.value
}

/**
 * The persons of generatePersons, made in slices: a pause (a yield) after every PERSONS_SLICE
 * persons, so that a caller can answer requests between them (20,000 persons take about 0.3 s).
 */
export function* personsInSlices(regions: readonly RegionSeed[], count: number, seed: number): Generator<void, PersonRecord[]> {
  const rng = new Rng(seed)
  const home = homes(rng, cityFrame(regions), count)
  const sampleAge = new Sampler(pop.AGE_SAMPLE)
  const taken = new Set<string>()
  const cell = new Int32Array(home.length)
  const persons: PersonRecord[] = []
  for (let i = 0; i < home.length; i++) {
    if (i > 0 && i % PERSONS_SLICE === 0) yield
    const city = home[i]!
    const g = rng.pick(pop.GENDER_SAMPLE)
    const age = sampleAge.draw(rng)
    const edu = rng.pick(pop.EDUCATION_BY_AGE[age]!)
    const marital = rng.pick(pop.MARITAL_BY_AGE[age]!)
    const [inc, hh] = incomes(rng, age, edu, marital, city.tier)
    cell[i] = g * pop.AGES.length + age
    persons.push({
      person_id: `p${String(i + 1).padStart(7, '0')}`,
      weight: 0,
      home_region: city.region_id,
      tags: [pop.GENDERS[g]!, pop.AGES[age]!, pop.EDUCATIONS[edu]!, pop.INCOMES[inc]!, pop.HOUSEHOLD_INCOMES[hh]!, city.tier, pop.MARITAL[marital]!],
      devices: devices(rng, taken),
    })
  }
  const counts = new Array<number>(pop.GENDERS.length * pop.AGES.length).fill(0)
  for (const c of cell) counts[c]!++
  const weights = cellWeights(counts)
  persons.forEach((p, i) => (p.weight = weights[cell[i]!]!))
  return persons
}
