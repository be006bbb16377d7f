/**
 * The checkpoint of the measurement state (docs/measurement.md "Start"): the identity dictionary
 * and every partition's columns as they were when the event log reached `extent`. At start the
 * engine loads it and replays only the frames written after it, instead of every event since the
 * beginning. It is derived data: when it is missing, damaged, from another version or another
 * time zone, or the log no longer holds what it lists, the whole log is replayed as before.
 *
 * File: `AMCK` u32 version u32 header-length, the header (JSON), the arrays it lists (8-byte
 * aligned), then the CRC-32 of everything before it.
 */
import { crc32 } from 'node:zlib'
import { Columns, Partition, type PartitionArrays } from './columns'
import type { LogExtent } from './event-log'
import { Identities, type IdentityArrays } from './identities'

const MAGIC = 0x4b434d41
const VERSION = 1

type Typed = Uint8Array | Uint16Array | Uint32Array | Float64Array
const TYPES = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, f64: Float64Array } as const
type TypeName = keyof typeof TYPES

interface Header {
  version: number
  timeZone: string
  extent: LogExtent
  /** Element type and count of each array, in file order. */
  arrays: [TypeName, number][]
  partitions: { kind: 'campaign' | 'minisite'; id: number; sorted: number }[]
}

export interface MeasureState {
  timeZone: string
  extent: LogExtent
  identities: Identities
  columns: Columns
}

const IDENTITY_KEYS = ['platform', 'firstSeen', 'window', 'impressions', 'clicks', 'impCampaign', 'impSpot', 'impTs', 'clkCampaign', 'clkSpot', 'clkTs', 'earlier'] as const
const PARTITION_KEYS = ['day', 'hour', 'kind', 'flags', 'region', 'spot', 'keyword', 'identity', 'campaign', 'event'] as const

const typeOf = (a: Typed): TypeName => (a instanceof Uint8Array ? 'u8' : a instanceof Uint16Array ? 'u16' : a instanceof Uint32Array ? 'u32' : 'f64')
const pad8 = (n: number) => (8 - (n % 8)) % 8

/** The checkpoint file of a state, as the parts to write in order. */
export function encodeCheckpoint(s: MeasureState): Uint8Array[] {
  const arrays: Typed[] = []
  // the texts as one UTF-8 blob and their lengths in UTF-16 units (a text may hold any character)
  const t = s.identities.texts
  arrays.push(Uint32Array.from(t, (x) => x.length), Buffer.from(t.join(''), 'utf8'))
  const ids: IdentityArrays = s.identities.arrays()
  for (const k of IDENTITY_KEYS) arrays.push(ids[k])
  const partitions: Header['partitions'] = []
  for (const [kind, map] of [['campaign', s.columns.campaigns], ['minisite', s.columns.minisites]] as const) {
    for (const [id, p] of map) {
      const a: PartitionArrays = p.arrays()
      partitions.push({ kind, id, sorted: a.sorted })
      for (const k of PARTITION_KEYS) arrays.push(a[k])
    }
  }
  const header: Header = { version: VERSION, timeZone: s.timeZone, extent: s.extent, arrays: arrays.map((a) => [typeOf(a), a.length]), partitions }
  const json = Buffer.from(JSON.stringify(header), 'utf8')
  const head = Buffer.alloc(12)
  head.writeUInt32LE(MAGIC, 0)
  head.writeUInt32LE(VERSION, 4)
  head.writeUInt32LE(json.length, 8)
  const parts: Uint8Array[] = [head, json, new Uint8Array(pad8(12 + json.length))]
  for (const a of arrays) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
    parts.push(bytes, new Uint8Array(pad8(bytes.length)))
  }
  let crc = 0
  // (zlib.crc32 of an empty array over a zero-length buffer answers 0, whatever the running value)
  for (const p of parts) if (p.length > 0) crc = crc32(p, crc)
  const tail = Buffer.alloc(4)
  tail.writeUInt32LE(crc, 0)
  parts.push(tail)
  return parts
}

/** The state in a checkpoint file, or null when the file is not a whole, current checkpoint. */
export function decodeCheckpoint(buf: Buffer): MeasureState | null {
  if (buf.length < 16 || buf.readUInt32LE(0) !== MAGIC || buf.readUInt32LE(4) !== VERSION) return null
  if (crc32(buf.subarray(0, buf.length - 4)) !== buf.readUInt32LE(buf.length - 4)) return null
  const jsonLength = buf.readUInt32LE(8)
  const header = JSON.parse(buf.toString('utf8', 12, 12 + jsonLength)) as Header
  let at = 12 + jsonLength
  at += pad8(at)
  let next = 0
  const take = <T extends Typed>(want: TypeName): T => {
    const [type, length] = header.arrays[next++] ?? fail('fewer arrays than the header lists')
    if (type !== want) fail(`array ${next - 1} is ${type}, expected ${want}`)
    const Ctor = TYPES[type]
    const bytes = length * Ctor.BYTES_PER_ELEMENT
    if (at + bytes > buf.length - 4) fail('an array runs past the end')
    // A view on the file's bytes where they are aligned (the file pads every array to 8 bytes):
    // no second copy of hundreds of MiB at start, and nothing left for the collector to free.
    const offset = buf.byteOffset + at
    let out: Typed
    if (offset % Ctor.BYTES_PER_ELEMENT === 0) out = new Ctor(buf.buffer as ArrayBuffer, offset, length)
    else {
      out = new Ctor(length)
      new Uint8Array(out.buffer).set(buf.subarray(at, at + bytes))
    }
    at += bytes + pad8(bytes)
    return out as T
  }
  const lengths = take<Uint32Array>('u32')
  const all = Buffer.from(take<Uint8Array>('u8')).toString('utf8')
  const texts = new Array<string>(lengths.length)
  for (let i = 0, from = 0; i < lengths.length; from += lengths[i++]!) texts[i] = all.slice(from, from + lengths[i]!)
  const ids = {} as Record<(typeof IDENTITY_KEYS)[number], Typed>
  for (const k of IDENTITY_KEYS) ids[k] = take(IDENTITY_TYPES[k])
  const identities = Identities.from(texts, ids as unknown as IdentityArrays)
  const columns = new Columns()
  for (const p of header.partitions) {
    const a = { sorted: p.sorted } as Record<string, unknown>
    for (const k of PARTITION_KEYS) a[k] = take(PARTITION_TYPES[k])
    columns.put(p.kind, p.id, Partition.from(p.kind === 'minisite', a as unknown as PartitionArrays))
  }
  if (next !== header.arrays.length) fail('more arrays than read')
  return { timeZone: header.timeZone, extent: header.extent, identities, columns }
}

const IDENTITY_TYPES: Record<(typeof IDENTITY_KEYS)[number], TypeName> = {
  platform: 'u8', firstSeen: 'f64', window: 'f64', impressions: 'u16', clicks: 'u16',
  impCampaign: 'u32', impSpot: 'u32', impTs: 'f64', clkCampaign: 'u32', clkSpot: 'u32', clkTs: 'f64', earlier: 'f64',
}
const PARTITION_TYPES: Record<(typeof PARTITION_KEYS)[number], TypeName> = {
  day: 'u16', hour: 'u8', kind: 'u8', flags: 'u8', region: 'u16', spot: 'u32', keyword: 'u32', identity: 'u32', campaign: 'u32', event: 'u32',
}

function fail(why: string): never {
  throw new Error(`checkpoint: ${why}`)
}
