// docs/measurement.md "Raw events": frames [length u32][crc32 u32][records], identity and event records
import { crc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { EVENT_BYTES, FrameWriter, IDENTITY_KIND, LINK_BYTES, LINK_KIND, REQUEST_KIND, readFrames, type EventRecord, type IdentityRecord } from '../../../engine/measure/record'
import { KIND } from '../../../engine/measure/types'

type Rec = { identity: IdentityRecord } | { event: EventRecord }

/** Every record readFrames hands out, in order, and the bytes it says it read. */
function read(buf: Buffer): { records: Rec[]; bytes: number } {
  const records: Rec[] = []
  const bytes = readFrames(buf, { identity: (r) => records.push({ identity: r }), event: (e) => records.push({ event: e }) })
  return { records, bytes }
}

function ev(i: number, over: Partial<EventRecord> = {}): EventRecord {
  return {
    kind: ([KIND.impression, KIND.click, KIND.minisite] as const)[i % 3]!, flags: i % 256, region: i % 393, campaign: 1 + (i % 7), spot: 100 + i,
    keyword: i % 5, identity: 1 + (i % 50), minisite: i % 3 === 2 ? 9 : 0, event: i % 3 === 2 ? 4 : 0, ts: 1_736_481_600_000 + i * 1_000.5, ...over,
  }
}

function frameOf(records: Rec[]): Buffer {
  const w = new FrameWriter()
  for (const r of records) 'identity' in r ? w.identity(r.identity) : w.event(r.event)
  return w.take()
}

/** A frame whose payload is `payload` with a correct length and checksum. */
function rawFrame(payload: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32LE(payload.length, 0)
  head.writeUInt32LE(crc32(payload), 4)
  return Buffer.concat([head, payload])
}

describe('media request id records', () => {
  it('does write an id after its event, read back in order, with any character', () => {
    const w = new FrameWriter()
    const ids = ['req-1', '牛奶 \u0000 😀', 'x'.repeat(128)]
    for (let i = 0; i < ids.length; i++) {
      w.event(ev(i * 3))
      w.request(ids[i]!)
    }
    w.event(ev(9))
    const frame = w.take()
    expect(frame[8 + EVENT_BYTES]).toBe(REQUEST_KIND)
    const seen: string[] = []
    readFrames(frame, { identity: () => undefined, event: (e) => seen.push(`event ${e.spot}`), request: (id) => seen.push(`request ${id}`) })
    expect(seen).toEqual(['event 100', 'request req-1', 'event 103', `request ${ids[1]}`, 'event 106', `request ${ids[2]}`, 'event 109'])
    // a reader that does not ask for them reads past them
    expect(read(frame).records.map((r) => ('event' in r ? r.event.spot : -1))).toEqual([100, 103, 106, 109])
  })
})

describe('link records', () => {
  it('does write a link of two ids in 12 bytes, in order with the other records, and a reader that does not ask for them reads past them', () => {
    const w = new FrameWriter()
    w.identity({ id: 1, text: 'idfa:a', platform: 1, firstSeen: 5 })
    w.identity({ id: 2, text: 'caid:b', platform: 1, firstSeen: 5 })
    w.link(1, 2)
    w.link(4_000_000_000, 3)
    w.event(ev(0))
    const frame = w.take()
    expect(frame[8 + 16 + 6 + 16 + 6]).toBe(LINK_KIND)
    expect(frame.length).toBe(8 + 22 + 22 + 2 * LINK_BYTES + EVENT_BYTES)
    const seen: string[] = []
    readFrames(frame, { identity: (r) => seen.push(`identity ${r.id}`), event: (e) => seen.push(`event ${e.spot}`), link: (a, b) => seen.push(`link ${a} ${b}`) })
    expect(seen).toEqual(['identity 1', 'identity 2', 'link 1 2', 'link 4000000000 3', 'event 100'])
    expect(read(frame).records).toHaveLength(3)
  })
})

describe('FrameWriter', () => {
  it('does write the frame header as payload length and crc32 of the payload', () => {
    const frame = frameOf([{ event: ev(1) }])
    expect(frame.length).toBe(8 + EVENT_BYTES)
    expect(frame.readUInt32LE(0)).toBe(EVENT_BYTES)
    expect(frame.readUInt32LE(4)).toBe(crc32(frame.subarray(8)))
  })

  it('does lay an event out as the 40 documented little-endian bytes with a zero reserved word', () => {
    const e: EventRecord = { kind: KIND.click, flags: 0xab, region: 0x1234, campaign: 0x01020304, spot: 0x05060708, keyword: 0x090a0b0c, identity: 0x0d0e0f10, minisite: 0x11121314, event: 0x15161718, ts: 1_736_481_600_123.25 }
    const p = frameOf([{ event: e }]).subarray(8)
    expect(p.length).toBe(40)
    expect(p.readUInt8(0)).toBe(2)
    expect(p.readUInt8(1)).toBe(0xab)
    expect(p.readUInt16LE(2)).toBe(0x1234)
    expect([4, 8, 12, 16, 20, 24].map((o) => p.readUInt32LE(o))).toEqual([0x01020304, 0x05060708, 0x090a0b0c, 0x0d0e0f10, 0x11121314, 0x15161718])
    expect(p.readDoubleLE(28)).toBe(1_736_481_600_123.25)
    expect(p.readUInt32LE(36)).toBe(0)
  })

  it('does lay an identity out as kind 0x10, platform, byte length, id, first_seen and utf8 text', () => {
    const p = frameOf([{ identity: { id: 70_000, text: 'oaid:中', platform: 1, firstSeen: 1_700_000_000_000.5 } }]).subarray(8)
    expect(IDENTITY_KIND).toBe(0x10)
    expect(p.readUInt8(0)).toBe(0x10)
    expect(p.readUInt8(1)).toBe(1)
    expect(p.readUInt16LE(2)).toBe(8) // 'oaid:' 5 bytes + '中' 3 bytes
    expect(p.readUInt32LE(4)).toBe(70_000)
    expect(p.readDoubleLE(8)).toBe(1_700_000_000_000.5)
    expect(p.toString('utf8', 16)).toBe('oaid:中')
    expect(p.length).toBe(16 + 8)
  })

  it('does report empty until a record is written and again after take()', () => {
    const w = new FrameWriter()
    expect(w.empty).toBe(true)
    w.event(ev(0))
    expect(w.empty).toBe(false)
    w.take()
    expect(w.empty).toBe(true)
  })

  it('does start a fresh frame after take(), leaving the taken frame unchanged', () => {
    const w = new FrameWriter()
    w.event(ev(1))
    const first = w.take()
    const copy = Buffer.from(first)
    w.event(ev(2))
    w.event(ev(3))
    const second = w.take()
    expect(first.equals(copy)).toBe(true)
    expect(read(first).records).toEqual([{ event: ev(1) }])
    expect(read(second).records).toEqual([{ event: ev(2) }, { event: ev(3) }])
  })

  it('does grow its buffer past 64 KiB and keep every record written before the growth', () => {
    const records: Rec[] = []
    for (let i = 0; i < 5_000; i++) {
      if (i % 100 === 0) records.push({ identity: { id: i + 1, text: `amid:${'x'.repeat(i % 700)}${i}`, platform: i % 2, firstSeen: i * 3.5 } })
      records.push({ event: ev(i) })
    }
    const frame = frameOf(records)
    expect(frame.length).toBeGreaterThan(3 * 64 * 1024)
    const got = read(frame)
    expect(got.bytes).toBe(frame.length)
    expect(got.records).toEqual(records)
  })

  it('does grow for one identity text larger than the whole initial buffer', () => {
    const text = `amid:${'é'.repeat(32_000)}` // 64,005 bytes: with its header past 64 KiB on top of an event
    const records: Rec[] = [{ event: ev(1) }, { identity: { id: 1, text, platform: 0, firstSeen: 5 } }, { event: ev(2) }]
    expect(read(frameOf(records)).records).toEqual(records)
  })

  it('does throw when an identity text exceeds 65,535 bytes, and stays usable', () => {
    const w = new FrameWriter()
    w.event(ev(1))
    expect(() => w.identity({ id: 1, text: 'a'.repeat(65_536), platform: 0, firstSeen: 0 })).toThrow(RangeError)
    w.event(ev(2))
    expect(read(w.take()).records).toEqual([{ event: ev(1) }, { event: ev(2) }])
  })
})

describe('readFrames', () => {
  const unicode = ['idfa:abcdef01-2345', 'amid:中文标识', 'oaid:😀🎉', 'amid:é\u0301 ñ', 'amid:', 'caid:' + 'ü'.repeat(300)]

  it('does round-trip identity texts of any unicode, with platform, id and first_seen', () => {
    const records: Rec[] = unicode.map((text, i) => ({ identity: { id: i + 1, text, platform: i % 2, firstSeen: 1_736_000_000_000 + i } }))
    const got = read(frameOf(records))
    expect(got.records).toEqual(records)
  })

  it('does round-trip the extreme values of every event field', () => {
    const max: EventRecord = { kind: KIND.minisite, flags: 255, region: 65_535, campaign: 0xffffffff, spot: 0xffffffff, keyword: 0xffffffff, identity: 0xffffffff, minisite: 0xffffffff, event: 0xffffffff, ts: Number.MAX_SAFE_INTEGER }
    const min: EventRecord = { kind: KIND.impression, flags: 0, region: 0, campaign: 0, spot: 0, keyword: 0, identity: 0, minisite: 0, event: 0, ts: -1.5 }
    expect(read(frameOf([{ event: max }, { event: min }])).records).toEqual([{ event: max }, { event: min }])
  })

  it('does visit many records per frame and many frames in order, returning every byte', () => {
    const frames: Buffer[] = []
    const all: Rec[] = []
    for (let f = 0; f < 20; f++) {
      const recs: Rec[] = [{ identity: { id: f + 1, text: `amid:${f}`, platform: 0, firstSeen: f } }]
      for (let i = 0; i < f * 3; i++) recs.push({ event: ev(f * 100 + i) })
      frames.push(frameOf(recs))
      all.push(...recs)
    }
    const buf = Buffer.concat(frames)
    expect(read(buf)).toEqual({ records: all, bytes: buf.length })
  })

  it('does read nothing from an empty buffer or one shorter than a frame header', () => {
    expect(read(Buffer.alloc(0))).toEqual({ records: [], bytes: 0 })
    expect(read(frameOf([{ event: ev(1) }]).subarray(0, 7))).toEqual({ records: [], bytes: 0 })
  })

  describe('a damaged tail', () => {
    const first = frameOf([{ identity: { id: 1, text: 'amid:一', platform: 0, firstSeen: 1 } }, { event: ev(1) }, { event: ev(2) }])
    const firstRecords = read(first).records
    const last = frameOf([{ identity: { id: 2, text: 'idfa:二', platform: 1, firstSeen: 2 } }, { event: ev(3) }, { event: ev(4) }, { event: ev(5) }])

    it('does ignore the last frame when it is torn at any byte offset', () => {
      for (let cut = 0; cut < last.length; cut++) {
        const got = read(Buffer.concat([first, last.subarray(0, cut)]))
        expect(got.bytes, `cut at ${cut}`).toBe(first.length)
        expect(got.records, `cut at ${cut}`).toEqual(firstRecords)
      }
      expect(read(Buffer.concat([first, last])).bytes).toBe(first.length + last.length)
    })

    it('does ignore a zero-filled tail of any length', () => {
      for (let n = 1; n <= 100; n++) {
        const got = read(Buffer.concat([first, Buffer.alloc(n)]))
        expect(got.bytes, `${n} zero bytes`).toBe(first.length)
        expect(got.records).toEqual(firstRecords)
      }
    })

    it('does ignore a torn frame whose unwritten bytes are zeros (preallocated file)', () => {
      for (let cut = 1; cut < last.length; cut++) {
        // (the last 4 bytes, the reserved word, are zeros anyway: a cut there loses nothing)
        if (last.subarray(cut).every((b) => b === 0)) continue
        const torn = Buffer.concat([last.subarray(0, cut), Buffer.alloc(last.length - cut + 16)])
        expect(read(Buffer.concat([first, torn])).bytes, `cut at ${cut}`).toBe(first.length)
      }
    })

    it('does stop at a frame with any flipped byte and read nothing after it', () => {
      const after = frameOf([{ event: ev(9) }])
      for (let at = 0; at < last.length; at++) {
        const bad = Buffer.from(last)
        bad[at] = bad[at]! ^ 0xff
        const got = read(Buffer.concat([first, bad, after]))
        expect(got.bytes, `byte ${at} flipped`).toBe(first.length)
        expect(got.records, `byte ${at} flipped`).toEqual(firstRecords)
      }
    })

    it('does stop at a frame with a single flipped bit in its payload', () => {
      for (let bit = 0; bit < 8 * (last.length - 8); bit += 7) {
        const bad = Buffer.from(last)
        const at = 8 + (bit >> 3)
        bad[at] = bad[at]! ^ (1 << (bit & 7))
        expect(read(Buffer.concat([first, bad])).bytes, `bit ${bit}`).toBe(first.length)
      }
    })
  })

  it('does throw on an unknown record kind inside an intact frame', () => {
    const payload = Buffer.alloc(EVENT_BYTES)
    payload.writeUInt8(7, 0)
    const good = frameOf([{ event: ev(1) }])
    expect(() => readFrames(Buffer.concat([good, rawFrame(payload)]), { identity: () => undefined, event: () => undefined })).toThrow(/unknown record kind 7 in an intact frame/)
  })

  it('does throw on a record of kind 0 inside an intact frame', () => {
    expect(() => readFrames(rawFrame(Buffer.alloc(EVENT_BYTES)), { identity: () => undefined, event: () => undefined })).toThrow(/unknown record kind 0/)
  })
})
