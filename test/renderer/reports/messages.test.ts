// renderer/src/i18n/messages/reports.ts: the report screen's words
import { describe, expect, it } from 'vitest'
import { en, zh } from '../../../renderer/src/i18n/messages/reports'

describe('report messages', () => {
  it('names the minisite views in Chinese without English words', () => {
    for (const text of [zh.view.minisite, zh.chart.minisite.title, zh.chart.minisiteHours.title, zh.picker.minisite]) expect(text).not.toMatch(/[A-Za-z]/)
  })

  it('has a singular for one person in every small-sample warning', () => {
    expect(en.warn.cellOne).toContain('{sample} person (')
    expect(en.warn.reachItemOne).toContain('{sample} person)')
  })
})
