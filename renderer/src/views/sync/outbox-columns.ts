/** Columns of the outbox table: the operation, its state and the remote's message, actions last. */
import { NButton, NSpace, NTag, type DataTableColumns } from 'naive-ui'
import { h, type VNode } from 'vue'
import { opTone, type OutboxOp } from '../../sync/outbox'

export interface OutboxColumnContext {
  t: (key: string, params?: Record<string, unknown>) => string
  open: (o: OutboxOp) => void
  drop: (o: OutboxOp) => void
  /** The engine's message as the page says it (use-sync-text.ts). */
  cell: (text: string) => VNode
}

const dash = (s: string): string => (s === '' ? '—' : s)

function actions(o: OutboxOp, ctx: OutboxColumnContext) {
  const btn = (label: string, test: string, fn: (o: OutboxOp) => void, type: 'primary' | 'warning' | 'error') =>
    h(NButton, { size: 'tiny', quaternary: true, type, 'data-test': test, disabled: o.state === 'sending', onClick: () => fn(o) }, { default: () => label })
  return h(NSpace, { size: 4, wrap: false }, {
    default: () => [
      o.state === 'conflict' ? btn(ctx.t('sync.outbox.resolve'), 'sync-outbox-resolve', ctx.open, 'warning')
        : o.state === 'choose' ? btn(ctx.t('sync.outbox.chooseAction'), 'sync-outbox-choose-open', ctx.open, 'warning')
          : btn(ctx.t('sync.outbox.open'), 'sync-outbox-open', ctx.open, 'primary'),
      btn(ctx.t('sync.outbox.drop'), 'sync-outbox-drop', ctx.drop, 'error'),
    ],
  })
}

/** The table's columns in the interface language. */
export function outboxColumns(ctx: OutboxColumnContext): DataTableColumns<OutboxOp> {
  const { t } = ctx
  return [
    { key: 'op_id', title: t('sync.outbox.col.id'), width: 70 },
    { key: 'kind', title: t('sync.outbox.col.kind'), width: 90, render: (o) => t(`sync.outbox.kind.${o.kind}`) },
    { key: 'op', title: t('sync.outbox.col.op'), width: 170, render: (o) => t(`sync.outbox.opName.${o.op}`) },
    { key: 'name', title: t('sync.outbox.col.name'), minWidth: 200, ellipsis: { tooltip: true }, render: (o) => h('strong', dash(o.name)) },
    { key: 'local_id', title: t('sync.outbox.col.local'), width: 90, render: (o) => dash(o.local_id) },
    { key: 'remote_id', title: t('sync.outbox.col.remote'), width: 100, render: (o) => dash(o.remote_id) },
    { key: 'state', title: t('sync.outbox.col.state'), width: 100, render: (o) => h(NTag, { size: 'small', bordered: false, type: opTone(o.state) }, { default: () => t(`sync.outbox.state.${o.state}`) }) },
    { key: 'attempts', title: t('sync.outbox.col.attempts'), width: 90, align: 'right' },
    { key: 'message', title: t('sync.outbox.col.message'), minWidth: 220, ellipsis: { tooltip: true }, render: (o) => (o.message === '' ? '—' : ctx.cell(o.message)) },
    { key: 'actions', title: t('sync.outbox.col.actions'), width: 160, fixed: 'right', render: (o) => actions(o, ctx) },
  ]
}
