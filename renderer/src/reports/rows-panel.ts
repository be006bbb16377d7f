/**
 * Panel views (reach curve, audience overview and composition): report items to curves, bars and
 * table rows. A figure resting on fewer than 300 panel persons is flagged (docs/metrics.md:
 * "figures resting on fewer than 300 persons are unreliable"): reach by its `rch_spl_pNN`, audience
 * and target figures by the item's `base` (the unweighted panel persons behind its uim and ucl
 * figures), else by the position's `uim_spl` / `ucl_spl`. `flagSmall` marks the cells of all of them.
 */
import { metricNames } from '../../../engine/contract/metrics-catalogue'
import type { ReportItem } from '../../../engine/contract/models-reports'
import { rowLabel, type Names } from './names'
import { metricColumn, numberColumn, textColumn, type Column, type TableData, type TableRow, type Translate } from './table'

/** Below this many panel persons a figure is unreliable. */
export const SMALL_SAMPLE = 300

/** The reach frequencies 1+ to 10+ as metric suffixes. */
export const FREQUENCIES = Array.from({ length: 10 }, (_, i) => `p${String(i + 1).padStart(2, '0')}`)

/** Whether a sample size is too small to trust (a null sample is not flagged: nothing rests on it). */
export const isSmall = (sample: number | null | undefined): boolean => typeof sample === 'number' && sample < SMALL_SAMPLE

/** One reach curve: a report row. */
export interface ReachCurve {
  key: string
  label: string
  universe: number | null
  grp: number | null
  imp: number | null
  reach: (number | null)[]
  sample: (number | null)[]
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null)

/** A curve per report row, labelled with its target, position and region. */
export function reachCurves(items: readonly ReportItem[], names: Names): ReachCurve[] {
  return items.map((i, k) => ({
    key: `${k}`,
    label: rowLabel(i.attributes, names) || '—',
    universe: num(i.attributes.universe),
    grp: num(i.metrics.grp_acc),
    imp: num(i.metrics.imp_acc),
    reach: FREQUENCIES.map((f) => num(i.metrics[`rch_acc_${f}`])),
    sample: FREQUENCIES.map((f) => num(i.metrics[`rch_spl_${f}`])),
  }))
}

/** The frequencies whose sample is small, per curve label (for the warning above the chart). */
export function smallSamples(curves: readonly ReachCurve[]): { label: string; from: number; sample: number }[] {
  const out: { label: string; from: number; sample: number }[] = []
  for (const c of curves) {
    const i = c.sample.findIndex(isSmall)
    if (i >= 0) out.push({ label: c.label, from: i + 1, sample: c.sample[i]! })
  }
  return out
}

/** The i18n key of a sample count: the singular for one person ("1 person", not "1 persons"). */
export const personsKey = (key: string, sample: number): string => (sample === 1 ? `${key}One` : key)

/** The panel persons an item's uim and ucl figures rest on (its `base` member), or null when it has none. */
export function baseOf(item: ReportItem): { uim: number | null; ucl: number | null } | null {
  return item.base ? { uim: num(item.base.uim), ucl: num(item.base.ucl) } : null
}

/**
 * Flags the cells named in `targets[i]` (keys joined by '|') where `samples[i]` is small, each with
 * the reason on hover; undefined when none is.
 */
export function flagSmall(t: Translate, samples: (number | null)[], targets: string[]): Record<string, string> | undefined {
  const warn: Record<string, string> = {}
  samples.forEach((sample, i) => {
    if (isSmall(sample)) for (const k of targets[i]!.split('|')) warn[k] = t(personsKey('reports.warn.cell', sample!), { sample: sample!, min: SMALL_SAMPLE })
  })
  return Object.keys(warn).length ? warn : undefined
}

