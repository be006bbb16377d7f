/**
 * The diff of a report snapshot against the previous one (sync.snapshots_show, docs/sync.md
 * "Report snapshots") as table rows: where (the item's attributes, or the report itself), which
 * value, before, after and the difference. Pure.
 */
import type { ResultOf } from '../../../engine/contract/endpoints'
import type { ExportColumn } from '../utils/export'

export type SnapshotShow = ResultOf<'sync.snapshots_show'>
export type SnapshotDiff = SnapshotShow['diff']
export type Snapshot = SnapshotShow['snapshot']

/** One changed value. */
export interface DiffRow {
  key: string
  /** "audience=overall · spot_id=12"; '' for a top-level member (version, total_spot_num). */
  where: string
  name: string
  before: string
  after: string
  /** after − before with its sign ("+4", "−0.25"); '' when either is not a number. */
  delta: string
  direction: 'up' | 'down' | 'none'
  /** The values as the answers hold them, and after − before when both are numbers: what an export writes. */
  raw: { before: unknown; after: unknown; delta: number | null }
}

/** A value as an export writes it: a number as it is, text as it is, none as empty, lists and objects as JSON. */
const exported = (v: unknown): string | number | null => (v === null || v === undefined ? null : typeof v === 'number' || typeof v === 'string' ? v : JSON.stringify(v))

/**
 * The columns of the diff's export: the answers' own values and a numeric change (not the table's
 * text: its thousands separators and four decimals make a small change "+0", and its minus sign
 * is one a spreadsheet reads as text).
 */
export function diffExportColumns(title: (column: 'where' | 'name' | 'before' | 'after' | 'delta') => string): ExportColumn<DiffRow>[] {
  return [
    { title: title('where'), value: (r) => r.where },
    { title: title('name'), value: (r) => r.name },
    { title: title('before'), value: (r) => exported(r.raw.before) },
    { title: title('after'), value: (r) => exported(r.raw.after) },
    { title: title('delta'), value: (r) => r.raw.delta },
  ]
}

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 })

/** A value as the table shows it: numbers plainly, null as a dash, lists and objects as JSON. */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return '—'
  if (typeof v === 'number') return Number.isFinite(v) ? NUMBER.format(v) : String(v)
  if (typeof v === 'string') return v === '' ? '""' : v
  if (typeof v === 'boolean') return String(v)
  return JSON.stringify(v)
}

const asAttributes = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {})

/** The item's attributes, sorted by name, but those in `omit`: "audience=overall · spot_id=12" ('' for none). */
export function attributesLabel(attributes: unknown, omit: ReadonlySet<string> = new Set()): string {
  return Object.entries(asAttributes(attributes))
    .filter(([k]) => !omit.has(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${formatValue(v)}`)
    .join(' · ')
}

const asNumber = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/** The signed difference of two numbers, '' otherwise. */
export function deltaOf(before: unknown, after: unknown): { delta: string; direction: DiffRow['direction'] } {
  const [b, a] = [asNumber(before), asNumber(after)]
  if (b === null || a === null) return { delta: '', direction: 'none' }
  const d = Math.round((a - b) * 1e6) / 1e6
  if (d === 0) return { delta: '0', direction: 'none' }
  return { delta: `${d > 0 ? '+' : '−'}${NUMBER.format(Math.abs(d))}`, direction: d > 0 ? 'up' : 'down' }
}

/**
 * Attributes every changed item shares (audience=overall when all are overall), when the changes
 * concern two items or more: said once above the table rather than on every row.
 */
export function commonAttributes(diff: SnapshotDiff): Record<string, unknown> {
  const items = diff.changes.map((c) => asAttributes(c.attributes)).filter((a) => Object.keys(a).length > 0)
  if (new Set(items.map((a) => attributesLabel(a))).size < 2) return {}
  const [first, ...rest] = items
  return Object.fromEntries(Object.entries(first!).filter(([k, v]) => rest.every((a) => k in a && formatValue(a[k]) === formatValue(v))))
}

/** The diff's changes as rows, top-level members first, then items in the engine's order; `omit`: attributes not repeated. */
export function diffRows(diff: SnapshotDiff, omit: ReadonlySet<string> = new Set()): DiffRow[] {
  const rows = diff.changes.map((c, i) => ({
    key: String(i), where: attributesLabel(c.attributes, omit), name: c.name,
    before: formatValue(c.before), after: formatValue(c.after), ...deltaOf(c.before, c.after),
    raw: { before: c.before, after: c.after, delta: typeof c.before === 'number' && typeof c.after === 'number' ? Math.round((c.after - c.before) * 1e9) / 1e9 : null },
  }))
  return [...rows.filter((r) => r.where === ''), ...rows.filter((r) => r.where !== '')]
}

/** What the diff says as a whole: the counts, and whether the list of changes was cut short. */
export function diffSummary(diff: SnapshotDiff): { first: boolean; same: boolean; added: number; removed: number; changed: number; shown: number; truncated: boolean } {
  const { items_added: added, items_removed: removed, values_changed: changed } = diff
  return {
    first: diff.previous_id === '', same: added + removed + changed === 0,
    added, removed, changed, shown: diff.changes.length, truncated: diff.changes.length < changed,
  }
}
