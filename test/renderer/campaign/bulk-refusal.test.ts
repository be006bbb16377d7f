// renderer/src/campaign/bulk.ts batchRefusal and utils/form-alert.ts: the bulk import's refusals and
// per-row problems (the engine's codecs and plan rules) said in Chinese, a row named by its line
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { endpoints } from '../../../engine/contract/endpoints'
import { batchBody, batchRefusal, mapColumns, rowProblems, sheetItems } from '../../../renderer/src/campaign/bulk'
import { messages } from '../../../renderer/src/i18n'
import { formAlert } from '../../../renderer/src/utils/form-alert'
import { makeEngine } from '../../helpers/make-engine'
import { asAppClient, clientRefusal } from '../app-client'
import { engineRefusal } from './engine-plan'

const campaign = { start_date: '2025-01-10', end_date: '2025-01-20' }
const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
const tr = (lang: 'en' | 'zh') => (k: string, named?: Record<string, unknown>) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k))
/** The spot editor's labels (campaign.fields), as the bulk import passes them. */
const label = (p: string) => (messages.zh.campaign.fields as Record<string, string>)[p]
const say = (text: string, lang: 'en' | 'zh' = 'zh') => formAlert(text, tr(lang), lang, label)

describe('formAlert on the plan rules (engine/contract/plan-rules.ts)', () => {
  it("says each of the engine's refusals of a new spot's plan with its values", () => {
    expect(say(engineRefusal({ slot_begin: '2025-01-15', slot_duration: 7 }, campaign))).toBe('排期天数（自 2025-01-15 起 7 天，至 2025-01-21）超出活动日期 2025-01-10 至 2025-01-20')
    expect(say(engineRefusal({ slot_begin: '2025-01-21', slot_duration: 2 }, campaign))).toBe('排期开始（2025-01-21）不在活动日期 2025-01-10 至 2025-01-20 内')
    expect(say(engineRefusal({ slot_begin: '2025-01-15' }, campaign))).toBe('排期天数须与排期开始一起提交')
    expect(say(engineRefusal({ est_click: 5 }, campaign))).toBe('预估点击（总量）需要排期：请同时填写排期开始和排期天数')
    expect(say(engineRefusal({ add_slot: ['2025-01-10'], slot_begin: '2025-01-10', slot_duration: 1 }, campaign))).toBe('排期日期不能与排期开始、排期天数同时提交')
    expect(say(engineRefusal({ add_slot: ['2025-01-10', '2025-01-11'], est_impression_day: [1] }, campaign))).toBe('每日预估曝光有 1 个值，而排期日期有 2 个日期')
    expect(say(engineRefusal({ est_click_day: [1] }, campaign))).toBe('每日预估点击须与排期日期一起提交')
    expect(say(engineRefusal({ add_slot: ['2025-01-10', '2025-01-21'] }, campaign))).toBe('排期日期中的 2025-01-21 不在活动日期 2025-01-10 至 2025-01-20 内')
  })

  it('says a keyword spot off the Bidding channel, as the rows check it', () => {
    const [problem] = rowProblems({ publisher_name: 'A', channel_name: 'news', placement_name: 'top', keyword: 'milk^' }, campaign)
    expect(say(problem!.message)).toBe('带关键词的广告位，频道须为“Bidding”或“Bidding word”（收到“news”）')
  })
})

describe('batchRefusal', () => {
  // line 1 the header, line 3 blank: item 1 is the sheet's line 4
  const sheet = [
    ['publisher_name', 'channel_name', 'placement_name', 'slot_begin', 'slot_duration'],
    ['A', 'news', 'top', '', ''],
    ['', '', '', '', ''],
    ['B', 'news', 'side', '2025-01-15', '7'],
  ]
  const rows = sheetItems(sheet.slice(1), mapColumns(sheet[0]!))

  it("names the refused item by the table's line and says the sentence as the forms' alerts do, the engine's words for the hover", async () => {
    const t = asAppClient(await makeEngine())
    const c = (await t.post(endpoints['campaigns.create'].path, { campaign_name: 'rows', ...campaign })).body.campaign_id as string
    const r = await t.postJson(endpoints['campaigns.batch_create_spot_with_plan'].path, batchBody(c, rows))
    const text = clientRefusal(r)
    expect(text).toMatch(/^item\[1\] The 'slot_duration' /)
    expect(rows[1]!.line).toBe(4)
    expect(batchRefusal(text, rows, tr('zh'), (s) => say(s))).toEqual({
      shown: '未创建任何广告位：引擎拒绝了第 4 行：排期天数（自 2025-01-15 起 7 天，至 2025-01-21）超出活动日期 2025-01-10 至 2025-01-20',
      engine: text,
    })
    // in English the sentence is the engine's, on the row's line; nothing to hover
    expect(batchRefusal(text, rows, tr('en'), (s) => say(s, 'en'))).toEqual({ shown: `Nothing was created: the engine refused line 4: ${text.slice('item[1] '.length)}`, engine: undefined })
  })

  it('says a refusal of the whole request as it is said above a form', async () => {
    const t = asAppClient(await makeEngine())
    const text = clientRefusal(await t.postJson(endpoints['campaigns.batch_create_spot_with_plan'].path, batchBody('999', rows)))
    expect(batchRefusal(text, rows, tr('zh'), (s) => say(s))).toEqual({ shown: '未创建任何广告位：活动 999 不存在，可能已被删除', engine: text })
    // an item the sheet has no row for: the sentence as it is
    expect(batchRefusal("item[7] The 'placement_name' is required.", rows, tr('zh'), (s) => say(s)).shown).toBe("未创建任何广告位：item[7] The 'placement_name' is required.")
  })
})
