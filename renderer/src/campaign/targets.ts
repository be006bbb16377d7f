/**
 * Target audiences as tag expressions (spec §4.3 publish_target; docs/panel.md): tag ids joined
 * by `,` are any of (one tag type), groups joined by `&` are all of (across types). The builder
 * keeps a selection by tag type; groups follow the panel's type order, tags its tag order.
 */
import type { Panel, PanelSummary } from '../../../engine/contract/models'
import type { BasicReport } from '../../../engine/contract/models-reports'

/** Selected tag ids by tag type. */
export type Selection = Record<string, string[]>

export type ExpressionProblem =
  | { code: 'emptyGroup' }
  | { code: 'unknownTag'; tag: string }
  | { code: 'mixedTypes'; tags: string[] }
  | { code: 'typeTwice'; type: string }

const typeOfTag = (panel: Panel): Map<string, string> => new Map(panel.tag_list.map((t) => [t.tag_id, t.type_id]))

/** The expression of a selection ('' when nothing is selected). */
export function buildExpression(panel: Panel, selection: Selection): string {
  return panel.type_list
    .map((type) => {
      const chosen = new Set(selection[type.type_id] ?? [])
      return panel.tag_list.filter((t) => t.type_id === type.type_id && chosen.has(t.tag_id)).map((t) => t.tag_id).join(',')
    })
    .filter((g) => g !== '')
    .join('&')
}

/** The selection an expression stands for, and what the engine would refuse in it. */
export function parseExpression(text: string, panel: Panel): { selection: Selection; problems: ExpressionProblem[] } {
  const types = typeOfTag(panel)
  const selection: Selection = {}
  const problems: ExpressionProblem[] = []
  const trimmed = text.trim()
  if (trimmed === '') return { selection, problems }
  const used = new Set<string>()
  for (const group of trimmed.split('&')) {
    const tags = group.split(',').map((t) => t.trim()).filter((t) => t !== '')
    if (tags.length === 0) {
      problems.push({ code: 'emptyGroup' })
      continue
    }
    const known = tags.filter((t) => types.has(t))
    for (const tag of tags.filter((t) => !types.has(t))) problems.push({ code: 'unknownTag', tag })
    const groupTypes = [...new Set(known.map((t) => types.get(t)!))]
    if (groupTypes.length > 1) problems.push({ code: 'mixedTypes', tags })
    for (const type of groupTypes) {
      if (used.has(type)) problems.push({ code: 'typeTwice', type })
      used.add(type)
    }
    for (const tag of known) {
      const type = types.get(tag)!
      selection[type] = [...new Set([...(selection[type] ?? []), tag])]
    }
  }
  return { selection, problems: dedupe(problems) }
}

function dedupe(problems: ExpressionProblem[]): ExpressionProblem[] {
  const seen = new Set<string>()
  return problems.filter((p) => {
    const key = JSON.stringify(p)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** An expression in words: one group per type, with the panel's names (unknown ids as they are). */
export function describeExpression(text: string, panel: Panel): { type: string; tags: string[] }[] {
  const tagNames = new Map(panel.tag_list.map((t) => [t.tag_id, t.tag_name]))
  const types = typeOfTag(panel)
  const typeNames = new Map(panel.type_list.map((t) => [t.type_id, t.type_name]))
  return text.split('&').map((g) => g.split(',').map((t) => t.trim()).filter((t) => t !== '')).filter((g) => g.length > 0).map((tags) => {
    const type = types.get(tags[0]!)
    return { type: type === undefined ? '?' : (typeNames.get(type) ?? type), tags: tags.map((t) => tagNames.get(t) ?? t) }
  })
}

/**
 * The projected persons of a selection from the panel summary: exact (all persons, whatever
 * their devices) for one tag type; for several types the shares are multiplied, which assumes
 * the types are independent. Null when nothing is selected or the panel has no persons.
 */
export function estimateUniverse(summary: PanelSummary, selection: Selection): { value: number; exact: boolean } | null {
  const groups = Object.entries(selection).filter(([, tags]) => tags.length > 0)
  if (groups.length === 0 || summary.weight_total <= 0) return null
  let share = 1
  for (const [type, tags] of groups) {
    const chosen = new Set(tags)
    const weight = (summary.by_type[type] ?? []).filter((c) => chosen.has(c.tag_id)).reduce((s, c) => s + c.weight, 0)
    share *= weight / summary.weight_total
  }
  return { value: Math.round(summary.weight_total * share), exact: groups.length === 1 }
}

/** The global region id of the reports (docs/regions.md). */
export const GLOBAL_REGION = '0'.repeat(24)

/** Universe by target id from a reach (or basic) report by target audience, global region. */
export function universeByTarget(report: BasicReport): Map<string, number> {
  const out = new Map<string, number>()
  for (const item of report.items) {
    const a = item.attributes
    if (a.target_id === undefined || a.universe === null || a.universe === undefined) continue
    if (a.region_id === GLOBAL_REGION || !out.has(a.target_id)) out.set(a.target_id, a.universe)
  }
  return out
}
