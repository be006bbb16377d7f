// renderer/src/i18n/messages/reports.ts: the report screen's words
import { describe, expect, it } from 'vitest'
import { en, zh } from '../../../renderer/src/i18n/messages/reports'

describe('report messages', () => {
  it('names the minisite views in Chinese without English words', () => {
    for (const text of [zh.view.minisite, zh.chart.minisite.title, zh.chart.minisiteHours.title, zh.picker.minisite]) expect(text).not.toMatch(/[A-Za-z]/)
  })

  it("states realtime's counting rule on the realtime tab in both languages, and the subtitle does not say bots are left out", () => {
    expect(en.note.realtimeRule).toBe("Realtime counts every hit as it arrives on the campaign's days, invalid traffic included; the daily report leaves out bots, data-centre hits the spot filters and hits beyond the frequency limit (net).")
    expect(zh.note.realtimeRule).toMatch(/无效流量/)
    expect(zh.note.realtimeRule).toMatch(/机器人/)
    expect(en.chart.realtime.subtitle).not.toMatch(/but declared bots/)
    expect(zh.chart.realtime.subtitle).not.toMatch(/除声明的机器人外/)
  })

  it('labels a synthetic panel and explains a small base on hover as the issue words them', () => {
    expect(en.panel.synthetic).toBe("Synthetic panel — import your panel's persons for real figures.")
    expect(en.warn.cell).toBe('Rests on {sample} panel persons; under {min} is unreliable')
    expect(zh.panel.empty).toContain('{panel_id}')
  })

  it('has a singular for one person in every small-sample warning', () => {
    expect(en.warn.cellOne).toContain('{sample} panel person;')
    expect(en.warn.reachItemOne).toContain('{sample} person)')
  })
})