/** The reach table: a row per report row: universe, impressions, GRP, reach 1+..10+, samples 1+..10+. */
export function reachTable(curves: readonly ReachCurve[], t: Translate): TableData {
  const columns: Column[] = [
    textColumn('row', t('reports.col.row')), numberColumn('universe', t('reports.col.universe'), 'universe'),
    metricColumn(t, 'imp_acc'), metricColumn(t, 'grp_acc'),
    ...FREQUENCIES.map((f) => metricColumn(t, `rch_acc_${f}`)), ...FREQUENCIES.map((f) => metricColumn(t, `rch_spl_${f}`)),
  ]
  const rows: TableRow[] = curves.map((c) => {
    const cells: TableRow['cells'] = { row: c.label, universe: c.universe, imp_acc: c.imp, grp_acc: c.grp }
    FREQUENCIES.forEach((f, i) => { cells[`rch_acc_${f}`] = c.reach[i] ?? null; cells[`rch_spl_${f}`] = c.sample[i] ?? null })
    const warn = flagSmall(t, c.sample, FREQUENCIES.map((f) => `rch_acc_${f}|rch_spl_${f}`))
    return { key: c.key, cells, ...(warn ? { warn } : {}) }
  })
  return { columns, rows }
}

const positionLabel = (i: ReportItem, n: Names) => rowLabel(i.attributes, n, { position: true })

/** The persons an overview item's figures rest on: its base, else its samples. */
function itemSamples(i: ReportItem): { uim: number | null; ucl: number | null } {
  const base = baseOf(i)
  return { uim: base?.uim ?? num(i.metrics.uim_spl), ucl: base?.ucl ?? num(i.metrics.ucl_spl) }
}

/** The audience overview table: a row per panel and position, samples flagged when small. */
export function overviewTable(items: readonly ReportItem[], names: Names, t: Translate): TableData {
  const columns: Column[] = [
    textColumn('panel_id', t('reports.col.panel')), textColumn('position', t('reports.col.position')),
    ...metricNames('audience_overview').map((m) => metricColumn(t, m)),
  ]
  const rows: TableRow[] = items.map((i, k) => {
    const m = i.metrics
    const s = itemSamples(i)
    const warn = flagSmall(t, [s.uim, s.ucl], ['uim_acc|uim_spl', 'ucl_acc|ucl_spl'])
    return {
      key: String(k),
      cells: { panel_id: i.attributes.panel_id ?? '', position: positionLabel(i, names) || t('reports.position.campaign'), uim_acc: num(m.uim_acc), ucl_acc: num(m.ucl_acc), uim_spl: num(m.uim_spl), ucl_spl: num(m.ucl_spl) },
      ...(warn ? { warn } : {}),
    }
  })
  return { columns, rows }
}

/** One bar group of the composition chart: a position's tags. */
export interface CompositionSeries {
  key: string
  label: string
  pct: (number | null)[]
  idx: (number | null)[]
  /** Per tag, whether the figures rest on fewer persons than SMALL_SAMPLE (drawn in the warning colour). */
  small?: boolean[]
}

/** The key of a panel and position, shared by the overview's and the composition's rows. */
const positionKey = (a: ReportItem['attributes']) => `${a.panel_id ?? ''}|${a.publisher_id ?? ''}|${a.spot_id ?? ''}`

/** Tag ids in panel order (type, then tag), those without a known type last. */
export function tagOrder(items: readonly ReportItem[], names: Names, panelTags: readonly string[]): string[] {
  const seen = [...new Set(items.map((i) => i.attributes.tag_id ?? '').filter((x) => x))]
  const rank = (id: string) => { const r = panelTags.indexOf(id); return r < 0 ? panelTags.length : r }
  return seen.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
}

/**
 * Composition (pct) and index (idx) per tag, one series per position, for `uim` or `ucl`; a tag's
 * figures are small when its item's base (else the position's sample in `samples`) is.
 */
