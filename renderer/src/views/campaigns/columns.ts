/** Columns of the campaign table: sortable where campaigns.list can order (spec §4.2), actions last. */
import { NButton, NSpace, NTag, type DataTableColumns, type DataTableSortOrder } from 'naive-ui'
import { h } from 'vue'
import type { Campaign } from '../../../../engine/contract/models'
import { rowActionName } from '../../a11y/rules'
import { STATUS_TAG_TYPE, campaignStatus, type ListSort, type OrderField } from '../../campaigns/list-query'

export interface ColumnActions {
  edit: (c: Campaign) => void
  reports: (c: Campaign) => void
  remove: (c: Campaign) => void
}

export interface ColumnContext {
  t: (key: string, params?: Record<string, unknown>) => string
  sort: ListSort | null
  today: string | null
  actions: ColumnActions
}

const dash = (s: string): string => (s.trim() === '' ? '—' : s)

function sortOrder(sort: ListSort | null, key: OrderField): DataTableSortOrder {
  if (!sort || sort.field !== key) return false
  return sort.dir === 'asc' ? 'ascend' : 'descend'
}

function actionButtons(c: Campaign, ctx: ColumnContext) {
  const stop = (fn: (c: Campaign) => void) => (e: MouseEvent) => {
    e.stopPropagation()
    fn(c)
  }
  const btn = (label: string, test: string, fn: (c: Campaign) => void, type: 'default' | 'error' = 'default') =>
    h(NButton, { size: 'tiny', quaternary: true, type, 'data-test': test, 'aria-label': rowActionName(label, c.campaign_name), onClick: stop(fn), onKeydown: (e: KeyboardEvent) => e.stopPropagation() }, { default: () => label })
  return h(NSpace, { size: 4, wrap: false }, {
    default: () => [
      btn(ctx.t('campaigns.action.edit'), 'campaign-edit', ctx.actions.edit),
      btn(ctx.t('campaigns.action.reports'), 'campaign-reports', ctx.actions.reports),
      btn(ctx.t('campaigns.action.delete'), 'campaign-delete', ctx.actions.remove, 'error'),
    ],
  })
}

/** The table's columns for the current sort, language and today. */
export function campaignColumns(ctx: ColumnContext): DataTableColumns<Campaign> {
  const { t } = ctx
  const sortable = (key: OrderField) => ({ key, sorter: true as const, sortOrder: sortOrder(ctx.sort, key) })
  const text = (key: keyof Campaign & OrderField, title: string, width: number) => ({
    ...sortable(key), title, minWidth: width, ellipsis: { tooltip: true }, render: (c: Campaign) => dash(String(c[key])),
  })
  return [
    { ...sortable('campaign_id'), title: t('campaigns.col.id'), width: 80 },
    { ...text('campaign_name', t('campaigns.col.name'), 220), render: (c) => h('strong', c.campaign_name) },
    {
      ...sortable('status'), title: t('campaigns.col.status'), width: 110,
      render: (c) => {
        if (!ctx.today) return '—'
        const s = campaignStatus(c, ctx.today)
        return h(NTag, { size: 'small', bordered: false, type: STATUS_TAG_TYPE[s] }, { default: () => t(`campaigns.status.${s}`) })
      },
    },
    { key: 'start_date', title: t('campaigns.col.start'), width: 110 },
    { key: 'end_date', title: t('campaigns.col.end'), width: 110 },
    text('advertiser_name', t('campaigns.col.advertiser'), 140),
    text('brand_name', t('campaigns.col.brand'), 120),
    text('agency_name', t('campaigns.col.agency'), 120),
    text('creator_name', t('campaigns.col.creator'), 100),
    { key: 'slot_type', title: t('campaigns.col.slotType'), width: 120 },
    { key: 'linked_panels', title: t('campaigns.col.panel'), width: 140, ellipsis: { tooltip: true }, render: (c) => dash(c.linked_panels.join(', ')) },
    { key: 'calculation_type', title: t('campaigns.col.calculation'), width: 80 },
    { key: 'actions', title: t('campaigns.col.actions'), width: 190, fixed: 'right', render: (c) => actionButtons(c, ctx) },
  ]
}

/** Sum of the fixed and minimum widths, for horizontal scrolling. */
export const TABLE_SCROLL_X = 1640
