// renderer/src/sync/messages.ts: the engine's messages on the Sync page said in Chinese by the problems the answers tell
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { problem, toldText, type Told } from '../../../engine/contract/problems'
import { RemoteClient } from '../../../engine/sync/client'
import { checkCancelled } from '../../../engine/sync/jobs'
import { choiceMessage } from '../../../engine/sync/outbox-refs'
import { httpError, networkError, RemoteError } from '../../../engine/sync/remote-error'
import { oneAfterAnother, toldOf } from '../../../engine/sync/said'
import { readResponse } from '../../../renderer/src/api/client'
import { messages } from '../../../renderer/src/i18n'
import { syncText } from '../../../renderer/src/sync/messages'
import { ACCOUNT, FakeClock, makeEngine, type TestEngine } from '../../helpers/make-engine'
import { FAST, localWithProfile, startRemote, stopRemote, type Remote } from '../../engine/sync/remote'
import { asAppClient, clientRefusal, heard, keyed } from '../app-client'

const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
const say = (text: string, lang: 'en' | 'zh' = 'zh') => syncText(text, (k, named) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k)), lang)

const URL_ = new URL('https://api.example.test/base/cms/v1/campaigns/list')
const netError = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) })

/** The message of what a RemoteClient throws when the scripted `replies` answer its login and one GET, as the app reads it from a status that tells it. */
async function clientError(replies: (Response | Error)[], signal?: AbortSignal): Promise<string> {
  const fetch = (async () => {
    const r = replies.shift()
    if (!r) throw new Error('unexpected request')
    if (r instanceof Error) throw r
    return r
  }) as typeof globalThis.fetch
  const profile = { base_url: 'https://api.example.test/base', auth_url: 'https://auth.example.test', username: 'john', client_id: 'cid' }
  const c = new RemoteClient(profile, async () => ({ password: 'pw', client_secret: 'cs' }), new FakeClock('2025-01-10'), { fetch, pacingMs: 0, retries: 0 }, signal)
  const err = await c.get('/cms/v1/campaigns/list').then(() => null, (e: unknown) => e)
  expect(err).toBeInstanceOf(RemoteError)
  return heardError(err)
}
/** The message of `err` as a pull's or push's status tells it (engine/sync/said.ts), read by the app. */
const heardError = (err: unknown) => heard(toldOf(err))
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const token = () => json(200, { access_token: 'tok', token_type: 'bearer', expires_in: 3600, scope: 'cms' })
const html = (status = 200) => new Response('<html></html>', { status, headers: { 'content-type': 'text/html' } })

