// Batch import of events (NDJSON/CSV lines): times, CSV rows, and each line attributed to a hit
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Attributor, addressAgentIdentity, ipUaHash } from '../../../engine/measure/attribute'
import { IMPORT_COLUMNS, LineError, csvRows, lineToHit, parseTime, type ImportContext, type ImportLine } from '../../../engine/measure/import'
import { SnapshotLookup, TrackingLookup } from '../../../engine/measure/lookup'
import { buffersOf, parseLines, type ParsedLines } from '../../../engine/measure/import-parse'
import { lines } from '../../../engine/measure/import-run'
import { localDayHour, zoneOffset } from '../../../engine/time-zone'
import { IVT, KIND, PLATFORM, SDK, type Hit, type HitColumns, type IvtClass, type Kind, type PlatformCode, type SdkCode } from '../../../engine/measure/types'
import { regionTable } from '../../../engine/reference/region-table'
import { MemoryStorage } from '../../../engine/storage/adapters/memory'
import type { Db } from '../../../engine/storage/db'
import { migrate } from '../../../engine/storage/migrations'
import { Persister } from '../../../engine/storage/persister'

const H8 = 8 * 3_600_000
const zone8 = (): number => H8

const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  okhttp: 'okhttp/4.9.0',
  androidSdk: 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 MMA-SDK',
}
/** An Aliyun address (ip2region ISP 阿里云) and a residential Beijing one. */
const DC_IP = '47.100.1.1'
const BEIJING_IP = '1.2.4.8'

const regionIndexOf = (id: string): number => regionTable().findIndex((r) => r.region_id === id)
const BEIJING_CITY = '000000000000001156110100'
const BEIJING_PROVINCE = '000000000000001156110000'

describe('parseTime', () => {
  it.each([
    ['1736481600000', 1_736_481_600_000],
    ['17364816000', 17_364_816_000], // eleven digits are milliseconds (of 1970)
    [' 1736481600123 ', 1_736_481_600_123],
    ['2025-01-10T04:00:00Z', Date.parse('2025-01-10T04:00:00Z')],
    ['2025-01-10T04:00Z', Date.parse('2025-01-10T04:00:00Z')],
    ['2025-01-10 04:00:00Z', Date.parse('2025-01-10T04:00:00Z')],
    ['2025-01-10T04:00:00.5Z', Date.parse('2025-01-10T04:00:00.500Z')],
    ['2025-01-10T04:00:00.123Z', Date.parse('2025-01-10T04:00:00.123Z')],
    ['2025-01-10T12:00:00+08:00', Date.parse('2025-01-10T04:00:00Z')],
    ['2025-01-10T12:00:00+0800', Date.parse('2025-01-10T04:00:00Z')],
    ['2025-01-09T23:00:00-05:00', Date.parse('2025-01-10T04:00:00Z')],
    ['2024-02-29T00:00:00Z', Date.parse('2024-02-29T00:00:00Z')],
    // the writings of other tools (Python's isoformat(), RFC 3339's lower case, a two-digit offset): a finer fraction is cut to the millisecond
    ['2025-01-10T12:00:00.123456+08:00', Date.parse('2025-01-10T04:00:00.123Z')],
    ['2025-01-10T04:00:00.999999999Z', Date.parse('2025-01-10T04:00:00.999Z')],
    ['2025-01-10T04:00:00,5Z', Date.parse('2025-01-10T04:00:00.500Z')],
    ['2025-01-10t04:00:00z', Date.parse('2025-01-10T04:00:00Z')],
    ['2025-01-10T12:00:00+08', Date.parse('2025-01-10T04:00:00Z')],
    ['2025-01-10T00:00-05', Date.parse('2025-01-10T05:00:00Z')],
  ])('does read %s', (raw, ms) => {
    expect(parseTime(raw, () => { throw new Error('no zone needed') })).toBe(ms)
  })

  it('does read a time without offset as wall time of the engine zone', () => {
    expect(parseTime('2025-01-10T12:00:00', zone8)).toBe(Date.parse('2025-01-10T04:00:00Z'))
    expect(parseTime('2025-01-10 12:00', zone8)).toBe(Date.parse('2025-01-10T04:00:00Z'))
    expect(parseTime('2025-01-10T00:30:00.250', zone8)).toBe(Date.parse('2025-01-09T16:30:00.250Z'))
  })

  it('does read wall times on the days a zone changes its offset as the zone does (Temporal\'s "compatible")', () => {
    const zone = (tz: string) => (ms: number) => zoneOffset(tz, ms)
    const cases: [string, string, string][] = [
      ['America/New_York', '2025-07-01T09:00', '2025-07-01T13:00:00Z'],
      // spring forward: 02:00 to 03:00 skipped, a time in the gap moved on by the hour
      ['America/New_York', '2025-03-09 01:30:00', '2025-03-09T06:30:00Z'],
      ['America/New_York', '2025-03-09 02:30:00', '2025-03-09T07:30:00Z'],
      ['America/New_York', '2025-03-09 03:30:00', '2025-03-09T07:30:00Z'],
      ['America/New_York', '2025-03-09 06:30:00', '2025-03-09T10:30:00Z'],
      // fall back: 01:00 to 02:00 twice, the earlier one taken
      ['America/New_York', '2025-11-02 00:30:00', '2025-11-02T04:30:00Z'],
      ['America/New_York', '2025-11-02 01:30:00', '2025-11-02T05:30:00Z'],
      ['America/New_York', '2025-11-02 02:30:00', '2025-11-02T07:30:00Z'],
      // a change at midnight (the day starts at 23:00 of the day before, read back on its own day)
      ['America/Santiago', '2025-04-06 00:30:00', '2025-04-06T04:30:00Z'],
      ['Asia/Kolkata', '2025-03-09 00:10:00', '2025-03-08T18:40:00Z'],
    ]
    for (const [tz, wall, utc] of cases) {
      const ms = parseTime(wall, zone(tz))
      expect([tz, wall, new Date(ms).toISOString()]).toEqual([tz, wall, new Date(utc).toISOString()])
      if (!wall.includes('02:30') || tz !== 'America/New_York' || !wall.startsWith('2025-03-09')) expect(localDayHour(tz, ms).hour, `${tz} ${wall}`).toBe(Number(wall.slice(11, 13)))
    }
  })

  it.each([undefined, '', '   '])("does refuse a missing time (%j) with \"'ts' is missing\"", (raw) => {
    expect(() => parseTime(raw, zone8)).toThrow(LineError)
    expect(() => parseTime(raw, zone8)).toThrow("'ts' is missing")
  })

  it.each(['yesterday', '173648160', '17364816000000000', '2025-1-10T00:00', '2025-01-10', '2025-01-10T12', '2025-01-10T12:00:00.1234567890Z', '2025-01-10T12:00:00.Z', '2025-01-10T12:00:00+8', '2025-01-10T12:00:00+080', '2025/01/10 12:00', '-1736481600000'])(
    'does refuse %s as neither milliseconds nor ISO 8601', (raw) => {
      expect(() => parseTime(raw, zone8)).toThrow(`'ts' must be milliseconds since 1970 or an ISO 8601 time, got '${raw}'`)
    })

  it.each(['1736481600', 1_736_481_600, ' 1795665600 '])('does refuse ten digits (%j) as Unix seconds, saying what to write', (raw) => {
    const digits = String(raw).trim()
    expect(() => parseTime(raw, zone8)).toThrow(`'ts' ${digits} has 10 digits, as Unix seconds have: it must be milliseconds (${digits}000 if it is seconds) or an ISO 8601 time`)
  })

  it.each(['2025-13-01T00:00', '2025-01-32T00:00', '2025-01-10T25:00', '2025-01-10T12:60', '2025-01-10T12:00:61Z'])('does refuse %s as not a real time', (raw) => {
    expect(() => parseTime(raw, zone8)).toThrow(`'ts' is not a real time: '${raw}'`)
  })

  it.each(['2025-02-30T00:00:00Z', '2025-04-31T12:00', '2025-02-29T00:00:00+08:00'])('does refuse the impossible calendar date %s', (raw) => {
    // Date.parse rolls 30 February over to 2 March; such a date must be a line error, not another day.
    expect(() => parseTime(raw, zone8)).toThrow(`'ts' is not a real time: '${raw}'`)
  })

  it.each(['2025-01-10T12:00:00+25:00', '2025-01-10T12:00:00+99:99', '2025-01-10T12:00:00-24:30', '2025-01-10T12:00:00+08:60'])('does refuse the impossible offset in %s', (raw) => {
    // An impossible offset must be a line error, never NaN as the hit's time.
    expect(() => parseTime(raw, zone8)).toThrow(LineError)
  })
})

