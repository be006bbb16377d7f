// Row texts kept per database version (engine/row-texts.ts): only ids not read before are read,
// ids without a row answer null, a new version or the size bound reads afresh; askedRows pages
// the rows of an id list in id order, each id once.
import { describe, expect, it } from 'vitest'
import { RowTexts, askedRows } from '../../engine/row-texts'

/** A kept text without the comma it is kept after. */
function text(t: Uint8Array | null): string | null {
  if (t === null) return null
  expect(t[0]).toBe(44)
  return Buffer.from(t.subarray(1)).toString('utf8')
}

/** Rows of ids 1..50 (even ids only), counting what was read. */
function store(reads: number[][]) {
  const names = new Map<number, string>()
  for (let id = 2; id <= 50; id += 2) names.set(id, `row ${id}`)
  const read = (ids: readonly number[]) => {
    reads.push([...ids])
    return ids.filter((id) => names.has(id)).map((id) => [id, { id: String(id), name: names.get(id)! }] as const)
  }
  return { names, read }
}

describe('RowTexts', () => {
  it('reads only the ids no call read before at the same version, null for ids without a row', () => {
    const reads: number[][] = []
    const { read } = store(reads)
    const rows = new RowTexts()
    expect(rows.of(1, 'k', [4, 3, 2], read).map(text)).toEqual(['{"id":"4","name":"row 4"}', null, '{"id":"2","name":"row 2"}'])
    expect(rows.of(1, 'k', [2, 3, 6], read).map(text)).toEqual(['{"id":"2","name":"row 2"}', null, '{"id":"6","name":"row 6"}'])
    expect(reads).toEqual([[4, 3, 2], [6]])
    // another kind of row reads its own
    rows.of(1, 'other', [2], read)
    expect(reads.at(-1)).toEqual([2])
  })

  it('reads every id again at a new version, and when past its size bound', () => {
    const reads: number[][] = []
    const { names, read } = store(reads)
    const rows = new RowTexts()
    rows.of(1, 'k', [2, 4], read)
    names.set(2, 'renamed')
    expect(rows.of(2, 'k', [2, 4], read).map(text)).toEqual(['{"id":"2","name":"renamed"}', '{"id":"4","name":"row 4"}'])
    expect(reads).toEqual([[2, 4], [2, 4]])
    const small = new RowTexts(100)
    small.of(1, 'k', [2, 4, 6], read)
    small.of(1, 'k', [2], read)
    expect(reads.at(-1)).toEqual([2])
  })
})

describe('askedRows', () => {
  it('pages the ids with rows, each once, ascending or descending, with their texts', () => {
    const { read } = store([])
    const rows = new RowTexts()
    const texts = (ids: readonly number[]) => rows.of(1, 'k', ids, read)
    const all = (p: ReturnType<typeof askedRows>) => p.texts(0, p.ids.length).map(text)
    const up = askedRows(['8', '3', '2', '8', '40', '99'], false, texts)
    expect(up.ids).toEqual([2, 8, 40])
    expect(all(up)).toEqual(['{"id":"2","name":"row 2"}', '{"id":"8","name":"row 8"}', '{"id":"40","name":"row 40"}'])
    const down = askedRows(['8', '3', '2', '40'], true, texts)
    expect(down.ids).toEqual([40, 8, 2])
    expect(down.texts(1, 3).map(text)).toEqual(['{"id":"8","name":"row 8"}', '{"id":"2","name":"row 2"}'])
    // every asked id with a row
    const every = askedRows(['40', '2', '8'], true, texts)
    expect(every.ids).toEqual([40, 8, 2])
    expect(all(every)).toEqual(['{"id":"40","name":"row 40"}', '{"id":"8","name":"row 8"}', '{"id":"2","name":"row 2"}'])
    expect(every.texts(2, 3).map(text)).toEqual(['{"id":"2","name":"row 2"}'])
    // ids past 32 bits sort as well
    const big = askedRows(['4294967298', '2', '4294967296'], false, (ids) => ids.map((id) => Buffer.from(String(id))))
    expect(big.ids).toEqual([2, 4294967296, 4294967298])
  })
})
