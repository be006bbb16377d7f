/**
 * What changed between two answers of one report (spec §2.8: `items` of `attributes` and
 * `metrics`): items are matched by their attributes; every metric that differs is listed, and
 * so is any other top-level member (`version`, `total_spot_num`, `date`).
 */
import { canonicalJson } from './store'

type Obj = Record<string, unknown>

export interface Change {
  attributes: Obj
  name: string
  before: unknown
  after: unknown
}

export interface ReportDiff {
  items_added: number
  items_removed: number
  values_changed: number
  /** At most `MAX_CHANGES` entries; the counts are complete. */
  changes: Change[]
}

export const MAX_CHANGES = 1000

const asObj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})

function itemsByKey(report: Obj): Map<string, { attributes: Obj; metrics: Obj }> {
  const out = new Map<string, { attributes: Obj; metrics: Obj }>()
  for (const it of Array.isArray(report.items) ? report.items : []) {
    const attributes = asObj(asObj(it).attributes)
    out.set(canonicalJson(attributes), { attributes, metrics: asObj(asObj(it).metrics) })
  }
  return out
}

function compareMembers(attributes: Obj, before: Obj, after: Obj, diff: ReportDiff, skip: ReadonlySet<string> = new Set()): void {
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (skip.has(name) || canonicalJson(before[name]) === canonicalJson(after[name])) continue
    diff.values_changed++
    if (diff.changes.length < MAX_CHANGES) diff.changes.push({ attributes, name, before: before[name] ?? null, after: after[name] ?? null })
  }
}

export function diffReports(beforeBody: unknown, afterBody: unknown): ReportDiff {
  const [before, after] = [asObj(beforeBody), asObj(afterBody)]
  const diff: ReportDiff = { items_added: 0, items_removed: 0, values_changed: 0, changes: [] }
  compareMembers({}, before, after, diff, new Set(['items']))
  const [old, now] = [itemsByKey(before), itemsByKey(after)]
  for (const [key, item] of now) {
    const was = old.get(key)
    if (was) compareMembers(item.attributes, was.metrics, item.metrics, diff)
    else diff.items_added++
  }
  for (const key of old.keys()) if (!now.has(key)) diff.items_removed++
  return diff
}
