/**
 * A report table of a snapshot beside the same table of local measurement
 * (docs/app.md "Reports: snapshot source"). Pure: works on the table model every view already
 * builds (table.ts), so the views need no change.
 *
 * - Columns: every column of the remote table, then those only the local table has. A text column
 *   (names, dates) or a context number (plan, rank: `Column.context`) stays one column, the remote
 *   row's value (else the local row's). A number column becomes three: the remote value (its own key),
 *   the local value (`<key>__local`) and the difference local − remote (`<key>__delta`).
 * - Rows are matched by their key (the key the table builders give: date, spot, region, tag...).
 *   A row only one side has keeps the other side empty (null) and says which side it is on
 *   (`only`); local-only rows are placed after the row that precedes them in the local table.
 */
import type { Cell, Column, TableData, TableRow } from './table'

export const LOCAL_SUFFIX = '__local'
export const DELTA_SUFFIX = '__delta'

/** Column titles of a compared table (translated by the caller). */
export interface CompareLabels {
  remote: (title: string) => string
  local: (title: string) => string
  delta: (title: string) => string
  /** The delta column's header tooltip (what it is the difference of). */
  deltaHint: (title: string, hint: string | undefined) => string
}

/** A row of a compared table. `only`: the side that has the row when the other has none. */
export interface ComparedRow extends TableRow {
  only?: 'remote' | 'local'
}

/** A compared table (a TableData: ReportTable shows and exports it as any other). */
export interface ComparedTable extends TableData {
  rows: ComparedRow[]
}

/** The difference local − remote of two number cells (null unless both are numbers), without float noise. */
export function cellDelta(remote: Cell, local: Cell): number | null {
  if (typeof remote !== 'number' || typeof local !== 'number') return null
  return Number((local - remote).toPrecision(12))
}

/** A figure of the answer, shown side by side (text and context columns are shown once). */
const compared = (c: Column): boolean => !!c.numeric && !c.context

/** The columns of both sides: the remote ones, then those only the local table has. */
function unionColumns(remote: readonly Column[], local: readonly Column[]): Column[] {
  const seen = new Set(remote.map((c) => c.key))
  return [...remote, ...local.filter((c) => !seen.has(c.key))]
}

/** The columns of the compared table. */
function comparedColumns(all: readonly Column[], l: CompareLabels): Column[] {
  return all.flatMap((c): Column[] => {
    if (!compared(c)) return [c]
    const hint = c.hint ? { hint: c.hint } : {}
    return [
      { key: c.key, title: l.remote(c.title), numeric: true, ...hint },
      { key: c.key + LOCAL_SUFFIX, title: l.local(c.title), numeric: true, ...hint },
      { key: c.key + DELTA_SUFFIX, title: l.delta(c.title), numeric: true, hint: l.deltaHint(c.title, c.hint) },
    ]
  })
}

/** The keys of both sides in display order: the remote order, local-only rows after their local predecessor. */
export function mergedKeys(remote: readonly string[], local: readonly string[]): string[] {
  const out = [...remote]
  const have = new Set(remote)
  let after: string | null = null
  for (const k of local) {
    if (!have.has(k)) {
      const at = after === null ? 0 : out.indexOf(after) + 1
      out.splice(at, 0, k)
      have.add(k)
    }
    after = k
  }
  return out
}

/** One compared row from the rows of both sides (either may be missing). */
function comparedRow(key: string, columns: readonly Column[], r: TableRow | undefined, o: TableRow | undefined): ComparedRow {
  const cells: Record<string, Cell> = {}
  const warn: Record<string, string> = {}
  for (const c of columns) {
    const rv = r?.cells[c.key] ?? null
    const lv = o?.cells[c.key] ?? null
    if (!compared(c)) {
      cells[c.key] = r ? rv ?? lv : lv
      continue
    }
    cells[c.key] = rv
    cells[c.key + LOCAL_SUFFIX] = lv
    cells[c.key + DELTA_SUFFIX] = cellDelta(rv, lv)
    if (r?.warn?.[c.key]) warn[c.key] = r.warn[c.key]!
    if (o?.warn?.[c.key]) warn[c.key + LOCAL_SUFFIX] = o.warn[c.key]!
  }
  for (const c of columns) if (!compared(c) && (r ?? o)?.warn?.[c.key]) warn[c.key] = (r ?? o)!.warn![c.key]!
  return { key, cells, ...(Object.keys(warn).length ? { warn } : {}), ...(!r ? { only: 'local' as const } : !o ? { only: 'remote' as const } : {}) }
}

/** The snapshot's table beside local measurement's (see the file comment). */
export function compareTables(remote: TableData, local: TableData, labels: CompareLabels): ComparedTable {
  const base = unionColumns(remote.columns, local.columns)
  const byRemote = new Map(remote.rows.map((r) => [r.key, r]))
  const byLocal = new Map(local.rows.map((r) => [r.key, r]))
  const keys = mergedKeys(remote.rows.map((r) => r.key), local.rows.map((r) => r.key))
  return {
    columns: comparedColumns(base, labels),
    rows: keys.map((k) => comparedRow(k, base, byRemote.get(k), byLocal.get(k))),
  }
}
