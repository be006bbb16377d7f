// renderer/src/reports/paging.ts: whether an answer holds every spot of its request, and the limits that fetch them all
import { describe, expect, it } from 'vitest'
import { coverage, fullLimits, pagedBy, publishersInScope, worstCoverage } from '../../../renderer/src/reports/paging'
import { item, spot } from './fixtures'

const spots = (n: number, from = 0) => Array.from({ length: n }, (_, i) => item({ spot_id: String(from + i + 1), publisher_id: '10' }, { imp_acc: 1 }))

describe('pagedBy', () => {
  it('follows the API: limit only with a paged by_position; audience and minisite page their rows', () => {
    expect(pagedBy('reports.basic_show', { by_position: 'spot' })).toBe('spots')
    expect(pagedBy('reports.basic_show', { by_position: 'keyword' })).toBe('spots')
    expect(pagedBy('reports.reach_show', { by_position: 'publisher' })).toBe('publishers')
    expect(pagedBy('reports.basic_show', { by_position: 'campaign' })).toBeNull()
    expect(pagedBy('reports.basic_show', {})).toBeNull()
    expect(pagedBy('reports.audience_show', { by_position: 'campaign' })).toBe('rows')
    expect(pagedBy('campaigns.show', {})).toBeNull()
  })
})

describe('coverage', () => {
  it('says an answer without limit shows the first 500 of total_spot_num spots', () => {
    expect(coverage('reports.basic_show', { by_position: 'spot' }, { total_spot_num: 620, items: spots(500) })).toEqual({ unit: 'spots', shown: 500, total: 620 })
    // spots without data have no row: the page, not the rows, says how many are covered
    expect(coverage('reports.realtime_show', { by_position: 'spot' }, { total_spot_num: 620, items: spots(40) })).toEqual({ unit: 'spots', shown: 500, total: 620 })
  })

  it('takes an answer as whole when it has every spot, a full limit, or more rows than the page', () => {
    expect(coverage('reports.basic_show', { by_position: 'spot' }, { total_spot_num: 500, items: spots(500) })).toBeNull()
    expect(coverage('reports.basic_show', { by_position: 'spot', limit: '0,620' }, { total_spot_num: 620, items: spots(620) })).toBeNull()
    expect(coverage('reports.basic_show', { by_position: 'spot' }, { total_spot_num: 620, items: spots(620) })).toBeNull()
    expect(coverage('reports.basic_show', { by_position: 'campaign' }, { total_spot_num: 620, items: [item({}, {})] })).toBeNull()
  })

  it('counts publishers for publisher rows and rows for the audience reports', () => {
    expect(coverage('reports.basic_show', { by_position: 'publisher' }, { total_spot_num: 900, items: [] }, 700)).toEqual({ unit: 'publishers', shown: 500, total: 700 })
    expect(coverage('reports.basic_show', { by_position: 'publisher' }, { total_spot_num: 900, items: [] }, 12)).toBeNull()
    expect(coverage('reports.audience_show', {}, { items: spots(500) })).toEqual({ unit: 'rows', shown: 500, total: null })
    expect(coverage('reports.audience_show', {}, { items: spots(499) })).toBeNull()
  })
})

describe('fullLimits', () => {
  it('covers every spot in pages the API accepts (M below the total, M+N not past it, N at most 100000)', () => {
    expect(fullLimits(620)).toEqual(['0,620'])
    expect(fullLimits(250_000)).toEqual(['0,100000', '100000,100000', '200000,50000'])
    expect(fullLimits(0)).toEqual([])
  })
})

describe('publishersInScope and worstCoverage', () => {
  it('counts the publishers a request covers and keeps the coverage missing the most', () => {
    const list = [spot('1', '10', []), spot('2', '11', []), spot('3', '11', [])]
    expect(publishersInScope(list, {})).toBe(2)
    expect(publishersInScope(list, { publisher_id: '11' })).toBe(1)
    expect(worstCoverage([null, { unit: 'spots', shown: 500, total: 600 }, { unit: 'spots', shown: 500, total: 900 }, null])).toEqual({ unit: 'spots', shown: 500, total: 900 })
    expect(worstCoverage([null, null])).toBeNull()
  })
})
