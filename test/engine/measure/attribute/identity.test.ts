// DESIGN §3.2: who a hit belongs to (docs/attribution.md)
import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DEVICE_ID_PARAMS, allDeviceIds, normaliseDeviceId } from '../../../../engine/measure/attribute/device-ids'
import { addressAgentIdentity, amidFromCookieHeader, amidSetCookie, identityKeyOf, legacyIpUaHash, resolveIdentity as resolveWith, type IdentityOptions } from '../../../../engine/measure/attribute/identity'
import { seededRandom } from '../../../helpers/make-engine'
import { prng } from '../../../helpers/prng'

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const IP = '202.96.134.133'
const md5 = (t: string): string => createHash('md5').update(t).digest('hex')
const params = (o: Record<string, string>): Map<string, string> => new Map(Object.entries(o))
const KEY = new Uint8Array(32).fill(7)
const resolveIdentity = (p: Map<string, string>, cookie: string | undefined, ip: string, ua: string, o: Partial<IdentityOptions> = {}) => resolveWith(p, cookie, ip, ua, { key: KEY, ...o })
/** The address identity, computed here from its definition (HMAC-SHA256 of ip, newline, agent). */
const ipua = (ip: string, ua: string): string => `ipua:${createHmac('sha256', KEY).update(`${ip}\n${ua}`).digest('hex').slice(0, 32)}`
const legacy = (ip: string, ua: string): string => `amid:${createHash('sha256').update(`${ip}\n${ua}`).digest('hex').slice(0, 32)}`

describe('resolveIdentity: device ids', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['uses IDFA first, lower-cased', { m5: 'ABCDEF01-2345-6789-ABCD-EF0123456789', m11: 'oaid-1', m2: '860000000000001' }, 'idfa:abcdef01-2345-6789-abcd-ef0123456789'],
    ['uses the IDFA variant when the plain IDFA is unfilled', { m5: '__IDFA__', m5b: 'E3B0C44298FC1C149AFBF4C8996FB924', m11: 'x' }, 'idfa1:e3b0c44298fc1c149afbf4c8996fb924'],
    ['uses OAID before IMEI', { m2: '860000000000001', m11: 'A1B2C3' }, 'oaid:a1b2c3'],
    ['uses IMEI before AAID', { m4: 'aaid-1', m2: '860000000000001' }, 'imei:860000000000001'],
    ['uses AAID before the Android id', { m1a: 'aid', m4: 'cdda802e-fb9c-47ad-9866-0794d394c912' }, 'aaid:cdda802e-fb9c-47ad-9866-0794d394c912'],
    ['uses the Android id before its variant and CAID', { m1: 'v1', m1a: '9774D56D682E549C', m14: 'caid' }, 'androidid:9774d56d682e549c'],
    ['uses CAID before IDFV', { m5a: 'idfv', m14: 'CAID-1' }, 'caid:caid-1'],
    ['uses IDFV before OpenUDID', { m0: 'udid-7f3a', m5a: 'IDFV-1' }, 'idfv:idfv-1'],
    ['uses OpenUDID before DUID', { m0a: 'duid-42c1', m0: 'udid-7f3a' }, 'openudid:udid-7f3a'],
    ['uses DUID before MAC', { m6a: 'AA:BB:CC:DD:EE:FF', m0a: 'duid-42c1' }, 'duid:duid-42c1'],
    ['uses the MAC without separators', { m6a: 'AA:BB:CC:DD:EE:FF' }, 'mac:aabbccddeeff'],
    ['uses the MAC variant last', { m6: '0F-0E-0D-0C-0B-0A' }, 'mac1:0f0e0d0c0b0a'],
    ['trims a device id', { m11: '  oaid-2 ' }, 'oaid:oaid-2'],
  ]
  it.each(cases)('%s', (_name, p, identity) => {
    expect(resolveIdentity(params(p), 'amid=0123456789abcdef0123456789abcdef', IP, UA)).toMatchObject({ identity, device: true, kind: 'device' })
  })

  it('links every other filled device id of the hit, in priority order, and skips unfilled ones', () => {
    const r = resolveIdentity(params({ m14: 'CAID-1', m5: 'ABCDEF01-2345-6789-ABCD-EF0123456789', m11: '__OAID__', m5a: 'IDFV-1', m2: 'null' }), undefined, IP, UA)
    expect(r).toEqual({ identity: 'idfa:abcdef01-2345-6789-abcd-ef0123456789', device: true, kind: 'device', links: ['caid:caid-1', 'idfv:idfv-1'] })
    expect(resolveIdentity(params({ m14: 'CAID-1' }), undefined, IP, UA).links).toEqual([])
    expect(allDeviceIds(params({ m6a: 'AA:BB:CC:DD:EE:FF', m0: 'udid-7f3a' }))).toEqual([{ namespace: 'openudid', value: 'udid-7f3a' }, { namespace: 'mac', value: 'aabbccddeeff' }])
  })

  it('lists every namespace once', () => {
    const namespaces = DEVICE_ID_PARAMS.map((d) => d.namespace)
    expect(new Set(namespaces).size).toBe(namespaces.length)
  })
})