describe('csvRows', () => {
  const rows = (text: string) => [...csvRows(text)]

  it('does split rows and cells with their line numbers', () => {
    expect(rows('type,ts\nimpression,1\nclick,2')).toEqual([
      { line: 1, cells: ['type', 'ts'] },
      { line: 2, cells: ['impression', '1'] },
      { line: 3, cells: ['click', '2'] },
    ])
  })

  it('does keep empty cells, leading, trailing and between', () => {
    expect(rows(',a,,b,\n')).toEqual([{ line: 1, cells: ['', 'a', '', 'b', ''] }])
  })

  it('does read quoted cells holding commas, doubled quotes and newlines', () => {
    expect(rows('a,"b,c","say ""hi""","two\nlines"\nnext,1')).toEqual([
      { line: 1, cells: ['a', 'b,c', 'say "hi"', 'two\nlines'] },
      { line: 3, cells: ['next', '1'] },
    ])
  })

  it('does read a quoted empty cell and a cell of one quote', () => {
    expect(rows('"",""""\n')).toEqual([{ line: 1, cells: ['', '"'] }])
  })

  it('does treat a quote inside an unquoted cell as text', () => {
    expect(rows('ab"c,d\n')).toEqual([{ line: 1, cells: ['ab"c', 'd'] }])
  })

  it('does accept CRLF line ends, and keep CRLF inside quotes', () => {
    expect(rows('a,b\r\n"x\r\ny",2\r\nz,3\r\n')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x\r\ny', '2'] },
      { line: 4, cells: ['z', '3'] },
    ])
  })

  it('does accept a lone CR as a line end', () => {
    expect(rows('a\rb')).toEqual([{ line: 1, cells: ['a'] }, { line: 2, cells: ['b'] }])
  })

  it('does skip empty lines but count them', () => {
    expect(rows('\na\n\n\r\nb\n\n')).toEqual([{ line: 2, cells: ['a'] }, { line: 5, cells: ['b'] }])
  })

  it('does read nothing from empty text', () => {
    expect(rows('')).toEqual([])
    expect(rows('\n\n')).toEqual([])
  })

  it('does end an unterminated quoted cell at the end of the text', () => {
    expect(rows('a,"open\nstill')).toEqual([{ line: 1, cells: ['a', 'open\nstill'] }])
  })
})

