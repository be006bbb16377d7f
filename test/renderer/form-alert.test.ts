// renderer/src/utils/form-alert.ts: the engine's refusal of a whole save, said in Chinese in the alert above a form
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { E, refuse } from '../../engine/contract/errors'
import { messageOf } from '../../renderer/src/api/problems'
import { messages } from '../../renderer/src/i18n'
import { formAlert } from '../../renderer/src/utils/form-alert'
import { codecRefusal } from './codec-refusal'
import { keyed } from './app-client'
import { nameUsedRefusal } from './name-used'

const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
/** The campaign form's labels (campaigns.field), as the view passes them. */
const label = (p: string) => (messages.zh.campaigns.field as Record<string, string>)[p]
const say = (text: string, lang: 'en' | 'zh' = 'zh') => formAlert(text, (k, named) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k)), lang, label)

describe('formAlert', () => {
  it("names the field as the form labels it, then says the codec's problem as beside a field", async () => {
    expect(say(codecRefusal('campaign_name', 'x'.repeat(300)))).toBe('活动名称：不能超过 255 个字符')
    expect(say(codecRefusal('frequency_limit', '99'))).toBe(`${label('frequency_limit')}：须在 1 到 80 之间（收到 99）`)
    const used = await nameUsedRefusal()
    expect(say(used.text)).toBe(`活动名称：已被活动 ${used.id} 使用`)
    expect(say(codecRefusal('campaign_name', ' '))).toBe('活动名称：必填')
  })

  it("says the write routes' refusals in Chinese, with their values", () => {
    expect(say(messageOf(refuse(E.invalidCampaignId, 'param.notFound', { param: 'campaign_id', value: '9' })))).toBe('活动 9 不存在，可能已被删除')
    expect(say(keyed('param.notFoundSee', { param: 'panel_id', value: '7', list: '/cms/v1/panels/list' }))).toBe(`${label('panel_id')} 7 不存在，可能已被删除`)
    expect(say(keyed('param.beforeToday', { param: 'start_date', date: '2025-01-01', today: '2025-01-10', zone: 'Asia/Shanghai' }))).toBe('开始日期（2025-01-01）早于今天（2025-01-10，Asia/Shanghai）')
    expect(say(keyed('plan.beforeOther', { param: 'end_date', date: '2025-01-01', otherParam: 'start_date', otherDate: '2025-01-02' }))).toBe('结束日期（2025-01-01）早于开始日期（2025-01-02）')
    expect(say(keyed('ref.brandOwner', { param: 'brand_id', value: '5', owner: '2', chosen: '3' }))).toBe('品牌 5 属于广告主 2，不属于所选广告主 3')
    expect(say(keyed('campaign.advertiserBrand', { param: 'advertiser_id', brand: '4', owner: '1' }))).toBe('当前品牌（4）属于广告主 1：更换广告主时请同时选择新广告主的品牌')
    expect(say(keyed('ref.namesNo', { param: 'agency_id', value: '8', what: 'agency', list: '/cms/v1/agencies/list' }))).toBe(`${label('agency_id')} 8 不存在`)
    expect(say(keyed('ref.needsAdvertiser', { param: 'brand_id', otherParam: 'advertiser_id' }))).toBe(`${label('brand_id')}需要先选择${label('advertiser_id')}`)
    expect(say(keyed('campaign.noPanel', { param: 'panel_id', platform: 'pc' }))).toBe(`${label('panel_id')}为必填项：没有可默认使用的 pc 样本库`)
    expect(say(keyed('param.together', { param: 'orderid', otherParam: 'schedulingCode' }))).toBe(`${label('orderid')}须与${label('schedulingCode')}一起提交`)
    // (the plan's rule names the other field unquoted)
    expect(say(keyed('plan.together', { param: 'slot_begin', otherParam: 'slot_duration' }))).toBe('slot_begin须与slot_duration一起提交')
    expect(say(keyed('ref.notInList', { param: 'ear', value: 'X', list: '/cms/v1/ears/list' }))).toBe(`${label('ear')}“X”不在列表中`)
  })

  it("says the dialogs' refusals (targets, minisites, keywords) in Chinese, naming what the form has no label for", () => {
    expect(say(messageOf(refuse(E.targetNameExists, 'target.nameExists', { param: 'target_name' })))).toBe('该活动中已有同名的目标受众')
    expect(say(keyed('minisite.nameUsed', { param: 'minisite_name', value: 'Shop', id: '2' }))).toBe('“Shop”已是活动站点 2 的名称')
    expect(say(keyed('spot.keywordTwice', { param: 'add_keyword', value: 'shoes', id: '7' }))).toBe('该广告位已有关键词“shoes”（关键词 ID 7）')
    expect(say(keyed('spot.keywordRenamed', { param: 'update_keyword', id: '7', value: 'hat', owner: '8' }))).toBe('关键词 7 不能改名为“hat”：该广告位的关键词 8 已使用此名称')
    expect(say(keyed('spot.keywordNotOfSpot', { param: 'update_keyword', id: '9', spot: '3' }))).toBe('关键词 ID 9 不属于广告位 3')
    expect(say(keyed('minisite.eventExists', { param: 'add_events', value: 'buy' }))).toBe('该活动站点已有事件“buy”')
    expect(say(keyed('minisite.eventTwice', { param: 'add_events' }))).toBe('有事件重复列出')
    expect(say(keyed('target.tagNotInPanel', { param: 'tag_id', value: 'x', panel: '4' }))).toBe('样本库 4 没有标签“x”')
    expect(say(messageOf(refuse(E.invalidSpotId, 'param.notFound', { param: 'spot_id_str', value: '2Bx' })))).toBe('广告位 2Bx 不存在，可能已被删除')
  })

  it("keeps the engine's details of the spots whose plan days would fall outside the dates", () => {
    const details = "spot 1 'a' has 4 days before 2026-12-05 (from 2026-12-01)"
    expect(say(keyed('campaign.plansOutsideBoth', { param: 'start_date', start: '2026-12-05', end: '2027-01-15', details })))
      .toBe(`开始日期和结束日期会使部分排期日落在活动日期 2026-12-05 至 2027-01-15 之外：请先从广告位的排期中删除这些日期（${details}）`)
    const late = "spot 1 'a' has 16 days after 2027-01-15 (to 2027-01-31)"
    expect(say(keyed('campaign.plansOutside', { param: 'end_date', start: '2026-12-01', end: '2027-01-15', details: late })))
      .toBe(`结束日期会使部分排期日落在活动日期 2026-12-01 至 2027-01-15 之外：请先从广告位的排期中删除这些日期（${late}）`)
  })

  it("keeps the engine's text in English, and any sentence it does not know", () => {
    const missing = messageOf(refuse(E.invalidCampaignId, 'param.notFound', { param: 'campaign_id', value: '9' }))
    expect(say(missing, 'en')).toBe(missing)
    // (a refusal whose problem the client did not read is not translated from its English)
    expect(say("The 'campaign_id' 10 cannot be found.")).toBe("The 'campaign_id' 10 cannot be found.")
    expect(say("The 'wares' does something new.")).toBe("The 'wares' does something new.")
    expect(say('The engine is busy.')).toBe('The engine is busy.')
  })
})
