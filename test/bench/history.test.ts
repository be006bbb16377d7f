// bench/history.ts: a measure run's verdicts from the figures of its results file, in the format
// of the files written before the verdicts were recorded (the machine as a line, no cat baseline)
// and after; the ratios here are worked out by hand from the figures.
import { describe, expect, it } from 'vitest'
import { feltRun, machineKey, measureRun, tables } from '../../bench/history'
import { judge } from '../../bench/targets'
import type { LoadResult } from '../../bench/protocol'

const load = (rps: number, serverCpuPct: number, loadCpuPct = 60): LoadResult => ({
  name: 'row', durationS: 6, completed: rps * 6, rps, p50Ms: 1, p99Ms: 3, maxMs: 9, bytesPerResponse: 42, errors: 0, timeouts: 0, non2xx: 0,
  errorSamples: [], distinctPaths: 1, requestsStarted: rps * 6, loadCpuPct, serverCpuPct,
})

const startup = (imported: number, firstAnswerAt: number) => ({ totalMs: firstAnswerAt + 20, marks: { imported, engineOpen: imported + 100, listening: imported + 110 }, firstAnswerAt, firstAnswerMs: 50 })

/** A run: import 20 s against DuckDB's 10 s; basic 40 ms against 2,400 (60x); reach 4 against 160 (40x); hits 30,000 at 100% against 50,000 at 80% per core (0.48). */
const file = {
  machine: 'AMD EPYC, 2 cores, node v20.20.2',
  events: 10_000_000,
  ingest: { bare: load(50_000, 80), engine: load(30_000, 100) },
  import: { imported: 10_000_000, seconds: 20, wallS: 21, peakRss: 1_200 * 2 ** 20 },
  reports: [
    { name: 'basic', title: 'basic', engine: { first: 900, cold: [50, 40, 30], cached: [40], bytes: 1, sizes: 1 }, duckMs: [2_400, 2_500, 2_300], check: { match: true, engineRows: 1, duckRows: 1, values: 1, differences: 0, first: [] } },
    { name: 'reach', title: 'reach', engine: { first: 90, cold: [4, 4, 5], coldPanel: [8], cached: [1], bytes: 1, sizes: 1 }, duckMs: [160], check: { match: true, engineRows: 1, duckRows: 1, values: 1, differences: 0, first: [] } },
  ],
  duck: { loadMs: 10_000 },
  memory: { afterReports: { peak: 500 * 2 ** 20 }, importPeak: 1_200 * 2 ** 20 },
  // modules loaded 250, 350 and 300 ms (median 300); the rest to the first report 900, 1,000, 1,100 (median 1,000)
  startup: { runs: [startup(250, 1_150), startup(350, 1_350), startup(300, 1_400)] },
}

describe('the bench history', () => {
  it('names the machine from a line or from the record of newer files', () => {
    expect(machineKey('AMD EPYC, 2 cores, node v20.20.2')).toEqual({ machine: 'AMD EPYC, 2 cores', node: 'v20.20.2' })
    expect(machineKey({ cpu: 'Intel(R) Xeon(R) Processor', cores: 2, node: 'v24.22.3', bareReqPerS: 1 })).toEqual({ machine: 'Intel(R) Xeon(R) Processor, 2 cores', node: 'v24.22.3' })
  })

  it("computes a run's verdicts from its figures, a missing baseline not measured", () => {
    const run = measureRun('/x/measure-2026-11-28T21-35-31-339Z.json', file)
    const byId = Object.fromEntries(run.verdicts.map((v) => [v.id, [v.ratio === null ? null : Number(v.ratio.toFixed(4)), v.pass]]))
    expect(byId).toEqual({
      import: [0.5, false], basic: [60, true], reach: [40, false], hits: [0.48, false], modules: [0.3, true], open: [null, null], serverRss: [500, true],
    })
    expect(run.run).toBe('measure-2026-11-28T21-35-31-339Z')
    expect(run.bare).toBe(50_000)
  })

  it('with a cat baseline, judges the rest of the start against the cold cat, else against the warm one', () => {
    const cold = measureRun('m.json', { ...file, startup: { ...file.startup, read: { files: 5, bytes: 1, coldMs: 800, warmMs: 100 } } })
    expect(cold.verdicts.find((v) => v.id === 'open')).toMatchObject({ ratio: 1.25, pass: true })
    const warm = measureRun('m.json', { ...file, startup: { ...file.startup, read: { files: 5, bytes: 1, coldMs: null, warmMs: 500, notCold: 'not root' } } })
    expect(warm.verdicts.find((v) => v.id === 'open')).toMatchObject({ ratio: 2, pass: false })
    expect(warm.verdicts.find((v) => v.id === 'open')!.info).toContain('warm: the page cache was not dropped, not root')
  })

  it('prints one table per machine, missed ratios in bold, a run of other than 10 million events named so', () => {
    const a = measureRun('a.json', file)
    const b = measureRun('b.json', { ...file, events: 200_000, machine: { cpu: 'Intel Xeon', cores: 2, node: 'v24.22.3' } })
    const md = tables([a, b], 'bare req/s').split('\n')
    expect(md).toContain('AMD EPYC, 2 cores:')
    expect(md).toContain('Intel Xeon, 2 cores:')
    expect(md).toContain('| run | node | bare req/s | import | basic | reach | hits per core | modules | open / cat | server RSS | met |')
    expect(md).toContain('| a | v20.20.2 | 50,000 | **0.50x** | 60x | **40x** | **0.48** | 0.30 s | - | 500 MiB | 3 of 6 |')
    expect(md.find((l) => l.startsWith('| b (200,000 events) | v24.22.3 |'))).toBeDefined()
  })

  it("takes a felt run's verdicts as recorded, with the idle search's p95 as its third column", () => {
    const verdicts = [judge('firstReport', 3.55, undefined, ''), judge('tabCold', 769, undefined, '', 'reach'), judge('searchImport', 862, undefined, '')]
    const run = feltRun('/x/felt-1.json', { machine: { cpu: 'AMD EPYC', cores: 2, node: 'v24.22.3' }, verdicts, search: { idle: { p95: 33 } } })
    const md = tables([run], 'idle search p95 ms').split('\n')
    expect(md).toContain('| run | node | idle search p95 ms | first report | tab cold, reach | search p95 | met |')
    expect(md).toContain('| felt-1 | v24.22.3 | 33 | **3.55 s** | 769 ms | **862 ms** | 1 of 3 |')
  })
})
