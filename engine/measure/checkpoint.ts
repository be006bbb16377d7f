/**
 * The checkpoint of the measurement state (docs/measurement.md "Start"): the identity dictionary,
 * the media request ids counted, and every partition's columns as they were when the event log
 * reached `extent`. At start the engine loads it and replays only the frames written after it,
 * instead of every event since the beginning. It is derived data: when it is missing, damaged, from another version or another
 * time zone, or the log no longer holds what it lists, the whole log is replayed as before.
 *
 * File: `AMCK` u32 version u32 header-length, the header (JSON), the arrays it lists (8-byte
 * aligned), then the CRC-32 of everything before it.
 */
import { crc32 } from 'node:zlib'
import { Columns, Partition, type PartitionArrays } from './columns'
import type { LogExtent } from './log-extent'
import { Identities, RECORD_LAYOUT, type IdentityArrays, type IdentityRecords } from './identities'
import { IdentityTexts } from './identity-texts'
import { RequestIds } from './request-ids'
import { nextTurn } from '../clock'

const MAGIC = 0x4b434d41
/**
 * 5: the identities' records as they are in memory (the header names their layout), then their
 * roots, touches of several campaigns, recent times and campaigns of uncounted hits. 4 (still
 * read): each field of the records an array of its own.
 */
const VERSION = 5

type Typed = Uint8Array | Uint16Array | Uint32Array | Float64Array
const TYPES = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, f64: Float64Array } as const
type TypeName = keyof typeof TYPES

interface Header {
  version: number
  timeZone: string
  extent: LogExtent
  /** Element type and count of each array, in file order. */
  arrays: [TypeName, number][]
  partitions: { kind: 'campaign' | 'minisite'; id: number; sorted: number; relabel?: boolean }[]
  /** Version 5: the records' layout (RECORD_LAYOUT); a checkpoint of another is not read. */
  records?: string
}

export interface MeasureState {
  timeZone: string
  extent: LogExtent
  identities: Identities
  columns: Columns
  requests: RequestIds
}

const IDENTITY_KEYS = ['records', 'roots', 'earlier', 'recent', 'uncounted'] as const
const IDENTITY_KEYS_4 = ['platform', 'kind', 'firstSeen', 'impLast', 'clkLast', 'roots', 'impCampaign', 'impSpot', 'impTs', 'clkCampaign', 'clkSpot', 'clkTs', 'earlier', 'recent', 'uncounted'] as const
type IdentityKey = (typeof IDENTITY_KEYS)[number] | (typeof IDENTITY_KEYS_4)[number]
const PARTITION_KEYS = ['day', 'hour', 'kind', 'flags', 'region', 'spot', 'keyword', 'identity', 'campaign', 'event'] as const

const typeOf = (a: Typed): TypeName => (a instanceof Uint8Array ? 'u8' : a instanceof Uint16Array ? 'u16' : a instanceof Uint32Array ? 'u32' : 'f64')
const pad8 = (n: number) => (8 - (n % 8)) % 8

/** Bytes CRC-summed between two turns (a few ms). */
const CRC_A_TURN = 8 << 20

/** An array of the file: its type and element count as the header lists them, and its bytes in one or more pieces. */
interface Entry {
  type: TypeName
  length: number
  parts: Uint8Array[]
}

const entryOf = (a: Typed): Entry => ({ type: typeOf(a), length: a.length, parts: [new Uint8Array(a.buffer, a.byteOffset, a.byteLength)] })

/**
 * The first `n` texts (the request ids) as their lengths in UTF-16 units and one UTF-8 blob (a
 * text may hold any character), the blob in pieces of TEXTS_A_TURN texts with a pause after each.
 * The identity texts are kept so already (IdentityTexts.units).
 */
async function textEntries(t: readonly string[], n: number, pause: () => Promise<void>): Promise<[Entry, Entry]> {
  const lengths = new Uint32Array(n)
  const parts: Uint8Array[] = []
  let bytes = 0
  for (let from = 0; from < n; from += TEXTS_A_TURN) {
    const to = Math.min(n, from + TEXTS_A_TURN)
    // (a loop: Uint32Array.from with a mapping function took 75 ms over a million texts)
    for (let i = from; i < to; i++) lengths[i] = t[i]!.length
    const piece = Buffer.from(t.slice(from, to).join(''), 'utf8')
    parts.push(piece)
    bytes += piece.length
    await pause()
  }
  return [entryOf(lengths), { type: 'u8', length: bytes, parts }]
}

