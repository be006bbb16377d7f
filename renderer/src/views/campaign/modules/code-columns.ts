/** Columns of the tracking-codes table: the position, then each code with a copy button. */
import { NButton, NText, type DataTableColumns } from 'naive-ui'
import { h } from 'vue'
import type { CodeRow } from '../../../campaign/codes'

type T = (key: string, params?: Record<string, unknown>) => string

function codeCell(url: string, t: T, copy: (text: string) => void, test: string) {
  if (url === '') return '—'
  return h('div', { class: 'code-cell' }, [
    h('code', { class: 'code', title: url }, url),
    h(NButton, { size: 'tiny', secondary: true, 'data-test': test, 'aria-label': t('campaign.codes.copy'), onClick: () => copy(url) }, { default: () => t('campaign.codes.copy') }),
  ])
}

/** The columns, in the interface language; `copy` copies one code. */
export function codeTableColumns(t: T, copy: (text: string) => void): DataTableColumns<CodeRow> {
  return [
    {
      type: 'expand', expandable: (r) => r.impression_url !== '' || r.click_url !== '',
      renderExpand: (r) => h('div', { class: 'code-full' }, [
        h(NText, { depth: 3 }, { default: () => t('campaign.codes.col.impression_url') }), h('code', r.impression_url),
        h(NText, { depth: 3 }, { default: () => t('campaign.codes.col.click_url') }), h('code', r.click_url),
      ]),
    },
    { key: 'spot', title: t('campaign.codes.col.spot_id'), width: 100, render: (r) => h('span', [r.spot_id, h(NText, { depth: 3 }, { default: () => ` · ${r.spot_id_str}` })]) },
    { key: 'publisher_name', title: t('campaign.codes.col.publisher_name'), width: 140, ellipsis: { tooltip: true } },
    { key: 'placement_name', title: t('campaign.codes.col.placement_name'), width: 150, ellipsis: { tooltip: true }, render: (r) => `${r.channel_name} / ${r.placement_name}` },
    { key: 'keyword', title: t('campaign.codes.col.keyword'), width: 120, ellipsis: { tooltip: true }, render: (r) => (r.keyword_id === null ? '—' : r.keyword) },
    { key: 'landing_page', title: t('campaign.codes.col.landing_page'), width: 200, ellipsis: { tooltip: true }, render: (r) => r.landing_page || '—' },
    { key: 'impression_url', title: t('campaign.codes.col.impression_url'), minWidth: 320, render: (r) => codeCell(r.impression_url, t, copy, 'code-copy-impression') },
    { key: 'click_url', title: t('campaign.codes.col.click_url'), minWidth: 320, render: (r) => codeCell(r.click_url, t, copy, 'code-copy-click') },
  ]
}
