// The items text kept with a census store (kept-items.ts): as it was while no cell changed, written
// again from the kept list of cells while no cell became counted, made afresh otherwise; every
// text equal to JSON.stringify of the items computed here from the values alone.
import { describe, expect, it } from 'vitest'
import type { ReportAttributes, ReportItem } from '../../../engine/contract/models-reports'
import type { CensusResult } from '../../../engine/reports/census'
import { CellRow, LazyMetrics, itemRoom, type CellRows } from '../../../engine/reports/items'
import { cellBytes } from '../../../engine/reports/kept-bytes'
import { censusItems } from '../../../engine/reports/kept-items'
import { prng } from '../../helpers/prng'

const NAMES = ['imp_acc', 'clk_acc', 'uim_acc']
const NR = 7
const text = (parts: readonly Uint8Array[]) => Buffer.concat(parts).toString('utf8')
const attrs = (i: number, c: number) => ({ audience: 'overall', spot_id: String(i), region_id: `r${c}`, universe: 0 }) as ReportAttributes

describe('censusItems', () => {
  it('answers the kept text, the kept cells written again, or made items, each the items of the current counts', () => {
    const rng = prng(9)
    const n = 40 * NR
    const r = { nCells: n, rev: new Uint32Array(n), seen: new Uint8Array(n), changes: 0, newCells: 0 } as unknown as CensusResult
    const values = Array.from({ length: n }, () => NAMES.map(() => Math.floor(rng() * 1e6)))
    for (let c = 0; c < n; c++) r.seen[c] = rng() < 0.7 ? 1 : 0
    const rows: CellRows = {
      attributes: attrs,
      metrics: (cell) => new LazyMetrics(NAMES, (k) => values[cell]![k]!),
      kept: cellBytes(r, 'k'),
      room: itemRoom(NAMES),
    }
    const seenCells = () => Array.from({ length: n }, (_, c) => c).filter((c) => r.seen[c] === 1)
    // the truth: the seen cells' items as records, in cell order or by imp_acc descending
    const truth = (byValue: boolean) => {
      const cells = seenCells()
      if (byValue) cells.sort((a, b) => values[b]![0]! - values[a]![0]! || a - b)
      return JSON.stringify(cells.map((c) => ({ attributes: attrs(Math.floor(c / NR), c % NR), metrics: Object.fromEntries(NAMES.map((m, k) => [m, values[c]![k]!])) })))
    }
    let made = 0
    const make = (byValue: boolean) => () => {
      made++
      const cells = seenCells()
      if (byValue) cells.sort((a, b) => values[b]![0]! - values[a]![0]! || a - b)
      return cells.map((c) => new CellRow(rows, Math.floor(c / NR), c % NR, c)) as unknown as ReportItem[]
    }
    for (let round = 0; round < 40; round++) {
      const change = round % 4
      // 0: nothing; 1: values of counted cells; 2: a cell counted for the first time; 3: both
      if (change & 1) for (let k = 0; k < 3; k++) {
        const c = seenCells()[Math.floor(rng() * seenCells().length)]!
        values[c]![Math.floor(rng() * NAMES.length)] = Math.floor(rng() * 1e6)
        r.rev[c]!++
        r.changes++
      }
      if (change & 2) {
        const c = Array.from({ length: n }, (_, x) => x).find((x) => r.seen[x] === 0)!
        r.seen[c] = 1
        r.rev[c]!++
        r.changes++
        r.newCells++
      }
      const byValue = Math.floor(round / 10) % 2 === 1
      const before = made
      const kept = censusItems(r, rows, NR, JSON.stringify(byValue), !byValue, make(byValue))
      expect(text(kept.pieces), `round ${round}`).toBe(truth(byValue))
      expect(kept.rows).toBe(seenCells().length)
      // made afresh only for a new key (the order changes at rounds 0, 10, 20, 30), a newly
      // counted cell, or changed values when the order follows them
      const fresh = round % 10 === 0 || change >= 2 || (byValue && change === 1)
      expect(made - before, `round ${round}`).toBe(fresh ? 1 : 0)
    }
  })
})