/**
 * A state as a checkpoint holds it, taken while no hit is recorded (Ingest.checkpoint): copies of
 * what hits change in place (the identities' records, the request ids), and what they only append
 * to as it is: the identity texts (the first `nTexts`) and views of the partitions' columns (a
 * partition's events are never changed in place: a sort or a relabel makes new columns). Encoding
 * it (the texts' bytes, the CRC over every array: most of a checkpoint's time) then runs while
 * hits are recorded again.
 */
export interface TakenState {
  header: Omit<Header, 'arrays'>
  /** The identity texts as the file keeps them (IdentityTexts.units). */
  texts: { lengths: Uint32Array<ArrayBuffer>; blob: Uint8Array<ArrayBuffer> }
  requestKeys: string[]
  /** The identities' arrays (after their texts), then the arrays after the request keys, in file order. */
  identities: Typed[]
  rest: Typed[]
}

/** The state to encode (encodeTaken), taken at once. */
export function takeCheckpoint(s: MeasureState): TakenState {
  const ids: IdentityRecords = s.identities.records()
  const requests = s.requests.arrays()
  const rest: Typed[] = [requests.ts]
  const partitions: Header['partitions'] = []
  for (const [kind, map] of [['campaign', s.columns.campaigns], ['minisite', s.columns.minisites]] as const) {
    for (const [id, p] of map) {
      const a: PartitionArrays = p.arrays()
      partitions.push({ kind, id, sorted: a.sorted, ...(a.relabel ? { relabel: true } : {}) })
      for (const k of PARTITION_KEYS) rest.push(a[k])
    }
  }
  return {
    header: { version: VERSION, timeZone: s.timeZone, extent: s.extent, partitions, records: RECORD_LAYOUT }, texts: s.identities.textStore.units(s.identities.size),
    requestKeys: requests.keys, identities: IDENTITY_KEYS.map((k) => ids[k]), rest,
  }
}

/**
 * The checkpoint file of a taken state, as the parts to write in order; `pause` is awaited between
 * pieces of the work (the request ids' UTF-8, the CRC), so that hits are answered meanwhile.
 */
export async function encodeTaken(t: TakenState, pause: () => Promise<void> = nextTurn): Promise<Uint8Array[]> {
  const entries: Entry[] = [entryOf(t.texts.lengths), entryOf(t.texts.blob), ...t.identities.map(entryOf), ...(await textEntries(t.requestKeys, t.requestKeys.length, pause)), ...t.rest.map(entryOf)]
  const { version, timeZone, extent, partitions, records } = t.header
  const header: Header = { version, timeZone, extent, arrays: entries.map((e) => [e.type, e.length]), partitions, ...(records ? { records } : {}) }
  const json = Buffer.from(JSON.stringify(header), 'utf8')
  const head = Buffer.alloc(12)
  head.writeUInt32LE(MAGIC, 0)
  head.writeUInt32LE(VERSION, 4)
  head.writeUInt32LE(json.length, 8)
  const parts: Uint8Array[] = [head, json, new Uint8Array(pad8(12 + json.length))]
  for (const e of entries) {
    parts.push(...e.parts, new Uint8Array(pad8(e.parts.reduce((n, p) => n + p.length, 0))))
  }
  let crc = 0
  let since = 0
  for (const p of parts) {
    // (zlib.crc32 of an empty array over a zero-length buffer answers 0, whatever the running value)
    for (let at = 0; at < p.length; at += CRC_A_TURN) {
      crc = crc32(p.subarray(at, at + CRC_A_TURN), crc)
      since += Math.min(CRC_A_TURN, p.length - at)
      if (since >= CRC_A_TURN) (since = 0, await pause())
    }
  }
  const tail = Buffer.alloc(4)
  tail.writeUInt32LE(crc, 0)
  parts.push(tail)
  return parts
}

