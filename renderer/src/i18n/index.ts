/** vue-i18n with one message module per feature (README). */
import { createI18n } from 'vue-i18n'
import * as campaign from './messages/campaign'
import * as campaigns from './messages/campaigns'
import * as common from './messages/common'
import * as login from './messages/login'
import * as problem from './messages/problem'
import * as reports from './messages/reports'
import * as server from './messages/server'
import * as sync from './messages/sync'
import * as syncEngine from './messages/sync-engine'

const modules = { common, login, campaigns, campaign, reports, server, sync, syncEngine, problem }

type Messages = { [K in keyof typeof modules]: (typeof modules)[K]['en'] }

function pick(lang: 'en' | 'zh'): Messages {
  return Object.fromEntries(Object.entries(modules).map(([k, m]) => [k, m[lang]])) as Messages
}

/** Every message, by language and feature (tests compare the two languages). */
export const messages = { en: pick('en'), zh: pick('zh') }

export const i18n = createI18n<[Messages], 'en' | 'zh', false>({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages,
})
