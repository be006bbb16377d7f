// vendor-notes §7: monitoring-code URLs (docs/tracking.md)
import { describe, expect, it } from 'vitest'
import { CODE_TYPE_NAMES, type CodeType } from '../../../engine/contract/vocabulary'
import { baseUrl, clickUrl, impressionUrl, landingOf, tagShape, trackingTags, utmFor, withUtm } from '../../../engine/tracking/tags'

const BASE = 'dx=__IPDX__&rt=2&ns=__IP__&ni=__IESID__&v=__LOC__&xa=__ADPLATFORM__&tr=__REQUESTID__'
const URL0 = 'http://127.0.0.1:8366'
const campaign = { campaign_id: '215', campaign_name: 'Spring 春' }
const spot = { spot_id_str: 'e', publisher_name: 'DOUYIN LE', placement_type: 'display', landing_page: 'http://www.facebook.com' }
const keyword = { keyword_id: 22050057, keyword_name: '牛奶', landing_page: 'https://www.baidu.com' }

/** The parameters each option adds, as docs/tracking.md lists them. */
const DOCUMENTED: Record<CodeType, string> = {
  mma: 'mo=__OS__&m0=__OPENUDID__&m0a=__DUID__&m1=__ANDROIDID1__&m1a=__ANDROIDID__&m2=__IMEI__&m4=__AAID__&m5=__IDFA__&m6=__MAC1__&m6a=__MAC__&m11=__OAID__&m14=__CAID__&m5a=__IDFV__&m5b=__IDFA1__&m11a=__OAID1__&m14a=__CAID1__&mn=__ANAME__',
  https: 'pro=s',
  na: 'na=__WBUID__',
  snr: 'snr=__SINAUID__',
  ls: 'lo=__LON__&la=__LAT__',
  viewable: 'vx=__VIEWSEQ__&ve=__DISVID__&vg=__IFAUTO__&vd=__DETAIL__&vf=__GROUP__&va=1',
  tr: 'ti=__TRACKINFO__',
  nw: 'nw=__WBIMPID__',
  contr: 'nd=__DRA__&np=__POS__&nn=__APP__&ng=__CTREF__&nvn=__VNAME__',
  closedurl: '',
  utm: '',
  utm_auto: 'ro=sm',
  ks: 'ka=__KA__&kb=__KB__&kc=__KC__&kd=__KD__&ke=__KE__&kf=__KF__&kg=__KG__',
  hmi: 'hm=__HOUSEHOLDID__',
  txreferer: 'txr=__TXREFERER__',
  xt: 'xtd=__DEMANDID__&xti=__ITEMID__',
  creativeid: 'mc=__CREATIVEID__',
  '?': '',
  yahoo: 'yh=__YAHOOID__',
  groupm: 'gm=__GMCOOKIE__',
  jd: 'jd=__JDID__',
  douyin: 'dy=__DOUPLUSCID__',
}
const CLICK_ONLY = new Set<CodeType>(['closedurl', 'utm', 'utm_auto'])
const ENCODED_LANDING = encodeURIComponent(spot.landing_page)

describe('tracking tags without options', () => {
  const shape = tagShape(URL0)
  it('writes the impression tag as /x/k=&p=, the base macros and an empty o= last', () => {
    expect(impressionUrl(shape, campaign, spot)).toBe(`${URL0}/x/k=215&p=e&${BASE}&o=`)
  })
  it('writes the click tag as /r/ with the URL-encoded landing page in o= last', () => {
    expect(clickUrl(shape, campaign, spot)).toBe(`${URL0}/r/k=215&p=e&${BASE}&o=http%3A%2F%2Fwww.facebook.com`)
  })
  it('adds af=<keyword id> after p= in keyword tags and lands on the keyword page', () => {
    expect(impressionUrl(shape, campaign, spot, keyword)).toBe(`${URL0}/x/k=215&p=e&af=22050057&${BASE}&o=`)
    expect(clickUrl(shape, campaign, spot, keyword)).toBe(`${URL0}/r/k=215&p=e&af=22050057&${BASE}&o=https%3A%2F%2Fwww.baidu.com`)
  })
  it("lands on the spot's page when the keyword has none", () => {
    const bare = { ...keyword, landing_page: '' }
    expect(landingOf(spot, bare)).toBe(spot.landing_page)
    expect(clickUrl(shape, campaign, spot, bare).endsWith(`&o=${ENCODED_LANDING}`)).toBe(true)
  })
  it('leaves o= empty when neither spot nor keyword has a landing page', () => {
    expect(clickUrl(shape, campaign, { ...spot, landing_page: '' })).toBe(`${URL0}/r/k=215&p=e&${BASE}&o=`)
  })
  it('returns both tags from trackingTags', () => {
    expect(trackingTags(shape, campaign, spot)).toEqual({ impression_url: impressionUrl(shape, campaign, spot), click_url: clickUrl(shape, campaign, spot) })
  })
})

