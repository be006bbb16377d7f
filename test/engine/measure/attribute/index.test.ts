// docs/measurement.md: attribution of one tracking request (docs/attribution.md)
import { describe, expect, it } from 'vitest'
import { Attributor, RegionLocator, type TrackingRequest } from '../../../../engine/measure/attribute/index'
import { buildRegions } from '../../../../engine/reference/regions'
import { IVT, PLATFORM, SDK } from '../../../../engine/measure/types'

const regions = buildRegions()
const attributor = new Attributor(new RegionLocator(regions))
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
const request = (over: Partial<TrackingRequest>): TrackingRequest => ({ path: '/x/k=215&p=e&o=', query: '', headers: { 'user-agent': ANDROID }, remoteAddress: '::ffff:127.0.0.1', ...over })

describe('Attributor.attribute', () => {
  it('combines identity, platform, region and class for an app impression', () => {
    const a = attributor.attribute(request({ path: '/x/k=215&p=e&ns=202.96.134.133&m11=OAID-1&sdk=mz&o=', headers: { 'user-agent': 'okhttp/4.9.0' } }))
    expect(a).toMatchObject({ ip: '202.96.134.133', identity: 'oaid:oaid-1', device: true, platform: PLATFORM.mb, sdk: SDK.mz, isp: '电信', ivt: IVT.valid, rule: '' })
    expect(regions[a?.region ?? -1]?.gb_code).toBe('440300')
    expect(a?.tracking.kind).toBe('impression')
  })

  it('sets the amid cookie for a new browser and reads it back', () => {
    const first = attributor.attribute(request({ path: '/r.gif', query: 'k=215&p=e&o=http://www.facebook.com' }))
    expect(first).toMatchObject({ device: false, platform: PLATFORM.mb, ivt: IVT.valid, region: 0 })
    expect(first?.setCookie).toMatch(/^amid=[0-9a-f]{32}; /)
    const cookie = first?.setCookie?.split(';')[0] ?? ''
    const second = attributor.attribute(request({ path: '/x/k=215&p=e&o=', headers: { 'user-agent': ANDROID, cookie }, remoteAddress: '61.135.169.121' }))
    expect(second?.identity).toBe(first?.identity)
    expect(second?.setCookie).toBeUndefined()
  })

  it('marks the cookie Secure for an https request', () => {
    expect(attributor.attribute(request({ secure: true }))?.setCookie).toMatch(/SameSite=None; Secure$/)
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
