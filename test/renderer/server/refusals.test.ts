// renderer/src/server/refusals.ts: the engine's refusals in the Server page's pop-ups, said in Chinese
import { beforeAll, describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { endpoints, type EndpointId } from '../../../engine/contract/endpoints'
import { generatePanel } from '../../../engine/measure/panel/generate'
import { commonParams } from '../../../engine/request'
import { respondError } from '../../../engine/respond'
import { messageOf } from '../../../renderer/src/api/problems'
import { messages } from '../../../renderer/src/i18n'
import { refusalText } from '../../../renderer/src/server/refusals'
import { makeEngine, toReply, type Reply, type TestEngine } from '../../helpers/make-engine'
import { asAppClient, clientRefusal } from '../app-client'
import { panelDb } from '../../engine/measure/panel/helpers'
import { newCampaign, spotForm } from '../../engine/routes/spot-helpers'

const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
const say = (text: string, lang: 'en' | 'zh' = 'zh') => refusalText(text, (k, named) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k)), lang)
const path = (id: EndpointId) => endpoints[id].path
const PANEL = 'china-pm-2025'

let t: TestEngine
beforeAll(async () => {
  t = asAppClient(await makeEngine())
})

/** The engine's error_description for a request it refuses. */
function refused(r: Reply): string {
  expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400)
  return clientRefusal(r)
}
/** The refusal of a file sent to a text endpoint (the panel import, the event import). */
async function upload(id: EndpointId, query: Record<string, string>, body: string): Promise<string> {
  const r = await t.engine.handle({ method: 'POST', path: path(id), query: { ...query, access_token: t.token }, body, headers: { 'content-type': 'text/plain;charset=UTF-8' } })
  return refused(toReply(r))
}
const panelImport = (body: string, format = 'csv') => upload('panels.persons_import', { panel_id: PANEL, format }, body)
const simulate = async (form: Record<string, string | number>) => refused(await t.post(path('simulate.run'), form))

describe('refusalText: the panel tools', () => {
  it("says a file the panel import refuses as a whole in Chinese, with the engine's values", async () => {
    expect(say(await panelImport(''))).toBe('文件为空：CSV 文件须以表头行开头：person_id,weight,home_region,tags,devices')
    expect(say(await panelImport('person_id,tags\n'))).toBe('这不是样本人员 CSV 文件：表头缺少 weight, home_region 列；须有表头行：person_id,weight,home_region,tags,devices')
    expect(say(await panelImport('person_id,weight,tags\n'))).toBe('这不是样本人员 CSV 文件：表头缺少 home_region 列；须有表头行：person_id,weight,home_region,tags,devices')
    expect(say(await panelImport('person_id,weight,home_region,weight\n'))).toBe('这不是样本人员 CSV 文件：表头中 weight 列出现了两次')
    expect(say(await panelImport('person_id,weight,home_region,tag\n'))).toBe('这不是样本人员 CSV 文件：表头中有未知的列 tag；可用的列为 person_id,weight,home_region,tags,devices')
    expect(say(await panelImport('"person_id,weight,home_region\n'))).toBe('这不是样本人员 CSV 文件：有带引号的字段缺少结尾的引号')
    expect(say(await panelImport('"person_id"x,weight,home_region\n'))).toBe('这不是样本人员 CSV 文件：结尾的引号之后还有文字')
    expect(say(await panelImport('x\n'.repeat(500_001), 'ndjson'))).toBe('文件有 500001 人；一次最多导入 500000 人：请拆分文件')
  })

  it('says a panel that is gone, a panel without the demo tags and a refused count of persons in Chinese', async () => {
    const gone = refused(await t.post(path('panels.generate'), { panel_id: 'nope' }))
    expect(say(gone)).toBe('样本库 nope 不存在，可能已被删除')
    expect(say(refused(await t.get(path('panels.persons_export'), { panel_id: 'nope' })))).toBe('样本库 nope 不存在，可能已被删除')
    expect(say(refused(await t.post(path('panels.generate'), { panel_id: PANEL, persons: 5 })))).toBe('人数：须在 100 到 500000 之间（收到 5）')
    const db = await panelDb()
    db.tx(() => db.run("DELETE FROM panel_tags WHERE panel_id = ? AND tag_id IN ('male', 'female')", [PANEL]))
    let lacking = ''
    try {
      generatePanel(db, PANEL, 100, 1)
    } catch (e) {
      lacking = messageOf(e)
    }
    expect(say(lacking)).toBe(`样本库 ${PANEL} 缺少演示人员生成器所写的标签（male, female）`)
  })
})

describe('refusalText: the event import and its job', () => {
  it('says unknown CSV columns and a job the engine does not know in Chinese', async () => {
    expect(say(await upload('events.import', { format: 'csv' }, 'type,tss\n'))).toMatch(/^CSV 表头有未知的列 tss；可用的列：type, ts, .+$/)
    expect(say(refused(await t.get(path('jobs.show'), { job_id: 999 })))).toBe('任务 999 不是引擎本次运行中的任务')
  })
})

