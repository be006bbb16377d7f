/** Columns of the remote profile table: the profile's fields, whether secrets are stored, the last pull, actions. */
import { NButton, NSpace, NTag, NText, type DataTableColumns } from 'naive-ui'
import { h } from 'vue'
import type { Profile } from '../../sync/profile-form'

export interface ProfileColumnContext {
  t: (key: string, params?: Record<string, unknown>) => string
  age: (iso: string) => string
  when: (iso: string) => string
  testing: string | null
  test: (p: Profile) => void
  edit: (p: Profile) => void
  remove: (p: Profile) => void
}

function actions(p: Profile, ctx: ProfileColumnContext) {
  const btn = (label: string, test: string, fn: (p: Profile) => void, extra: Record<string, unknown> = {}) =>
    h(NButton, { size: 'tiny', quaternary: true, 'data-test': test, onClick: () => fn(p), ...extra }, { default: () => label })
  const busy = ctx.testing === p.profile_id
  return h(NSpace, { size: 4, wrap: false }, {
    default: () => [
      btn(ctx.t(busy ? 'sync.profile.testing' : 'sync.profile.test'), 'sync-profile-test', ctx.test, { type: 'primary', loading: busy, disabled: ctx.testing !== null }),
      btn(ctx.t('common.action.edit'), 'sync-profile-edit', ctx.edit),
      btn(ctx.t('common.action.delete'), 'sync-profile-delete', ctx.remove, { type: 'error' }),
    ],
  })
}

function secrets(p: Profile, t: ProfileColumnContext['t']) {
  const ok = p.has_password && p.has_client_secret
  return h(NTag, { size: 'small', bordered: false, type: ok ? 'success' : 'warning' }, { default: () => t(ok ? 'sync.profile.secretsStored' : 'sync.profile.secretsMissing') })
}

function lastPull(p: Profile, ctx: ProfileColumnContext) {
  if (!p.last_pull_at) return h(NText, { depth: 3 }, { default: () => ctx.t('sync.profile.never') })
  return h('span', { title: ctx.when(p.last_pull_at) }, ctx.age(p.last_pull_at))
}

/** The table's columns in the interface language. */
export function profileColumns(ctx: ProfileColumnContext): DataTableColumns<Profile> {
  const { t } = ctx
  const text = (key: 'base_url' | 'auth_url' | 'username' | 'client_id', title: string, minWidth: number) => ({ key, title, minWidth, ellipsis: { tooltip: true } })
  return [
    { key: 'name', title: t('sync.col.name'), minWidth: 140, render: (p) => h('strong', p.name) },
    text('base_url', t('sync.col.baseUrl'), 200),
    text('auth_url', t('sync.col.authUrl'), 150),
    text('username', t('sync.col.username'), 110),
    text('client_id', t('sync.col.clientId'), 110),
    { key: 'secrets', title: t('sync.profile.secrets'), width: 100, render: (p) => secrets(p, t) },
    { key: 'last_pull_at', title: t('sync.profile.lastPull'), width: 160, render: (p) => lastPull(p, ctx) },
    { key: 'actions', title: t('sync.col.actions'), width: 230, fixed: 'right', render: (p) => actions(p, ctx) },
  ]
}
