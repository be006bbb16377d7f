// renderer/src/i18n/messages: one Chinese word per thing, and messages that show only our own text
import { describe, expect, it } from 'vitest'
import { messages } from '../../renderer/src/i18n'

function texts(o: unknown, prefix = ''): [string, string][] {
  if (typeof o === 'string') return [[prefix, o]]
  if (typeof o !== 'object' || o === null) return []
  return Object.entries(o).flatMap(([k, v]) => texts(v, prefix ? `${prefix}.${k}` : k))
}

describe('Chinese terminology', () => {
  const zh = texts(messages.zh)
  const using = (word: string): string[] => zh.filter(([, v]) => v.includes(word)).map(([k]) => k)

  it('says 广告位 for a spot, 目标受众 for a target, 代理公司 and 投放类型 everywhere', () => {
    expect(using('点位')).toEqual([])
    expect(using('人群')).toEqual([])
    expect(using('代理商')).toEqual([])
    expect(using('广告类型')).toEqual([])
  })

  it('calls the placement column 版位, so that it is not confused with the spot (广告位)', () => {
    expect(messages.zh.campaign.spots.col.placement).toBe('版位')
    expect(messages.zh.campaign.codes.col.placement_name).toBe('版位')
    expect(messages.zh.sync.remote.spot.placement).toBe('版位')
  })

  it('words the same things the same way (fix the marked fields, date ranges) and shows no literal backticks', () => {
    expect(messages.zh.campaigns.form.fixErrors).toBe(messages.zh.campaign.editor.fixErrors)
    expect(messages.zh.reports.window).toContain('至')
    expect(zh.filter(([, v]) => v.includes('`')).map(([k]) => k)).toEqual([])
    // (the English problem entries are the engine's own error_description, which may quote a command)
    expect(texts(messages.en).filter(([k, v]) => v.includes('`') && !k.startsWith('problem.')).map(([k]) => k)).toEqual([])
  })
})

describe('the session-ended message', () => {
  it("has no room for the engine's English reason: it is the translated sentence only", () => {
    expect(messages.zh.common.errors.sessionEnded).toBe('会话已结束，请重新登录。')
    expect(messages.en.common.errors.sessionEnded).not.toMatch(/\{/)
  })
})