describe('syncText: a call to the remote that failed', () => {
  it('says a network failure in Chinese, with its host, path and code', () => {
    const timeout = Object.assign(new Error('t'), { name: 'TimeoutError' })
    const net = (err: unknown, ms = 1000) => say(heardError(networkError(err, URL_, ms)))
    expect(net(timeout, 30_000)).toBe('api.example.test 未在 30 s 内应答（/base/cms/v1/campaigns/list）。')
    expect(net(netError('ENOTFOUND'))).toBe('找不到地址 api.example.test（DNS：ENOTFOUND）；请检查基础地址和网络。')
    expect(net(netError('ECONNREFUSED'))).toBe('api.example.test 拒绝连接；请检查基础地址以及服务是否已启动。')
    expect(net(netError('EHOSTUNREACH'))).toBe('api.example.test 无应答（EHOSTUNREACH）；请检查基础地址以及服务是否已启动。')
    expect(net(netError('CERT_HAS_EXPIRED'))).toBe('与 api.example.test 的安全连接失败（TLS：CERT_HAS_EXPIRED）；请检查地址是否正确、其证书是否受信任。')
    expect(net(netError('ECONNRESET'))).toBe('api.example.test 在 /base/cms/v1/campaigns/list 期间关闭了连接（ECONNRESET）。')
    expect(net(new TypeError('fetch failed'))).toBe('无法连接 api.example.test：fetch failed。')
  })

  it("says an HTTP error in Chinese, keeping the remote's own code and words", () => {
    const http = (status: number, body: unknown, path: string) => say(heardError(httpError(status, body, path, null)))
    expect(http(429, {}, '/cms/v1/campaigns/list')).toBe('远端要求放慢请求（HTTP 429），于 /cms/v1/campaigns/list。')
    expect(http(502, { error: 'server_error', error_description: 'Upstream down.' }, '/x')).toBe('远端处理 /x 时出错（server_error: Upstream down.）。')
    expect(http(404, {}, '/cms/v1/brands/list')).toBe('远端没有 /cms/v1/brands/list（HTTP 404）：基础地址指向的不是此 API。')
    expect(http(400, { error: 'invalid_request', error_description: "The 'limit' is bad." }, '/y')).toBe("远端拒绝了 /y（invalid_request: The 'limit' is bad.）。")
    expect(http(403, {}, '/y')).toBe('远端拒绝了 /y（HTTP 403）。')
  })

  it('says the login and answer failures of the client in Chinese', async () => {
    expect(say(await clientError([json(400, { error: 'invalid_grant' })]))).toBe('用户名或密码被拒绝（invalid_grant）。')
    expect(say(await clientError([json(400, { error: 'invalid_client' })]))).toBe('客户端 ID 或客户端密钥被拒绝（invalid_client）。')
    expect(say(await clientError([json(400, { error: 'unsupported_grant_type' })]))).toBe('auth.example.test/oauth/token 不支持密码授权（unsupported_grant_type）。')
    expect(say(await clientError([json(404, {})]))).toBe('auth.example.test/oauth/token 不是 OAuth 令牌端点（HTTP 404）：请检查认证地址。')
    expect(say(await clientError([html()]))).toBe('auth.example.test/oauth/token 不是 OAuth 令牌端点（HTTP 200，不是 JSON）：请检查认证地址。')
    expect(say(await clientError([token(), new Response(null, { status: 301, headers: { location: 'https://new.example.test/base/cms/v1/campaigns/list?access_token=tok' } })])))
      .toBe('/cms/v1/campaigns/list 重定向（HTTP 301）到 https://new.example.test/base/cms/v1/campaigns/list：请在配置中使用该地址。')
    expect(say(await clientError([token(), new Response(null, { status: 302 })]))).toBe('/cms/v1/campaigns/list 重定向（HTTP 302）到另一个地址：请在配置中使用那个地址。')
    expect(say(await clientError([token(), new Response('{"a": [1', { status: 200, headers: { 'content-type': 'application/json' } })]))).toBe('/cms/v1/campaigns/list 的应答被截断，或不是有效的 JSON。')
    expect(say(await clientError([token(), html()]))).toBe('/cms/v1/campaigns/list 的应答不是 JSON：基础地址指向的不是此 API。')
    expect(say(await clientError([token(), json(401, { error: 'invalid_token' }), token(), json(401, { error: 'expired_token' })]))).toBe('远端拒绝了 /cms/v1/campaigns/list 上的令牌（expired_token）。')
    // access_denied is an ended token first (vendor-notes §1.4); again with a new token, a refusal
    expect(say(await clientError([token(), json(400, { error: 'access_denied' }), token(), json(400, { error: 'access_denied', error_description: 'No permission' })])))
      .toBe('重新登录后，远端仍拒绝 /cms/v1/campaigns/list（access_denied: No permission）。')
    const aborted = new AbortController()
    aborted.abort()
    expect(say(await clientError([], aborted.signal))).toBe('已取消。')
  })

  it('says why a pull or push stopped in Chinese', () => {
    const stop = (what: 'pull' | 'push') => {
      const c = new AbortController()
      c.abort()
      try {
        checkCancelled(c.signal, what)
      } catch (e) {
        return heardError(e)
      }
      throw new Error('not cancelled')
    }
    expect(say(stop('pull'))).toBe('拉取已取消。')
    expect(say(stop('push'))).toBe('推送已取消。')
    // engine/sync/jobs.ts stopped(), pull-fetch.ts, push.ts, service.ts (and its test's success), by the problems they store
    const written: [Told, string][] = [
      [problem('sync.internal', { what: 'push', detail: 'boom' }), '推送因内部错误而停止：boom'],
      [problem('remote.notList', { path: '/cms/v1/panels/list' }), '/cms/v1/panels/list 的应答不是列表。'],
      [problem('remote.answeredWithout', { path: '/cms/v1/campaigns/create', member: 'campaign_id' }), '/cms/v1/campaigns/create 的应答缺少 campaign_id。'],
      [problem('sync.noPassword', { name: 'Real service' }), '配置 Real service 没有保存密码：请重新输入。'],
      [problem('sync.noClientSecret', { name: 'Real service' }), '配置 Real service 没有保存客户端密钥：请重新输入。'],
      [problem('sync.loggedIn', { name: 'john', host: 'auth.example.test' }), '已以 john 身份登录 auth.example.test；活动列表可以应答。'],
    ]
    for (const [m, said] of written) expect(say(heard(m)), toldText(m)).toBe(said)
  })
})

