// renderer/src/reports/refusals.ts: the engine's refusals of a report request said in Chinese
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { ApiError, E, refuse } from '../../../engine/contract/errors'
import { checkReportLimit } from '../../../engine/contract/report-rules'
import { checkAnswerRows, checkRegions } from '../../../engine/reports/setup'
import { messageOf } from '../../../renderer/src/api/problems'
import { messages } from '../../../renderer/src/i18n'
import { reportText } from '../../../renderer/src/reports/refusals'
import { problemOf } from '../../../renderer/src/reports/rules'
import { seed, type Fixture } from '../../fixtures/seed'
import { DATES, makeEngine, type TestEngine } from '../../helpers/make-engine'
import { asAppClient, clientRefusal } from '../app-client'

const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
const translate = (lang: 'en' | 'zh') => (k: string, named?: Record<string, unknown>) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k))
const say = (text: string, lang: 'en' | 'zh' = 'zh') => reportText(text, translate(lang), lang)

/** The message `check` throws (an ApiError of the engine's own code). */
function refusal(check: () => void): string {
  try {
    check()
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError)
    return messageOf(e)
  }
  throw new Error('not refused')
}

describe('reportText: the report rules (engine/contract/report-rules.ts, engine/reports/setup.ts)', () => {
  it('says a parameter not valid with another as the pickers say it, naming its picker', () => {
    expect(say(problemOf('reports.basic_show', { by_position: 'campaign', publisher_id: ['1'] })!)).toBe('媒体：仅当维度为媒体、广告位或关键词时可用。')
    expect(say(problemOf('reports.basic_show', { by_audience: 'target', metrics: 'day' })!)).toBe('指标：目标受众不提供当日数据。')
    expect(say(problemOf('reports.basic_show', { platform: 'pc', sdk: 'mm' })!)).toBe('SDK：仅在移动端、且指标为全部（或按活动、媒体的累计指标）时可用。')
  })

  it('says a page past the spots or publishers there are, with its numbers', () => {
    expect(say(refusal(() => checkReportLimit({ m: 600, n: 10 }, 520)))).toBe('limit 从 600 开始，但只有 520 个广告位（M 须小于广告位数）。')
    expect(say(refusal(() => checkReportLimit({ m: 0, n: 30 }, 12, 'publishers')))).toBe('limit 到 30 为止，超出了现有的 12 个媒体（M+N 不能超过媒体数）。')
  })

  it('says an answer of too many rows, with its shape and the most one answer holds', () => {
    expect(say(refusal(() => checkAnswerRows(300_000, { positions: 1000, regions: 300, audiences: 1 }))))
      .toBe('应答将有 300000 行（1000 个维度值 × 300 个地域），超过单次应答的上限 250000 行：请用 limit 分页，或减少地域（region_id、换一个 by_region）或目标受众（target_id），或去掉 with_null。')
    expect(say(refusal(() => checkAnswerRows(900_000, { positions: 1000, regions: 300, audiences: 3 }))))
      .toBe('应答将有 900000 行（1000 个维度值 × 300 个地域 × 3 个目标受众），超过单次应答的上限 250000 行：请用 limit 分页，或减少地域（region_id、换一个 by_region）或目标受众（target_id），或去掉 with_null。')
  })

  it('says a region the level does not have, naming the level as the pickers do', () => {
    expect(say(refusal(() => checkRegions(['cn-99'], new Set(), 'level1')))).toBe('地域 cn-99 不属于“省份”。')
  })

  it('says a failure to read the recorded events at start, keeping its cause (engine/measure/service.ts, by its problem)', () => {
    expect(say(refusal(() => {
      throw refuse(E.temporarilyUnavailable, 'events.unreadable', { detail: 'EIO: i/o error, read' })
    })))
      .toBe('启动时无法读取已记录的事件（EIO: i/o error, read）；报表和监测须等引擎重启后才能使用。')
  })
})

