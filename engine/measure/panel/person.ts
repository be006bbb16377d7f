/**
 * A panel person as import files and the generator write it (docs/panel.md). Member names are
 * the wire names of the NDJSON format and the columns of the CSV format.
 */
import { DEVICE_ID_PARAMS, MAX_DEVICE_ID_LENGTH, normaliseDeviceId } from '../attribute/device-ids'
import { COOKIE_NAME, identityText } from '../attribute/identity'
import { LineError, lineError } from '../import'

/** The platform of a device: a PC browser, or a mobile device or browser. */
export type DevicePlatform = 'pc' | 'mb'

/** One device of a person. */
export interface PersonDevice {
  /** Identity text as hits carry it: `idfa:...`, `oaid:...`, `imei:...`, `amid:...`. */
  device: string
  platform: DevicePlatform
}

/** One person, as a line of an import or export file. */
export interface PersonRecord {
  person_id: string
  /** Projection weight: the persons of the population this person stands for (> 0). */
  weight: number
  /** A region id of the region table (docs/regions.md). */
  home_region: string
  /** Tag ids of the panel, at most one per tag type. */
  tags: string[]
  devices: PersonDevice[]
}

/** Person ids: letters, digits and `_ . : @ -`, at most 64 characters (no CSV separators). */
export const PERSON_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,63}$/

/** The largest weight a person may carry (the population of the world, with room). */
export const MAX_WEIGHT = 1e10
/** At most this many devices per person. */
export const MAX_DEVICES = 32

const DEVICE_NAMESPACES = new Set(DEVICE_ID_PARAMS.map((d) => d.namespace))
const AMID_VALUE = /^[0-9a-f]{32}$/

/** The identity namespaces a panel device may have: the device-id macros' and the amid cookie's. */
export const NAMESPACES: readonly string[] = [...DEVICE_NAMESPACES, COOKIE_NAME]

/**
 * A device written `namespace:value` as the identity text hits carry (docs/attribution.md): the
 * namespace in lower case; a device id normalised as attribution does (lower case, MAC without
 * separators); an amid cookie value of 32 hexadecimal digits, in lower case. Device ids are
 * mobile; an amid cookie may be on either platform. Throws a LineError saying what is wrong.
 */
export function deviceIdentity(text: string, platform: DevicePlatform): string {
  const cut = text.indexOf(':')
  const namespace = (cut < 0 ? '' : text.slice(0, cut)).trim().toLowerCase()
  const raw = cut < 0 ? '' : text.slice(cut + 1)
  const shown = text.slice(0, 80)
  if (namespace === COOKIE_NAME) {
    const value = raw.trim().toLowerCase()
    if (!AMID_VALUE.test(value)) throw lineError('panelLine.amid', { device: shown })
    return identityText(COOKIE_NAME, value)
  }
  if (!DEVICE_NAMESPACES.has(namespace)) throw lineError('panelLine.namespace', { device: shown, list: NAMESPACES.join(', ') })
  if (raw.includes('|')) throw lineError('panelLine.devicePipe', { device: shown })
  const value = normaliseDeviceId(namespace, raw)
  if (value === '') throw lineError('panelLine.deviceEmpty', { device: shown, max: MAX_DEVICE_ID_LENGTH })
  if (platform !== 'mb') throw lineError('panelLine.mobile', { device: shown })
  return identityText(namespace, value)
}

/** A line of an import that cannot be taken (the event import's class): `message` says why, `problem` with its key. */
export { LineError, lineError }