describe('syncText: what a pull skipped and a push did', () => {
  const refused = toldOf(httpError(403, { error: 'forbidden' }, '/cms/v1/campaigns/show', null))

  it('says each skipped list and campaign of a pull, after why it stopped (engine/sync/pull-jobs.ts)', () => {
    expect(say(heard(problem('pull.listSkipped', { records: 'advertiser', reason: refused })))).toBe('已跳过广告主列表：远端拒绝了 /cms/v1/campaigns/show（forbidden）。')
    const stopped = toldOf(networkError(netError('ECONNRESET'), URL_, 1000))
    const notes = [problem('pull.campaignSkipped', { id: '12', reason: refused }), problem('pull.listSkipped', { records: 'region', reason: refused })]
    expect(say(heard(oneAfterAnother([stopped, ...notes])))).toBe(
      'api.example.test 在 /base/cms/v1/campaigns/list 期间关闭了连接（ECONNRESET）。已跳过活动 12：远端拒绝了 /cms/v1/campaigns/show（forbidden）。已跳过地域列表：远端拒绝了 /cms/v1/campaigns/show（forbidden）。',
    )
  })

  it('says what a push did with an operation (engine/sync/push.ts)', () => {
    const said = (m: Told) => say(heard(m))
    expect(said(problem('push.finishedNow', {}))).toBe('由之前的推送创建；现已完成。')
    expect(said(problem('push.reconciled', { kind: 'spot', id: '88' }))).toBe('在远端找到广告位 88（由中断的推送创建）；不再重复发送。')
    expect(said(problem('push.gone', { kind: 'campaign', id: '7' }))).toBe('远端已没有活动 7。')
    expect(said(problem('push.conflict', { kind: 'spot', id: '9', fields: 'spot_name, url' }))).toBe('自上次拉取后，远端的广告位 9 已更改（spot_name, url）：未发送；请解决冲突（保留我的、采用远程或编辑）。')
    expect(said(problem('push.blocked', { id: '3' }))).toBe('等待本地活动 3 推送后再发送。')
    expect(said(choiceMessage([{ param: 'advertiser_id', kind: 'advertiser', name: 'X', reason: 'no_match', candidates: [] }])))
      .toBe("请选择远程记录：no advertiser at the remote is named exactly 'X'（sync outbox choose，或在同步页面选择；拉取可刷新列表）。")
  })
})