describe('lineToHit', () => {
  let persister: Persister
  let db: Db
  const KEY = new Uint8Array(32).fill(7)
  const attributor = new Attributor(undefined, { identityKey: KEY })
  const NOW = '2025-01-10T00:00:00Z'
  const T = Date.parse('2025-01-10T04:00:00Z')

  beforeAll(async () => {
    persister = await Persister.open(new MemoryStorage())
    await migrate(persister, 'x')
    db = persister.db
    const campaign = (id: number, name: string) => db.run(
      `INSERT INTO campaigns(campaign_id, campaign_type, campaign_name, start_date, end_date, creator_name, slot_type, platform, calculation_type,
        panel_id, panel_type, linked_iplib, ear, frequency_limit, created_at, updated_at)
       VALUES (?, 'normal', ?, '2025-01-01', '2025-12-31', 'tester', 'normal', 'pc', 'basic', 'china-pc-2025', 'pc', 'default', 'x', 0, ?, ?)`, [id, name, NOW, NOW])
    const spot = (id: number, c: number) => db.run(
      `INSERT INTO spots(spot_id, campaign_id, publisher_id, channel_name, placement_name, placement_type, report_metrics, freq_capping,
        dangerous_source_filtration, created_at, updated_at) VALUES (?, ?, 1, 'home', ?, 'banner', 'imp,clk', '0', 0, ?, ?)`, [id, c, `p${id}`, NOW, NOW])
    db.tx(() => {
      db.run("INSERT INTO publishers(publisher_id, publisher_name) VALUES (1, 'pub')")
      campaign(1, 'one')
      campaign(2, 'two')
      campaign(3, 'three')
      spot(40, 1) // spot_id_str 'e'
      spot(41, 1)
      spot(50, 2)
      spot(60, 3)
      db.run("INSERT INTO keywords(keyword_id, spot_id, keyword_name) VALUES (7, 40, 'shoes'), (8, 41, 'hats')")
      db.run("INSERT INTO minisites(minisite_id, minisite_name, created_at) VALUES (9, 'site', ?), (10, 'other', ?)", [NOW, NOW])
      db.run("INSERT INTO minisite_events(minisite_id, event_id, event_name) VALUES (9, 1, 'view'), (9, 2, 'buy'), (10, 1, 'view')")
      db.run('INSERT INTO minisite_campaigns(minisite_id, campaign_id) VALUES (9, 1), (9, 2)')
    })
  })

  afterAll(async () => {
    await persister.close()
  })

  function context(): ImportContext {
    return { lookup: new TrackingLookup(db), attributor: () => attributor, zoneOffsetAt: zone8 }
  }

  const base: ImportLine = { type: 'impression', ts: String(T), campaign_id: '1', spot_id: '40', identity: 'amid:0123456789abcdef0123456789abcdef' }
  const toHit = (over: ImportLine, c = context()): Hit => lineToHit({ ...base, ...over }, c)
  /** The LineError message of a line. */
  function errorOf(over: ImportLine, c = context()): string {
    try {
      toHit(over, c)
    } catch (err) {
      if (err instanceof LineError) return err.message
      throw err
    }
    return '(no error)'
  }

  it('does turn a complete impression line into a hit', () => {
    expect(toHit({ keyword_id: '7', user_agent: UA.desktop, ip: BEIJING_IP, sdk: 'none' })).toEqual({
      kind: KIND.impression, ts: T, campaign: 1, spot: 40, keyword: 7, identity: 'amid:0123456789abcdef0123456789abcdef',
      platform: PLATFORM.pc, sdk: SDK.none, region: regionIndexOf(BEIJING_CITY), ivt: IVT.valid,
    })
  })

  it('does list the columns it reads', () => {
    expect([...IMPORT_COLUMNS]).toEqual(['type', 'ts', 'campaign_id', 'spot_id', 'spot_id_str', 'keyword_id', 'minisite_id', 'event_id', 'identity', 'ip', 'user_agent', 'platform', 'sdk', 'region_id', 'request_id'])
  })

  it('does read request_id as the tracking endpoints read tr= (trimmed; none when empty, a macro, too long or with control characters)', () => {
    expect(toHit({ request_id: ' req-1 ' }).request).toBe('req-1')
    expect(toHit({ request_id: 12345 }).request).toBe('12345')
    for (const none of ['', '  ', '__REQUESTID__', 'x'.repeat(129), 'a\u0001b', null]) expect(toHit({ request_id: none }).request).toBeUndefined()
    expect(toHit({}).request).toBeUndefined()
  })

  describe('type and ts', () => {
    it.each([['impression', KIND.impression], ['click', KIND.click], [' Click ', KIND.click], ['IMPRESSION', KIND.impression]])('does read type %j', (type, kind) => {
      expect(toHit({ type }).kind).toBe(kind)
    })

    it.each(['view', '', 'clicks', 'event s'])('does refuse type %j', (type) => {
      expect(errorOf({ type })).toBe(`'type' must be impression, click or event, got '${type}'`)
    })

    it('does refuse a line without type', () => {
      expect(errorOf({ type: undefined })).toBe("'type' must be impression, click or event, got ''")
    })

    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('does refuse type %j (an Object.prototype member)', (type) => {
      // (a plain-object lookup would let these through as a hit of kind 0, which then breaks the
      // next start of the event log)
      expect(errorOf({ type })).toBe(`'type' must be impression, click or event, got '${type}'`)
    })

    it('does read ts as parseTime does, in the engine zone', () => {
      expect(toHit({ ts: '2025-01-10 12:00' }).ts).toBe(T)
      expect(toHit({ ts: '2025-01-10T04:00:00Z' }).ts).toBe(T)
      expect(errorOf({ ts: undefined })).toBe("'ts' is missing")
      expect(errorOf({ ts: 'now' })).toBe("'ts' must be milliseconds since 1970 or an ISO 8601 time, got 'now'")
    })
  })

  describe('identity', () => {
    const namespaces = ['idfa', 'idfa1', 'oaid', 'oaid1', 'imei', 'aaid', 'androidid', 'androidid1', 'caid', 'caid1', 'idfv', 'openudid', 'duid', 'mac', 'mac1']

    it.each(namespaces)('does accept the device namespace %s, lower-cased, as a mobile device', (ns) => {
      const h = toHit({ identity: `${ns.toUpperCase()}:AB12CD34` })
      expect(h.identity).toBe(`${ns}:ab12cd34`)
      expect(h.platform).toBe(PLATFORM.mb)
    })

    it('does lower-case an upper-case IDFA and trim it', () => {
      expect(toHit({ identity: '  idfa: ABCDEF01-2345-6789-ABCD-EF0123456789  ' }).identity).toBe('idfa:abcdef01-2345-6789-abcd-ef0123456789')
      // only the namespace, only the value, or nothing to normalise (the line's text is kept)
      expect(toHit({ identity: 'IDFA:abcdef01-2345-6789-abcd-ef0123456789' }).identity).toBe('idfa:abcdef01-2345-6789-abcd-ef0123456789')
      expect(toHit({ identity: 'idfa:abcdef01-2345-6789-abcd-EF0123456789' }).identity).toBe('idfa:abcdef01-2345-6789-abcd-ef0123456789')
      expect(toHit({ identity: 'idfa:abcdef01-2345-6789-abcd-ef0123456789' }).identity).toBe('idfa:abcdef01-2345-6789-abcd-ef0123456789')
    })

    it('does strip the separators of a MAC address', () => {
      expect(toHit({ identity: 'mac:AA:BB:CC:DD:EE:FF' }).identity).toBe('mac:aabbccddeeff')
      expect(toHit({ identity: 'mac1:0f-0e-0d-0c-0b-0a' }).identity).toBe('mac1:0f0e0d0c0b0a')
    })

    it('does lower-case an amid and leave the platform to the user agent', () => {
      const h = toHit({ identity: 'AMID:0123456789ABCDEF0123456789ABCDEF' })
      expect(h.identity).toBe('amid:0123456789abcdef0123456789abcdef')
      expect(h.platform).toBe(PLATFORM.pc)
      expect(toHit({ identity: 'amid:x', user_agent: UA.iphone }).platform).toBe(PLATFORM.mb)
    })

    it.each(['foo:1', 'idfa', ':abc', 'ip:1.2.3.4'])('does refuse the identity %j', (identity) => {
      expect(errorOf({ identity })).toBe(`'identity' must be namespace:value with a namespace of ${namespaces.slice(0, 14).join(', ')}, mac1, amid, got '${identity}'`)
    })

    it('does cut a long refused identity to 40 characters and an ellipsis in the message', () => {
      const identity = `bogus:${'x'.repeat(100)}`
      expect(errorOf({ identity })).toMatch(new RegExp(`got '${identity.slice(0, 40)}…'$`))
    })

    it.each(['idfa:', 'idfa:null', 'oaid:00000000-0000-0000-0000-000000000000', 'imei:__IMEI__', 'amid:   ', `caid:${'a'.repeat(129)}`])('does refuse %j as holding no usable id', (identity) => {
      const shown = identity.trim()
      expect(errorOf({ identity })).toBe(`'identity' holds no usable id: '${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown}'`)
    })

    it('does prefer the identity column over ip and user agent', () => {
      expect(toHit({ identity: 'oaid:x', ip: BEIJING_IP, user_agent: UA.desktop }).identity).toBe('oaid:x')
    })

    it('does give the address identity of ip and user agent when no identity is given, as the tracking endpoint does, with its legacy text', () => {
      const h = toHit({ identity: undefined, ip: BEIJING_IP, user_agent: UA.desktop })
      expect(h.identity).toBe(addressAgentIdentity(KEY, BEIJING_IP, UA.desktop).identity)
      expect(h.identity).toMatch(/^ipua:[0-9a-f]{32}$/)
      // the text earlier versions wrote for the address and agent: linked by the ingest when it holds it
      expect(h.legacy).toBe(`amid:${ipUaHash(BEIJING_IP, UA.desktop)}`)
      expect(h.platform).toBe(PLATFORM.pc)
      expect(toHit({ identity: '  ', ip: ` ::ffff:${BEIJING_IP} `, user_agent: UA.desktop }).identity).toBe(h.identity)
      expect(toHit({ identity: undefined, ip: '1.2.4.9', user_agent: UA.desktop }).identity).not.toBe(h.identity)
    })

    it('does read several device ids joined by | as one device: the first is the identity, the others its links, each normalised', () => {
      const h = toHit({ identity: ' idfa:AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE | caid:c1 |idfv:v1' })
      expect(h.identity).toBe(toHit({ identity: 'idfa:AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE' }).identity)
      expect(h.links).toEqual([toHit({ identity: 'caid:c1' }).identity, toHit({ identity: 'idfv:v1' }).identity])
      expect(h.platform).toBe(PLATFORM.mb)
      expect(toHit({ identity: 'idfa:x' }).links).toBeUndefined()
    })

    it('does refuse more ids joined than one device holds (16), and takes the same id twice as one', () => {
      const idfa = (n: number) => `idfa:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
      expect(errorOf({ identity: Array.from({ length: 17 }, (_, i) => idfa(i + 1)).join('|') })).toBe("'identity' joins 17 ids with '|': one device holds at most 16")
      expect(toHit({ identity: Array.from({ length: 16 }, (_, i) => idfa(i + 1)).join('|') }).links).toHaveLength(15)
      const h = toHit({ identity: `${idfa(1)}|${idfa(1).toUpperCase()}|caid:c1` })
      expect([h.identity, h.links]).toEqual([idfa(1), [toHit({ identity: 'caid:c1' }).identity]])
    })

    it('does refuse an amid cookie joined with other ids, and an empty part', () => {
      expect(errorOf({ identity: 'idfa:x|amid:0123456789abcdef0123456789abcdef' })).toMatch(/an amid cookie is never joined with others/)
      expect(errorOf({ identity: 'idfa:x|' })).toMatch(/'identity' must be namespace:value/)
    })

    it.each([{}, { ip: BEIJING_IP }, { user_agent: UA.desktop }, { ip: '', user_agent: UA.desktop }])('does refuse a line with no identity (%j)', (over) => {
      expect(errorOf({ identity: undefined, ...over })).toBe("has no identity: give 'identity', or 'ip' and 'user_agent'")
    })
  })

  describe('platform and sdk', () => {
    it('does take the platform column over the namespace and the user agent', () => {
      expect(toHit({ identity: 'idfa:x', platform: 'pc' }).platform).toBe(PLATFORM.pc)
      expect(toHit({ user_agent: UA.desktop, platform: 'mb' }).platform).toBe(PLATFORM.mb)
    })

    it('does detect the platform from the user agent for an amid', () => {
      expect(toHit({ user_agent: UA.iphone }).platform).toBe(PLATFORM.mb)
      expect(toHit({ user_agent: UA.desktop }).platform).toBe(PLATFORM.pc)
    })

    it('does read platform and sdk without regard to case, as exports from other tools often upper-case them', () => {
      expect(toHit({ identity: 'idfa:x', platform: 'PC' }).platform).toBe(PLATFORM.pc)
      expect(toHit({ identity: 'idfa:x', sdk: 'MM' }).sdk).toBe(SDK.mm)
    })

    it.each(['tablet', 'mobile', 'p c'])('does refuse platform %j', (platform) => {
      expect(errorOf({ platform })).toBe(`'platform' must be pc or mb, got '${platform}'`)
    })

    it.each([['mm', SDK.mm], ['mz', SDK.mz], ['none', SDK.none], [undefined, SDK.none], ['', SDK.none]])('does read sdk %j', (sdk, code) => {
      expect(toHit({ identity: 'idfa:x', sdk }).sdk).toBe(code)
    })

    it.each(['mma', 'x', 'm m'])('does refuse sdk %j', (sdk) => {
      expect(errorOf({ sdk })).toBe(`'sdk' must be mm, mz or none, got '${sdk}'`)
    })

    it('does take the SDK from the user agent when the line leaves it out, as a tracking hit would', () => {
      expect(toHit({ identity: 'oaid:x', user_agent: UA.androidSdk }).sdk).toBe(SDK.mm)
    })
  })

  describe('region', () => {
    it('does take region_id, trimmed, as an index of the region table', () => {
      expect(toHit({ region_id: ` ${BEIJING_PROVINCE} ` }).region).toBe(regionIndexOf(BEIJING_PROVINCE))
      expect(regionIndexOf(BEIJING_PROVINCE)).toBeGreaterThan(0)
    })

    it('does prefer region_id over the address', () => {
      expect(toHit({ region_id: BEIJING_PROVINCE, ip: DC_IP }).region).toBe(regionIndexOf(BEIJING_PROVINCE))
    })

    it('does locate the address when there is no region_id', () => {
      expect(toHit({ ip: BEIJING_IP }).region).toBe(regionIndexOf(BEIJING_CITY))
      expect(toHit({ ip: `::ffff:${BEIJING_IP}` }).region).toBe(regionIndexOf(BEIJING_CITY))
      expect(toHit({ ip: '10.0.0.1' }).region).toBe(0)
    })

    it('does use global (0) with neither region_id nor address', () => {
      expect(toHit({}).region).toBe(0)
    })

    it.each(['123', 'beijing'])('does refuse the unknown region_id %j', (region_id) => {
      expect(errorOf({ region_id })).toBe(`'region_id' ${region_id} is not a region`)
    })
  })

  describe('invalid traffic', () => {
    it('does class a declared bot user agent as bot', () => {
      expect(toHit({ user_agent: UA.googlebot }).ivt).toBe(IVT.bot)
      expect(toHit({ user_agent: UA.okhttp }).ivt).toBe(IVT.bot)
    })

    it('does not class a generic HTTP-client agent of a device-id hit as bot', () => {
      expect(toHit({ identity: 'oaid:x', user_agent: UA.okhttp }).ivt).toBe(IVT.valid)
    })

    it('does class a data-centre address as datacenter, with or without a user agent', () => {
      expect(toHit({ ip: DC_IP, user_agent: UA.desktop }).ivt).toBe(IVT.datacenter)
      expect(toHit({ ip: DC_IP }).ivt).toBe(IVT.datacenter)
    })

    it('does put bot before datacenter', () => {
      expect(toHit({ ip: DC_IP, user_agent: UA.googlebot }).ivt).toBe(IVT.bot)
    })

    it('does not judge a line without a user agent a bot', () => {
      expect(toHit({ ip: BEIJING_IP }).ivt).toBe(IVT.valid)
      expect(toHit({ user_agent: '' }).ivt).toBe(IVT.valid)
    })

    it('does class a data-centre address as datacenter also when region_id is given', () => {
      // naming the region does not skip the address lookup, so data-centre traffic is not passed as valid
      expect(toHit({ ip: DC_IP, region_id: BEIJING_PROVINCE, user_agent: UA.desktop }).ivt).toBe(IVT.datacenter)
    })
  })

  describe('impressions and clicks: campaign, spot and keyword', () => {
    it('does accept spot_id_str (base 62) instead of spot_id', () => {
      expect(toHit({ spot_id: undefined, spot_id_str: ' e ' }).spot).toBe(40)
      expect(toHit({ spot_id: undefined, spot_id_str: 'f' }).spot).toBe(41)
    })

    it('does prefer spot_id over spot_id_str', () => {
      expect(toHit({ spot_id: '41', spot_id_str: 'e' }).spot).toBe(41)
    })

    it.each([{ spot_id: undefined }, { spot_id: undefined, spot_id_str: '' }, { spot_id: undefined, spot_id_str: 'e-1' }, { spot_id: '', spot_id_str: '!' }])(
      'does refuse a line without a usable spot (%j)', (over) => {
        expect(errorOf(over)).toBe("has neither 'spot_id' nor a valid 'spot_id_str'")
      })

    it.each(['', '0', '-1', '1.5', '01', 'abc', '12345678901234567'])('does refuse campaign_id %j', (campaign_id) => {
      expect(errorOf({ campaign_id })).toBe(`'campaign_id' must be a positive integer id, got '${campaign_id}'`)
    })

    it('does refuse a line without campaign_id', () => {
      expect(errorOf({ campaign_id: undefined })).toBe("'campaign_id' must be a positive integer id, got ''")
    })

    it.each(['0', 'x', '4.0'])('does refuse spot_id %j', (spot_id) => {
      expect(errorOf({ spot_id })).toBe(`'spot_id' must be a positive integer id, got '${spot_id}'`)
    })

    it('does refuse a spot of another campaign or no spot at all', () => {
      expect(errorOf({ campaign_id: '1', spot_id: '50' })).toBe('spot 50 is not a spot of campaign 1')
      expect(errorOf({ campaign_id: '1', spot_id: '999' })).toBe('spot 999 is not a spot of campaign 1')
      expect(errorOf({ campaign_id: '1', spot_id: undefined, spot_id_str: 'G' })).toBe('spot 16 is not a spot of campaign 1')
    })

    it('does read a keyword of the spot and refuse one of another spot', () => {
      expect(toHit({ keyword_id: '7' }).keyword).toBe(7)
      expect(toHit({ keyword_id: '' }).keyword).toBe(0)
      expect(errorOf({ keyword_id: '8' })).toBe('keyword 8 is not a keyword of spot 40')
      expect(errorOf({ keyword_id: '99' })).toBe('keyword 99 is not a keyword of spot 40')
      expect(errorOf({ keyword_id: 'seven' })).toBe("'keyword_id' must be a positive integer id, got 'seven'")
    })

    it('does give impressions and clicks no minisite fields', () => {
      const h = toHit({ type: 'click' })
      expect(h).not.toHaveProperty('minisite')
      expect(h).not.toHaveProperty('event')
    })
  })

  describe('minisite events', () => {
    const eventLine: ImportLine = { type: 'event', campaign_id: undefined, spot_id: undefined, minisite_id: '9', event_id: '1' }

    it('does turn an event line into a minisite hit whose credit the ingest decides', () => {
      expect(toHit({ ...eventLine, ip: BEIJING_IP, user_agent: UA.iphone })).toEqual({
        kind: KIND.minisite, ts: T, campaign: 0, spot: 0, keyword: 0, minisite: 9, event: 1, identity: base.identity,
        platform: PLATFORM.mb, sdk: SDK.none, region: regionIndexOf(BEIJING_CITY), ivt: IVT.valid, credit: { linked: new Set([1, 2]), k: 0 },
      })
    })

    it.each([
      [{ minisite_id: undefined }, "'minisite_id' must be a positive integer id, got ''"],
      [{ minisite_id: 'x' }, "'minisite_id' must be a positive integer id, got 'x'"],
      [{ event_id: undefined }, "'event_id' must be a positive integer id, got ''"],
      [{ event_id: '0' }, "'event_id' must be a positive integer id, got '0'"],
      [{ minisite_id: '77' }, 'minisite 77 does not exist'],
      [{ event_id: '3' }, 'event 3 is not an event of minisite 9'],
      [{ minisite_id: '10', event_id: '2' }, 'event 2 is not an event of minisite 10'],
      [{ campaign_id: '3' }, 'campaign 3 is not linked to minisite 9'],
      [{ campaign_id: '0' }, "'campaign_id' must be a positive integer id, got '0'"],
      [{ campaign_id: '1', spot_id: 'x' }, "'spot_id' must be a positive integer id, got 'x'"],
    ])('does refuse %j', (over, message) => {
      expect(errorOf({ ...eventLine, ...over })).toBe(message)
    })

    it('does credit the spot named with campaign_id, leaving nothing to the ingest, and a campaign named alone as k= (its latest touch)', () => {
      const spotted = toHit({ ...eventLine, campaign_id: '1', spot_id: '41' })
      expect(spotted).toMatchObject({ kind: KIND.minisite, campaign: 1, spot: 41, minisite: 9, event: 1 })
      expect(spotted).not.toHaveProperty('credit')
      const named = toHit({ ...eventLine, campaign_id: '2' })
      expect(named).toMatchObject({ kind: KIND.minisite, campaign: 2, spot: 0, minisite: 9, event: 1 })
      expect(named.credit?.k).toBe(2)
    })

    it('does offer an event of a minisite without linked campaigns no campaign to credit', () => {
      expect(toHit({ ...eventLine, minisite_id: '10' }).credit).toEqual({ linked: new Set(), k: 0 })
    })

    it('does not decide the credit (it sees no touches: the ingest does, in arrival order)', () => {
      expect(toHit(eventLine)).toMatchObject({ campaign: 0, spot: 0, credit: { k: 0 } })
    })
  })
  describe('JSON values as parsed (NDJSON lines are not rewritten to text)', () => {
    it('does read numbers as their text would be read', () => {
      const asNumbers = toHit({ ts: T, campaign_id: 1, spot_id: 40, keyword_id: 7 })
      expect(asNumbers).toEqual(toHit({ ts: String(T), campaign_id: '1', spot_id: '40', keyword_id: '7' }))
      expect(toHit({ type: 'event', campaign_id: 2, spot_id: 50, minisite_id: 9, event_id: 2 })).toEqual(
        toHit({ type: 'event', campaign_id: '2', spot_id: '50', minisite_id: '9', event_id: '2' }))
    })

    it('does refuse numbers the text form refuses, naming them as text', () => {
      for (const [over, message] of [
        [{ ts: 1.5e12 + 0.5 }, `'ts' must be milliseconds since 1970 or an ISO 8601 time, got '1500000000000.5'`],
        [{ ts: 12345 }, `'ts' must be milliseconds since 1970 or an ISO 8601 time, got '12345'`],
        [{ ts: 9_999_999_999_999 }, `'ts' must lie between 1970 and 2100, got '9999999999999'`],
        [{ spot_id: 0 }, `'spot_id' must be a positive integer id, got '0'`],
        [{ spot_id: -40 }, `'spot_id' must be a positive integer id, got '-40'`],
        [{ campaign_id: 1.5 }, `'campaign_id' must be a positive integer id, got '1.5'`],
        [{ keyword_id: 1e16 }, `'keyword_id' must be a positive integer id, got '10000000000000000'`],
      ] as const) expect(errorOf(over)).toBe(message)
    })

    it('does read null as absent and other values as their text', () => {
      expect(toHit({ keyword_id: null, sdk: null, region_id: null })).toEqual(toHit({}))
      expect(errorOf({ ts: null })).toBe("'ts' is missing")
      expect(errorOf({ platform: true })).toBe("'platform' must be pc or mb, got 'true'")
      expect(errorOf({ spot_id: false })).toBe("'spot_id' must be a positive integer id, got 'false'")
      expect(errorOf({ type: 1 })).toBe("'type' must be impression, click or event, got '1'")
      expect(errorOf({ identity: { ns: 'idfa' } })).toMatch(/^'identity' must be namespace:value/)
    })
  })
  describe('parsed (parseLines), moved as columns and checked against a snapshot (import workers)', () => {
    const text = [
      JSON.stringify({ ...base, keyword_id: 7, user_agent: UA.desktop, ip: BEIJING_IP }),
      '{not json',
      JSON.stringify({ ...base, spot_id: 50 }),
      '',
      JSON.stringify({ type: 'click', ts: T + 1, campaign_id: 2, spot_id: 50, identity: 'idfa:ABCDEF01-2345-6789-ABCD-EF0123456789', sdk: 'mz' }),
      JSON.stringify({ type: 'event', ts: T + 2, minisite_id: 9, event_id: 2, identity: 'oaid:x' }),
      JSON.stringify({ type: 'event', ts: T + 3, campaign_id: 1, spot_id: 41, minisite_id: 9, event_id: 1, identity: 'oaid:y' }),
    ].join('\n')
    /** The rows of hit columns as hits (a credited row: its minisite's linked campaigns, k 0, as lineToHit gives it). */
    const rowsOf = (h: HitColumns, lookup: ImportContext['lookup']): Hit[] => Array.from({ length: h.n }, (_, i) => {
      const hit: Hit = {
        kind: h.kind[i] as Kind, ts: h.ts[i]!, campaign: h.campaign[i]!, spot: h.spot[i]!, keyword: h.keyword[i]!, identity: h.identity[i]!,
        platform: h.platform[i] as PlatformCode, sdk: h.sdk[i] as SdkCode, region: h.region[i]!, ivt: h.ivt[i] as IvtClass,
      }
      if (hit.kind === KIND.minisite) {
        hit.minisite = h.minisite[i]!
        hit.event = h.event[i]!
        if (h.credit[i]) hit.credit = { linked: lookup.minisite(hit.minisite)!.campaigns, k: 0 }
      }
      return hit
    })
    /** Parsed lines as a worker sends them: through a structured clone, their buffers transferred. */
    const throughClone = (p: ParsedLines): ParsedLines => structuredClone(p, { transfer: buffersOf(p.hits) })
    const each = (c: ImportContext, cloned = false, mainLookup = c.lookup): { hits: Hit[]; errors: ParsedLines['errors']; lines: number } => {
      const source = lines(text, 'ndjson')
      const out = { hits: [] as Hit[], errors: [] as ParsedLines['errors'], lines: 0 }
      // two lines at a time: a step of the import ends and the next goes on where it stopped
      for (let p = parseLines(source, c, 2); p; p = parseLines(source, c, 2)) {
        const q = cloned ? throughClone(p) : p
        out.hits.push(...rowsOf(q.hits, mainLookup))
        out.errors.push(...q.errors)
        out.lines += q.lines
      }
      return out
    }

    it('does give the hits lineToHit gives, in order, and each bad line with its number, directly and through a clone', () => {
      for (const cloned of [false, true]) {
        const got = each(context(), cloned)
        const good = text.split('\n').filter((l) => l.startsWith('{"')).map((l) => JSON.parse(l) as ImportLine)
        expect(got.hits).toEqual([good[0], good[2], good[3], good[4]].map((l) => lineToHit(l!, context())))
        expect(got.errors).toEqual([
          { line: 2, error: 'is not a JSON object: its JSON breaks at character 2', error_problem: { key: 'line.json', args: { char: 2 } } },
          { line: 3, error: 'spot 50 is not a spot of campaign 1', error_problem: { key: 'line.spotOfCampaign', args: { spot: 50, campaign: 1 } } },
        ])
        expect(got.lines).toBe(6)
        expect(got.hits[2]).toMatchObject({ kind: KIND.minisite, campaign: 0, minisite: 9, event: 2, credit: { linked: new Set([1, 2]), k: 0 } })
        expect(got.hits[3]).toMatchObject({ campaign: 1, spot: 41, minisite: 9, event: 1 })
        expect(got.hits[3]!.credit).toBeUndefined()
      }
    })

    it('does read every line when the number is not bounded, growing its columns, and moves them through a clone unchanged', () => {
      const many = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ ...base, ts: T + i, identity: `amid:${i}` })).join('\n')
      const p = parseLines(lines(many, 'ndjson'), context(), Infinity)!
      expect([p.hits.n, p.lines, p.hits.identity[4999], p.hits.ts[4999]]).toEqual([5000, 5000, 'amid:4999', T + 4999])
      const rows = rowsOf(p.hits, context().lookup)
      expect(rows.map((h) => h.ts)).toEqual(Array.from({ length: 5000 }, (_, i) => T + i))
      expect(rowsOf(throughClone(p).hits, context().lookup)).toEqual(rows)
      expect(parseLines(lines('', 'ndjson'), context(), Infinity)).toBeNull()
    })

    it('does drop a byte order mark at the start of the file or of a line (files joined), and numbers lines the same', () => {
      const two = [JSON.stringify({ ...base, ts: T, identity: 'amid:1' }), JSON.stringify({ ...base, ts: T + 1, identity: 'amid:2' })]
      const p = parseLines(lines(`\uFEFF${two[0]}\n\uFEFF\n\uFEFF${two[1]}\n\uFEFF{"no\n`, 'ndjson'), context(), Infinity)!
      expect([p.hits.n, p.hits.identity[1], p.errors]).toEqual([2, 'amid:2', [{ line: 4, error: 'is not a JSON object: the line ends before its JSON does', error_problem: { key: 'line.jsonEnd', args: {} } }]])
      const csv = parseLines(lines(`\uFEFF${Object.keys(base).join(',')},identity\n${Object.values(base).join(',')},amid:3\n`, 'csv'), context(), Infinity)!
      expect([csv.hits.n, csv.errors]).toEqual([1, []])
    })

    it('does check lines against a snapshot of the database as against the database', () => {
      const snapshot = new TrackingLookup(db).snapshot()
      expect(each({ ...context(), lookup: new SnapshotLookup(snapshot) })).toEqual(each(context()))
      // and through a structured clone, as a worker receives it, its hits sent back as columns
      expect(each({ ...context(), lookup: new SnapshotLookup(structuredClone(snapshot)) }, true, context().lookup)).toEqual(each(context()))
      const s = new SnapshotLookup(snapshot)
      expect([s.spot(40)?.campaign_id, s.spot(40)?.keywords.has(7), s.spot(40)?.keywords.has(8), s.spot(999)]).toEqual([1, true, false, null])
      expect([s.minisite(9)?.events, s.minisite(10)?.campaigns, s.minisite(11)]).toEqual([new Set([1, 2]), new Set(), null])
    })
  })
})
