/** Columns of the snapshot list: what was pulled, from where, when (with its age), version, progress date, and how it compares. */
import { NButton, NTag, NText, type DataTableColumns } from 'naive-ui'
import { h } from 'vue'
import { paramsLabel } from '../../sync/snapshot-request'
import type { Snapshot } from '../../sync/snapshot-diff'

export interface SnapshotColumnContext {
  t: (key: string, params?: Record<string, unknown>) => string
  age: (iso: string) => string
  when: (iso: string) => string
  stale: (iso: string) => boolean
  source: string
  campaignName: (id: string) => string
  show: (s: Snapshot) => void
}

function compared(s: Snapshot, t: SnapshotColumnContext['t']) {
  if (s.previous_id === '') return h(NTag, { size: 'small', bordered: false }, { default: () => t('sync.snap.first') })
  return h(NTag, { size: 'small', bordered: false, type: s.changed ? 'warning' : 'success' }, { default: () => t(s.changed ? 'sync.snap.changed' : 'sync.snap.same') })
}

function fetched(s: Snapshot, ctx: SnapshotColumnContext) {
  return h('div', { title: ctx.when(s.fetched_at) }, [
    h('div', ctx.when(s.fetched_at)),
    h(NText, { depth: 3, type: ctx.stale(s.fetched_at) ? 'warning' : 'default', style: 'font-size: 12px' }, { default: () => ctx.age(s.fetched_at) }),
  ])
}

/** The table's columns in the interface language. */
export function snapshotColumns(ctx: SnapshotColumnContext): DataTableColumns<Snapshot> {
  const { t } = ctx
  return [
    { key: 'snapshot_id', title: t('sync.snap.col.id'), width: 90 },
    { key: 'report', title: t('sync.snap.col.report'), width: 130, render: (s) => t(`sync.snap.reports.${s.report}`) },
    { key: 'campaign_id', title: t('sync.snap.col.campaign'), minWidth: 180, ellipsis: { tooltip: true }, render: (s) => ctx.campaignName(s.campaign_id) },
    { key: 'date', title: t('sync.snap.col.date'), width: 110 },
    { key: 'params', title: t('sync.snap.col.params'), minWidth: 180, ellipsis: { tooltip: true }, render: (s) => paramsLabel(s.params) || '—' },
    { key: 'source', title: t('sync.snap.col.source'), width: 130, ellipsis: { tooltip: true }, render: () => ctx.source },
    { key: 'fetched_at', title: t('sync.snap.col.fetched'), width: 170, render: (s) => fetched(s, ctx) },
    { key: 'version', title: t('sync.snap.col.version'), width: 90, render: (s) => s.version || '—' },
    { key: 'progress_date', title: t('sync.snap.col.progress'), width: 120, render: (s) => s.progress_date || '—' },
    { key: 'items', title: t('sync.snap.col.items'), width: 80, align: 'right' },
    { key: 'changed', title: t('sync.snap.col.changed'), width: 120, render: (s) => compared(s, t) },
    {
      key: 'show', title: '', width: 100, fixed: 'right',
      render: (s) => h(NButton, { size: 'tiny', quaternary: true, type: 'primary', 'data-test': 'sync-snap-show', onClick: () => ctx.show(s) }, { default: () => t('sync.snap.show') }),
    },
  ]
}
