// renderer/src/server/line-errors.ts: an import's rejected lines and job message, said in Chinese by the problems the answers tell
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { lineToHit, parseTime, type ImportContext, type ImportLine } from '../../../engine/measure/import'
import { lines } from '../../../engine/measure/import-run'
import { importPersons } from '../../../engine/measure/panel/import'
import type { Db } from '../../../engine/storage/db'
import { messageOf, rememberMessages } from '../../../renderer/src/api/problems'
import { messages } from '../../../renderer/src/i18n'
import { importMessageText, lineErrorText } from '../../../renderer/src/server/line-errors'
import { readResponse } from '../../../renderer/src/api/client'
import { makeEngine, toReply, type TestEngine } from '../../helpers/make-engine'
import { panelDb } from '../../engine/measure/panel/helpers'
import { createSpot, newCampaign, path } from '../../engine/routes/spot-helpers'
import { asAppClient, keyed } from '../app-client'

const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
const line = (lang: 'en' | 'zh', error: string) => lineErrorText(error, (k, named) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k)), lang)
const job = (lang: 'en' | 'zh', message: string) => importMessageText(message, (k, named) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k)), lang)

// spot 5 of campaign 1 with keyword 7; minisite 3 with event 4, linked to campaign 1
const context = {
  lookup: {
    spot: (id: number) => (id === 5 ? { campaign_id: 1, keywords: new Set([7]) } : null),
    minisite: (id: number) => (id === 3 ? { events: new Set([4]), campaigns: new Set([1]) } : null),
  },
  attributor: () => ({ locator: { locate: () => ({ region: 0, isp: '' }) } }),
  zoneOffsetAt: () => 8 * 3_600_000,
} as unknown as ImportContext
const good: ImportLine = { type: 'impression', ts: '2025-01-10T08:00:00Z', campaign_id: '1', spot_id: '5', identity: 'idfa:ABC' }

/** The engine's own reason for a bad line, its problem kept as the client keeps a job's (api/problems.ts). */
function refusal(l: ImportLine): string {
  try {
    lineToHit(l, context)
  } catch (e) {
    return messageOf(e)
  }
  throw new Error(`${JSON.stringify(l)} was not refused`)
}
const timeRefusal = (raw: unknown) => refusal({ ...good, ts: raw })
/** The reason the line reader gives for line 2 of a CSV or an NDJSON text. */
function readRefusal(text: string, format: 'csv' | 'ndjson'): string {
  const cursor = lines(text, format)
  while (cursor.next()) if (cursor.value instanceof Error) return messageOf(cursor.value)
  throw new Error('no bad line')
}

