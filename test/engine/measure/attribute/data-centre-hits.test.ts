// Data centres end to end (docs/data-centres.md, docs/metrics.md): impressions from cloud addresses
// that the IP library labels with a carrier's name, from relays it labels with a cloud's name, and
// from homes, sent through the tracking tags (server to server: the address in ns=) and through
// the event import. The truth is decided here, by a plain loop over the ASN package's CSV: an
// address whose AS the data names Tencent, Huawei, Alibaba or an IDC is a data centre; one of
// Cloudflare's or Fastly's is a relay and counts; a carrier's access network counts.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { endpoints } from '../../../../engine/contract/endpoints'
import { makeEngine, toReply, type TestEngine } from '../../../helpers/make-engine'
import { createSpot, newCampaign } from '../../routes/spot-helpers'

const require = createRequire(import.meta.url)
const BASIC = endpoints['reports.basic_show'].path
const GLOBAL = '000000000000000000000000'
const DAY = '2025-01-10'
const T0 = Date.parse('2025-01-10T09:00:00+08:00')
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

/** Addresses the hits come from: cloud ranges labelled 电信/鹏博士, relays labelled 亚马逊/谷歌, homes. */
const ADDRESSES = ['42.187.128.10', '1.92.0.10', '1.203.94.10', '103.15.96.10', '49.4.111.10', '49.77.3.233', '73.21.131.233', '113.64.1.10', '61.135.169.121']

interface AsRow { start: number; end: number; asn: number; org: string }
const rows: AsRow[] = []
let label: (address: string) => string
/** The test's own verdict per address: true for a data centre. */
const truth = new Map<string, boolean>()

const toNumber = (address: string): number => address.split('.').reduce((n, b) => n * 256 + Number(b), 0)
const asOf = (address: string): AsRow | undefined => rows.find((r) => r.start <= toNumber(address) && toNumber(address) <= r.end)
const dotted = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')

beforeAll(() => {
  const csv = readFileSync(join(dirname(require.resolve('@ip-location-db/asn/package.json')), 'asn-ipv4-num.csv'), 'utf8')
  for (const line of csv.split('\n')) {
    const m = /^(\d+),(\d+),(\d+),"?(.*?)"?\r?$/.exec(line)
    if (m !== null) rows.push({ start: Number(m[1]), end: Number(m[2]), asn: Number(m[3]), org: m[4]! })
  }
  const { default: IP2Region } = require('ip2region') as { default: new (o: object) => { searchRaw(ip: string, parse: boolean): { isp: string } | null } }
  const library = new IP2Region({ disableIpv6: true })
  label = (address) => library.searchRaw(address, true)?.isp ?? ''
  // relays that the library labels with a cloud's name (its label alone would make them data centres)
  for (const r of rows) {
    if (![13335, 209242, 54113].includes(r.asn)) continue
    const address = dotted(r.start + 1)
    if (['亚马逊', '谷歌', 'SoftLayer'].includes(label(address))) ADDRESSES.push(address)
  }
  for (const address of ADDRESSES) {
    const org = asOf(address)?.org ?? ''
    truth.set(address, /tencent|huawei|alibaba|\bIDC\b/i.test(org) && !/cloudflare|fastly/i.test(org))
  }
})

let t: TestEngine
let cid = ''
/** `filters` leaves data-centre hits out (dangerous_source_filtration=1), `counts` counts them. */
const spots = { filters: '', counts: '' }
let tag = ''

beforeEach(async () => {
  t = await makeEngine({ today: DAY })
  cid = await newCampaign(t)
  expect((await createSpot(t, cid, { placement_name: 'filters', dangerous_source_filtration: 1 })).status).toBe(200)
  expect((await createSpot(t, cid, { placement_name: 'counts', dangerous_source_filtration: 0 })).status).toBe(200)
  const listed = (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid })).body as { spot_id: string; placement_name: string; tracking_tags: { impression_url: string } }[]
  spots.filters = listed.find((s) => s.placement_name === 'filters')!.spot_id
  spots.counts = listed.find((s) => s.placement_name === 'counts')!.spot_id
  tag = listed.find((s) => s.placement_name === 'filters')!.tracking_tags.impression_url
})

