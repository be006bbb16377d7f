// spec §1.3 and §4.5: limit M,N as start row and count, or as page number and page size
import { describe, expect, it } from 'vitest'
import { p } from '../../../../engine/contract/params'
import { expectRefused } from './helpers'

const rows = p.limit('offset').default({ m: 0, n: 500, offset: 0, count: 500 })
const pages = p.limit('page').default({ m: 0, n: 500, offset: 0, count: 500 })

describe('p.limit', () => {
  it.each([
    ['0,500', 0, 500],
    ['10,2', 10, 2],
    [' 3 , 4 ', 3, 4],
    ['0,100000', 0, 100000],
  ])('reads %s as offset %i and count %i in row lists', (raw, offset, count) => {
    expect(rows.decode(raw, 'limit')).toMatchObject({ offset, count })
  })

  it.each([
    ['0,500', 0, 500],
    ['1,500', 0, 500],
    ['2,100', 100, 100],
    ['3,10', 20, 10],
  ])('reads %s as offset %i and count %i in page lists (pages count from 1; 0 is the first)', (raw, offset, count) => {
    expect(pages.decode(raw, 'limit')).toMatchObject({ offset, count })
  })

  it('defaults to 0,500 when absent or empty', () => {
    expect(rows.decode(undefined, 'limit')).toMatchObject({ offset: 0, count: 500 })
    expect(rows.decode('', 'limit')).toMatchObject({ offset: 0, count: 500 })
  })

  it.each(['5', '0,', ',5', '-1,5', '1,-5', 'a,b', '1.5,2', '0,0', '0,100001', '1,2,3', '0;5', '0x1,2'])('refuses %s naming the parameter', (raw) => {
    expectRefused(rows, raw, 'limit')
  })
})
