// Pages cut out of whole result sets: the same text and bytes as the rows serialized directly,
// each chunk built once, dropped at the next version, bounded in size
import { describe, expect, it } from 'vitest'
import { CHUNK, PagedRows, ResultSet, ResultSets } from '../../engine/result-sets'
import { prng } from '../helpers/prng'

interface Row {
  id: string
  name: string
  n: number
}

/** Rows with texts of varying byte lengths (ASCII, CJK, astral, escapes) so that char and byte offsets differ. */
function rowsOf(count: number): Row[] {
  const words = ['plain', '春节 campaign', '𝄞 music', 'quote " and \\ slash', '']
  return Array.from({ length: count }, (_, i) => ({ id: String(1000 + i), name: `${words[i % words.length]}${i}`, n: i * 7 }))
}

const text = (parts: Uint8Array[]) => Buffer.concat(parts).toString('utf8')

function paged(rows: Row[], calls: number[][] = []): PagedRows<Row> {
  const by = new Map(rows.map((r) => [Number(r.id), r]))
  return new PagedRows(rows.map((r) => Number(r.id)), (ids) => {
    calls.push([...ids])
    return ids.map((id) => by.get(id)!)
  })
}

describe('ResultSet pages', () => {
  it('answers every page as the rows serialized directly, in UTF-8 pieces', () => {
    const rows = rowsOf(3 * CHUNK + 17)
    const set = new ResultSet(paged(rows))
    const random = prng(7)
    const cases = [[0, 500], [0, 1], [CHUNK - 1, 2], [CHUNK, CHUNK], [rows.length - 1, 5], [rows.length, 10], [rows.length + 50, 3]]
    for (let i = 0; i < 200; i++) cases.push([Math.floor(random() * (rows.length + 20)), 1 + Math.floor(random() * 600)])
    for (const [offset, count] of cases) {
      const want = JSON.stringify(rows.slice(offset!, offset! + count!))
      expect(text(set.page({ m: offset!, n: count!, offset: offset!, count: count! }))).toBe(want)
    }
  })

  it('builds each chunk once, only when a page first needs it', () => {
    const calls: number[][] = []
    const set = new ResultSet(paged(rowsOf(5 * CHUNK), calls))
    set.page({ m: 10, n: 20, offset: 10, count: 20 })
    expect(calls).toHaveLength(1)
    expect(calls[0]).toHaveLength(CHUNK)
    set.page({ m: CHUNK - 5, n: 10, offset: CHUNK - 5, count: 10 })
    set.page({ m: 0, n: 2 * CHUNK, offset: 0, count: 2 * CHUNK })
    expect(calls).toHaveLength(2)
    expect(calls[1]![0]).toBe(1000 + CHUNK)
  })

  it('answers a page of a set answered once as the rows serialized directly, in pieces of at most 64 KiB however many rows', () => {
    // campaign-sized rows (about 400 bytes): copied into a few buffers, none a mapping of its own
    const rows = rowsOf(2000).map((r) => ({ ...r, name: r.name.padEnd(380, '.') }))
    for (const [offset, count] of [[0, 500], [0, 2000], [7, 1], [1990, 50]]) {
      const parts = new ResultSet(paged(rows), true).page({ m: offset!, n: count!, offset: offset!, count: count! })
      expect(text(parts)).toBe(JSON.stringify(rows.slice(offset!, offset! + count!)))
      for (const p of parts) expect(p.length).toBeLessThanOrEqual(64 << 10)
      expect(parts.length).toBeLessThanOrEqual(2 + Math.ceil(Buffer.byteLength(JSON.stringify(rows.slice(offset!, offset! + count!))) / (60 << 10)))
    }
  })

  it('answers an empty result set as []', () => {
    const set = new ResultSet(paged([]))
    expect(text(set.page({ m: 0, n: 500, offset: 0, count: 500 }))).toBe('[]')
  })

  it('refuses a row builder that answers another number of rows', () => {
    const bad = new PagedRows([1, 2, 3], () => [{ id: '1' }])
    expect(() => new ResultSet(bad).page({ m: 0, n: 3, offset: 0, count: 3 })).toThrow(/1 rows for 3 ids/)
  })
})

describe('ResultSets', () => {
  it('keeps a result set for its version and forgets all of them at the next', () => {
    const sets = new ResultSets()
    const set = sets.set('q', 1, paged(rowsOf(3)))
    expect(sets.get('q', 1)).toBe(set)
    expect(sets.get('q', 2)).toBeUndefined()
    expect(sets.get('q', 1)).toBeUndefined()
  })

  it('keeps the result set of rows kept on repeat from its query\'s second ask at a version on', () => {
    const sets = new ResultSets()
    const kept = (rows: Row[]) => new PagedRows<Row>(rows.map((r) => Number(r.id)), { texts: (from, to) => rows.slice(from, to).map((r) => Buffer.from(`,${JSON.stringify(r)}`)) }, true)
    // (long rows among short ones: pages of small rows are sent as one copy, of long rows as their texts)
    const rows = rowsOf(300).map((r, i) => (i % 7 === 3 || i > 290 ? { ...r, name: r.name + '长'.repeat(200 + i) } : r))
    for (const [offset, count] of [[0, 500], [0, 1], [7, 200], [299, 5], [300, 10], [0, 0]] as const) {
      const once = sets.set(`ids ${offset} ${count}`, 1, kept(rows))
      expect(text(sets.page('ids', once, { m: offset, n: count, offset, count }))).toBe(JSON.stringify(rows.slice(offset, offset + count)))
    }
    const first = sets.set('ids', 1, kept(rowsOf(3)))
    expect(text(sets.page('ids', first, { m: 0, n: 3, offset: 0, count: 3 }))).toBe(JSON.stringify(rowsOf(3)))
    expect(sets.get('ids', 1)).toBeUndefined()
    const second = sets.set('ids', 1, kept(rowsOf(3)))
    expect(sets.get('ids', 1)).toBe(second)
    sets.set('ids', 2, kept(rowsOf(3)))
    expect(sets.get('ids', 2)).toBeUndefined()
  })

  it('drops the least recently used sets once their pages pass the bound, never the one being read', () => {
    const one = new ResultSet(paged(rowsOf(200)))
    one.page({ m: 0, n: 200, offset: 0, count: 200 })
    const sets = new ResultSets(Math.floor(2.5 * one.size))
    for (const k of ['a', 'b', 'c']) {
      const s = sets.set(k, 1, paged(rowsOf(200)))
      sets.page(k, s, { m: 0, n: 200, offset: 0, count: 200 })
      if (k === 'b') sets.get('a', 1)
    }
    expect(sets.get('b', 1)).toBeUndefined()
    expect(sets.get('a', 1)).toBeDefined()
    expect(sets.get('c', 1)).toBeDefined()
    const big = sets.set('big', 1, paged(rowsOf(2000)))
    expect(text(sets.page('big', big, { m: 0, n: 2000, offset: 0, count: 2000 }))).toBe(JSON.stringify(rowsOf(2000)))
    expect(sets.get('big', 1)).toBe(big)
  })
})
