/**
 * The summary of a panel's persons (GET /local/v1/panels/persons/summary, docs/panel.md) as
 * tables with names: tags by type with their share of the weight, and provinces. Pure.
 */
import type { ResultOf } from '../../../engine/contract/endpoints'
import { panelLabel } from '../utils/panel-name'

type Translate = (key: string, named?: Record<string, unknown>) => string

export type PanelSummary = ResultOf<'panels.persons_summary'>
export type PanelInfo = ResultOf<'panels.list'>[number]

export interface TagShareRow {
  tag_id: string
  tag_name: string
  persons: number
  weight: number
  /** Share of the panel's total weight, in percent with one decimal (0 for an empty panel). */
  share: number
}

export interface TagTypeGroup {
  type_id: string
  type_name: string
  rows: TagShareRow[]
  /** Persons of the panel carrying no tag of this type. */
  untagged: number
}

/**
 * Whether the summary is of the seeded synthetic population that reports read for a built-in
 * panel without imported persons (`synthetic: true`; docs/panel.md), rather than of real persons.
 */
export const isSynthetic = (summary: PanelSummary): boolean => summary.synthetic === true

/** Percent with one decimal. */
export const percent = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0)

/** The summary's tag counts grouped by tag type, in the panel's type order, with names. */
export function tagGroups(summary: PanelSummary, panel: PanelInfo | undefined): TagTypeGroup[] {
  const tagNames = new Map(panel?.tag_list.map((t) => [t.tag_id, t.tag_name]) ?? [])
  const order = panel?.type_list.map((t) => t.type_id) ?? []
  const typeNames = new Map(panel?.type_list.map((t) => [t.type_id, t.type_name]) ?? [])
  const ids = [...order.filter((id) => id in summary.by_type), ...Object.keys(summary.by_type).filter((id) => !order.includes(id))]
  return ids.map((type_id) => {
    const cells = summary.by_type[type_id] ?? []
    const rows = cells.map((c) => ({ tag_id: c.tag_id, tag_name: tagNames.get(c.tag_id) ?? c.tag_id, persons: c.persons, weight: c.weight, share: percent(c.weight, summary.weight_total) }))
    const tagged = cells.reduce((s, c) => s + c.persons, 0)
    return { type_id, type_name: typeNames.get(type_id) ?? type_id, rows, untagged: Math.max(0, summary.persons - tagged) }
  })
}

export interface ProvinceRow {
  region_id: string
  region_name: string
  persons: number
  weight: number
  share: number
}

/** Provinces where persons live, heaviest first, with names (the id when the name is unknown). */
export function provinceRows(summary: PanelSummary, names: ReadonlyMap<string, string>): ProvinceRow[] {
  return summary.by_region_level1
    .map((r) => ({ region_id: r.region_id, region_name: names.get(r.region_id) ?? r.region_id, persons: r.persons, weight: r.weight, share: percent(r.weight, summary.weight_total) }))
    .sort((a, b) => b.weight - a.weight || a.region_id.localeCompare(b.region_id))
}

/** Panels of every platform as select options, "name (id)" in the interface language (utils/panel-name.ts). */
export function panelOptions(panels: readonly PanelInfo[], t: Translate): { label: string; value: string }[] {
  return panels.map((p) => ({ label: panelLabel(p.panel_id, p.panel_name, t), value: p.panel_id }))
}
