import { describe, expect, it } from 'vitest'
import { importVerdict, importWork, reportVerdict, sendingFloor } from '../../bench/measure-report'
import { bareVerdict } from '../../bench/report'

describe("the import's bound, from the CPU each side spent", () => {
  it("states the engine's work against DuckDB's and the shortest time it takes on the cores", () => {
    expect(importWork({ cpuMs: 26_000, wallS: 13.4 }, 12_500, 2)).toBe(
      "CPU: engine 26.0 s (spawn to exit, every thread), DuckDB 12.5 s: 2.08x DuckDB's work; on 2 cores the engine's work takes at least 13.0 s",
    )
  })

  it('says nothing when either CPU figure is missing (results written without them, or no /proc)', () => {
    expect(importWork({ wallS: 13.4 }, 12_500, 2)).toBeNull()
    expect(importWork({ cpuMs: 26_000, wallS: 13.4 }, undefined, 2)).toBeNull()
  })

  it('puts the bound beside the verdict, which the ratio of the times alone decides', () => {
    const v = importVerdict({ imported: 10_000_000, seconds: 12.9, wallS: 13.4, cpuMs: 26_000 }, 7_000, 12_500, 2)
    expect(v.pass).toBe(false)
    expect(v.ratio).toBeCloseTo(7 / 12.9, 5)
    expect(v.info).toContain('on 2 cores the engine\'s work takes at least 13.0 s')
  })
})

describe("a report's sending floor", () => {
  const engine = { first: 700, cold: [56, 57, 55], cached: [53], bytes: 67 * 2 ** 20, sizes: 1 }

  it('names what sending the answer alone takes and its ratio to DuckDB', () => {
    expect(sendingFloor({ engine, bareMs: [40, 38, 42] }, 2_000)).toBe("; a bare node:http server sending the same 67 MiB: p50 40.0 ms, 50x DuckDB's")
  })

  it('goes into the verdict line beside the cold figures, and is left out when not measured', () => {
    expect(reportVerdict({ name: 'basic', engine, bareMs: [40], duckMs: [2_000] })!.info).toContain("50x DuckDB's")
    expect(reportVerdict({ name: 'basic', engine, duckMs: [2_000] })!.info).not.toContain('sending')
  })
})

describe("a row against the bare server", () => {
  const row = (rps: number, cpuPct: number) => ({ rps, serverCpuPct: cpuPct }) as unknown as Parameters<typeof bareVerdict>[1]

  it('puts the CPU a request takes on each beside the ratio per core', () => {
    const v = bareVerdict('hits', { ...row(40_252, 90.7), p99Ms: 2 }, { ...row(60_390, 77.9), p99Ms: 1 })
    expect(v.ratio).toBeCloseTo((40_252 / 0.907) / (60_390 / 0.779), 5)
    expect(v.info).toContain('CPU a request: engine 22.5 us, bare 12.9 us')
  })
})