describe('reportText: the refusals of the report routes', () => {
  let e: TestEngine
  let f: Fixture
  const refused = async (path: string, query: Record<string, string>) => {
    const r = await e.get(path, query)
    expect(r.status, r.raw.body).toBeGreaterThanOrEqual(400)
    return clientRefusal(r)
  }
  beforeAll(async () => {
    e = asAppClient(await makeEngine())
    f = await seed(e)
  })
  afterAll(() => e.engine.close())

  it('says a campaign, minisite or region that cannot be found in Chinese', async () => {
    expect(say(await refused('/admonitor/v1/reports/basic/show', { campaign_id: '999', date: DATES.nextWeek }))).toBe('活动 999 不存在，可能已被删除')
    expect(say(await refused('/admonitor/v1/reports/basic/show_minisite', { minisite_id: '999', date: DATES.nextWeek }))).toBe('活动站点 999 不存在，可能已被删除')
    expect(say(await refused('/admonitor/v1/reports/basic/show', { campaign_id: f.campaign_id, date: DATES.nextWeek, by_region: 'level2', region_id: 'nowhere' }))).toBe('地域 nowhere 不属于“城市”。')
  })

  it('says a tag type the panel does not have, keeping the types it has', async () => {
    const text = await refused('/admonitor/v1/reports/audience/show', { campaign_id: f.campaign_id, date: DATES.nextWeek, type_id: 'nope' })
    const types = /tag type of panel (.+) \(see/.exec(text)![1]!
    expect(say(text)).toBe(`“nope”不是该样本库的标签类型（可用：${types}）。`)
  })

  it('says why the reports answered from a remote profile failed (engine/sync/modes.ts)', async () => {
    const path = '/admonitor/v1/reports/basic/show'
    const query = { campaign_id: f.campaign_id, date: DATES.nextWeek }
    const mode = (m: string) => e.post('/local/v1/sync/modes/set', { group: 'reports', mode: m, ...(m === 'local' ? {} : { profile_id: f.offline_profile_id }) })
    try {
      expect((await mode('offline')).status).toBe(200)
      expect(say(await refused(path, query))).toBe(`离线（远程配置 Fixture offline remote）：没有记录过此参数下 ${path} 的回答。请在联网时用转发模式记录（或拉取快照），或将报表接口组改为本地应答。`)
      expect((await mode('forward')).status).toBe(200)
      const forward = await refused(path, query)
      // (the remote's failure, which depends on the machine's network, said by its own problem, in Chinese too)
      expect(forward).toMatch(/^Forwarding to the remote of profile Fixture offline remote failed \(\w+\): \S+/)
      expect(say(forward)).toMatch(/^转发到远程配置 Fixture offline remote 失败：(\S+ 拒绝连接|找不到地址|\S+ 无应答|无法连接 \S+：|\S+ 未在).*。$/)
    } finally {
      await mode('local')
    }
    expect(say(refusal(() => {
      throw refuse(E.temporarilyUnavailable, 'mode.forwardLoop', { group: 'reports', profile: 'Me', url: 'http://127.0.0.1:8123' })
    })))
      .toBe('报表接口组转发到远程配置 Me，而其基础地址就是本引擎自身（http://127.0.0.1:8123）：转发会形成循环。请将该配置指向远程，或将该接口组改为本地应答。')
  })

  it("says the snapshot series' refusal as the Sync page does", async () => {
    expect(say(await refused('/local/v1/sync/snapshots/list', { profile_id: '999' }))).toBe('没有远程配置 999。')
  })
})

describe('reportText: the fall-back', () => {
  it('keeps a sentence it does not know, and every sentence in English', () => {
    expect(say('Something new happened.')).toBe('Something new happened.')
    const rows = refusal(() => checkAnswerRows(300_000, { positions: 1000, regions: 300, audiences: 1 }))
    expect(say(rows, 'en')).toBe(rows)
  })
})
