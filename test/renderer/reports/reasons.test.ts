// renderer/src/reports/reasons.ts: the engine's reasons for a refused choice, said in the interface's language
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { checkBasicShow, checkRealtimeShow } from '../../../engine/contract/report-rules'
import { messageOf } from '../../../renderer/src/api/problems'
import { messages } from '../../../renderer/src/i18n'
import { readableReason } from '../../../renderer/src/reports/reasons'

/** The engine's own message for a refused combination, its problem kept as the pickers' own check keeps it. */
function refusal(check: (p: Record<string, unknown>) => void, p: Record<string, unknown>): string {
  try {
    check(p)
  } catch (e) {
    return messageOf(e)
  }
  throw new Error('not refused')
}

const i18n = (locale: 'en' | 'zh') => createI18n({ legacy: false, locale, messages }).global
const say = (locale: 'en' | 'zh', reason: string) => readableReason(reason, (k, named) => (named ? i18n(locale).t(k, named) : i18n(locale).t(k)), locale)

describe('readableReason', () => {
  it("names the pickers and their choices as the screen does, in English and in Chinese, from the engine's rules", () => {
    const publisher = refusal(checkBasicShow, { by_position: 'campaign', publisher_id: '1' })
    expect(publisher).toContain("is valid only when by_position is publisher, spot or keyword")
    expect(say('en', publisher)).toBe('Only when Position is Publisher, Spot, or Keyword.')
    expect(say('zh', publisher)).toMatch(/^仅当.+为媒体、广告位或关键词时可用。$/)
    expect(say('en', refusal(checkRealtimeShow, { by_position: 'publisher', spot_id: '1' }))).toBe('Only when Position is Spot.')
    expect(say('zh', refusal(checkBasicShow, { by_audience: 'overall', target_id: '1' }))).toMatch(/^仅当受众为目标受众时可用。$/)
    expect(say('en', refusal(checkBasicShow, { platform: 'pc', metrics: 'all', sdk: 'mm' }))).toBe(messages.en.reports.reason.onlySdk)
    expect(say('zh', refusal(checkBasicShow, { metrics: 'day', by_audience: 'target' }))).toBe(messages.zh.reports.reason.noDayWithTarget)
  })

  it('gives a reason of another form as it is', () => {
    expect(say('zh', 'The campaign has no targets.')).toBe('The campaign has no targets.')
  })
})
