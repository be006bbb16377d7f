// docs/errors.md "Problem keys": a refusal's problem key and arguments reach the app's client over
// both doors it uses (the desktop app's IPC channel, the HTTP door of the served web UI), and the
// Chinese interface says the refusal by them; a client that does not ask gets the answer as before.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createI18n } from 'vue-i18n'
import { ApiError } from '../../engine/contract/errors'
import { PROBLEM_HEADER, PROBLEM_WANTED_HEADER, describe as describeProblem } from '../../engine/contract/problems'
import { startHttpDoor, type HttpDoor } from '../../engine/server/http'
import { ApiClient } from '../../renderer/src/api/client'
import { httpTransport, type Transport } from '../../renderer/src/api/transport'
import { messages } from '../../renderer/src/i18n'
import { lineErrorText } from '../../renderer/src/server/line-errors'
import { engineNotice } from '../../renderer/src/utils/engine-notice'
import { makeEngine, type TestEngine } from '../helpers/make-engine'

type Handler = (event: { senderFrame?: { url: string } | null }, req: unknown) => Promise<unknown>
const handlers = new Map<string, Handler>()
vi.mock('electron', () => ({ ipcMain: { handle: (channel: string, fn: Handler) => void handlers.set(channel, fn) } }))
const { registerIpc } = await import('../../main/ipc')

// the built renderer beside main/ (main/window.ts isAppUrl)
const APP = { senderFrame: { url: new URL('../../renderer/index.html', import.meta.url).href } }
const zh = createI18n({ legacy: false, locale: 'zh', messages }).global
const sayZh = (text: string) => engineNotice(text, (k, named) => (named ? zh.t(k, named) : zh.t(k)), 'zh', (p) => (messages.zh.campaigns.field as Record<string, string>)[p])
const SPRING = { campaign_name: 'Spring', start_date: '2025-01-10', end_date: '2025-01-20' }

let t: TestEngine
let door: HttpDoor
let firstId = ''
beforeAll(async () => {
  t = await makeEngine()
  firstId = String((await t.post('/cms/v1/campaigns/create', SPRING)).body.campaign_id)
  door = await startHttpDoor(t.engine, { port: 0 })
  registerIpc(t.engine)
})
afterAll(async () => {
  await door.close()
  await t.engine.close()
})

/** The refusal a call through the app's client gets. */
async function refusalOf(client: ApiClient, call: (c: ApiClient) => Promise<unknown>): Promise<ApiError> {
  try {
    await call(client)
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError)
    return e as ApiError
  }
  throw new Error('not refused')
}

const doors: [string, () => Transport][] = [
  ['the IPC channel', () => (r) => handlers.get('engine:request')!(APP, r) as ReturnType<Transport>],
  ['the HTTP door', () => httpTransport(door.url)],
]

describe.each(doors)('a refusal over %s', (_, transport) => {
  it('carries its problem key and arguments, its description written from them', async () => {
    const client = new ApiClient(transport())
    client.token = t.token
    const used = await refusalOf(client, (c) => c.call('campaigns.create', SPRING))
    expect(used.problem).toEqual({ key: 'param.nameUsed', args: { param: 'campaign_name', value: 'Spring', id: firstId } })
    expect(used.message).toBe(describeProblem('param.nameUsed', { param: 'campaign_name', value: 'Spring', id: firstId }))
    const limit = await refusalOf(client, (c) => c.call('campaigns.list', { limit: 'all' }))
    expect(limit.problem).toEqual({ key: 'param.limitForm', args: { param: 'limit', got: 'all' } })
    client.token = 'not-a-token'
    const token = await refusalOf(client, (c) => c.call('campaigns.list'))
    expect(token.problem).toEqual({ key: 'token.unknown', args: { path: '/oauth/token' } })
  })

  it('is said in Chinese by its key', async () => {
    const client = new ApiClient(transport())
    client.token = t.token
    expect(sayZh((await refusalOf(client, (c) => c.call('campaigns.create', SPRING))).message)).toBe(`活动名称：已被活动 ${firstId} 使用`)
    expect(sayZh((await refusalOf(client, (c) => c.call('campaigns.create', { ...SPRING, campaign_name: 'x'.repeat(300) }))).message)).toBe('活动名称：不能超过 255 个字符')
    expect(sayZh((await refusalOf(client, (c) => c.call('campaigns.list', { limit: '0,0' }))).message)).toBe('limit：N 须在 1 到 100000 之间（收到 0）')
    client.token = 'not-a-token'
    expect(sayZh((await refusalOf(client, (c) => c.call('campaigns.list'))).message)).toBe('访问令牌无效或已被撤销，请从 /oauth/token 重新获取。')
  })
})

describe("the problems of an answer's messages (a job's rejected lines)", () => {
  const zhT = (k: string, named?: Record<string, unknown>) => (named ? zh.t(k, named) : zh.t(k))
  it.each(doors)('come over %s to the app, which says the lines in Chinese', async (_, transport) => {
    const client = new ApiClient(transport())
    client.token = t.token
    const job = await client.call('events.import', { format: 'ndjson', wait: 1 }, { text: '[1]\n' })
    expect(job.errors).toEqual([{ line: 1, error: 'is JSON but not an object; each line is one JSON object', error_problem: { key: 'line.notObject', args: {} } }])
    expect(lineErrorText(job.errors[0]!.error, zhT, 'zh')).toBe('是 JSON，但不是对象；每行须为一个 JSON 对象')
  })

  it('are left out for a client that does not ask', async () => {
    const r = await fetch(`${door.url}/local/v1/events/import?format=ndjson&wait=1&access_token=${t.token}`, { method: 'POST', body: '[1]\n', headers: { 'content-type': 'text/plain' } })
    expect((await r.json()).errors).toEqual([{ line: 1, error: 'is JSON but not an object; each line is one JSON object' }])
  })
})

describe("the HTTP door's own refusals", () => {
  it('carry their problem too: a body over the limit before the token is known', async () => {
    const body = `campaign_name=${'x'.repeat(300 << 10)}`
    const r = await fetch(`${door.url}/cms/v1/campaigns/create`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', [PROBLEM_WANTED_HEADER]: '1' } })
    expect(r.status).toBe(413)
    expect(JSON.parse(decodeURIComponent(r.headers.get(PROBLEM_HEADER)!))).toEqual({ key: 'door.tooLargeOpen', args: { max: 256 << 10, form: 8 << 20 } })
    expect((await r.json()).error_description).toBe(describeProblem('door.tooLargeOpen', { max: 256 << 10, form: 8 << 20 }))
  })
})

describe('a client that does not ask for the problem', () => {
  it('gets the answer without the header, its body the same bytes', async () => {
    const form = new URLSearchParams({ ...SPRING, access_token: t.token }).toString()
    const ask = (headers: Record<string, string>) => fetch(`${door.url}/cms/v1/campaigns/create`, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } })
    const plain = await ask({})
    const asked = await ask({ [PROBLEM_WANTED_HEADER]: '1' })
    expect(plain.status).toBe(400)
    expect(plain.headers.get(PROBLEM_HEADER)).toBeNull()
    expect(JSON.parse(decodeURIComponent(asked.headers.get(PROBLEM_HEADER)!))).toEqual({ key: 'param.nameUsed', args: { param: 'campaign_name', value: 'Spring', id: firstId } })
    expect(await plain.text()).toBe(await asked.text())
  })
})
