// docs/measurement.md: attribution of one tracking request (docs/attribution.md)
import { describe, expect, it } from 'vitest'
import { createHmac } from 'node:crypto'
import { Attributor, RegionLocator, type TrackingRequest } from '../../../../engine/measure/attribute/index'
import { buildRegions } from '../../../../engine/reference/regions'
import { IVT, PLATFORM, SDK } from '../../../../engine/measure/types'

const regions = buildRegions()
const KEY = new Uint8Array(32).fill(3)
const attributor = new Attributor(new RegionLocator(regions), { identityKey: KEY })
const ipua = (ip: string, ua: string): string => `ipua:${createHmac('sha256', KEY).update(`${ip}\n${ua}`).digest('hex').slice(0, 32)}`
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
const request = (over: Partial<TrackingRequest>): TrackingRequest => ({ path: '/x/k=215&p=e&o=', query: '', headers: { 'user-agent': ANDROID }, remoteAddress: '::ffff:127.0.0.1', ...over })

describe('Attributor.attribute', () => {
  it('combines identity, platform, region and class for an app impression', () => {
    const a = attributor.attribute(request({ path: '/x/k=215&p=e&ns=202.96.134.133&m11=OAID-1&sdk=mz&o=', headers: { 'user-agent': 'okhttp/4.9.0' } }))
    expect(a).toMatchObject({ ip: '202.96.134.133', identity: 'oaid:oaid-1', device: true, platform: PLATFORM.mb, sdk: SDK.mz, isp: '电信', ivt: IVT.valid, rule: '' })
    expect(regions[a?.region ?? -1]?.gb_code).toBe('440300')
    expect(a?.tracking.kind).toBe('impression')
  })

  it('sends a new browser to the cookie check, holding its address identity, and reads the cookie back', () => {
    const first = attributor.attribute(request({ path: '/r.gif', query: 'k=215&p=e&o=http://www.facebook.com' }))
    expect(first).toMatchObject({ device: false, kind: 'check', identity: ipua('127.0.0.1', ANDROID), platform: PLATFORM.mb, ivt: IVT.valid, region: 0, marker: null, links: [] })
    const cookie = 'amid=0123456789abcdef0123456789abcdef'
    const second = attributor.attribute(request({ path: '/x/amc=0123456789abcdef0123456789abcdef&k=215&p=e&o=', headers: { 'user-agent': ANDROID, cookie }, remoteAddress: '61.135.169.121' }))
    expect(second).toMatchObject({ identity: 'amid:0123456789abcdef0123456789abcdef', kind: 'cookie', marker: '0123456789abcdef0123456789abcdef' })
    expect(second?.legacy).toBeUndefined()
  })

  it('counts a server-to-server hit (ns= a public address) as the address it names and its agent, without a check', () => {
    const a = attributor.attribute(request({ path: '/x/k=215&p=e&ns=202.96.134.133&o=', headers: { 'user-agent': 'AdServer/2.0' } }))
    expect(a).toMatchObject({ kind: 'address', identity: ipua('202.96.134.133', 'AdServer/2.0'), ip: '202.96.134.133' })
    // a private ns= names the media's own network: no server-to-server hit
    expect(attributor.attribute(request({ path: '/x/k=215&p=e&ns=10.1.2.3&o=' }))?.kind).toBe('check')
  })

  it('passes the other device ids of a hit as links', () => {
    const a = attributor.attribute(request({ path: '/x/k=215&p=e&m5=ABCDEF01-2345-6789-ABCD-EF0123456789&m14=CAID-9&o=' }))
    expect(a).toMatchObject({ kind: 'device', identity: 'idfa:abcdef01-2345-6789-abcd-ef0123456789', links: ['caid:caid-9'] })
  })

  it('gives the same address identity through addressAgent (the import)', () => {
    expect(attributor.addressAgent('202.96.134.133', 'AdServer/2.0').identity).toBe(ipua('202.96.134.133', 'AdServer/2.0'))
    expect(() => new Attributor(new RegionLocator(regions)).addressAgent('202.96.134.133', 'x')).toThrow(/identity key/)
  })

  it('classifies a declared bot from a data centre as a bot', () => {
    expect(attributor.attribute(request({ headers: { 'user-agent': 'curl/8.5.0' }, remoteAddress: '47.100.1.1' }))).toMatchObject({ ivt: IVT.bot, isp: '阿里云', platform: PLATFORM.pc })
  })

  it('classifies a browser on a cloud address as data centre', () => {
    expect(attributor.attribute(request({ remoteAddress: '47.100.1.1' }))?.ivt).toBe(IVT.datacenter)
  })

  it('returns null for a path that is not a tracking path', () => {
    expect(attributor.attribute(request({ path: '/cms/v1/campaigns/list' }))).toBeNull()
  })
})