describe('code_type options', () => {
  it('covers the 22 options of the spec list', () => {
    expect(CODE_TYPE_NAMES).toHaveLength(22)
    expect(Object.keys(DOCUMENTED).sort()).toEqual([...CODE_TYPE_NAMES].sort())
  })
  it.each(CODE_TYPE_NAMES)('option %s adds its documented parameters, before o=', (name) => {
    const shape = tagShape(URL0, [name])
    const imp = impressionUrl(shape, campaign, spot)
    const clk = clickUrl(shape, campaign, spot)
    const params = DOCUMENTED[name]
    if (params !== '') {
      expect(clk).toContain(`&${BASE}&${params}&o=`)
      if (CLICK_ONLY.has(name)) expect(imp).toBe(impressionUrl(tagShape(URL0), campaign, spot))
      else expect(imp).toContain(`&${BASE}&${params}&o=`)
    }
    expect(imp.endsWith('&o=')).toBe(true)
    expect(clk).toMatch(/&o=[^&]*$/)
  })
  it('puts the MMA device macros (OS, IDFA, IMEI, OAID) in both tags with mma', () => {
    const shape = tagShape(URL0, ['mma'])
    for (const url of [impressionUrl(shape, campaign, spot), clickUrl(shape, campaign, spot)]) {
      for (const m of ['mo=__OS__', 'm5=__IDFA__', 'm2=__IMEI__', 'm11=__OAID__', 'mn=__ANAME__']) expect(url).toContain(m)
    }
  })
  it('switches the scheme to https and adds pro=s with https', () => {
    const shape = tagShape(URL0, ['https'])
    expect(impressionUrl(shape, campaign, spot)).toBe(`https://127.0.0.1:8366/x/k=215&p=e&${BASE}&pro=s&o=`)
    expect(clickUrl(shape, campaign, spot).startsWith('https://127.0.0.1:8366/r/k=215')).toBe(true)
  })
  it('writes /x/?k= and /r/?k= with ?', () => {
    const shape = tagShape(URL0, ['?'])
    expect(impressionUrl(shape, campaign, spot)).toBe(`${URL0}/x/?k=215&p=e&${BASE}&o=`)
    expect(clickUrl(shape, campaign, spot).startsWith(`${URL0}/r/?k=215&p=e&`)).toBe(true)
  })
  it('leaves o= empty in the click tag with closedurl', () => {
    expect(clickUrl(tagShape(URL0, ['closedurl']), campaign, spot, keyword)).toBe(`${URL0}/r/k=215&p=e&af=22050057&${BASE}&o=`)
  })
  it('puts the landing page with utm parameters in o= with utm', () => {
    const landed = withUtm(spot.landing_page, utmFor(campaign, spot))
    expect(clickUrl(tagShape(URL0, ['utm']), campaign, spot)).toBe(`${URL0}/r/k=215&p=e&${BASE}&o=${encodeURIComponent(landed)}`)
    expect(decodeURIComponent(clickUrl(tagShape(URL0, ['utm']), campaign, spot))).toContain('utm_source=DOUYIN%20LE&utm_medium=display')
  })
  it('adds ro=sm to the click tag only and keeps the plain landing page with utm_auto', () => {
    const shape = tagShape(URL0, ['utm_auto'])
    expect(clickUrl(shape, campaign, spot)).toBe(`${URL0}/r/k=215&p=e&${BASE}&ro=sm&o=${ENCODED_LANDING}`)
    expect(impressionUrl(shape, campaign, spot)).not.toContain('ro=sm')
  })
  it('writes options in declaration order whatever order they were given in', () => {
    const a = tagShape(URL0, ['jd', 'mma', 'ks', 'https'])
    const b = tagShape(URL0, ['https', 'ks', 'mma', 'jd'])
    expect(impressionUrl(a, campaign, spot)).toBe(impressionUrl(b, campaign, spot))
    const url = impressionUrl(a, campaign, spot)
    expect(url.indexOf('mo=__OS__')).toBeLessThan(url.indexOf('pro=s'))
    expect(url.indexOf('pro=s')).toBeLessThan(url.indexOf('ka=__KA__'))
    expect(url.indexOf('ka=__KA__')).toBeLessThan(url.indexOf('jd=__JDID__'))
  })
  it('combines closedurl with utm as an empty o=', () => {
    expect(clickUrl(tagShape(URL0, ['closedurl', 'utm']), campaign, spot).endsWith('&o=')).toBe(true)
  })
})