/** The checkpoint file of a state, as the parts to write in order. */
export const encodeCheckpoint = (s: MeasureState): Promise<Uint8Array[]> => encodeTaken(takeCheckpoint(s))

/** A checkpoint's bytes: their number, and reads of a range into a given array (the whole of it). */
export interface CheckpointReader {
  readonly size: number
  read(into: Uint8Array, position: number): Promise<void>
}

/** A reader of a checkpoint held in memory. */
export function bytesReader(buf: Uint8Array): CheckpointReader {
  return {
    size: buf.length,
    read: async (into, position) => {
      if (position + into.length > buf.length) fail('a read runs past the end')
      into.set(buf.subarray(position, position + into.length))
    },
  }
}

/**
 * Texts decoded (encoded) between turns of the event loop (about 25 ms of work): a server reads its
 * checkpoint while it listens (docs/measurement.md), and the 1.5 million identity texts of the
 * bench's checkpoint were one block of 160 ms. The other large steps (the identity dictionary, the
 * partitions, the request ids) each end a turn too.
 */
const TEXTS_A_TURN = 200_000

/** Where an array of the file goes: its type and count, its bytes (padding included) in the file, and in its block. */
interface Placed {
  type: TypeName
  length: number
  /** Bytes in the file, padding included. */
  padded: number
  /** Its block (0: the dictionary's arrays let go after the start; the records, the roots, each partition: one each) and its byte offset in it. */
  block: number
  offset: number
  /** Elements of room after it in its block. */
  room: number
  /** Read through a scratch piece, its pieces of zeros not written (keyword: zero in a campaign without keywords). */
  sparse: boolean
}

/**
 * A block of `n` bytes of zeros whose memory V8 does not count as its own: a SharedArrayBuffer.
 * V8 counts an ArrayBuffer's bytes as held outside its heap, and past 64 MiB more of them it
 * starts a full collection: allocating a 300 MB checkpoint's blocks cost a start one (13-27 ms
 * with the bundle and sql.js in the heap, the server pinned to one core). The blocks are read
 * and written as any typed array's memory (no Atomics, never handed to another thread); a block
 * let go (a partition's columns copied once their room is used, a state replaced) is freed by
 * the next full collection, which the arrays replacing it, counted, set off. Typed as an
 * ArrayBuffer: the engine's typed arrays are declared over one, and nothing tells the two apart.
 */
const sharedBlock = (n: number): ArrayBuffer => new SharedArrayBuffer(n) as unknown as ArrayBuffer

/** The piece a sparse column is read in: its pieces of zeros leave their memory untouched (not resident). */
const SPARSE_PIECE = 1 << 20

/** The identities' arrays of a version of the file. */
const identityKeys = (version: number): readonly IdentityKey[] => (version === 4 ? IDENTITY_KEYS_4 : IDENTITY_KEYS)

/**
 * The state in a checkpoint, or null when it is not a whole, current checkpoint. The arrays are
 * read into a few blocks of memory, not one each: every large allocation outside V8's heap makes
 * it count toward a garbage collection, and at ten million events forty of them cost several full
 * collections over the request ids. The identity texts' bytes, the identities' records and roots
 * are a block each, taken as the identities' memory (the texts as they are: no string a text);
 * the other arrays before the partitions (text lengths, touches, recent times: read into the
 * identities' structures, then let go) share one; each partition's columns are one block. The
 * texts' bytes, records, roots and columns have room for an eighth more after them (zero pages,
 * resident only once used), so that the first identities and events after a start copy none of
 * them. No copy of the whole file is held. The CRC is checked as the bytes arrive; a header that
 * lists more bytes than the file has fails before anything is allocated. The request ids are
 * decoded last, once the blocks are allocated.
 */
