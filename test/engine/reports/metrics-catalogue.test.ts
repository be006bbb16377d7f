// The metric catalogue (engine/contract/metrics-catalogue.ts; docs/metrics.md "Catalogue"): the
// table in docs/metrics.md is its rendering, its names are the spec's and the engine's answers',
// and the kernels' lists come from it.
//
// Write the table again after a change of the catalogue:
//   METRICS_DOC_WRITE=1 npx vitest run test/engine/reports/metrics-catalogue.test.ts
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { METRICS, METRIC_REPORTS, catalogueTable, metricNames, metricOf, wireNames, type MetricReport } from '../../../engine/contract/metrics-catalogue'
import { endpoints } from '../../../engine/contract/endpoints'
import { openApiDocument } from '../../../engine/openapi'

const DOC = new URL('../../../docs/metrics.md', import.meta.url)
const START = '<!-- catalogue:start -->'
const END = '<!-- catalogue:end -->'

describe('docs/metrics.md', () => {
  it("holds the catalogue's table between its markers", () => {
    const want = `${START}\n${catalogueTable()}\n${END}`
    const section = (text: string) => text.slice(text.indexOf(START), text.indexOf(END) + END.length)
    const text = readFileSync(DOC, 'utf8')
    expect(text.indexOf(START), 'the markers of the catalogue table').toBeGreaterThan(0)
    if (process.env.METRICS_DOC_WRITE === '1') writeFileSync(DOC, text.replace(section(text), want))
    expect(section(readFileSync(DOC, 'utf8'))).toBe(want)
  })
})

describe('the catalogue', () => {
  const all = METRICS.flatMap(wireNames)

  it('names each wire name once, and finds its entry by any of them', () => {
    expect(new Set(all).size).toBe(all.length)
    for (const name of all) expect(metricOf(name) && wireNames(metricOf(name)!)).toContain(name)
    expect(metricOf('imp_acc_h24')).toBeUndefined()
    expect(metricOf('rch_acc_p11')).toBeUndefined()
  })

  it('names only metrics the spec names (interface §4.4, the copy under test/fixtures)', () => {
    const spec = readFileSync(new URL('../../fixtures/spec.md', import.meta.url), 'utf8')
    // (a family as the spec writes it: imp_hHH, rch_acc_p01 to rch_acc_p10)
    const missing = METRICS.map((m) => m.name.replace(/NN$/, '01')).filter((n) => !new RegExp(`\\b${n}\\b`).test(spec))
    expect(missing).toEqual([])
  })

  it('answers each report endpoint the catalogue names, with a metrics parameter holding its groups', () => {
    for (const [report, id] of Object.entries(METRIC_REPORTS) as [MetricReport, keyof typeof endpoints][]) {
      const groups = new Set(METRICS.flatMap((m) => (m.reports[report] === undefined ? [] : [m.reports[report]!])))
      const values = (endpoints[id].params as Record<string, { schema: { enum?: readonly unknown[] } }>).metrics?.schema.enum ?? []
      expect([report, [...groups].every((g) => values.includes(g)), values.includes('all')]).toEqual([report, true, true])
    }
  })

  it('gives every metric name the recorded answers hold (test/contract/golden), and nothing they do not name where they cover a report', () => {
    const text = readFileSync(new URL('../../contract/golden/answers.json', import.meta.url), 'utf8')
    const answered = new Set<string>()
    for (const m of text.matchAll(/\\"attributes\\":\{[^}]*\},\\"metrics\\":\{([^}]*)\}/g)) for (const k of m[1]!.matchAll(/\\"([a-z0-9_]+)\\":/g)) answered.add(k[1]!)
    expect([...answered].filter((n) => metricOf(n) === undefined)).toEqual([])
    // the census and panel reports' metrics are all in the recorded answers (the minisite ones answer no rows there)
    const covered = (['basic', 'realtime', 'reach', 'audience_overview', 'audience'] as const).flatMap((r) => metricNames(r))
    expect(covered.filter((n) => !answered.has(n))).toEqual([])
  })

  it("lists a report's metrics in the order of its answers: a group's, then every group's", () => {
    expect(metricNames('basic', 'acc')).toEqual(['imp_acc', 'clk_acc', 'uim_acc', 'ucl_acc'])
    expect(metricNames('reach', 'acc').slice(0, 3)).toEqual(['imp_acc', 'grp_acc', 'rch_acc_p01'])
    expect(metricNames('realtime_minisite')).toEqual(['evt_day', ...Array.from({ length: 24 }, (_, h) => `evt_h${String(h).padStart(2, '0')}`)])
    expect(metricNames('basic')).toHaveLength(12 + 48)
    expect(metricNames('basic', 'acc')).toBe(metricNames('basic', 'acc'))
  })

  it("describes each report's metrics parameter in the OpenAPI document with every metric it selects", () => {
    const paths = openApiDocument('http://127.0.0.1:8366').paths as Record<string, { get?: { operationId: string; parameters: { name?: string; description?: string }[] } }>
    for (const [report, id] of Object.entries(METRIC_REPORTS) as [MetricReport, string][]) {
      const op = Object.values(paths).find((p) => p.get?.operationId === id)?.get
      const text = op?.parameters.find((p) => p.name === 'metrics')?.description ?? ''
      const named = METRICS.filter((m) => m.reports[report] !== undefined)
      expect([report, named.filter((m) => !text.includes(`${m.reports[report]}: `) || !text.includes(`${m.name} (${m.meaning})`)).map((m) => m.name)]).toEqual([report, []])
    }
  })
})
