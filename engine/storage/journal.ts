/**
 * Journal records: one per committed transaction, framed as [length u32][crc32 u32][JSON].
 * A torn or corrupt frame ends the readable part of a file: it was never acknowledged,
 * because acknowledgement waits for the fsync that follows the whole write.
 */
import { crc32 } from 'node:zlib'
import type { Param, Statement } from './db'

export interface JournalRecord {
  /** Commit sequence number, increasing by one per record. */
  seq: number
  writes: Statement[]
  /** Bytes of filler the record carries (a probe of the disk's room); not read back. */
  padding?: number
}

const HEADER = 8

export function encodeRecord(rec: JournalRecord): Uint8Array {
  const payload = Buffer.from(JSON.stringify({ s: rec.seq, w: rec.writes.map((w) => [w.sql, w.params]), ...(rec.padding ? { p: ' '.repeat(rec.padding) } : {}) }), 'utf8')
  const out = Buffer.allocUnsafe(HEADER + payload.length)
  out.writeUInt32LE(payload.length, 0)
  out.writeUInt32LE(crc32(payload), 4)
  payload.copy(out, HEADER)
  return out
}

/** Decodes every whole, intact record of a journal file, in order; stops at the first bad frame. */
export function decodeRecords(bytes: Uint8Array): { records: JournalRecord[]; validBytes: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const records: JournalRecord[] = []
  let at = 0
  while (at + HEADER <= buf.length) {
    const len = buf.readUInt32LE(at)
    const sum = buf.readUInt32LE(at + 4)
    // A zero-length frame is preallocated or zero-filled space (it would pass the checksum).
    if (len === 0 || at + HEADER + len > buf.length) break
    const payload = buf.subarray(at + HEADER, at + HEADER + len)
    if (crc32(payload) !== sum) break
    let obj: { s: number; w: [string, Param[]][] }
    try {
      obj = JSON.parse(payload.toString('utf8')) as typeof obj
    } catch {
      break
    }
    records.push({ seq: obj.s, writes: obj.w.map(([sql, params]) => ({ sql, params })) })
    at += HEADER + len
  }
  return { records, validBytes: at }
}

/**
 * The records of `segments` (oldest first) to replay on a snapshot that holds every record up to
 * `base`, in order, none numbered above `upTo`. A segment whose first record has a number an
 * earlier segment already holds was begun after a refused write (the persister numbers the next
 * write as the refused one was): the earlier segment's records from that number on were never
 * acknowledged and give way. Throws when a number is missing: the directory is damaged.
 */
export function recordsAfter(segments: readonly Uint8Array[], base: number, upTo = Infinity): JournalRecord[] {
  let out: JournalRecord[] = []
  for (const s of segments) {
    const records = decodeRecords(s).records.filter((r) => r.seq > base && r.seq <= upTo)
    const first = records[0]?.seq
    if (first !== undefined && (out.at(-1)?.seq ?? 0) >= first) out = out.filter((r) => r.seq < first)
    out.push(...records)
  }
  let seq = base
  for (const r of out) {
    if (r.seq !== seq + 1) throw new Error(`journal is missing record ${seq + 1} (found ${r.seq}); the data directory is damaged`)
    seq = r.seq
  }
  return out
}
