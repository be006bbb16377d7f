// renderer/src/utils/field-message.ts: an engine refusal of one field, said short in Chinese beside its label
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { endpoints } from '../../engine/contract/endpoints'
import { messages } from '../../renderer/src/i18n'
import { fieldMessage } from '../../renderer/src/utils/field-message'

const zh = createI18n({ legacy: false, locale: 'zh', messages }).global
const t = (k: string, named?: Record<string, unknown>) => (named ? zh.t(k, named) : zh.t(k))

/** The message the engine's own codec gives for `raw` in parameter `name` of campaigns.create. */
function refusal(name: string, raw: string | undefined): string {
  const codec = (endpoints['campaigns.create'].params as Record<string, { decode: (raw: string | undefined, name: string) => unknown }>)[name]!
  try {
    codec.decode(raw, name)
  } catch (e) {
    return (e as Error).message
  }
  throw new Error(`${name}=${raw} was not refused`)
}

describe('fieldMessage', () => {
  it("says the codecs' refusals in Chinese, from the engine's own messages", () => {
    expect(fieldMessage(refusal('campaign_name', undefined), t, 'zh')).toBe('必填')
    expect(fieldMessage(refusal('campaign_name', 'x'.repeat(300)), t, 'zh')).toBe('不能超过 255 个字符')
    expect(fieldMessage(refusal('start_date', '2025-13-40'), t, 'zh')).toBe('日期格式应为 YYYY-MM-DD（收到“2025-13-40”）')
    expect(fieldMessage(refusal('frequency_limit', '1.5'), t, 'zh')).toBe('须为整数（收到“1.5”）')
    expect(fieldMessage(refusal('frequency_limit', '99'), t, 'zh')).toMatch(/^须在 1 到 80 之间（收到 99）$/)
    expect(fieldMessage("The 'campaign_name' 'Spring' is already used by campaign 12.", t, 'zh')).toBe('已被活动 12 使用')
  })

  it('keeps the engine\'s English in English, and any sentence it does not know', () => {
    const long = refusal('campaign_name', 'x'.repeat(300))
    expect(fieldMessage(long, t, 'en')).toBe(long)
    expect(fieldMessage('某个中文规则', t, 'zh')).toBe('某个中文规则')
  })
})
