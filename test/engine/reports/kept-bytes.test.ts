// Kept censuses and the answer text kept with them (census-cache.ts, kept-bytes.ts): basic/show asked
// again after events came writes only the rows whose cells changed and copies the others; every
// answer still equals the oracle's count over all the events, step after step.
import { beforeAll, describe, expect, it } from 'vitest'
import type { ReportAttributes, ReportItem } from '../../../engine/contract/models-reports'
import type { CensusResult } from '../../../engine/reports/census'
import { CellRow, LazyMetrics, itemRoom, reportJson, type CellRows } from '../../../engine/reports/items'
import { cellBytes } from '../../../engine/reports/kept-bytes'
import { prng } from '../../helpers/prng'
import { buildDataset, importEvents, importPanel, type Dataset, type RawEvent } from './dataset'
import { PATHS, combinations, compare, noDifferences } from './helpers'
import { basicShow } from './oracle'

let base: Dataset
beforeAll(async () => {
  base = await buildDataset(2)
})

/**
 * `n` impressions and clicks like those of campaign A already sent (same spots, identities,
 * addresses, user agents, so some are new to their cell and some are not), at other times of
 * its window, a third on the report day.
 */
function moreEvents(ds: Dataset, rng: () => number, n: number, reportDay: string): RawEvent[] {
  const a = ds.campaigns[0]!.campaign_id
  const like = ds.events.filter((e) => e.campaign_id === a && e.kind !== 'evt' && e.via === 'import')
  return Array.from({ length: n }, (_, k) => {
    const e = like[Math.floor(rng() * like.length)]!
    const day = rng() < 1 / 3 ? reportDay : `2025-01-${String(12 + Math.floor(rng() * 14)).padStart(2, '0')}`
    const ts = Date.parse(`${day}T00:00:00+08:00`) + Math.floor(rng() * 86_400_000)
    return { ...e, seq: ds.events.length + k, ts }
  })
}

describe('basic/show with kept censuses and kept answer text', () => {
  it('equals the oracle after each of several batches of new events and a panel change, for every breakdown asked before', async () => {
    const rng = prng(77)
    let ds = base
    const asks = combinations({ by_position: ['spot', 'publisher', 'keyword'], by_region: ['level2', 'level0'], by_audience: ['overall', 'stable'], date: [ds.dates.today, ds.dates.middle], order_desc: [undefined, 'uim_acc'], with_null: [undefined, '1'] })
    const askAll = async (step: string) => {
      const diffs: string[] = []
      for (const q of asks) {
        const params = { campaign_id: ds.campaigns[0]!.campaign_id, platform: 'pm', metrics: 'all', ...q }
        diffs.push(...(await compare(ds, PATHS.basic, params, basicShow)).map((d) => `${step}: ${d}`))
      }
      noDifferences(diffs)
    }
    await askAll('before')
    for (const n of [1, 3, 40, 400]) {
      const added = moreEvents(ds, rng, n, ds.dates.today)
      await importEvents(ds.t, added, ds.spots)
      // a new object: the oracle keeps its facts per dataset
      ds = { ...ds, events: [...ds.events, ...added] }
      await askAll(`after ${n} more`)
    }
    // an event outside the window changes no cell: the next answer is the kept text, not written
    // again (its pieces are views on the buffers of the answer before), and still the oracle's
    const a = ds.campaigns[0]!
    const wide = { campaign_id: a.campaign_id, platform: 'pm', metrics: 'all', by_position: 'spot', by_region: 'level2', date: ds.dates.today }
    const buffers = async () => {
      const r = await ds.t.get(PATHS.basic, wide)
      expect(r.status).toBe(200)
      return new Set((r.raw.parts ?? []).map((p) => p.buffer))
    }
    const lateEvent = async () => {
      const late = { ...moreEvents(ds, rng, 1, ds.dates.today)[0]!, ts: Date.parse('2025-02-20T10:00:00+08:00') }
      await importEvents(ds.t, [late], ds.spots)
      ds = { ...ds, events: [...ds.events, late] }
    }
    // (each after an event: the answer cache, keyed by the measurement version, cannot answer)
    await lateEvent()
    const before = await buffers()
    await lateEvent()
    expect([...(await buffers())].some((b) => before.has(b))).toBe(true)
    noDifferences(await compare(ds, PATHS.basic, wide, basicShow))
    // the panel's weights change: the universe attribute of every row, no census count
    const panelId = ds.campaigns[0]!.panel_id
    const panel = ds.panels.get(panelId)!
    const heavier = { ...panel, persons: panel.persons.map((x, k) => ({ ...x, weight: x.weight * (1 + (k % 3)) })) }
    await importPanel(ds.t, heavier)
    ds = { ...ds, panels: new Map([...ds.panels, [panelId, heavier]]) }
    await askAll('after the panel changed')
  })
})

