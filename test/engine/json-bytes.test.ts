// JSON written straight into UTF-8 pieces: numbers as JSON.stringify writes them, text of any
// script across piece boundaries, and whole reports byte for byte as JSON.stringify gives them
import { describe, expect, it } from 'vitest'
import type { ReportItem } from '../../engine/contract/models-reports'
import { JsonBytes } from '../../engine/json-bytes'
import { LazyMetrics, reportJson } from '../../engine/reports/items'
import { prng } from '../helpers/prng'

const text = (parts: readonly Uint8Array[]) => Buffer.concat(parts).toString('utf8')

describe('JsonBytes', () => {
  it('writes every kind of number as JSON.stringify does', () => {
    const values = [0, -0, 1, -1, 9, 10, 99, 100, 101, 123_456_789, 2 ** 31 - 1, 2 ** 31, 2 ** 32, -(2 ** 31), 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 2 ** 60, 1e21, -1e21, 1.5, -0.1, 1e-7, 0.1 + 0.2, Number.MIN_VALUE, Number.MAX_VALUE, NaN, Infinity, -Infinity, null]
    for (const v of values) {
      const w = new JsonBytes()
      w.number(v)
      expect(text(w.finish()), String(v)).toBe(JSON.stringify(v))
    }
  })

  it('keeps text whole across pieces: ASCII, Chinese and surrogate pairs over several MiB', () => {
    const w = new JsonBytes()
    const samples = ['"ascii"', '"北京市朝阳区"', '"emoji 😀 and 𠮷"', ',', '"a\\"b\\\\c"']
    let expected = ''
    const random = prng(7)
    while (expected.length < 3_000_000) {
      const s = samples[Math.floor(random() * samples.length)]!
      w.text(s)
      expected += s
      w.char(44)
      const n = Math.floor(random() * 1e9)
      w.number(n)
      expected += `,${n}`
    }
    const parts = w.finish()
    expect(parts.length).toBeGreaterThan(2)
    // no piece is cut inside a character: each decodes on its own without replacement characters
    for (const p of parts) expect(Buffer.from(p).toString('utf8')).not.toContain('\uFFFD')
    expect(text(parts)).toBe(expected)
  })

  it('shares ranges of kept bytes in order with written text: adjacent ones as one, long ones not copied', () => {
    const K = 1024
    const kept = Buffer.from(Array.from({ length: 80 * K }, (_, i) => 97 + (i % 26)))
    const w = new JsonBytes()
    const want: Buffer[] = []
    const share = (a: number, b: number) => (w.share(kept, a, b), want.push(kept.subarray(a, b)))
    const char = (c: number) => (w.char(c), want.push(Buffer.from([c])))
    char(91)
    share(0, 10 * K)
    share(10 * K, 20 * K)
    share(20 * K, 20 * K)
    char(44)
    share(20 * K, 21 * K)
    share(30 * K, 31 * K)
    share(40 * K, 60 * K)
    char(93)
    const parts = w.finish()
    expect(Buffer.concat(parts).equals(Buffer.concat(want))).toBe(true)
    // '[', 0-20K (one view), ',' + 20-21K + 30-31K (copied), 40-60K (a view), ']'
    expect(parts.map((p) => p.length)).toEqual([1, 20 * K, 1 + 2 * K, 20 * K, 1])
    expect(parts[1]!.buffer).toBe(kept.buffer)
    expect(parts[3]!.buffer).toBe(kept.buffer)
    expect(parts[2]!.buffer).not.toBe(kept.buffer)
  })

  it('gives back a block written in one piece, or null when it went on in another', () => {
    const w = new JsonBytes()
    expect(Buffer.from(w.block(10, () => w.text('"abc"'))!).toString()).toBe('"abc"')
    // the first piece (16 KiB) filled but for 15 bytes
    for (let i = 5; i < (16 << 10) - 15; i++) w.char(120)
    expect(w.block(4, () => w.text('y'.repeat(100)))).toBeNull()
    w.discard()
    w.text('z')
    expect(text(w.finish())).toBe('z')
  })

  it('holds a short answer in 16 KiB (of the Buffer pool, 64 KiB at most), not in a whole piece', () => {
    // (an answer whose items are views on kept text writes only its head and tail itself)
    const w = new JsonBytes()
    w.text('{"campaign_id":"1","items":')
    w.share(Buffer.alloc(64 << 10, 32), 0, 64 << 10)
    w.char(125)
    const parts = w.finish()
    const own = parts.filter((p) => p.byteLength < 64 << 10)
    expect(own.map((p) => p.byteLength)).toEqual([27, 1])
    for (const p of own) expect(p.buffer.byteLength).toBeLessThanOrEqual(64 << 10)
  })

  it('takes a text longer than a piece', () => {
    const w = new JsonBytes()
    w.text('x')
    const long = `"${'長'.repeat(700_000)}"`
    w.text(long)
    expect(text(w.finish())).toBe(`x${long}`)
  })
})

describe('reportJson', () => {
  it('gives the bytes JSON.stringify gives for the same report, lazy metrics or not', () => {
    const random = prng(11)
    const names = ['imp_acc', 'uim_acc', 'imp_avg_day', 'uim_pct', 'odd "name"']
    const none = new JsonBytes()
    new LazyMetrics([], () => 0).write(none)
    expect(text(none.finish())).toBe('{}')
    for (let round = 0; round < 20; round++) {
      const items: ReportItem[] = Array.from({ length: Math.floor(random() * 40) }, (_, i) => {
        const values = names.map(() => (random() < 0.1 ? null : random() < 0.2 ? random() * 1000 - 500 : Math.floor(random() * 1e12) * (random() < 0.1 ? -1 : 1)))
        const metrics = random() < 0.7 ? new LazyMetrics(names, (k) => values[k]!) : Object.fromEntries(names.map((n, k) => [n, values[k]!]))
        const attributes = { audience: 'overall', publisher_id: String(i), region_id: random() < 0.5 ? '000000000000001156110000' : '北京', universe: random() < 0.5 ? null : i, spot_id_str: undefined }
        return { attributes, metrics } as unknown as ReportItem
      })
      const report = round % 2 === 0
        ? { campaign_id: 7, date: '2026-11-22', version: 'V1.0', platform: undefined, total_spot_num: 3, items }
        : { items, campaign_id: 7, note: 'items first, 中文' }
      expect(text(reportJson(report).parts)).toBe(JSON.stringify(report))
    }
  })
})