export async function decodeCheckpoint(r: CheckpointReader): Promise<MeasureState | null> {
  if (r.size < 16) return null
  const head = Buffer.alloc(12)
  await r.read(head, 0)
  const version = head.readUInt32LE(4)
  if (head.readUInt32LE(0) !== MAGIC || (version !== VERSION && version !== 4)) return null
  const jsonLength = head.readUInt32LE(8)
  const first = 12 + jsonLength + pad8(12 + jsonLength)
  if (first + 4 > r.size) return null
  const json = Buffer.alloc(first - 12)
  await r.read(json, 12)
  let crc = crc32(json, crc32(head))
  const header = JSON.parse(json.toString('utf8', 0, jsonLength)) as Header
  const keys = identityKeys(version)
  const plan = planArrays(header, r.size - 4 - first, keys)
  if (version !== 4 && header.records !== RECORD_LAYOUT) return null
  const sizes: number[] = []
  for (const a of plan) sizes[a.block] = Math.max(sizes[a.block] ?? 0, a.offset + Math.max(a.padded, (a.length + a.room) * TYPES[a.type].BYTES_PER_ELEMENT))
  const blocks = sizes.map(sharedBlock)
  // (zlib.crc32 of an empty array answers 0, whatever the running value)
  const sum = (bytes: Uint8Array) => bytes.length > 0 && (crc = crc32(bytes, crc))
  let at = first
  const zeros = Buffer.alloc(SPARSE_PIECE)
  const scratch = Buffer.alloc(SPARSE_PIECE)
  for (const a of plan) {
    // its padding read along (the CRC covers it), kept as at most 7 bytes past the array's end
    const raw = new Uint8Array(blocks[a.block]!, a.offset, a.padded)
    if (!a.sparse) {
      await r.read(raw, at)
      sum(raw)
    } else {
      for (let done = 0; done < a.padded; done += SPARSE_PIECE) {
        const piece = scratch.subarray(0, Math.min(SPARSE_PIECE, a.padded - done))
        await r.read(piece, at + done)
        sum(piece)
        if (!piece.equals(zeros.subarray(0, piece.length))) raw.set(piece, done)
      }
    }
    at += a.padded
  }
  const tail = Buffer.alloc(4)
  await r.read(tail, at)
  if (tail.readUInt32LE(0) !== crc) return null
  const view = <T extends Typed>(a: Placed): T => new TYPES[a.type](blocks[a.block]!, a.offset, a.length + a.room) as T
  let next = 0
  const take = <T extends Typed>(): T => view<T>(plan[next++]!)
  const identityText = [take<Uint32Array>(), take<Uint8Array<ArrayBuffer>>()] as const
  const ids = {} as Record<IdentityKey, Typed>
  for (const k of keys) ids[k] = take()
  const requestText = [take<Uint32Array>(), take<Uint8Array>()] as const
  const requestTs = take<Float64Array>()
  if (requestTs.length !== requestText[0].length) fail(`${requestText[0].length} request ids with ${requestTs.length} times`)
  const [lengths, blob] = identityText
  const identityTexts = IdentityTexts.fromUnits(lengths, blob, plan[1]!.length)
  const identities = version === 4 ? Identities.from(identityTexts, ids as unknown as IdentityArrays) : Identities.fromRecords(identityTexts, ids as unknown as IdentityRecords)
  await nextTurn()
  const columns = new Columns()
  for (const p of header.partitions) {
    const a = { sorted: p.sorted } as Record<string, unknown>
    const n = plan[next]!.length
    for (const k of PARTITION_KEYS) a[k] = take()
    const part = Partition.from(p.kind === 'minisite', a as unknown as PartitionArrays, n)
    if (p.relabel) part.markRelabel(identities)
    columns.put(p.kind, p.id, part)
  }
  await nextTurn()
  const requestKeys = await textsInto(new Array<string>(requestText[0].length), ...requestText)
  return { timeZone: header.timeZone, extent: header.extent, identities, columns, requests: RequestIds.from(requestKeys, requestTs) }
}

/**
 * Where each array the header lists goes (decodeCheckpoint), checked against the header's
 * layout and the `bytes` the file holds for the arrays; fails before anything is allocated.
 */