describe('lineErrorText', () => {
  it("says the engine's reasons about ts in Chinese, with the values", () => {
    expect(parseTime('2025-01-10T08:00:00Z', () => 0)).toBeGreaterThan(0)
    expect(line('zh', timeRefusal(''))).toBe('缺少 ts')
    expect(line('zh', timeRefusal('1736496000'))).toBe('ts 1736496000 只有 10 位数字，像是 Unix 秒：须为毫秒（若是秒，写作 1736496000000）或 ISO 8601 时间')
    expect(line('zh', timeRefusal('yesterday'))).toBe('ts 须为自 1970 年起的毫秒数或 ISO 8601 时间（收到“yesterday”）')
    expect(line('zh', timeRefusal('2025-02-30T10:00'))).toBe('ts 不是真实存在的时间（“2025-02-30T10:00”）')
    expect(line('zh', timeRefusal('2025-01-10T10:00+15:00'))).toBe('ts 的时区偏移不可能（“2025-01-10T10:00+15:00”）')
    expect(line('zh', timeRefusal('2150-01-01T00:00Z'))).toBe('ts 须在 1970 年到 2100 年之间（收到“2150-01-01T00:00Z”）')
  })

  it("says the reasons about identity, type, region, platform and sdk in Chinese", () => {
    expect(line('zh', refusal({ ...good, identity: 'phone:1' }))).toMatch(/^identity 须写作“命名空间:值”，命名空间为 idfa, .+, amid 之一（收到“phone:1”）$/)
    expect(line('zh', refusal({ ...good, identity: 'idfa:' }))).toBe('identity 中没有可用的 ID（“idfa:”）')
    expect(line('zh', refusal({ ...good, identity: '' }))).toBe('缺少身份：请提供 identity，或同时提供 ip 和 user_agent')
    expect(line('zh', refusal({ ...good, type: 'view' }))).toBe('type 须为 impression、click 或 event（收到“view”）')
    expect(line('zh', refusal({ ...good, region_id: 'XX' }))).toBe('region_id XX 不是有效的地区')
    expect(line('zh', refusal({ ...good, platform: 'tv' }))).toBe('platform 须为 pc 或 mb（收到“tv”）')
    expect(line('zh', refusal({ ...good, sdk: 'xx' }))).toBe('sdk 须为 mm、mz 或 none（收到“xx”）')
  })

  it('says the reasons about campaigns, spots, keywords, minisites and events in Chinese', () => {
    expect(line('zh', refusal({ ...good, campaign_id: 'abc' }))).toBe('campaign_id 须为正整数 ID（收到“abc”）')
    expect(line('zh', refusal({ ...good, spot_id: undefined }))).toBe('既没有 spot_id，也没有有效的 spot_id_str')
    expect(line('zh', refusal({ ...good, spot_id: '9' }))).toBe('广告位 9 不属于活动 1')
    expect(line('zh', refusal({ ...good, keyword_id: '8' }))).toBe('关键词 8 不属于广告位 5')
    const event: ImportLine = { type: 'event', ts: good.ts, identity: 'idfa:ABC', minisite_id: '3', event_id: '4' }
    expect(line('zh', refusal({ ...event, minisite_id: '2' }))).toBe('活动站点 2 不存在')
    expect(line('zh', refusal({ ...event, event_id: '6' }))).toBe('事件 6 不属于活动站点 3')
    expect(line('zh', refusal({ ...event, spot_id_str: '!' }))).toBe('spot_id_str 不是有效的广告位 ID（收到“!”）')
    expect(line('zh', refusal({ ...event, campaign_id: '2' }))).toBe('活动 2 未关联活动站点 3')
    expect(line('zh', refusal({ ...event, spot_id: '5' }))).toBe('事件行填写 spot_id 时须同时填写 campaign_id')
  })

  it("says the line reader's reasons in Chinese, where the JSON breaks and no parser English", () => {
    expect(line('zh', readRefusal('type,ts\nimpression,1,extra\n', 'csv'))).toBe('有 3 个字段，而表头有 2 个')
    expect(line('zh', readRefusal('[1]\n', 'ndjson'))).toBe('是 JSON，但不是对象；每行须为一个 JSON 对象')
    expect(line('zh', readRefusal('{oops\n', 'ndjson'))).toBe('不是 JSON 对象：其 JSON 在第 2 个字符处出错')
  })

  it("keeps the engine's English in English, and any reason it does not know", () => {
    const reason = refusal({ ...good, spot_id: '9' })
    expect(line('en', reason)).toBe(reason)
    expect(line('zh', 'row is odd')).toBe('row is odd')
  })
})