describe('normaliseDeviceId: unfilled values', () => {
  const unfilled = ['', '   ', '__IDFA__', '__idfa__', '00000000-0000-0000-0000-000000000000', '0', '000000000000000', '00:00:00:00:00:00', 'null', 'NULL', 'nil', 'undefined', 'unknown', 'Unknown', 'none', 'n/a', '-',
    md5(''), md5('00000000-0000-0000-0000-000000000000'), md5('00000000-0000-0000-0000-000000000000').toUpperCase(), 'a b', 'x'.repeat(129)]
  it.each(unfilled)('ignores %j', (value) => {
    expect(normaliseDeviceId('idfa', value)).toBe('')
    expect(resolveIdentity(params({ m5: value, m11: 'next' }), undefined, IP, UA).identity).toBe('oaid:next')
  })

  // (the md5 of an all-zero IMEI, Android id or MAC, and the fake MAC phones give apps: as ids,
  // every device without one would be one identity)
  it.each([
    ['imei', md5('000000000000000')], ['androidid1', md5('0000000000000000')], ['imei', md5('00000000000000').toUpperCase()],
    ['mac1', md5('00:00:00:00:00:00')], ['mac1', md5('000000000000')], ['mac1', md5('02:00:00:00:00:00')], ['mac1', md5('020000000000')],
    ['mac', '02:00:00:00:00:00'], ['mac', '02-00-00-00-00-00'], ['mac', '020000000000'],
  ])('ignores a %s of no device: %s', (namespace, value) => {
    expect(normaliseDeviceId(namespace, value)).toBe('')
  })

  it('accepts an id of the longest allowed length', () => {
    expect(normaliseDeviceId('caid', 'A'.repeat(128))).toBe('a'.repeat(128))
  })
})

describe('normaliseDeviceId: the rules of docs/attribution.md, over random values', () => {
  const ZERO = '00000000-0000-0000-0000-000000000000'
  const noId = ['', ZERO, '0'.repeat(14), '0'.repeat(15), '0'.repeat(16), '00:00:00:00:00:00', '00-00-00-00-00-00', '000000000000', '02:00:00:00:00:00', '02-00-00-00-00-00', '020000000000']
  const placeholders = new Set(['null', 'nil', 'none', 'undefined', 'unknown', 'n/a', 'na', '-', '020000000000', ...noId.flatMap((v) => [md5(v), md5(v.toUpperCase())])])
  /** The rules as written, one after the other. */
  const expected = (namespace: string, raw: string): string => {
    let v = raw.trim().toLowerCase()
    if (namespace === 'mac' || namespace === 'mac1') v = v.split(':').join('').split('-').join('')
    if (v === '' || v.length > 128 || /\s/.test(v) || (v.startsWith('__') && v.endsWith('__'))) return ''
    if ([...v].every((ch) => '0:.-'.includes(ch)) || placeholders.has(v)) return ''
    // a template left unfilled, or characters no id has (docs/attribution.md §2)
    if (![...v].every((ch) => 'abcdefghijklmnopqrstuvwxyz0123456789._:+=/-'.includes(ch))) return ''
    if (macros.has([...v].filter((ch) => !'{}$[]_%'.includes(ch)).join('')) || /^0x0*$/.test(v)) return ''
    return v
  }
  const macros = new Set(['idfa', 'idfa1', 'idfv', 'oaid', 'oaid1', 'caid', 'caid1', 'imei', 'aaid', 'androidid', 'androidid1', 'openudid', 'duid', 'mac', 'mac1',
    'ip', 'os', 'ts', 'ua', 'requestid', 'deviceid', 'device', 'uuid', 'udid', 'id'])
  it('gives what the rules give for hex ids, zeros, dashes, upper case, spaces, macros and placeholders', () => {
    const rnd = prng(7)
    const alphabet = ['0', '0', '0', '-', '1', '9', 'a', 'f', 'e', 'g', 'A', 'B', 'C', 'D', 'E', 'F', 'G', ':', '_', ' ', '.', 'n', '/', '\u{ff10}', 'É']
    const values = [...placeholders, md5(ZERO).toUpperCase(), '1'.repeat(128), '1'.repeat(129), '0'.repeat(129), '', '-', '__', '____']
    for (let i = 0; i < 5000; i++) {
      const n = Math.floor(rnd() * 40)
      values.push(Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]!).join(''))
      values.push(md5(String(i)).slice(0, 1 + Math.floor(rnd() * 32)))
    }
    for (const namespace of ['idfa', 'oaid', 'imei', 'mac', 'mac1']) {
      for (const v of values) expect([namespace, v, normaliseDeviceId(namespace, v)]).toEqual([namespace, v, expected(namespace, v)])
    }
  })
})

