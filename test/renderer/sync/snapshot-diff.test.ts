// renderer/src/sync/snapshot-diff.ts: the diff of a restated snapshot as readable rows
import { describe, expect, it } from 'vitest'
import { attributesLabel, commonAttributes, deltaOf, diffExportColumns, diffRows, diffSummary, formatValue, type SnapshotDiff } from '../../../renderer/src/sync/snapshot-diff'
import { parseCsv, toCsv } from '../../../renderer/src/utils/export'

const diff: SnapshotDiff = {
  previous_id: '4', items_added: 1, items_removed: 2, values_changed: 3,
  changes: [
    { attributes: { spot_id: 12, audience: 'overall' }, name: 'imp_acc', before: 8, after: 12 },
    { attributes: {}, name: 'version', before: 'V1.0', after: 'V1.1' },
    { attributes: { spot_id: 12, audience: 'overall' }, name: 'ctr', before: 0.125, after: null },
  ],
}

describe('diff rows', () => {
  it('lists top-level members first, then items by their sorted attributes', () => {
    expect(diffRows(diff).map((r) => [r.where, r.name, r.before, r.after, r.delta])).toEqual([
      ['', 'version', 'V1.0', 'V1.1', ''],
      ['audience=overall · spot_id=12', 'imp_acc', '8', '12', '+4'],
      ['audience=overall · spot_id=12', 'ctr', '0.125', '—', ''],
    ])
  })

  it("exports the answers' own values and a numeric change: no separators, no four-decimal rounding, a plain minus", () => {
    const big: SnapshotDiff = { ...diff, changes: [
      { attributes: { spot_id: 12 }, name: 'imp_acc', before: 1234567, after: 1234000 },
      { attributes: { spot_id: 12 }, name: 'grp_acc', before: 12.34567, after: 12.34568 },
    ] }
    const csv = toCsv(diffExportColumns((k) => k), diffRows(big))
    expect(parseCsv(csv)).toEqual([
      ['where', 'name', 'before', 'after', 'delta'],
      ['spot_id=12', 'imp_acc', '1234567', '1234000', '-567'],
      ['spot_id=12', 'grp_acc', '12.34567', '12.34568', '0.00001'],
    ])
  })

  it('says once the attributes every changed item shares', () => {
    const two: SnapshotDiff = { ...diff, changes: [...diff.changes, { attributes: { spot_id: 13, audience: 'overall' }, name: 'imp_acc', before: 1, after: 2 }] }
    expect(commonAttributes(two)).toEqual({ audience: 'overall' })
    expect(diffRows(two, new Set(Object.keys(commonAttributes(two)))).map((r) => r.where)).toEqual(['', 'spot_id=12', 'spot_id=12', 'spot_id=13'])
    expect(commonAttributes(diff)).toEqual({})
  })

  it('signs the difference of numbers', () => {
    expect(deltaOf(10, 7.5)).toEqual({ delta: '−2.5', direction: 'down' })
    expect(deltaOf(1, 1)).toEqual({ delta: '0', direction: 'none' })
    expect(deltaOf(0.1, 0.3)).toEqual({ delta: '+0.2', direction: 'up' })
    expect(deltaOf('1', 2)).toEqual({ delta: '', direction: 'none' })
  })

  it('formats values readably', () => {
    expect(formatValue(1234567)).toBe('1,234,567')
    expect(formatValue(1 / 3)).toBe('0.3333')
    expect(formatValue([1, 2])).toBe('[1,2]')
    expect(formatValue('')).toBe('""')
    expect(attributesLabel(null)).toBe('')
  })

  it('summarises the counts and says when the list was cut short', () => {
    expect(diffSummary(diff)).toEqual({ first: false, same: false, added: 1, removed: 2, changed: 3, shown: 3, truncated: false })
    expect(diffSummary({ ...diff, values_changed: 1500 }).truncated).toBe(true)
    expect(diffSummary({ previous_id: '', items_added: 5, items_removed: 0, values_changed: 0, changes: [] })).toMatchObject({ first: true })
    expect(diffSummary({ previous_id: '2', items_added: 0, items_removed: 0, values_changed: 0, changes: [] })).toMatchObject({ first: false, same: true })
  })
})