describe('importMessageText', () => {
  const CAPACITY = 2
  let t: TestEngine
  beforeAll(async () => {
    t = asAppClient(await makeEngine())
    Object.defineProperty(t.engine.measure.ingest, 'capacity', { value: CAPACITY })
  })
  afterAll(() => t.engine.close())

  /** A campaign with one spot, and `n` impressions of it as import lines. */
  async function impressions(n: number): Promise<{ campaign: string; lines: string[] }> {
    const campaign = await newCampaign(t)
    const spot = await createSpot(t, campaign)
    const spot_id = String(spot.body.spot_id)
    const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ type: 'impression', ts: `2025-01-10T08:0${i}:00Z`, campaign_id: campaign, spot_id, identity: `idfa:FULL${campaign}-${i}` }))
    return { campaign, lines }
  }
  /** The finished job of importing `lines`, as the app's client reads it (its messages' problems kept). */
  async function imported(lines: string[]): Promise<{ message: string; rejected: number }> {
    const r = await t.engine.handle({ method: 'POST', path: path('events.import'), query: { format: 'ndjson', access_token: t.token }, body: lines.join('\n'), headers: { 'content-type': 'text/plain;charset=UTF-8' } })
    return readResponse(toReply(r).raw) as { message: string; rejected: number }
  }

  it('says the full campaigns of an import in Chinese, and a file of too many lines', async () => {
    const a = await impressions(CAPACITY + 1)
    const b = await impressions(CAPACITY + 2)
    const one = await imported(a.lines)
    expect(one.rejected).toBe(1)
    expect(job('zh', one.message)).toBe(`活动 ${a.campaign} 已满：已有 2 个事件，达到单个活动的上限`)
    const more = await imported([...a.lines.map((l) => l.replace('FULL', 'AGAIN')), ...b.lines])
    expect(more.rejected).toBe(CAPACITY + 1 + 2)
    expect(job('zh', more.message)).toBe(`活动 ${a.campaign} 已满：已有 2 个事件，达到单个活动的上限；活动 ${b.campaign} 已满：已有 2 个事件，达到单个活动的上限`)
    expect(job('en', more.message)).toBe(more.message)
    expect(job('zh', keyed('import.tooManyLines', { param: 'body', max: 20000000 }))).toBe('文件超过 20000000 行：请拆分后再导入')
  })

  it("keeps a message whose problem the app was not told, whole", () => {
    const full = 'campaign 3 is full: it holds 50,000,000 events, the most one campaign can hold (docs/measurement.md)'
    expect(job('zh', full)).toBe(full)
    expect(job('zh', 'odd; very odd')).toBe('odd; very odd')
    expect(job('zh', '')).toBe('')
  })
})