describe('resolveIdentity: cookie, address and the cookie check', () => {
  const cookie = '0123456789abcdef0123456789abcdef'

  it('uses a valid amid cookie when no device id is filled, an earlier version\'s hash of another address too', () => {
    expect(resolveIdentity(params({ m5: '__IDFA__' }), `a=1; amid=${cookie}; b=2`, IP, UA)).toEqual({ identity: `amid:${cookie}`, device: false, kind: 'cookie', links: [] })
    const old = legacyIpUaHash(IP, UA)
    expect(resolveIdentity(params({}), `amid=${old}`, '61.135.169.121', UA).identity).toBe(`amid:${old}`)
  })

  it('takes the cookie earlier versions gave every browser of this very address and agent for none: the cookie check runs', () => {
    // (such a cookie was the same for every browser first seen behind that address with that agent)
    const old = legacyIpUaHash(IP, UA)
    expect(resolveIdentity(params({}), `amid=${old}`, IP, UA)).toEqual({ identity: ipua(IP, UA), legacy: legacy(IP, UA), device: false, kind: 'check', links: [] })
  })

  it('asks for a cookie check on a first contact, holding the address identity as its fallback', () => {
    expect(resolveIdentity(params({}), 'other=1', IP, UA)).toEqual({ identity: ipua(IP, UA), legacy: legacy(IP, UA), device: false, kind: 'check', links: [] })
  })

  it.each([
    ['a server-to-server hit', {}, { serverToServer: true }],
    ['an SDK named by sdk=', { sdk: 'mm' }, {}],
    ['a browser back from the cookie check without the cookie', { amc: cookie }, {}],
    ['a forged or empty marker', { amc: '' }, {}],
  ] as const)('counts %s as its address and user agent', (_name, p, o) => {
    expect(resolveIdentity(params(p), undefined, IP, UA, o)).toEqual({ identity: ipua(IP, UA), legacy: legacy(IP, UA), device: false, kind: 'address', links: [] })
  })

  it('counts an SDK named in the user agent as its address and user agent', () => {
    const ua = 'Mozilla/5.0 (Linux; Android 14) MMA-SDK/2.1'
    expect(resolveIdentity(params({}), undefined, IP, ua)).toMatchObject({ identity: ipua(IP, ua), kind: 'address' })
  })

  it('honours a valid cookie before the marker', () => {
    expect(resolveIdentity(params({ amc: cookie }), `amid=${cookie}`, IP, UA)).toMatchObject({ identity: `amid:${cookie}`, kind: 'cookie' })
  })

  it('keys address identities: another key gives other texts, none is the plain hash', () => {
    const a = addressAgentIdentity(KEY, IP, UA)
    const b = addressAgentIdentity(new Uint8Array(32).fill(8), IP, UA)
    expect(a).toEqual({ identity: ipua(IP, UA), legacy: legacy(IP, UA) })
    expect(b.identity).not.toBe(a.identity)
    expect(b.legacy).toBe(a.legacy)
    expect(a.identity.slice(5)).not.toBe(legacyIpUaHash(IP, UA))
  })

  it('gives different identities to different user agents on one address', () => {
    expect(resolveIdentity(params({}), undefined, IP, UA).identity).not.toBe(resolveIdentity(params({}), undefined, IP, `${UA} Edg/124`).identity)
  })

  it('refuses to make an address identity without a key', () => {
    expect(() => resolveWith(params({}), undefined, IP, UA, { key: null })).toThrow(/identity key/)
    expect(resolveWith(params({ m11: 'o' }), undefined, IP, UA, { key: null }).identity).toBe('oaid:o')
  })

  it('marks the cookie SameSite=None; Secure over https', () => {
    expect(amidSetCookie(cookie, true)).toBe(`amid=${cookie}; Max-Age=63072000; Path=/; HttpOnly; SameSite=None; Secure`)
    expect(amidSetCookie(cookie, false)).toBe(`amid=${cookie}; Max-Age=63072000; Path=/; HttpOnly; SameSite=Lax`)
  })

  it('makes the identity key once from the random source and keeps it in the meta table', () => {
    const meta = new Map<string, string>()
    const db = { meta: (k: string) => meta.get(k), setMeta: (k: string, v: string) => void meta.set(k, v), tx: <T>(fn: () => T): T => fn() }
    const first = identityKeyOf(db, seededRandom(5))
    expect(first.length).toBe(32)
    expect(meta.get('identity_key')).toBe(Buffer.from(first).toString('hex'))
    expect(identityKeyOf(db, seededRandom(6))).toEqual(first)
  })

  it.each([
    ['no header', undefined, ''],
    ['no amid', 'a=1; b=2', ''],
    ['an amid of the wrong shape', 'amid=not-a-hash', ''],
    ['an upper-case amid', `amid=${cookie.toUpperCase()}`, ''],
    ['a name that only ends in amid', `xamid=${cookie}`, ''],
    ['spaces around the value', `amid = ${cookie} `, cookie],
    ['a valid amid after an invalid one', `amid=bad; amid=${cookie}`, cookie],
  ])('amidFromCookieHeader reads %s', (_name, header, value) => {
    expect(amidFromCookieHeader(header)).toBe(value)
  })
})
