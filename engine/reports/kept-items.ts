/**
 * The items text of basic/show's census rows, kept with the store of their cells' text
 * (kept-bytes.ts), so that an answer after events that changed no cell of the census (a hit
 * outside the window, or of another spot) is the kept text as it is, with no row looked at; and
 * after events that changed cells but made none newly counted, the kept list of cells is written
 * again (the changed cells' items written, the others' kept text shared), with no row ordered or
 * filtered. An answer ordered by a value, with rows without data (with_null) or with new cells
 * is made as ever (docs/measurement.md, "Kept answer text").
 */
import type { ReportItem } from '../contract/models-reports'
import type { CensusResult } from './census'
import { CellRow, cellItemsText, itemsText, type CellRows } from './items'
import type { KeptItems } from './kept-bytes'

/**
 * The items text of an answer of census result `r` whose rows are `rows` (cells of `nR` region
 * cells): the kept one while still valid, else made by `make` (the rows ordered and filtered, as
 * finish() gives them), and kept. `inCellOrder`: the items come in cell order whatever the counts
 * (no order by a value and no rows without data), so a later answer may follow the same cells.
 */
export function censusItems(r: CensusResult, rows: CellRows, nR: number, key: string, inCellOrder: boolean, make: () => ReportItem[]): KeptItems {
  const store = rows.kept
  const kept = store.items
  if (kept && kept.key === key && kept.newCells === r.newCells) {
    if (kept.changes === r.changes) return kept
    if (kept.cells) return keep(rows, r, key, cellItemsText(rows, kept.cells, nR), kept.cells.length, kept.cells)
  }
  const items = make()
  const cells = inCellOrder && items.every((it) => (it as unknown) instanceof CellRow) ? Int32Array.from(items, (it) => (it as unknown as CellRow).cell) : null
  return keep(rows, r, key, itemsText(items), items.length, cells)
}

function keep(rows: CellRows, r: CensusResult, key: string, pieces: readonly Uint8Array[], count: number, cells: Int32Array | null): KeptItems {
  const made: KeptItems = { key, changes: r.changes, newCells: r.newCells, pieces, rows: count, cells }
  rows.kept.items = made
  return made
}
