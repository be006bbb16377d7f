// Region containment of panel cells (DESIGN §3.6, docs/regions.md)
import { describe, expect, it } from 'vitest'
import { insideRegion, provinceOf, regionContains, regionTree } from '../../../../engine/measure/panel/regions'
import { buildRegions } from '../../../../engine/reference/regions'
import { REGION } from './helpers'

const regions = buildRegions()
const tree = regionTree(regions)
const at = (id: string) => tree.indexOf.get(id)!

describe('regionContains', () => {
  it('has global contain every region', () => {
    expect(regions.every((_, i) => regionContains(regions, at(REGION.global), i))).toBe(true)
  })

  it('has mainland China contain the 31 provinces and their cities, not Hong Kong, Macau or Taiwan', () => {
    const inside = regions.filter((_, i) => regionContains(regions, at(REGION.mainland), i))
    expect(inside.filter((r) => r.level === 1)).toHaveLength(31)
    expect(inside.filter((r) => r.level === 2)).toHaveLength(regions.filter((r) => r.level === 2).length)
    expect(regionContains(regions, at(REGION.mainland), at(REGION.hongkong))).toBe(false)
  })

  it('has a province contain itself and its cities only', () => {
    const g = at(REGION.guangdong)
    expect(regionContains(regions, g, g)).toBe(true)
    expect(regionContains(regions, g, at(REGION.shenzhen))).toBe(true)
    expect(regionContains(regions, g, at(REGION.beijing))).toBe(false)
    expect(regionContains(regions, g, at(REGION.mainland))).toBe(false)
    expect(regionContains(regions, at(REGION.shenzhen), at(REGION.guangzhou))).toBe(false)
  })

  it('agrees with a walk up the parent ids for every pair', () => {
    const parent = new Map(regions.map((r) => [r.region_id, r.parent_id]))
    const inside = (c: string, r: string): boolean => (r === c ? true : r === '' ? false : inside(c, parent.get(r) ?? ''))
    for (let c = 0; c < regions.length; c += 7) {
      for (let r = 0; r < regions.length; r++) expect(regionContains(regions, c, r)).toBe(inside(regions[c]!.region_id, regions[r]!.region_id))
    }
  })

  it('answers false for indices outside the table', () => {
    expect(regionContains(regions, -1, 0)).toBe(false)
    expect(regionContains(regions, 0, regions.length)).toBe(false)
  })
})

describe('insideRegion and provinceOf', () => {
  it('gives a filter equal to regionContains', () => {
    const f = insideRegion(regions, at(REGION.guangdong))
    for (let r = 0; r < regions.length; r++) expect(f(r)).toBe(regionContains(regions, at(REGION.guangdong), r))
  })

  it('finds the province of a city and of a province, none above level 1', () => {
    expect(provinceOf(regions, at(REGION.shenzhen))).toBe(at(REGION.guangdong))
    expect(provinceOf(regions, at(REGION.guangdong))).toBe(at(REGION.guangdong))
    expect(provinceOf(regions, at(REGION.mainland))).toBe(-1)
  })
})
