/**
 * Binary records of the event segment files (docs/measurement.md): identity definitions,
 * 40-byte events, the media request ids of events and the links of ids into devices, packed into frames
 * `[length u32][crc32 u32][records]`.
 */
import { crc32 } from 'node:zlib'
import { KIND, type Kind } from './types'

export const EVENT_BYTES = 40
export const IDENTITY_KIND = 0x10
/** The media request id of the event just before it (request-ids.ts). */
export const REQUEST_KIND = 0x11
/** Two ids linked into one device (docs/attribution.md, "Devices"): `[0x12, 0, 0, 0][a u32][b u32]`. */
export const LINK_KIND = 0x12
export const LINK_BYTES = 12
export const FRAME_HEADER = 8

export interface EventRecord {
  kind: Kind
  flags: number
  region: number
  campaign: number
  spot: number
  keyword: number
  identity: number
  minisite: number
  event: number
  ts: number
}

export interface IdentityRecord {
  id: number
  text: string
  platform: number
  firstSeen: number
}

/** Builds one frame from records, in order (into one growing buffer: imports write millions). */
export class FrameWriter {
  private buf = Buffer.allocUnsafe(64 * 1024)
  private size = FRAME_HEADER

  private reserve(n: number): Buffer {
    if (this.size + n > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.size + n))
      this.buf.copy(next, 0, 0, this.size)
      this.buf = next
    }
    return this.buf
  }

  identity(r: IdentityRecord): void {
    const len = Buffer.byteLength(r.text, 'utf8')
    const b = this.reserve(16 + len)
    const i = this.size
    b.writeUInt8(IDENTITY_KIND, i)
    b.writeUInt8(r.platform, i + 1)
    b.writeUInt16LE(len, i + 2)
    b.writeUInt32LE(r.id, i + 4)
    b.writeDoubleLE(r.firstSeen, i + 8)
    b.write(r.text, i + 16, len, 'utf8')
    this.size += 16 + len
  }

  /** The media request id of the event written just before. */
  request(id: string): void {
    const len = Buffer.byteLength(id, 'utf8')
    if (len > 0xffff) throw new Error(`FrameWriter: a request id of ${len} bytes`)
    const b = this.reserve(4 + len)
    const i = this.size
    b[i] = REQUEST_KIND
    b[i + 1] = 0
    b.writeUInt16LE(len, i + 2)
    b.write(id, i + 4, len, 'utf8')
    this.size += 4 + len
  }

  /** A link of ids `a` and `b` into one device, applied before the records after it. */
  link(a: number, b: number): void {
    const buf = this.reserve(LINK_BYTES)
    const i = this.size
    buf.writeUInt32LE(LINK_KIND, i)
    buf.writeUInt32LE(a, i + 4)
    buf.writeUInt32LE(b, i + 8)
    this.size += LINK_BYTES
  }

  event(e: EventRecord): void {
    this.eventFields(e.kind, e.flags, e.region, e.campaign, e.spot, e.keyword, e.identity, e.minisite, e.event, e.ts)
  }

  /** The same as event(), field by field (the ingest's hot path makes no record object). */
  eventFields(kind: number, flags: number, region: number, campaign: number, spot: number, keyword: number, identity: number, minisite: number, event: number, ts: number): void {
    if (kind !== KIND.impression && kind !== KIND.click && kind !== KIND.minisite) throw new Error(`FrameWriter: no record kind ${kind}`)
    const b = this.reserve(EVENT_BYTES)
    const i = this.size
    b[i] = kind
    b[i + 1] = flags
    b.writeUInt16LE(region, i + 2)
    b.writeUInt32LE(campaign, i + 4)
    b.writeUInt32LE(spot, i + 8)
    b.writeUInt32LE(keyword, i + 12)
    b.writeUInt32LE(identity, i + 16)
    b.writeUInt32LE(minisite, i + 20)
    b.writeUInt32LE(event, i + 24)
    b.writeDoubleLE(ts, i + 28)
    b.writeUInt32LE(0, i + 36)
    this.size += EVENT_BYTES
  }

  get empty(): boolean {
    return this.size === FRAME_HEADER
  }

  /** The frame, ready to append; the writer is empty afterwards. */
  take(): Buffer {
    if (this.empty) throw new Error('FrameWriter.take: no records (an empty frame would end the segment)')
    const frame = Buffer.from(this.buf.subarray(0, this.size))
    const payload = frame.subarray(FRAME_HEADER)
    frame.writeUInt32LE(payload.length, 0)
    frame.writeUInt32LE(crc32(payload), 4)
    this.size = FRAME_HEADER
    return frame
  }
}

export interface RecordVisitor {
  identity(r: IdentityRecord): void
  event(e: EventRecord): void
  /** The media request id of the event visited just before (readers that do not need it leave it out). */
  request?(id: string): void
  /** A link of two ids into one device (readers that do not need it leave it out). */
  link?(a: number, b: number): void
}

/**
 * Reads the whole, intact frames of a segment and hands their records to `visit`, in order.
 * Stops at the first torn, zero-filled or corrupt frame; returns the offset reached (the bytes
 * read, from the start). `from` and `upTo` read a slice: the frames from offset `from` (a frame's
 * start), until `upTo` bytes or more were read (a whole frame at least), so that a caller can let
 * others run between slices.
 */
export function readFrames(buf: Buffer, visit: RecordVisitor, from = 0, upTo = Infinity): number {
  let at = from
  while (at + FRAME_HEADER <= buf.length && at - from < upTo) {
    const len = buf.readUInt32LE(at)
    if (len === 0 || at + FRAME_HEADER + len > buf.length) break
    const payload = buf.subarray(at + FRAME_HEADER, at + FRAME_HEADER + len)
    if (crc32(payload) !== buf.readUInt32LE(at + 4)) break
    readRecords(payload, visit)
    at += FRAME_HEADER + len
  }
  return at
}

function readRecords(p: Buffer, visit: RecordVisitor): void {
  let i = 0
  while (i < p.length) {
    const kind = p.readUInt8(i)
    if (kind === IDENTITY_KIND) {
      const n = p.readUInt16LE(i + 2)
      visit.identity({ platform: p.readUInt8(i + 1), id: p.readUInt32LE(i + 4), firstSeen: p.readDoubleLE(i + 8), text: p.toString('utf8', i + 16, i + 16 + n) })
      i += 16 + n
    } else if (kind === REQUEST_KIND) {
      const n = p.readUInt16LE(i + 2)
      visit.request?.(p.toString('utf8', i + 4, i + 4 + n))
      i += 4 + n
    } else if (kind === LINK_KIND) {
      visit.link?.(p.readUInt32LE(i + 4), p.readUInt32LE(i + 8))
      i += LINK_BYTES
    } else if (kind === KIND.impression || kind === KIND.click || kind === KIND.minisite) {
      visit.event({
        kind, flags: p.readUInt8(i + 1), region: p.readUInt16LE(i + 2), campaign: p.readUInt32LE(i + 4), spot: p.readUInt32LE(i + 8),
        keyword: p.readUInt32LE(i + 12), identity: p.readUInt32LE(i + 16), minisite: p.readUInt32LE(i + 20), event: p.readUInt32LE(i + 24), ts: p.readDoubleLE(i + 28),
      })
      i += EVENT_BYTES
    } else {
      throw new Error(`unknown record kind ${kind} in an intact frame: the event log was written by a newer version`)
    }
  }
}