describe('lineErrorText (panel persons)', () => {
  const PANEL = 'china-pm-2025'
  const SHENZHEN = '000000000000001156440300'
  const HEADER = 'person_id,weight,home_region,tags,devices'
  const say = (error: string, lang: 'en' | 'zh' = 'zh') => lineErrorText(error, (k, named) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k)), lang)
  let db: Db
  beforeAll(async () => {
    db = await panelDb()
  })
  /** The engine's reason for the first rejected line of a panel import of `text`. */
  function reason(text: string, format: 'ndjson' | 'csv' = 'ndjson'): string {
    const r = importPersons(db, PANEL, text, format, 'merge')
    rememberMessages(r)
    if (!r.errors[0]) throw new Error(`${text} was not refused`)
    return r.errors[0].error
  }
  const person = (over: Record<string, unknown>) => JSON.stringify({ person_id: 'p1', weight: 1000, home_region: SHENZHEN, tags: ['male'], devices: [], ...over })
  const refusal = (over: Record<string, unknown>) => reason(person(over))
  const mobile = (device: string) => ({ devices: [{ device, platform: 'mb' }] })

  it("says the reasons about a line's shape in Chinese, where the JSON breaks and no parser English", () => {
    expect(say(reason('{"person_id":"p1"}'))).toBe('缺少 weight')
    expect(say(refusal({ person_id: undefined }))).toBe('缺少 person_id')
    expect(say(refusal({ person_id: 5 }))).toBe('person_id 须为字符串（收到 5）')
    expect(say(refusal({ tags: 'male' }))).toBe('tags 须为字符串数组')
    expect(say(refusal({ devices: {} }))).toBe('devices 须为对象数组，每个对象含 device 和 platform')
    expect(say(refusal({ devices: [1] }))).toBe('devices[0] 须为含 device 和 platform（pc 或 mb）的对象')
    expect(say(reason('{oops'))).toBe('JSON 格式有误：在第 2 个字符处出错')
    expect(say(reason('[1]'))).toBe('不是 JSON 对象')
    expect(say(refusal({ weight: 'x' }))).toBe('weight 须为数字，而不是字符串（收到 "x"）')
    expect(say(refusal({ weight: true }))).toBe('weight 须为数字（收到“true”）')
  })

  it('says the reasons about the values of a person in Chinese, with the values', () => {
    expect(say(refusal({ weight: 0 }))).toBe('weight 须大于 0 且不超过 10000000000（收到 0）')
    expect(say(refusal({ person_id: 'a b' }))).toBe('person_id 须为 1 到 64 个英文字母、数字或 _ . : @ -（收到“a b”）')
    expect(say(refusal({ home_region: '999' }))).toBe('home_region 999 不是有效的地区 ID（见 /cms/v1/regions/list）')
    expect(say(refusal({ tags: ['martian'] }))).toBe('标签“martian”不是样本库 china-pm-2025 的标签')
    expect(say(refusal({ tags: ['male', 'male'] }))).toBe('标签“male”填写了两次')
    expect(say(refusal({ tags: ['male', 'female'] }))).toBe('有两个 gender 类型的标签（“male”和“female”）：每人每种类型最多一个标签')
  })

  it('says the reasons about devices in Chinese, with the values', () => {
    const many = Array.from({ length: 33 }, (_, i) => ({ device: `idfa:${i}`, platform: 'mb' }))
    expect(say(refusal({ devices: many }))).toBe('有 33 台设备：最多 32 台')
    expect(say(refusal({ devices: [{ device: 'idfa:1', platform: 'tv' }] }))).toBe('设备“idfa:1”的平台为“tv”：请写 pc 或 mb')
    expect(say(refusal({ devices: [{ device: 'idfa:1', platform: 'mb' }, { device: 'IDFA:1', platform: 'mb' }] }))).toBe('设备“idfa:1”填写了两次')
    expect(say(refusal(mobile('amid:xyz')))).toBe('设备“amid:xyz”不是有效的 amid Cookie：其值须为 32 位十六进制数字')
    expect(say(refusal(mobile('phone:1')))).toMatch(/^设备“phone:1”须写作“命名空间:值”，命名空间为 idfa, .+, amid 之一$/)
    expect(say(refusal(mobile('idfa:')))).toMatch(/^设备“idfa:”中没有设备 ID（为空、占位值、全为 0 或空格，或超过 \d+ 个字符）$/)
    expect(say(refusal(mobile('idfa:a|b')))).toBe('设备“idfa:a|b”含有“|”，而 CSV 文件用它分隔设备')
    expect(say(refusal({ devices: [{ device: 'idfa:1', platform: 'pc' }] }))).toBe('设备“idfa:1”是移动设备 ID：其平台须为 mb')
  })

  it('says the duplicates across lines and a device of another stored person in Chinese', () => {
    expect(say(reason(`${person({ person_id: 'd1' })}\n${person({ person_id: 'd1' })}`))).toBe('person_id“d1”也出现在第 1 行')
    expect(say(reason(`${person({ person_id: 'd2', ...mobile('oaid:x2') })}\n${person({ person_id: 'd3', ...mobile('oaid:x2') })}`))).toBe('设备“oaid:x2”也出现在第 1 行：一台设备只能属于一名人员')
    // d2 is stored with oaid:x2 by the import above
    expect(say(refusal({ person_id: 'd4', ...mobile('oaid:x2') }))).toBe('设备“oaid:x2”已属于样本库 china-pm-2025 的人员“d2”：一台设备只能属于一名人员')
  })

  it('says the reasons of a CSV line in Chinese', () => {
    const csv = (row: string) => reason(`${HEADER}\n${row}\n`, 'csv')
    expect(say(csv('c1,1000'))).toBe('有 2 个字段，而表头有 5 个')
    expect(say(csv(`"c1,1000,${SHENZHEN},,`))).toBe('有带引号的字段缺少结尾的引号')
    expect(say(csv(`"c1"x,1000,${SHENZHEN},,`))).toBe('结尾的引号之后还有文字')
    expect(say(csv(`c1,,${SHENZHEN},,`))).toBe('缺少 weight')
    expect(say(csv(`c1,heavy,${SHENZHEN},,`))).toBe('weight 须为数字（收到“heavy”）')
    expect(say(csv(`c1,1000,,,`))).toBe('缺少 home_region')
    expect(say(csv(`c1,1000,${SHENZHEN},,idfa`))).toBe('设备“idfa”须写作 pc:<设备 ID> 或 mb:<设备 ID>')
  })

  it("keeps the engine's English in English, and any reason it does not know", () => {
    const tag = refusal({ tags: ['martian'] })
    expect(say(tag, 'en')).toBe(tag)
    expect(say('row is odd')).toBe('row is odd')
  })
})
