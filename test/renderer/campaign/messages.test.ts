// renderer/src/i18n/messages/campaign.ts: the plan's counts read in the singular for one
import { createI18n } from 'vue-i18n'
import { describe, expect, it } from 'vitest'
import { messages } from '../../../renderer/src/i18n'

describe('campaign plan messages', () => {
  it('writes one day, impression and click in the singular (a plural message, called with the count)', () => {
    const en = createI18n({ legacy: false, locale: 'en', messages: { en: messages.en } }).global
    const pairs = [['campaign.plan.selected', '1 day selected', '2 days selected'], ['campaign.plan.dayCount', '1 day', '2 days'], ['campaign.plan.impCount', '1 impression', '2 impressions'], ['campaign.plan.clkCount', '1 click', '2 clicks']] as const
    for (const [key, one, two] of pairs) expect([en.t(key, { n: 1 }, 1), en.t(key, { n: 2 }, 2)]).toEqual([one, two])
  })
})