function planArrays(header: Header, bytes: number, keys: readonly IdentityKey[]): Placed[] {
  const want: TypeName[] = ['u32', 'u8', ...keys.map((k) => IDENTITY_TYPES[k]), 'u32', 'u8', 'f64']
  // the arrays before the partitions': the identity texts (2), the identities' arrays, the request keys (2) and times
  const dictionary = 2 + keys.length + 3
  const ids = header.arrays[0]?.[1] ?? 0
  for (const _ of header.partitions) want.push(...PARTITION_KEYS.map((k) => PARTITION_TYPES[k]))
  const plan: Placed[] = []
  let total = 0
  /** The next free byte of each block. */
  const ends: number[] = [0]
  let partition = 0
  let n = 0
  for (const [i, [type, length]] of header.arrays.entries()) {
    if (i >= want.length) fail('more arrays than read')
    if (type !== want[i]) fail(`array ${i} is ${type}, expected ${want[i]}`)
    const size = TYPES[type].BYTES_PER_ELEMENT
    const padded = length * size + pad8(length * size)
    total += padded
    if (total > bytes) fail('an array runs past the end')
    const column = i - dictionary
    const key = column >= 0 ? PARTITION_KEYS[column % PARTITION_KEYS.length]! : keys[i - 2]
    let block = 0
    let room = 0
    if (column >= 0) {
      if (column % PARTITION_KEYS.length === 0) (partition = ends.push(0) - 1), (n = length)
      block = partition
      const kind = header.partitions[Math.floor(column / PARTITION_KEYS.length)]!.kind
      if (length !== n && !(length === 0 && kind === 'campaign' && (key === 'campaign' || key === 'event'))) fail('the columns of a partition differ in length')
      room = length === n ? n >> 3 : 0
    } else if (i === 1) {
      // the identity texts' bytes, taken as they are (IdentityTexts): a block with room for an eighth more
      block = ends.push(0) - 1
      room = length >> 3
    } else if (keys === IDENTITY_KEYS && (key === 'records' || key === 'roots')) {
      // the identities' memory from now on: a block each, with room for an eighth more identities
      block = ends.push(0) - 1
      room = Math.floor(length / Math.max(ids, 1)) * (ids >> 3)
    }
    const offset = ends[block]!
    plan.push({ type, length, padded, block, offset, room, sparse: key === 'keyword' })
    ends[block] = offset + Math.max(padded, (length + room) * size)
    ends[block]! += pad8(ends[block]!)
  }
  if (plan.length < want.length) fail('fewer arrays than the header lists')
  if (total !== bytes) fail('bytes after the last array')
  return plan
}

/** Fills `out` with the texts of a checkpoint's lengths (UTF-16 units) and UTF-8 blob, between turns. */
async function textsInto(out: string[], lengths: Uint32Array, blob: Uint8Array): Promise<string[]> {
  let units = 0
  for (let i = 0; i < lengths.length; i++) units += lengths[i]!
  // (as many UTF-8 bytes as UTF-16 units: every character is ASCII, and latin1 reads it as UTF-8 does, at about twice the speed)
  const all = Buffer.from(blob.buffer, blob.byteOffset, blob.length).toString(units === blob.length ? 'latin1' : 'utf8')
  for (let i = 0, from = 0; i < lengths.length; from += lengths[i++]!) {
    out[i] = all.slice(from, from + lengths[i]!)
    if (i % TEXTS_A_TURN === TEXTS_A_TURN - 1) await nextTurn()
  }
  return out
}

const IDENTITY_TYPES: Record<IdentityKey, TypeName> = {
  records: 'f64', platform: 'u8', kind: 'u8', firstSeen: 'f64', impLast: 'f64', clkLast: 'f64', roots: 'u32',
  impCampaign: 'u32', impSpot: 'u32', impTs: 'f64', clkCampaign: 'u32', clkSpot: 'u32', clkTs: 'f64', earlier: 'f64', recent: 'f64', uncounted: 'f64',
}
const PARTITION_TYPES: Record<(typeof PARTITION_KEYS)[number], TypeName> = {
  day: 'u16', hour: 'u8', kind: 'u8', flags: 'u8', region: 'u16', spot: 'u32', keyword: 'u32', identity: 'u32', campaign: 'u32', event: 'u32',
}

function fail(why: string): never {
  throw new Error(`checkpoint: ${why}`)
}
