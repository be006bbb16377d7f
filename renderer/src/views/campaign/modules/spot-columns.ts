/** Columns of the spots table (list_spots with show_plan=1 and show_filtration_status=1), actions last. */
import { NButton, NSpace, NText, type DataTableColumns } from 'naive-ui'
import { h } from 'vue'
import { rowActionName } from '../../../a11y/rules'
import type { ListSpot } from '../../../../../engine/contract/models'
import { planSummary } from '../../../campaign/plan'
import { CHOICES } from '../../../campaign/spot-fields'
import { formatNumberIn } from '../../../i18n/numbers'

export interface SpotActions {
  edit: (s: ListSpot) => void
  keywords: (s: ListSpot) => void
  plan: (s: ListSpot) => void
  remove: (s: ListSpot) => void
}

type T = (key: string, params?: Record<string, unknown>) => string

/** The interface label of an enumerated value (placement_type, report_metrics), else the value. */
function choiceLabel(field: 'placement_type' | 'report_metrics', value: string, t: T): string {
  const c = CHOICES[field]?.find((x) => x.value === value)
  return c ? t(c.label) : value
}

const dash = (s: string | undefined): string => (s === undefined || s.trim() === '' ? '—' : s)

/** A plan's first and last day, without the year when both are of the same one (the whole dates on hover). */
const shortDays = (first: string, last: string): [string, string] => (first.slice(0, 4) === last.slice(0, 4) ? [first.slice(5), last.slice(5)] : [first, last])

function planCell(s: ListSpot, t: T, locale: string) {
  const p = planSummary(s.spot_plan ?? [])
  if (p.days === 0 || !p.first || !p.last) return h(NText, { depth: 3 }, { default: () => t('campaign.spots.planNone') })
  const [first, last] = shortDays(p.first, p.last)
  return h('div', { class: 'plan-cell', title: t('campaign.spots.planDays', { days: p.days, first: p.first, last: p.last }) }, [
    h('div', t('campaign.spots.planDays', { days: p.days, first, last })),
    h(NText, { depth: 3 }, { default: () => t('campaign.spots.planTotals', { imp: formatNumberIn(p.est_impression, locale), clk: formatNumberIn(p.est_click, locale) }) }),
  ])
}

function actions(s: ListSpot, t: T, a: SpotActions) {
  const btn = (key: string, test: string, fn: (s: ListSpot) => void, type: 'default' | 'error' = 'default') =>
    h(NButton, { size: 'tiny', quaternary: true, type, 'data-test': test, 'aria-label': rowActionName(t(`campaign.spots.${key}`), `${s.publisher_name} ${s.placement_name} ${s.spot_id_str}`), onClick: () => fn(s) }, { default: () => t(`campaign.spots.${key}`) })
  return h(NSpace, { size: 2, wrap: false }, {
    default: () => [btn('edit', 'spot-edit', a.edit), btn('keywords', 'spot-keywords', a.keywords), btn('plan', 'spot-plan', a.plan), btn('delete', 'spot-delete', a.remove, 'error')],
  })
}

/** The columns, in the interface language (`locale`: numbers, composables/use-number-locale.ts). */
export function spotColumns(t: T, locale: string, a: SpotActions): DataTableColumns<ListSpot> {
  const text = (key: keyof ListSpot, title: string, minWidth: number) => ({
    key, title, minWidth, ellipsis: { tooltip: true }, render: (s: ListSpot) => dash(String(s[key] ?? '')),
  })
  // Widths that fit a laptop screen (1440 px) without scrolling sideways: every column has its
  // width but the placement, which takes the room left (a table of fixed layout shares the room
  // among columns without a width, whatever their least width).
  return [
    { key: 'spot_id', title: t('campaign.spots.col.spot'), width: 80, ellipsis: { tooltip: true }, sorter: (a, b) => Number(a.spot_id) - Number(b.spot_id), render: (s) => h('span', [s.spot_id, h(NText, { depth: 3 }, { default: () => ` · ${s.spot_id_str}` })]) },
    { ...text('publisher_name', t('campaign.spots.col.publisher'), 120), width: 120, sorter: (a, b) => a.publisher_name.localeCompare(b.publisher_name) },
    { ...text('channel_name', t('campaign.spots.col.channel'), 80), width: 80 },
    text('placement_name', t('campaign.spots.col.placement'), 80),
    { key: 'placement_type', title: t('campaign.spots.col.type'), width: 70, render: (s) => choiceLabel('placement_type', s.placement_type, t) },
    { ...text('adposition_type', t('campaign.spots.col.adposition'), 80), width: 80 },
    { key: 'report_metrics', title: t('campaign.spots.col.metrics'), width: 90, ellipsis: { tooltip: true }, render: (s) => choiceLabel('report_metrics', s.report_metrics, t) },
    { key: 'keyword', title: t('campaign.spots.col.keywords'), width: 104, align: 'right', sorter: (a, b) => a.keyword.length - b.keyword.length, render: (s) => String(s.keyword.length) },
    { key: 'spot_plan', title: t('campaign.spots.col.plan'), width: 160, render: (s) => planCell(s, t, locale) },
    { key: 'dangerous_source_filtration', title: t('campaign.spots.col.filtration'), width: 86, render: (s) => (s.dangerous_source_filtration === undefined ? '—' : t(s.dangerous_source_filtration ? 'campaign.spots.on' : 'campaign.spots.off')) },
    { key: 'actions', title: t('campaign.spots.col.actions'), width: 214, fixed: 'right', render: (s) => actions(s, t, a) },
  ]
}

/** Sum of the columns' widths (least widths where they grow), for scrolling sideways in a narrower window. */
export const SPOTS_SCROLL_X = 1164