export function composition(items: readonly ReportItem[], tags: readonly string[], measure: 'uim' | 'ucl', names: Names, samples?: PositionSamples): CompositionSeries[] {
  const byPos = new Map<string, ReportItem[]>()
  for (const i of items) {
    const k = positionKey(i.attributes)
    byPos.set(k, [...(byPos.get(k) ?? []), i])
  }
  return [...byPos].map(([key, list]) => {
    const of = (tag: string) => list.find((i) => i.attributes.tag_id === tag)
    const small = (tag: string) => isSmall(tagSamples(of(tag), samples)[measure])
    return { key, label: positionLabel(list[0]!, names), pct: tags.map((g) => num(of(g)?.metrics[`${measure}_pct`])), idx: tags.map((g) => num(of(g)?.metrics[`${measure}_idx`])), small: tags.map(small) }
  })
}

/** The persons behind each panel and position's figures (reached, clicking), by positionKey. */
export type PositionSamples = ReadonlyMap<string, { uim: number | null; ucl: number | null }>

/** The samples behind each panel and position (persons reached, persons clicking), from the overview. */
export function positionSamples(overview: readonly ReportItem[]): Map<string, { uim: number | null; ucl: number | null }> {
  return new Map(overview.map((i) => [positionKey(i.attributes), itemSamples(i)]))
}

/** The persons a composition item's figures rest on: its own base, else its position's samples. */
function tagSamples(i: ReportItem | undefined, samples?: PositionSamples): { uim: number | null; ucl: number | null } {
  if (!i) return { uim: null, ucl: null }
  const base = baseOf(i)
  const position = samples?.get(positionKey(i.attributes))
  return { uim: base?.uim ?? position?.uim ?? null, ucl: base?.ucl ?? position?.ucl ?? null }
}

/**
 * The composition table: a row per report row (panel, position, tag type, tag) with its four
 * figures; shares and indexes resting on fewer than SMALL_SAMPLE persons (the row's base, else the
 * sample of its position in `samples`, from the overview) are flagged as the overview's are.
 */
export function compositionTable(items: readonly ReportItem[], names: Names, t: Translate, samples?: PositionSamples): TableData {
  const columns: Column[] = [
    textColumn('panel_id', t('reports.col.panel')), textColumn('position', t('reports.col.position')),
    textColumn('type', t('reports.col.tagType')), textColumn('tag', t('reports.col.tag')), textColumn('tag_id', 'tag_id'),
    ...['uim_pct', 'uim_idx', 'ucl_pct', 'ucl_idx'].map((m) => metricColumn(t, m)),
  ]
  const rows: TableRow[] = items.map((i, k) => {
    const tag = i.attributes.tag_id ?? ''
    const m = i.metrics
    const sample = tagSamples(i, samples)
    const warn = flagSmall(t, [sample.uim, sample.ucl], ['uim_pct|uim_idx', 'ucl_pct|ucl_idx'])
    return { key: String(k), cells: { panel_id: i.attributes.panel_id ?? '', position: positionLabel(i, names) || t('reports.position.campaign'), type: names.typeName(names.tagType(tag)), tag: names.tag(tag), tag_id: tag, uim_pct: num(m.uim_pct), uim_idx: num(m.uim_idx), ucl_pct: num(m.ucl_pct), ucl_idx: num(m.ucl_idx) }, ...(warn ? { warn } : {}) }
  })
  return { columns, rows }
}

/** The overview's bars: a label per panel and position, persons reached and clicking, samples. */
export function overviewBars(items: readonly ReportItem[], names: Names, t: Translate): { label: string; uim: number | null; ucl: number | null; uimSample: number | null; uclSample: number | null }[] {
  const panels = new Set(items.map((i) => i.attributes.panel_id)).size
  return items.map((i) => {
    const pos = positionLabel(i, names) || t('reports.position.campaign')
    const s = itemSamples(i)
    return {
      label: panels > 1 ? `${pos} · ${i.attributes.panel_id ?? ''}` : pos,
      uim: num(i.metrics.uim_acc), ucl: num(i.metrics.ucl_acc), uimSample: s.uim, uclSample: s.ucl,
    }
  })
}
