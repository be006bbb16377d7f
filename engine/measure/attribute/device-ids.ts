/**
 * The MMA device-id macros (vendor-notes §7.2 `mma`) in identity priority order, and the test
 * of whether the media really filled one. Shared by identity (which id) and platform (mobile).
 */
import { createHash } from 'node:crypto'

/** One device-id parameter: its name in the tracking URL and the identity namespace it gives. */
export interface DeviceIdParam {
  param: string
  namespace: string
}

/**
 * Priority order. Each id's plain macro comes before its variant macro (`__IDFA1__`, `__OAID1__`,
 * `__CAID1__`, `__ANDROIDID1__`, `__MAC1__`, hashed or formatted differently by the media); a
 * variant has its own namespace (`idfa1:`), since its value cannot be compared with the plain one.
 */
export const DEVICE_ID_PARAMS: readonly DeviceIdParam[] = [
  { param: 'm5', namespace: 'idfa' },
  { param: 'm5b', namespace: 'idfa1' },
  { param: 'm11', namespace: 'oaid' },
  { param: 'm11a', namespace: 'oaid1' },
  { param: 'm2', namespace: 'imei' },
  { param: 'm4', namespace: 'aaid' },
  { param: 'm1a', namespace: 'androidid' },
  { param: 'm1', namespace: 'androidid1' },
  { param: 'm14', namespace: 'caid' },
  { param: 'm14a', namespace: 'caid1' },
  { param: 'm5a', namespace: 'idfv' },
  { param: 'm0', namespace: 'openudid' },
  { param: 'm0a', namespace: 'duid' },
  { param: 'm6a', namespace: 'mac' },
  { param: 'm6', namespace: 'mac1' },
]

/** Longest device id accepted; anything longer is not an id (and would bloat the identity dictionary). */
export const MAX_DEVICE_ID_LENGTH = 128

const md5 = (text: string): string => createHash('md5').update(text).digest('hex')
const ZERO_UUID = '00000000-0000-0000-0000-000000000000'
/** The MAC iOS (since 7) and Android (since 6) give every app instead of the device's. */
const FAKE_MAC = '02:00:00:00:00:00'

/**
 * What a device answers when it has no id, before the media hash it: empty, the all-zero UUID
 * (IDFA with tracking off), an all-zero MEID, IMEI or Android id (14, 15, 16 zeros), an all-zero
 * MAC and the fake one, with and without separators.
 */
const NO_ID = [
  '', ZERO_UUID, '0'.repeat(14), '0'.repeat(15), '0'.repeat(16),
  ...[ '00:00:00:00:00:00', FAKE_MAC ].flatMap((mac) => [mac, mac.replace(/:/g, '-'), mac.replace(/:/g, '')]),
]

/**
 * Values media send when they have no id: placeholders, the fake MAC, and the md5 of any NO_ID
 * value in lower or upper case (so that devices hashing an all-zero IMEI or MAC are not one
 * identity).
 */
const PLACEHOLDERS = new Set([
  'null', 'nil', 'none', 'undefined', 'unknown', 'n/a', 'na', '-', FAKE_MAC.replace(/:/g, ''),
  ...NO_ID.flatMap((v) => [md5(v), md5(v.toUpperCase())]),
])

/**
 * The value normalised (trimmed, lower case; MAC without separators), or '' when it is not a
 * filled device id: empty, an unreplaced macro (`__IDFA__`), only zeros and separators,
 * a placeholder such as `null` or `unknown`, longer than MAX_DEVICE_ID_LENGTH or with spaces.
 */
export function normaliseDeviceId(namespace: string, raw: string): string {
  if (namespace !== 'mac' && namespace !== 'mac1') {
    const plain = plainHex(raw)
    if (plain !== null) return plain
  }
  let value = raw.trim().toLowerCase()
  if (namespace === 'mac' || namespace === 'mac1') value = value.replace(/[:-]/g, '')
  if (value === '' || value.length > MAX_DEVICE_ID_LENGTH || /\s/.test(value)) return ''
  if (value.startsWith('__') && value.endsWith('__')) return ''
  if (/^[0:.-]*$/.test(value) || PLACEHOLDERS.has(value)) return ''
  // a template a media left unfilled in its own syntax ({IDFA}, ${IDFA}, [IDFA], %s, __IDFA, IDFA,
  // 0x0) or a value no id has (control characters, Chinese): as the same text reaches every device
  // of that media, taking it for an id would make its whole audience one device
  if (!ID_CHARACTERS.test(value) || MACRO_NAMES.has(value.replace(/[{}$[\]_%]/g, '')) || /^0x0*$/.test(value)) return ''
  return value
}

/** The characters of device ids as media write them: hex and alphanumerics, separators, base64. */
const ID_CHARACTERS = /^[0-9a-z._:+=/-]+$/