describe('baseUrl', () => {
  it('drops trailing slashes and keeps a path prefix', () => {
    expect(baseUrl('http://h:1/track/', false)).toBe('http://h:1/track')
    expect(impressionUrl(tagShape('http://h:1/track/'), campaign, spot).startsWith('http://h:1/track/x/k=215')).toBe(true)
  })
  it('keeps an https base as it is', () => {
    expect(baseUrl('https://h', true)).toBe('https://h')
    expect(baseUrl('https://h', false)).toBe('https://h')
  })
})

describe('utmFor', () => {
  it('uses publisher, display, campaign name and spot_id_str for a display spot', () => {
    expect(utmFor(campaign, spot)).toEqual({ utm_source: 'DOUYIN LE', utm_medium: 'display', utm_campaign: 'Spring 春', utm_content: 'e' })
  })
  it('uses cpc for a search placement', () => {
    expect(utmFor(campaign, { ...spot, placement_type: 'search' }).utm_medium).toBe('cpc')
  })
  it('uses cpc and the keyword name as utm_term for a keyword', () => {
    expect(utmFor(campaign, spot, keyword)).toMatchObject({ utm_medium: 'cpc', utm_term: '牛奶' })
  })
})

describe('withUtm', () => {
  const utm = { utm_source: 'A B', utm_medium: 'cpc', utm_campaign: '春', utm_content: 'e', utm_term: 'x&y' }
  const QS = 'utm_source=A%20B&utm_medium=cpc&utm_campaign=%E6%98%A5&utm_content=e&utm_term=x%26y'
  it('starts a query with ? and encodes the values', () => {
    expect(withUtm('https://a.com/p', utm)).toBe(`https://a.com/p?${QS}`)
  })
  it('appends to an existing query with &', () => {
    expect(withUtm('https://a.com/p?b=1', utm)).toBe(`https://a.com/p?b=1&${QS}`)
  })
  it('does not double a trailing ? or &', () => {
    expect(withUtm('https://a.com/p?', utm)).toBe(`https://a.com/p?${QS}`)
    expect(withUtm('https://a.com/p?b=1&', utm)).toBe(`https://a.com/p?b=1&${QS}`)
  })
  it('keeps the fragment after the query', () => {
    expect(withUtm('https://a.com/p?b=1#top', utm)).toBe(`https://a.com/p?b=1&${QS}#top`)
    expect(withUtm('https://a.com/p#top', utm)).toBe(`https://a.com/p?${QS}#top`)
  })
  it('keeps a utm_ key the page already has and does not add it again', () => {
    const out = withUtm('https://a.com/?utm_source=mine&utm_medium=email', utm)
    expect(out).toBe('https://a.com/?utm_source=mine&utm_medium=email&utm_campaign=%E6%98%A5&utm_content=e&utm_term=x%26y')
  })
  it('returns the page unchanged when it has every utm_ key', () => {
    const full = `https://a.com/?${QS}`
    expect(withUtm(full, utm)).toBe(full)
  })
  it('leaves an empty landing page empty', () => {
    expect(withUtm('', utm)).toBe('')
  })
  it('adds no utm_term when there is none', () => {
    const { utm_term: _t, ...noTerm } = utm
    expect(withUtm('https://a.com/', noTerm)).not.toContain('utm_term')
  })
})
