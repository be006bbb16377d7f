// renderer/src/reports/compare.ts: a snapshot's report table beside local measurement's
import { describe, expect, it } from 'vitest'
import { cellDelta, compareTables, mergedKeys, type CompareLabels } from '../../../renderer/src/reports/compare'
import { contextColumn, numberColumn, textColumn, type TableData } from '../../../renderer/src/reports/table'

const labels: CompareLabels = {
  remote: (x) => `${x} (remote)`,
  local: (x) => `${x} (local)`,
  delta: () => 'Δ',
  deltaHint: (x, h) => `${h ?? x}: local − remote`,
}

const table = (rows: [string, string, number | null, number | null][], extra = false): TableData => ({
  columns: [
    { key: 'date', title: 'Date' },
    { key: 'imp_day', title: 'Impressions', numeric: true, hint: 'imp_day' },
    { key: 'clk_day', title: 'Clicks', numeric: true },
    ...(extra ? [{ key: 'uim_day', title: 'Reach', numeric: true }] : []),
  ],
  rows: rows.map(([key, date, imp, clk]) => ({ key, cells: { date, imp_day: imp, clk_day: clk, ...(extra ? { uim_day: 7 } : {}) } })),
})

describe('cellDelta', () => {
  it('is local − remote for two numbers, else null', () => {
    expect(cellDelta(100, 130)).toBe(30)
    expect(cellDelta(130, 100)).toBe(-30)
    expect(cellDelta(0.1, 0.3)).toBe(0.2)
    expect(cellDelta(null, 3)).toBeNull()
    expect(cellDelta(3, null)).toBeNull()
    expect(cellDelta('x', 3)).toBeNull()
  })
})

describe('mergedKeys', () => {
  it('keeps the remote order and puts local-only keys after their local predecessor', () => {
    expect(mergedKeys(['a', 'c', 'd'], ['a', 'b', 'c', 'e'])).toEqual(['a', 'b', 'c', 'e', 'd'])
    expect(mergedKeys(['b'], ['a', 'b'])).toEqual(['a', 'b'])
    expect(mergedKeys([], ['x', 'y'])).toEqual(['x', 'y'])
    expect(mergedKeys(['x'], [])).toEqual(['x'])
  })
})

describe('compareTables', () => {
  const remote = table([['d1', '2025-01-01', 100, 5], ['d2', '2025-01-02', 200, null], ['d4', '2025-01-04', 50, 1]])
  const local = table([['d1', '2025-01-01', 110, 5], ['d2', '2025-01-02', 190, 3], ['d3', '2025-01-03', 7, 0]])
  const out = compareTables(remote, local, labels)

  it('turns every number column into remote, local and Δ, and keeps text columns once', () => {
    expect(out.columns.map((c) => [c.key, c.title])).toEqual([
      ['date', 'Date'],
      ['imp_day', 'Impressions (remote)'], ['imp_day__local', 'Impressions (local)'], ['imp_day__delta', 'Δ'],
      ['clk_day', 'Clicks (remote)'], ['clk_day__local', 'Clicks (local)'], ['clk_day__delta', 'Δ'],
    ])
    expect(out.columns.every((c) => c.key === 'date' || c.numeric)).toBe(true)
    expect(out.columns[1]!.hint).toBe('imp_day')
    expect(out.columns[3]!.hint).toBe('imp_day: local − remote')
    expect(out.columns[6]!.hint).toBe('Clicks: local − remote')
  })

  it('matches rows by key and puts rows of one side only with the other side empty', () => {
    expect(out.rows.map((r) => r.key)).toEqual(['d1', 'd2', 'd3', 'd4'])
    expect(out.rows[0]).toEqual({ key: 'd1', cells: { date: '2025-01-01', imp_day: 100, imp_day__local: 110, imp_day__delta: 10, clk_day: 5, clk_day__local: 5, clk_day__delta: 0 } })
    expect(out.rows[1]!.cells).toMatchObject({ imp_day__delta: -10, clk_day: null, clk_day__local: 3, clk_day__delta: null })
    expect(out.rows[2]).toMatchObject({ only: 'local', cells: { date: '2025-01-03', imp_day: null, imp_day__local: 7, imp_day__delta: null } })
    expect(out.rows[3]).toMatchObject({ only: 'remote', cells: { date: '2025-01-04', imp_day: 50, imp_day__local: null, imp_day__delta: null } })
  })

  it('adds the columns only the local table has, and keeps both sides\' warnings', () => {
    const r: TableData = { ...remote, rows: [{ ...remote.rows[0]!, warn: { imp_day: 'small' } }] }
    const l: TableData = { ...table([['d1', '2025-01-01', 1, 1]], true), rows: [{ key: 'd1', cells: { date: 'x', imp_day: 1, clk_day: 1, uim_day: 7 }, warn: { imp_day: 'tiny' } }] }
    const c = compareTables(r, l, labels)
    expect(c.columns.map((x) => x.key).slice(-3)).toEqual(['uim_day', 'uim_day__local', 'uim_day__delta'])
    expect(c.rows[0]!.cells).toMatchObject({ date: '2025-01-01', uim_day: null, uim_day__local: 7 })
    expect(c.rows[0]!.warn).toEqual({ imp_day: 'small', imp_day__local: 'tiny' })
  })

  it('shows context numbers (plan, rank) once, from the remote row else the local one', () => {
    const cols = (rows: [string, number, number][]): TableData => ({
      columns: [contextColumn('rank', 'Rank'), textColumn('region', 'Region'), numberColumn('imp', 'Impressions')],
      rows: rows.map(([key, rank, imp]) => ({ key, cells: { rank, region: key, imp } })),
    })
    const c = compareTables(cols([['bj', 1, 90], ['sh', 2, 80]]), cols([['sh', 1, 95], ['gz', 2, 70]]), labels)
    expect(c.columns.map((x) => x.key)).toEqual(['rank', 'region', 'imp', 'imp__local', 'imp__delta'])
    expect(c.rows.map((r) => [r.key, r.cells.rank, r.cells.imp, r.cells.imp__local, r.cells.imp__delta])).toEqual([
      ['bj', 1, 90, null, null], ['sh', 2, 80, 95, 15], ['gz', 2, null, 70, null],
    ])
  })

  it('compares an empty remote table (no snapshot) with the local rows', () => {
    const c = compareTables({ columns: [], rows: [] }, local, labels)
    expect(c.columns).toHaveLength(7)
    expect(c.rows.map((r) => [r.key, r.only, r.cells.imp_day, r.cells.imp_day__local])).toEqual([['d1', 'local', null, 110], ['d2', 'local', null, 190], ['d3', 'local', null, 7]])
  })
})