/** Macro names (lower case, without the underscores, braces and `$` of templates): a value that is one was never filled. */
const MACRO_NAMES = new Set([
  ...DEVICE_ID_PARAMS.map((d) => d.namespace),
  'idfa', 'idfv', 'oaid', 'caid', 'imei', 'aaid', 'androidid', 'openudid', 'duid', 'mac', 'ip', 'os', 'ts', 'ua', 'requestid', 'deviceid', 'device', 'uuid', 'udid', 'id',
])

/**
 * normaliseDeviceId's answer for the common case, a value of hex digits and dashes only (an IDFA,
 * upper case as iOS writes it, an OAID or an IMEI), in one pass over its characters; null for any
 * other value. Such a value has nothing to trim or strip, only upper case to lower: it is refused
 * only when too long, empty or only zeros and dashes, or a placeholder (an md5 of no id, the fake MAC).
 */
function plainHex(raw: string): string | null {
  if (raw.length > MAX_DEVICE_ID_LENGTH) return null
  // each character's class from a table, without a branch: a loop that tested ranges mispredicted
  // about once a character on random hex (240 -> 100 ns for a UUID)
  let all = HEX_ZERO
  let any = 0
  for (let i = 0; i < raw.length; i++) {
    const k = HEX_CLASS[raw.charCodeAt(i)]!
    all &= k
    any |= k
  }
  if (all === 0) return null
  const value = (any & HEX_UPPER) === 0 ? raw : raw.toLowerCase()
  // (the hex placeholders are md5s, 32 long, and the fake MAC, 12: other lengths skip the lookup)
  return (any & HEX_FILLED) === 0 || ((value.length === 32 || value.length === 12) && PLACEHOLDERS.has(value)) ? '' : value
}

/**
 * Classes of UTF-16 code units: 0 not in a hex id, HEX_ZERO for 0 and -, HEX_ZERO | HEX_FILLED for
 * 1-9 and a-f, and HEX_UPPER besides for A-F.
 */
const HEX_ZERO = 1
const HEX_FILLED = 2
const HEX_UPPER = 4
const HEX_CLASS = new Uint8Array(65_536)
for (const c of '0-') HEX_CLASS[c.charCodeAt(0)] = HEX_ZERO
for (const c of '123456789abcdef') HEX_CLASS[c.charCodeAt(0)] = HEX_ZERO | HEX_FILLED
for (const c of 'ABCDEF') HEX_CLASS[c.charCodeAt(0)] = HEX_ZERO | HEX_FILLED | HEX_UPPER

/** The first filled device id of a hit, in priority order, or null. */
export function firstDeviceId(params: ReadonlyMap<string, string>): { namespace: string; value: string } | null {
  for (const { param, namespace } of DEVICE_ID_PARAMS) {
    const raw = params.get(param)
    if (raw === undefined || raw === '') continue
    const value = normaliseDeviceId(namespace, raw)
    if (value !== '') return { namespace, value }
  }
  return null
}

/** A filled device id: its identity namespace and normalised value. */
export interface DeviceId {
  namespace: string
  value: string
}

const NO_DEVICE_IDS: readonly DeviceId[] = Object.freeze([])

/**
 * Every filled device id of a hit, in priority order (the first is firstDeviceId's); an empty
 * list, shared, when none is filled. Ids that arrive together belong to one device (the ingest
 * links them: docs/attribution.md, "Devices").
 */
export function allDeviceIds(params: ReadonlyMap<string, string>): readonly DeviceId[] {
  let found: DeviceId[] | null = null
  // (plain arrays, not DEVICE_ID_PARAMS' objects: a tag carrying every macro is read on each hit)
  for (let i = 0; i < PARAM_NAMES.length; i++) {
    const raw = params.get(PARAM_NAMES[i]!)
    if (raw === undefined || raw === '' || isUnfilledMacro(raw)) continue
    const namespace = NAMESPACES[i]!
    const value = normaliseDeviceId(namespace, raw)
    if (value === '') continue
    found ??= []
    found.push({ namespace, value })
  }
  return found ?? NO_DEVICE_IDS
}

const PARAM_NAMES = DEVICE_ID_PARAMS.map((d) => d.param)
const NAMESPACES = DEVICE_ID_PARAMS.map((d) => d.namespace)

/**
 * `__NAME__` as sent (normaliseDeviceId refuses it too): the common unfilled macro, skipped without
 * normalising. (Characters compared one by one: endsWith on the path's slices cost 3x as much.)
 */
function isUnfilledMacro(raw: string): boolean {
  const n = raw.length
  return n > 3 && raw.charCodeAt(0) === 95 && raw.charCodeAt(1) === 95 && raw.charCodeAt(n - 1) === 95 && raw.charCodeAt(n - 2) === 95
}