describe('syncText: what a pull and a push store, read by the app from their status', () => {
  let remote: Remote
  afterAll(() => stopRemote(remote))

  it('says a pull that skipped a list and a campaign, and a push and a connection test that cannot reach the remote, in Chinese', async () => {
    remote = await startRemote(2)
    const denied = remote.campaignIds[1]!
    const fetch = (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      if (url.pathname === '/cms/v1/extensiontype/list') return new Response('{"error":"not_found"}', { status: 404 })
      if (url.pathname === '/cms/v1/campaigns/list_spots' && url.searchParams.get('campaign_id') === denied)
        return new Response('{"error":"invalid_request","error_description":"no such campaign"}', { status: 400 })
      return globalThis.fetch(input, init)
    }) as typeof globalThis.fetch
    const { local, profileId } = await localWithProfile(remote.url, { ...FAST, fetch })
    asAppClient(local)
    try {
      const pull = readResponse((await local.post('/local/v1/sync/pull/start', { profile_id: profileId })).raw) as { state: string; message: string }
      expect(pull.state).toBe('done')
      expect(say(pull.message)).toBe(
        '已跳过扩展类型列表：远端没有 /cms/v1/extensiontype/list（HTTP 404）：基础地址指向的不是此 API。' +
          `已跳过活动 ${denied}：远端拒绝了 /cms/v1/campaigns/list_spots（invalid_request: no such campaign）。`,
      )
      const history = readResponse((await local.get('/local/v1/sync/pulls/list', { profile_id: profileId })).raw) as { message: string }[]
      expect(say(history[0]!.message)).toBe(say(pull.message))
      // a profile whose remote is gone: the push stops at its login, "Test connection" says why
      await stopRemote(remote)
      const push = readResponse((await local.post('/local/v1/sync/push/start', { profile_id: profileId, wait: '1' })).raw) as { state: string; message: string }
      const host = new URL(remote.url).host
      expect(push.state).toBe('failed')
      expect(say(push.message)).toBe(`${host} 拒绝连接；请检查基础地址以及服务是否已启动。没有要发送的内容。未发送的操作仍在发件箱中；再次推送即可继续。`)
      const test = readResponse((await local.post('/local/v1/sync/profiles/test', { profile_id: profileId })).raw) as { ok: boolean; message: string }
      expect(say(test.message)).toBe(`${host} 拒绝连接；请检查基础地址以及服务是否已启动。`)
    } finally {
      await local.engine.close()
    }
  })
})