describe('refusalText: the simulator', () => {
  it('says the refused days and a campaign that is gone in Chinese', async () => {
    const cid = await newCampaign(t, '2025-01-10', '2025-01-20')
    expect((await t.post(path('campaigns.create_spot_with_plan'), spotForm(cid, { slot_begin: '2025-01-10', slot_duration: 5, est_impression: 50_000 }))).status).toBe(200)
    expect(say(await simulate({ campaign_id: cid, from_date: '2025-01-15', to_date: '2025-01-12' }))).toBe('日期范围 2025-01-15 至 2025-01-12 为空')
    expect(say(await simulate({ campaign_id: cid, from_date: '2025-01-15' }))).toBe('日期范围 2025-01-15 至 2025-01-10 为空（未填结束日期时，取今天与活动结束日期中较早的一天）')
    expect(say(await simulate({ campaign_id: cid, from_date: '2025-02-01', to_date: '2025-02-05' }))).toBe('2025-02-01 至 2025-02-05 不在活动日期 2025-01-10 至 2025-01-20 之内')
    expect(say(await simulate({ campaign_id: cid, from_date: '2025-01-12', to_date: '2025-01-14' }))).toBe('开始日期（2025-01-12）晚于今天（2025-01-10，Asia/Shanghai）：流量只模拟到当前时刻，不会提前生成')
    expect(say(await simulate({ campaign_id: '99999' }))).toBe('活动 99999 不存在，可能已被删除')
  })

  it('says a campaign with nothing to simulate and days that have events already in Chinese', async () => {
    const empty = await newCampaign(t, '2025-01-10', '2025-01-20')
    expect(say(await simulate({ campaign_id: empty }))).toBe(`活动 ${empty} 没有广告位：请先创建广告位（及其排期），再运行模拟`)
    expect((await t.post(path('campaigns.create_spot_with_plan'), spotForm(empty, { slot_begin: '2025-01-15', slot_duration: 2, est_impression: 1000 }))).status).toBe(200)
    expect(say(await simulate({ campaign_id: empty, from_date: '2025-01-10', to_date: '2025-01-10' }))).toBe(
      `活动 ${empty} 在 2025-01-10 至 2025-01-10 截至现在（2025-01-10 12:00）没有排期流量：其广告位排在其他日期或以后的日期（流量只模拟到当前时刻，不会提前生成），或没有曝光量`,
    )
    const cid = await newCampaign(t, '2025-01-10', '2025-01-20')
    expect((await t.post(path('campaigns.create_spot_with_plan'), spotForm(cid, { slot_begin: '2025-01-10', slot_duration: 2, est_impression: 2000 }))).status).toBe(200)
    expect((await t.post(path('simulate.run'), { campaign_id: cid })).body.state).toBe('done')
    expect(say(await simulate({ campaign_id: cid }))).toMatch(
      new RegExp(`^活动 ${cid} 在 2025-01-10 至 2025-01-10 已有 \\d+ 条事件，再次模拟会把流量叠加上去（相同的种子，相同的标识）：如确需叠加，请勾选“已有事件的日期”$`),
    )
  })

  it('says a plan too large to simulate in Chinese, naming what to change', async () => {
    // (a campaign starts today at the earliest: its days are simulated once the clock is past them)
    const later = asAppClient(await makeEngine())
    const cid = await newCampaign(later, '2025-01-10', '2025-01-20')
    const huge = await newCampaign(later, '2025-01-10', '2025-01-20')
    expect((await later.post(path('campaigns.create_spot_with_plan'), spotForm(cid, { slot_begin: '2025-01-10', slot_duration: 3, est_impression: 1_000_000 }))).status).toBe(200)
    expect((await later.post(path('campaigns.create_spot_with_plan'), spotForm(huge, { slot_begin: '2025-01-10', slot_duration: 2, est_impression: 50_000_000 }))).status).toBe(200)
    later.clock.advance(2 * 86_400_000)
    later.token = await later.login()
    const run = async (form: Record<string, string | number>) => say(refused(await later.post(path('simulate.run'), form)))
    const max = '超过单次模拟的上限 10000000'
    expect(await run({ campaign_id: cid, to_date: '2025-01-10', scale: 100 })).toMatch(new RegExp(`^倍数为 100 时，2025-01-10 至 2025-01-10 截至现在排期 \\d+ 次请求，${max}：请降低倍数$`))
    expect(await run({ campaign_id: cid, scale: 100 })).toMatch(new RegExp(`^倍数为 100 时，2025-01-10 至 2025-01-12 截至现在排期 \\d+ 次请求，${max}：请降低倍数，或每次少模拟几天$`))
    expect(await run({ campaign_id: huge })).toMatch(new RegExp(`^2025-01-10 至 2025-01-12 截至现在排期 \\d+ 次请求，${max}：请每次少模拟几天（推后开始日期），或使用小于 1 的倍数$`))
  })
})

describe('refusalText: any call', () => {
  it('says an unexpected fault and an engine that is closing in Chinese', async () => {
    const fault = respondError(new Error('boom'), { common: commonParams({ method: 'GET', path: '/', query: {} }), noStore: false, ignored: [], problem: true }, () => undefined)
    expect(say(clientRefusal(toReply(fault)))).toBe('服务器遇到意外情况；原因已记入其日志。')
    const closing = asAppClient(await makeEngine())
    await closing.engine.close()
    expect(say(refused(await closing.get(path('jobs.list'))))).toBe('引擎正在关闭。')
  })

  it("keeps the engine's English in English, and a refusal it does not know", async () => {
    const text = await panelImport('person_id,weight,home_region,weight\n')
    expect(say(text, 'en')).toBe(text)
    expect(say('The file is odd.')).toBe('The file is odd.')
    expect(say("The 'body' is odd.")).toBe("The 'body' is odd.")
  })
})
