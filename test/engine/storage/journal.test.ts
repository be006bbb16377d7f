import { describe, expect, it } from 'vitest'
import { decodeRecords, encodeRecord, recordsAfter, type JournalRecord } from '../../../engine/storage/journal'

const records: JournalRecord[] = [
  { seq: 1, writes: [{ sql: 'CREATE TABLE t (a, b); CREATE INDEX t_a ON t(a)', params: [] }] },
  {
    seq: 2,
    writes: [
      { sql: 'INSERT INTO t VALUES (?, ?)', params: ['Ünïcödé ✓ 中文 🚀 Ёж', null] },
      { sql: "UPDATE t SET b = ? WHERE a = 'ß'", params: [-1.25] },
    ],
  },
  { seq: 3, writes: [{ sql: 'INSERT INTO t VALUES (?, ?)', params: ['line\nbreak "quote" \\ back\u0000nul', 9007199254740991] }] },
  { seq: 4, writes: [{ sql: 'INSERT INTO t VALUES (?, ?)', params: ['lone surrogate \ud800 end', 0] }] },
]

const concat = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)))
const encoded = records.map(encodeRecord)
const all = concat(encoded)
/** Byte offset where record i starts. */
const startOf = (i: number) => encoded.slice(0, i).reduce((n, b) => n + b.length, 0)

describe('journal', () => {
  it('round-trips records with unicode SQL, unicode and null params when encoded then decoded', () => {
    const out = decodeRecords(all)
    expect(out.records).toEqual(records)
    expect(out.validBytes).toBe(all.length)
  })

  it('decodes a single record when it is alone', () => {
    expect(decodeRecords(encoded[1]!).records).toEqual([records[1]])
  })

  it('decodes correctly when the bytes are a view into a larger buffer', () => {
    const big = Buffer.concat([Buffer.from('garbage-before'), all, Buffer.from('xx')])
    const view = big.subarray(14, 14 + all.length)
    expect(decodeRecords(view).records).toEqual(records)
    expect(decodeRecords(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)).records).toEqual(records)
  })

  it('returns no records and zero valid bytes when the input is empty', () => {
    expect(decodeRecords(new Uint8Array(0))).toEqual({ records: [], validBytes: 0 })
  })

  it('returns no records when the input is shorter than a frame header', () => {
    expect(decodeRecords(all.subarray(0, 7))).toEqual({ records: [], validBytes: 0 })
  })

  it('keeps the earlier records when the last record is torn at any byte offset', () => {
    const last = records.length - 1
    const lastStart = startOf(last)
    for (let cut = lastStart; cut < all.length; cut++) {
      const out = decodeRecords(all.subarray(0, cut))
      expect(out.records, `cut at ${cut}`).toEqual(records.slice(0, last))
      expect(out.validBytes, `cut at ${cut}`).toBe(lastStart)
    }
  })

  it('keeps only the records before it when a payload has a flipped byte', () => {
    for (let i = 0; i < records.length; i++) {
      const payloadStart = startOf(i) + 8
      for (const at of [payloadStart, payloadStart + Math.floor(encoded[i]!.length / 2) - 4, startOf(i) + encoded[i]!.length - 1]) {
        const bad = Buffer.from(all)
        bad[at] = bad[at]! ^ 0x01
        const out = decodeRecords(bad)
        expect(out.records, `record ${i}, byte ${at}`).toEqual(records.slice(0, i))
        expect(out.validBytes).toBe(startOf(i))
      }
    }
  })

  it('keeps only the records before it when a checksum or length header is damaged', () => {
    const badSum = Buffer.from(all)
    badSum[startOf(2) + 4] = badSum[startOf(2) + 4]! ^ 0xff
    expect(decodeRecords(badSum).records).toEqual(records.slice(0, 2))

    const hugeLen = Buffer.from(all)
    hugeLen.writeUInt32LE(0xffffffff, startOf(1))
    expect(decodeRecords(hugeLen).records).toEqual(records.slice(0, 1))

    const shortLen = Buffer.from(all)
    shortLen.writeUInt32LE(shortLen.readUInt32LE(startOf(1)) - 1, startOf(1))
    expect(decodeRecords(shortLen).records).toEqual(records.slice(0, 1))
  })

  it('stops at zero padding when a file ends in preallocated zero bytes', () => {
    // A zero-length frame with crc32('') = 0 must not be read as an endless run of empty records.
    const padded = Buffer.concat([all, Buffer.alloc(64)])
    const out = decodeRecords(padded)
    expect(out.records).toEqual(records)
  })
})

describe('recordsAfter', () => {
  const rec = (seq: number, v: string): JournalRecord => ({ seq, writes: [{ sql: 'INSERT INTO t VALUES (?)', params: [v] }] })
  const segment = (...rs: JournalRecord[]) => concat(rs.map(encodeRecord))
  const values = (rs: JournalRecord[]) => rs.map((r) => `${r.seq}:${String(r.writes[0]!.params[0])}`)

  it('gives the records after the snapshot, up to upTo, across segments in order', () => {
    const segs = [segment(rec(1, 'a'), rec(2, 'b')), segment(rec(3, 'c'), rec(4, 'd'))]
    expect(values(recordsAfter(segs, 1))).toEqual(['2:b', '3:c', '4:d'])
    expect(values(recordsAfter(segs, 0, 3))).toEqual(['1:a', '2:b', '3:c'])
  })

  it('lets a later segment that starts at a number an earlier one holds replace that one\'s records from there (a refused record that reached its file whole)', () => {
    const segs = [segment(rec(1, 'a'), rec(2, 'refused'), rec(3, 'refused too')), segment(rec(2, 'b'), rec(3, 'c'))]
    expect(values(recordsAfter(segs, 0))).toEqual(['1:a', '2:b', '3:c'])
  })

  it('refuses a gap in the numbers', () => {
    expect(() => recordsAfter([segment(rec(1, 'a')), segment(rec(3, 'c'))], 0)).toThrow(/missing record 2/)
  })
})
