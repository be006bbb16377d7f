// renderer/src/utils/field-message.ts: an engine refusal of one field, said short in Chinese beside its label
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { messages } from '../../renderer/src/i18n'
import { fieldMessage } from '../../renderer/src/utils/field-message'
import { makeEngine } from '../helpers/make-engine'
import { asAppClient, clientRefusal } from './app-client'
import { codecRefusal } from './codec-refusal'
import { nameUsedRefusal } from './name-used'

const zh = createI18n({ legacy: false, locale: 'zh', messages }).global
const t = (k: string, named?: Record<string, unknown>) => (named ? zh.t(k, named) : zh.t(k))

describe('fieldMessage', () => {
  it("says the codecs' refusals in Chinese, from the engine's own messages", async () => {
    expect(fieldMessage(codecRefusal('campaign_name', undefined), t, 'zh')).toBe('必填')
    expect(fieldMessage(codecRefusal('campaign_name', 'x'.repeat(300)), t, 'zh')).toBe('不能超过 255 个字符')
    expect(fieldMessage(codecRefusal('start_date', '2025-13-40'), t, 'zh')).toBe('日期格式应为 YYYY-MM-DD（收到“2025-13-40”）')
    expect(fieldMessage(codecRefusal('frequency_limit', '1.5'), t, 'zh')).toBe('须为整数（收到“1.5”）')
    expect(fieldMessage(codecRefusal('frequency_limit', '99'), t, 'zh')).toMatch(/^须在 1 到 80 之间（收到 99）$/)
    const used = await nameUsedRefusal()
    expect(fieldMessage(used.text, t, 'zh')).toBe(`已被活动 ${used.id} 使用`)
    expect(fieldMessage(codecRefusal('campaign_name', ' '), t, 'zh')).toBe('必填')
  })

  it('names the parameters of a sentence that names its field by the screen\'s labels, not their wire names', async () => {
    const t2 = asAppClient(await makeEngine())
    const text = clientRefusal(await t2.post('/cms/v1/campaigns/create', { campaign_name: 'Spring', start_date: '2025-01-20', end_date: '2025-01-10' }))
    const label = (param: string) => ({ start_date: '开始日期', end_date: '结束日期' })[param]
    expect(fieldMessage(text, t, 'zh', label)).toBe('结束日期（2025-01-10）早于开始日期（2025-01-20）')
    // a parameter the screen has no label for keeps its wire name
    expect(fieldMessage(text, t, 'zh', () => undefined)).toBe('end_date（2025-01-10）早于start_date（2025-01-20）')
  })

  it('keeps the engine\'s English in English, and any sentence it does not know', () => {
    const long = codecRefusal('campaign_name', 'x'.repeat(300))
    expect(fieldMessage(long, t, 'en')).toBe(long)
    expect(fieldMessage('某个中文规则', t, 'zh')).toBe('某个中文规则')
  })
})