/** A server-to-server impression: the address in ns=, a device id of its own. */
async function impression(address: string, n: number): Promise<string> {
  const idfa = `A1B2C3D4-0000-4000-8000-${n.toString(16).padStart(12, '0')}`
  const url = (tag.includes('__IP__') ? tag.replace('__IP__', address) : tag.replace('&o=', `&ns=${address}&o=`))
    .replace(/__[A-Z0-9]+__/g, (m) => (m === '__IDFA__' ? idfa : ''))
    .replace(/^https?:\/\/[^/]+/, '')
  const q = url.indexOf('?')
  const path = q < 0 ? url : url.slice(0, q)
  const rawQuery = q < 0 ? '' : url.slice(q + 1)
  const r = toReply(await t.engine.handle({ method: 'GET', path, query: Object.fromEntries(new URLSearchParams(rawQuery)), rawQuery, headers: { 'user-agent': UA }, remoteAddress: '10.0.0.9' }))
  expect(r.raw.status).toBe(200)
  return r.headers['x-admonitor-counted'] ?? ''
}

/** Net impressions of one spot today (global row). */
async function netImpressions(spot: string): Promise<number> {
  t.token = await t.login()
  const r = await t.get(BASIC, { campaign_id: cid, date: DAY, by_position: 'spot', spot_id: spot, platform: 'pm', metrics: 'acc' })
  expect(r.status, r.raw.body).toBe(200)
  const row = (r.body.items as { attributes: { region_id: string; spot_id?: string }; metrics: Record<string, number | null> }[]).find((i) => i.attributes.region_id === GLOBAL && i.attributes.spot_id === spot)
  return row?.metrics.imp_acc ?? 0
}

describe('data-centre hits by the address\'s network', () => {
  it('has cloud addresses labelled with a carrier, relays labelled with a cloud, and homes to send from', () => {
    const clouds = ADDRESSES.filter((a) => truth.get(a))
    expect(clouds.length).toBe(5)
    for (const a of clouds) expect(['电信', '鹏博士'], a).toContain(label(a))
    expect(ADDRESSES.length - clouds.length).toBeGreaterThan(6)
  })

  it('answers and counts each tag hit by the test\'s own verdict on its address', async () => {
    let n = 0
    const answers: [string, string][] = []
    for (const address of ADDRESSES) answers.push([address, await impression(address, ++n)])
    for (const [address, answer] of answers) {
      if (truth.get(address)) expect(answer, address).toMatch(/^0; invalid traffic \(data centre: .+ \| hosting AS\d+ .+\): this spot leaves data-centre hits out/)
      else expect(answer, address).toBe('1')
    }
    const want = ADDRESSES.filter((a) => !truth.get(a)).length
    expect(await netImpressions(spots.filters)).toBe(want)
  })

  it('classes imported lines from those addresses the same way (no user agent: the address alone decides)', async () => {
    const lines = ADDRESSES.flatMap((ip, i) => [spots.filters, spots.counts].map((spot, k) => ({ type: 'impression', ts: T0 + 2 * i + k, campaign_id: cid, spot_id: spot, identity: `idfa:a1b2c3d4-0000-4000-8000-${(2 * i + k + 1).toString(16).padStart(12, '0')}`, ip, platform: 'mb' })))
    const r = await t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'ndjson' }, body: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
    expect(r.status, r.body).toBe(200)
    expect(JSON.parse(r.body).imported, r.body).toBe(lines.length)
    expect(await netImpressions(spots.filters)).toBe(ADDRESSES.filter((a) => !truth.get(a)).length)
    expect(await netImpressions(spots.counts)).toBe(ADDRESSES.length)
  })
})
