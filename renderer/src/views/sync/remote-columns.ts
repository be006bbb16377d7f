/** Columns of a pulled campaign's spots, targets and publishers (offline browser). */
import type { DataTableColumns } from 'naive-ui'
import type { PublisherRow, SpotRow, TargetRow } from '../../sync/remote-records'

type T = (key: string) => string
const text = <R>(key: keyof R & string, title: string, minWidth: number) => ({ key, title, minWidth, ellipsis: { tooltip: true } })
const num = <R>(key: keyof R & string, title: string) => ({ key, title, width: 100, align: 'right' as const })

export function spotColumns(t: T): DataTableColumns<SpotRow> {
  return [
    { key: 'spot_id', title: t('sync.remote.spot.id'), width: 100 },
    text<SpotRow>('spot_id_str', t('sync.remote.spot.idStr'), 110),
    text<SpotRow>('publisher_name', t('sync.remote.spot.publisher'), 140),
    text<SpotRow>('channel_name', t('sync.remote.spot.channel'), 120),
    text<SpotRow>('placement_name', t('sync.remote.spot.placement'), 160),
    text<SpotRow>('placement_type', t('sync.remote.spot.type'), 110),
    num<SpotRow>('keywords', t('sync.remote.spot.keywords')),
    num<SpotRow>('plan_days', t('sync.remote.spot.planDays')),
  ]
}

export function targetColumns(t: T): DataTableColumns<TargetRow> {
  return [
    { key: 'target_id', title: t('sync.remote.target.id'), width: 100 },
    text<TargetRow>('target_name', t('sync.remote.target.name'), 180),
    text<TargetRow>('panel_id', t('sync.remote.target.panel'), 100),
    text<TargetRow>('tag_id', t('sync.remote.target.tag'), 260),
  ]
}

export function publisherColumns(t: T): DataTableColumns<PublisherRow> {
  return [
    { key: 'publisher_id', title: t('sync.remote.publisher.id'), width: 120 },
    text<PublisherRow>('publisher_name', t('sync.remote.publisher.name'), 240),
  ]
}
