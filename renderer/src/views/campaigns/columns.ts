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

/**
 * The table's columns for the current sort, language and today, chosen to fit a laptop screen
 * (1440 px) without scrolling sideways: the name takes the room left; creator, slot type, panel and
 * version are on the campaign's page (the creator is a filter here).
 */
export function campaignColumns(ctx: ColumnContext): DataTableColumns<Campaign> {
  const { t } = ctx
  const sortable = (key: OrderField) => ({ key, sorter: true as const, sortOrder: sortOrder(ctx.sort, key) })
  const text = (key: keyof Campaign & OrderField, title: string, width: number) => ({
    ...sortable(key), title, minWidth: width, ellipsis: { tooltip: true }, render: (c: Campaign) => dash(String(c[key])),
  })
  return [
    { ...sortable('campaign_id'), title: t('campaigns.col.id'), width: 64 },
    // (a long name takes a second line rather than being cut)
    { ...text('campaign_name', t('campaigns.col.name'), 236), ellipsis: { tooltip: true, lineClamp: 2 }, render: (c) => h('strong', c.campaign_name) },
    {
      ...sortable('status'), title: t('campaigns.col.status'), width: 100,
      render: (c) => {
        if (!ctx.today) return '—'
        const s = campaignStatus(c, ctx.today)
        return h(NTag, { size: 'small', bordered: false, type: STATUS_TAG_TYPE[s] }, { default: () => t(`campaigns.status.${s}`) })
      },
    },
    { key: 'dates', title: t('campaigns.col.dates'), width: 200, render: (c) => t('campaigns.col.range', { start: c.start_date, end: c.end_date }) },
    // (fixed widths: the name, the one column without, takes the room left)
    { ...text('advertiser_name', t('campaigns.col.advertiser'), 120), width: 120 },
    { ...text('brand_name', t('campaigns.col.brand'), 110), width: 110 },
    { ...text('agency_name', t('campaigns.col.agency'), 100), width: 100 },
    { key: 'actions', title: t('campaigns.col.actions'), width: 170, fixed: 'right', render: (c) => actionButtons(c, ctx) },
  ]
}

/** Sum of the fixed and minimum widths, for horizontal scrolling in a narrower window. */
export const TABLE_SCROLL_X = 1100