describe('kept item text (CellBytes) under reportJson', () => {
  /** A census result of `n` cells for the store: only nCells and rev are read. */
  const result = (n: number) => ({ nCells: n, rev: new Uint32Array(n) }) as unknown as CensusResult
  const text = (parts: readonly Uint8Array[]) => Buffer.concat(parts).toString('utf8')

  it('writes items of changed cells again and keeps the others, in any order, byte for byte as JSON.stringify', () => {
    const rng = prng(5)
    const n = 300
    const r = result(n)
    const names = ['imp_acc', 'clk_acc', 'uim_acc']
    const values = Array.from({ length: n }, () => names.map(() => Math.floor(rng() * 1e6)))
    const rows: CellRows = {
      attributes: (i, c) => ({ audience: 'overall', spot_id: String(i), region_id: '000000000000001156110000', universe: c * 7 }) as ReportAttributes,
      metrics: (cell) => new LazyMetrics(names, (k) => values[cell]![k]!),
      kept: cellBytes(r, 'k'),
      room: itemRoom(names),
    }
    for (let round = 0; round < 30; round++) {
      // some cells change (their rev with them), then an answer of some cells in some order
      for (let k = 0; k < round % 7; k++) {
        const c = Math.floor(rng() * n)
        values[c]![Math.floor(rng() * names.length)] = Math.floor(rng() * 1e6)
        r.rev[c]!++
      }
      const cells = Array.from({ length: n }, (_, c) => c).filter(() => rng() < 0.9)
      if (round % 3 === 1) cells.sort(() => rng() - 0.5)
      // rows of counted cells and, between them, rows written as records (cells without data)
      const items = cells.map((c) => (c % 10 === 9 ? { attributes: rows.attributes(c, c), metrics: { imp_acc: null, clk_acc: null, uim_acc: null } } : new CellRow(rows, c, c, c))) as unknown as ReportItem[]
      const report = { campaign_id: 1, items }
      expect(text(reportJson(report).parts), `round ${round}`).toBe(JSON.stringify(report))
    }
  })

  it('writes an item too long to keep in one piece itself, and keeps none for it', () => {
    const r = result(2)
    const huge = 'x'.repeat(3 << 20)
    const rows: CellRows = {
      attributes: (i) => ({ spot_id: i === 0 ? huge : 'short' }) as ReportAttributes,
      metrics: (cell) => new LazyMetrics(['imp_acc'], () => cell),
      kept: cellBytes(r, 'k'),
      room: itemRoom(['imp_acc']),
    }
    const items = [0, 1, 0].map((c) => new CellRow(rows, c, c, c)) as unknown as ReportItem[]
    const report = { items }
    expect(text(reportJson(report).parts)).toBe(JSON.stringify(report))
    expect(text(reportJson(report).parts)).toBe(JSON.stringify(report))
  })

  /** Rows of `n` cells whose items are about `size` bytes each, with metrics of `values`. */
  const bigRows = (r: CensusResult, n: number, size: number, values: number[]): CellRows => ({
    attributes: (i) => ({ spot_id: `${i}`.padStart(size, 's') }) as ReportAttributes,
    metrics: (cell) => new LazyMetrics(['imp_acc'], () => values[cell]!),
    kept: cellBytes(r, 'k'),
    room: itemRoom(['imp_acc']) + size,
  })

  it('holds no more than its texts and one chunk, whatever their total size', () => {
    for (const n of [700, 2300, 4100, 9000]) {
      const r = result(n)
      const rows = bigRows(r, n, 1000, Array.from({ length: n }, (_, c) => c))
      const report = { items: Array.from({ length: n }, (_, c) => new CellRow(rows, c, c, c)) as unknown as ReportItem[] }
      const answer = JSON.stringify(report)
      expect(text(reportJson(report).parts)).toBe(answer)
      // each item's text as kept: a comma and the item
      const texts = report.items.reduce((sum, it) => sum + 1 + JSON.stringify(it).length, 0)
      expect(rows.kept.bytes - n * 12, `${n} cells`).toBeLessThanOrEqual(texts + (1 << 20))
    }
  })

  it('never changes the text of an answer already given while its cells are written again', () => {
    const rng = prng(9)
    const n = 3000
    const r = result(n)
    const values = Array.from({ length: n }, (_, c) => c)
    const rows = bigRows(r, n, 500, values)
    const report = { items: Array.from({ length: n }, (_, c) => new CellRow(rows, c, c, c)) as unknown as ReportItem[] }
    const given: [Uint8Array[], string][] = []
    for (let round = 0; round < 12; round++) {
      // a third of the cells change each round: their texts written again outweigh the live ones
      // after a few rounds, and the store copies the live texts into new chunks
      for (let c = 0; c < n; c++) if (rng() < 1 / 3) (values[c] = Math.floor(rng() * 1e9)), r.rev[c]!++
      const parts = reportJson(report).parts as Uint8Array[]
      given.push([parts, JSON.stringify(report)])
      for (const [p, answer] of given) expect(text(p), `round ${round}`).toBe(answer)
    }
    // 1.5 MB of live text: the written-again texts were dropped, not kept beside it
    expect(rows.kept.bytes - n * 12).toBeLessThanOrEqual(2 * 1.6e6 + (1 << 20))
  })

  it('keeps a store for each of the last four keys of a result', () => {
    const r = result(1)
    const a = cellBytes(r, 'a')
    expect(cellBytes(r, 'b')).not.toBe(a)
    expect(cellBytes(r, 'a')).toBe(a)
    for (const k of ['c', 'd', 'e']) cellBytes(r, k)
    // a was used before b: b went out first, a stays until one more key comes
    expect(cellBytes(r, 'a')).toBe(a)
    expect(r.written!.map((s) => s.key)).toEqual(['c', 'd', 'e', 'a'])
    cellBytes(r, 'f')
    cellBytes(r, 'g')
    expect(r.written!.map((s) => s.key)).toEqual(['e', 'a', 'f', 'g'])
  })
})
