// renderer/src/utils/engine-notice.ts: the engine's messages a page pops up, said in Chinese
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { endpoints } from '../../engine/contract/endpoints'
import { readResponse } from '../../renderer/src/api/client'
import { engineNotice } from '../../renderer/src/utils/engine-notice'
import { messages } from '../../renderer/src/i18n'
import { FAST } from '../engine/sync/remote'
import { ACCOUNT, makeEngine as makeTestEngine, type TestEngine } from '../helpers/make-engine'
import { asAppClient, clientRefusal } from './app-client'

const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
/** The campaign form's labels (campaigns.field), as the list and the form pass them. */
const label = (p: string) => (messages.zh.campaigns.field as Record<string, string>)[p]
const tr = (lang: 'en' | 'zh') => (k: string, named?: Record<string, unknown>) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k))
const say = (text: string, lang: 'en' | 'zh' = 'zh') => engineNotice(text, tr(lang), lang, label)
const path = (id: keyof typeof endpoints) => endpoints[id].path
/** The engine's error_description of an answer that must be a refusal, as the app's client reads it. */
const refusal = clientRefusal
/** A test engine called as the app calls it. */
const makeEngine = async (...a: Parameters<typeof makeTestEngine>) => asAppClient(await makeTestEngine(...a))
/** Nothing answers on the discard port: the remote of a forwarding profile that cannot be reached. */
const NOWHERE = 'http://127.0.0.1:9'

async function withProfile(): Promise<{ t: TestEngine; profileId: string }> {
  const t = await makeEngine({ engine: { sync: FAST } })
  const r = await t.post(path('sync.profiles_create'), { name: 'Real service', base_url: NOWHERE, ...ACCOUNT })
  expect(r.status, r.raw.body).toBe(200)
  return { t, profileId: r.body.profile_id as string }
}

describe('engineNotice', () => {
  it("says the read and delete routes' refusals as the forms' alerts do (a campaign, spot, minisite or panel that cannot be found)", async () => {
    const t = await makeEngine()
    expect(say(refusal(await t.post(path('campaigns.delete'), { campaign_id: 999 })))).toBe('活动 999 不存在，可能已被删除')
    expect(say(refusal(await t.get(path('campaigns.list_spots'), { campaign_id: 999 })))).toBe('活动 999 不存在，可能已被删除')
    const c = (await t.post(path('campaigns.create'), { campaign_name: 'notices', start_date: '2025-01-10', end_date: '2025-01-20' })).body.campaign_id
    expect(say(refusal(await t.post(path('campaigns.delete_spot'), { campaign_id: c, spot_id: 77 })))).toBe('广告位 77 不存在，可能已被删除')
    expect(say(refusal(await t.post(path('minisites.delete'), { minisite_id: 5 })))).toBe('活动站点 5 不存在，可能已被删除')
    expect(say(refusal(await t.get(path('panels.show'), { panel_id: 42 })))).toBe(`${label('panel_id')} '42' 不存在，可能已被删除`)
  })

  it('says a write refused, and a read not recorded, while the campaigns group is answered offline from a profile', async () => {
    const { t, profileId } = await withProfile()
    expect((await t.post(path('sync.modes_set'), { group: 'campaigns', mode: 'offline', profile_id: profileId })).status).toBe(200)
    expect(say(refusal(await t.post(path('campaigns.delete'), { campaign_id: 1 }))))
      .toBe('活动接口组当前由远程配置 Real service 应答（离线模式）：此修改会写入本地记录，而不是页面上显示的记录。请在同步的发件箱中排队发送到远程，或将活动接口组改回本地（POST /local/v1/sync/modes/set）。')
    expect(say(refusal(await t.get(path('campaigns.list_spots'), { campaign_id: 1 }))))
      .toBe('离线（远程配置 Real service）：没有记录过此参数下 /cms/v1/campaigns/list_spots 的回答。请在联网时用转发模式记录（或拉取快照），或将活动接口组改为本地应答。')
  })

  it('says a forward that failed (the remote\'s failure as the Sync page says it) or would loop', async () => {
    const { t, profileId } = await withProfile()
    expect((await t.post(path('sync.modes_set'), { group: 'reports', mode: 'forward', profile_id: profileId })).status).toBe(200)
    const failed = refusal(await t.get(path('reports.reach_show'), { campaign_id: 1, date: '2025-01-10' }))
    // (how the network refuses differs between machines: the remote's failure is said by its own problem, in Chinese too)
    expect(failed).toMatch(/^Forwarding to the remote of profile Real service failed \(unreachable\): \S+/)
    expect(say(failed)).toMatch(/^转发到远程配置 Real service 失败：(\S+ 拒绝连接|找不到地址|\S+ 无应答|无法连接 \S+：).*。$/)
    t.engine.settings.publicUrl = NOWHERE
    expect(say(refusal(await t.get(path('reports.reach_show'), { campaign_id: 1, date: '2025-01-10' }))))
      .toBe(`报表接口组转发到远程配置 Real service，而其基础地址就是本引擎自身（${NOWHERE}）：转发会形成循环。请将该配置指向远程，或将该接口组改为本地应答。`)
  })

  it('says an expired or unknown access token, the engine shutting down, and an answer that is not JSON', async () => {
    const t = await makeEngine()
    const unknown = refusal(await t.get(path('campaigns.list'), {}, 'not-a-token'))
    expect(say(unknown)).toBe('访问令牌无效或已被撤销，请从 /oauth/token 重新获取。')
    t.clock.advance(2 * 3600 * 1000)
    const expired = refusal(await t.get(path('campaigns.list')))
    expect(say(expired)).toMatch(/^访问令牌已于 \S+Z 过期，请从 \/oauth\/token 重新获取。$/)
    expect(say(expired)).toContain(/expired at (\S+);/.exec(expired)![1]!)
    const notJson = (() => {
      try {
        readResponse({ status: 502, headers: {}, body: '<html>' })
        return 'read'
      } catch (e) {
        return (e as Error).message
      }
    })()
    expect(say(notJson)).toBe('引擎返回了 502，但应答不是 JSON。')
    await t.engine.close()
    expect(say(refusal(await t.get(path('campaigns.list'))))).toBe('引擎正在关闭。')
  })

  it("keeps the engine's text in English, and any sentence it does not know", async () => {
    const t = await makeEngine()
    const missing = refusal(await t.post(path('campaigns.delete'), { campaign_id: 999 }))
    expect(say(missing, 'en')).toBe(missing)
    expect(say('The engine is busy.')).toBe('The engine is busy.')
    expect(say('Failed to fetch')).toBe('Failed to fetch')
  })
})