describe('syncText: the refusals of the sync endpoints', () => {
  let e: TestEngine
  let profile = ''
  const refusal = async (path: string, form: Record<string, string>) => {
    const r = await e.post(path, form)
    expect(r.status, r.raw.body).toBe(400)
    return clientRefusal(r)
  }
  beforeAll(async () => {
    e = asAppClient(await makeEngine())
    const r = await e.post('/local/v1/sync/profiles/create', { name: 'Real service', base_url: 'https://api.example.test', ...ACCOUNT })
    profile = r.body.profile_id as string
  })
  afterAll(() => e.engine.close())

  it('says the remote profile form refusals in Chinese, naming the fields as the form does', async () => {
    const create = (form: Record<string, string>) => refusal('/local/v1/sync/profiles/create', { name: 'Other', base_url: 'https://b.example.test', ...ACCOUNT, ...form })
    expect(say(await create({ base_url: 'https://u:p@b.example.test' }))).toBe('基础地址不能包含用户名或密码；请使用配置中的字段。')
    expect(say(await create({ auth_url: 'https://b.example.test/?x=1' }))).toBe("认证地址不能包含查询或片段（收到 'https://b.example.test/?x=1'）；只填写服务的地址。")
    expect(say(await create({ name: 'Real service' }))).toBe(`配置 ${profile} 已使用此名称。`)
    expect(say(await refusal('/local/v1/sync/profiles/update', { profile_id: '999' }))).toBe('没有远程配置 999。')
    // a codec's refusal, as the forms say it (utils/form-alert.ts)
    expect(say(await create({ base_url: 'ftp://b.example.test' }))).toMatch(/^基础地址/)
  })

  it('says the refusals of a mode change in Chinese', async () => {
    expect(say(await refusal('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'offline' }))).toBe('离线模式需要选择一个远程配置。')
    expect(say(await refusal('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'forward' }))).toBe('转发模式需要选择一个远程配置。')
    const self = e.engine.settings.publicUrl
    const own = await e.post('/local/v1/sync/profiles/create', { name: 'Itself', base_url: self, ...ACCOUNT })
    expect(say(await refusal('/local/v1/sync/modes/set', { group: 'reports', mode: 'forward', profile_id: own.body.profile_id }))).toBe(`配置 Itself 的基础地址就是本引擎自身（${self}）：转发会形成循环。`)
    expect((await e.post('/local/v1/sync/modes/set', { group: 'reference', mode: 'forward', profile_id: profile })).status).toBe(200)
    expect((await e.post('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'forward', profile_id: profile })).status).toBe(200)
    expect(say(await refusal('/local/v1/sync/profiles/update', { profile_id: profile, base_url: self })))
      .toBe(`基础地址就是本引擎自身（${self}），而活动、参考列表正转发到配置 Real service：转发会形成循环；请先将其改为本地应答。`)
    await e.post('/local/v1/sync/modes/set', { group: 'reference', mode: 'local' })
    await e.post('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'local' })
  })

  it('says the refusals of the outbox in Chinese', async () => {
    const add = (form: Record<string, string>) => refusal('/local/v1/sync/outbox/add', { profile_id: profile, ...form })
    expect(say(await add({ kind: 'campaign', op: 'update', remote_id: '77', params: 'campaign_name=x' }))).toBe('此配置尚未拉取远程活动 77：请先拉取，以便分辨远端的更改。')
    expect(say(await add({ kind: 'spot', op: 'create', local_id: '4242' }))).toBe('没有本地广告位 4242。')
    expect(say(await add({ kind: 'campaign', op: 'create' }))).toBe('没有本地 ID 时必须提供参数。')
    expect(say(await add({ kind: 'campaign', op: 'update', params: '{}' }))).toBe('没有本地 ID 的更新必须提供远程 ID。')
    expect(say(await add({ kind: 'target', op: 'update', remote_id: '5', params: '{}' }))).toBe('目标受众无法更新：服务没有目标受众的更新接口（publish_target 只能创建）。')
    expect(say(await add({ kind: 'spot', op: 'create', params: '{}' }))).toBe('没有本地 ID 的广告位创建必须提供远程活动（campaign_id）。')
    expect(say(await refusal('/local/v1/sync/outbox/update', { op_id: '31', params: '{}' }))).toBe('发件箱中没有操作 31。')
    expect(say(await add({ kind: 'campaign', op: 'create', params: 'spot_id=4' }))).toBe("'spot_id' 不是 /cms/v1/campaigns/create 的参数。")
    expect(say(await add({ kind: 'campaign', op: 'create', params: 'campaign_name=x' }))).toMatch(/^参数缺少 start_date, .+（\/cms\/v1\/campaigns\/create 要求）。$/)
    expect(say(await add({ kind: 'campaign', op: 'create', params: 'start_date=soon' }))).toMatch(/^参数有误：start_date.*soon/)
    // states a test cannot reach without a remote: the problems engine/sync/outbox.ts and outbox-params.ts refuse them with
    const written: [string, string][] = [
      [keyed('outbox.pushedAlready', { param: 'local_id', kind: 'campaign', id: '41' }), '它已作为远程活动 41 推送过：请改为排入更新。'],
      [keyed('outbox.notPushed', { param: 'local_id' }), '它尚未推送到此配置：请排入创建。'],
      [keyed('outbox.sendingQueue', { param: 'local_id', id: '8' }), '它正在发送中（操作 8，结果未知）：请先再次推送，再重新排入。'],
      [keyed('outbox.sendingEdit', { param: 'op_id' }), '该操作正在发送中（结果未知）：请先再次推送，再编辑它。'],
      [keyed('outbox.sending', { param: 'op_id' }), '该操作正在发送中（结果未知）：请先再次推送。'],
      [keyed('outbox.noChange', { param: 'params' }), '参数中没有要发送的更改。'],
      [keyed('outbox.needParamsEdit', { param: 'params' }), '编辑时必须提供参数。'],
      [keyed('outbox.needSlot', { param: 'params', names: 'start_date, end_date' }), 'start_date, end_date 需要 add_slot（排期日）。'],
      [keyed('outbox.noDiff', { param: 'local_id', kind: 'campaign', id: '12' }), '本地活动与远端活动 12 的拉取副本没有任何字段不同：没有要发送的内容。'],
      [keyed('outbox.brandAlone', { param: 'params' }), '参数中有品牌但没有其广告主（advertiser_name 或 advertiser_id）：品牌要在其广告主下查找。'],
      [keyed('outbox.notPulledRef', { param: 'params', member: 'advertiser_id', value: '999', ref: 'advertiser' }), '所选的 advertiser_id=999 不是已拉取的广告主。'],
      [keyed('outbox.notWaiting', { param: 'params', member: 'brand_id', waiting: 'advertiser_id' }), '成员 brand_id 不是等待选择的引用（advertiser_id）。'],
      [keyed('outbox.noChoice', { param: 'op_id', state: 'pending' }), '该操作没有等待选择的引用（状态 pending）。'],
      [keyed('outbox.needChoice', { param: 'params' }), '请给出选择：advertiser_id=远程ID&...'],
    ]
    for (const [text, said] of written) expect(say(text), text).toBe(said)
  })

  it('says the refusals of a snapshot pull in Chinese', async () => {
    const pull = (params: string, more: Record<string, string> = {}) => refusal('/local/v1/sync/snapshots/pull', { profile_id: profile, report: 'basic_show', params, ...more })
    expect(say(await pull('date=2025-01-10'))).toBe('参数必须包含 campaign_id（远程活动 ID）。')
    expect(say(await pull('campaign_id=12'))).toBe('参数必须包含 date，格式为 YYYY-MM-DD。')
    expect(say(await pull('campaign_id=12&date=2025-01-10&access_token=x'))).toBe('参数不能包含 access_token。')
    expect(say(await pull('campaign_id=12&date=2025-01-10&date=2025-01-11'))).toBe('参数中 date 出现了两次。')
    expect(say(await pull('campaign_id=12&date=2025-01-10', { to_date: '2025-01-09' }))).toBe('结束日期不能早于参数中的日期（2025-01-10）。')
    expect(say(await pull('campaign_id=12&date=2025-01-10', { to_date: '2026-01-10' }))).toMatch(/^日期跨度超过 \d+ 天。$/)
    expect(say(await pull('campaign_id=12&date=2025-01-10&bogus=1'))).toBe("参数会被 basic/show 拒绝：'bogus' 不是 basic/show 的参数。")
    // a parameter the report ignores (engine/sync/snapshots.ts), by its problem
    expect(say(keyed('snapshot.notParam', { param: 'metrics', path: '/admonitor/v1/reports/reach/show' }))).toBe("'metrics' 不是 /admonitor/v1/reports/reach/show 的参数。")
    expect(say(clientRefusal(await e.get('/local/v1/sync/snapshots/show', { snapshot_id: '9' })))).toBe('没有快照 9。')
    expect(say(clientRefusal(await e.get('/local/v1/sync/campaigns/show', { profile_id: profile, campaign_id: '5' })))).toBe(`配置 ${profile} 没有拉取过活动 5。`)
  })
})

describe('syncText: the fall-back', () => {
  it('keeps a message whose problem the app was not told (a row stored before the engine kept it), and every message in English', () => {
    expect(say('Something new happened.')).toBe('Something new happened.')
    expect(say('found at the remote as campaign 5 (made by an interrupted push); not sent again')).toBe('found at the remote as campaign 5 (made by an interrupted push); not sent again')
    const refused = heardError(httpError(400, { error: 'invalid_request' }, '/y', null))
    expect(say(refused, 'en')).toBe(refused)
    expect(say(heard(problem('push.finishedNow', {})), 'en')).toBe('made by an earlier push; finished now')
  })
})
