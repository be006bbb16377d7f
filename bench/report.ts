/**
 * The printed tables of the load rows: each engine row's req/s against a bare node:http server
 * answering the same bytes, plain and per server core; and the verdicts of those rows (the
 * targets are in bench/targets.ts).
 */
import type { LoadResult } from './protocol'
import { judge, type TargetId, type Verdict } from './targets'

export interface EngineRow {
  label: string
  result: LoadResult
}

export interface Group {
  title: string
  bodyBytes: number
  bare: LoadResult
  engine: EngineRow[]
}

/** An engine row against its group's bare row. */
export interface RowRatio {
  group: string
  row: string
  ratio: number
  /** The same ratio of req/s per server core (req/s / srv CPU): an estimate of capacity, fair when a row is load-bound. */
  coreRatio?: number
  /** The engine row or its baseline was limited by the load generator. */
  loadBound: boolean
  /** Non-2xx answers, socket errors or timeouts: the figures of this row are not valid. */
  invalid: boolean
}

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const ms = (n: number) => (n >= 100 ? int(n) : n.toFixed(1))
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`
const pad = (s: string, w: number, right = false) => (right ? s.padEnd(w) : s.padStart(w))
const MiB = (n: number) => `${int(n / 2 ** 20)} MiB`

const invalid = (r: LoadResult) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0
/** The load generator at >= 90% of its core: this row measures the load generator as much as the server. */
export const loadBound = (r: LoadResult) => r.loadCpuPct >= 90
/** Other processes used >= 10% of a core during the row: the machine was not quiet. */
export const contended = (r: LoadResult) => (r.otherCpuPct ?? 0) >= 10
const problems = (r: LoadResult) =>
  (invalid(r) ? `  INVALID: ${r.non2xx} non-2xx, ${r.errors} errors (${r.errorSamples.join('; ')}), ${r.timeouts} timeouts` : '') +
  (loadBound(r) ? '  [load-bound]' : '') + (contended(r) ? '  [contended]' : '')

const pct = (n: number | undefined) => (n === undefined ? '-' : `${Math.round(n)}%`)
/** req/s per core of server CPU: what the server could answer if it had a whole core to itself. */
const perCore = (r: LoadResult) => (r.serverCpuPct ? r.rps / (r.serverCpuPct / 100) : undefined)

const HEAD = `  ${pad('server', 28, true)}${pad('req/s', 8)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('max ms', 8)}${pad('requests', 9)}` +
  `${pad('srv CPU', 8)}${pad('load CPU', 9)}${pad('other', 7)}${pad('rps/core', 9)}${pad('ratio', 7)}${pad('per core', 9)}`

function line(label: string, r: LoadResult, ratios: [string, string]): string {
  const core = perCore(r)
  return `  ${pad(label, 28, true)}${pad(int(r.rps), 8)}${pad(ms(r.p50Ms), 8)}${pad(ms(r.p99Ms), 8)}${pad(ms(r.maxMs), 8)}${pad(int(r.completed), 9)}` +
    `${pad(pct(r.serverCpuPct), 8)}${pad(pct(r.loadCpuPct), 9)}${pad(pct(r.otherCpuPct), 7)}${pad(core === undefined ? '-' : int(core), 9)}` +
    `${pad(ratios[0], 7)}${pad(ratios[1], 9)}${problems(r)}`
}

const passMiss = (ok: boolean) => (ok ? 'PASS' : 'MISS')

/** Prints one group (bare baseline and engine rows) and returns each engine row's ratios. */
export function printGroup(g: Group): RowRatio[] {
  console.log(`\n${g.title}  (body ${int(g.bodyBytes)} B = ${kb(g.bodyBytes)})`)
  console.log(HEAD)
  console.log(line('bare node:http, same bytes', g.bare, ['1.00', '1.00']))
  const bareCore = perCore(g.bare)
  return g.engine.map(({ label, result }) => {
    const ratio = g.bare.rps > 0 ? result.rps / g.bare.rps : 0
    const engineCore = perCore(result)
    const coreRatio = engineCore !== undefined && bareCore !== undefined ? engineCore / bareCore : undefined
    console.log(line(label, result, [ratio.toFixed(2), coreRatio === undefined ? '-' : coreRatio.toFixed(2)]))
    return {
      group: g.title, row: label, ratio, ...(coreRatio === undefined ? {} : { coreRatio }),
      loadBound: loadBound(result) || loadBound(g.bare), invalid: invalid(result) || invalid(g.bare),
    }
  })
}

/** Microseconds of a core a request takes, from the requests a second per core. */
const usEach = (perCoreRps: number) => (perCoreRps > 0 ? (1e6 / perCoreRps).toFixed(1) : '-')

/**
 * The verdict of an engine row against the bare server (target `id`): req/s per server core when
 * both CPU figures exist (the fair comparison when the load generator limits a row), else plain
 * req/s; an invalid row (errors, non-2xx) is not judged. Beside it, the CPU a request takes on each:
 * what the engine spends beyond node:http's own work, which both pay.
 */
export function bareVerdict(id: TargetId, engine: LoadResult, bare: LoadResult, row?: string): Verdict {
  const e = perCore(engine)
  const b = perCore(bare)
  const core = e !== undefined && b !== undefined
  const bad = invalid(engine) || invalid(bare)
  const cpu = e !== undefined && b !== undefined ? `; CPU a request: engine ${usEach(e)} us, bare ${usEach(b)} us` : '; no CPU figures, so the ratio is of plain req/s'
  const info = `engine ${int(engine.rps)} req/s (p99 ${ms(engine.p99Ms)} ms), bare ${int(bare.rps)} req/s, plain ratio ${bare.rps > 0 ? (engine.rps / bare.rps).toFixed(2) : '-'}` +
    `${cpu}${loadBound(engine) || loadBound(bare) ? ' [load-bound]' : ''}${bad ? ' INVALID: errors during the row' : ''}`
  return judge(id, bad ? null : core ? e : engine.rps, core ? b : bare.rps, info, row)
}

/** The verdict of a new-query row against the repeated URL of the same endpoint (target listNewQuery). */
export function newQueryVerdict(queries: LoadResult, repeated: LoadResult, row: string): Verdict {
  const bad = invalid(queries) || invalid(repeated)
  const info = `new queries ${int(queries.rps)} req/s (p99 ${ms(queries.p99Ms)} ms), repeated URL ${int(repeated.rps)} req/s${bad ? ' INVALID: errors during a row' : ''}`
  return judge('listNewQuery', bad ? null : queries.rps, repeated.rps, info, row)
}

/** The http part's verdicts: both lists' repeated and new-page rows against the bare server, and their new-query rows against the repeated URL. */
export function listVerdicts(r: Record<'listBare' | 'listRepeated' | 'listRotating' | 'listQueries' | 'spotsBare' | 'spotsRepeated' | 'spotsRotating' | 'spotsQueries', LoadResult>): Verdict[] {
  return [
    bareVerdict('listVsBare', r.listRepeated, r.listBare, 'campaigns/list repeated URL'),
    bareVerdict('listVsBare', r.listRotating, r.listBare, 'campaigns/list new pages'),
    bareVerdict('listVsBare', r.spotsRepeated, r.spotsBare, 'list_spots repeated URL'),
    bareVerdict('listVsBare', r.spotsRotating, r.spotsBare, 'list_spots new pages'),
    newQueryVerdict(r.listQueries, r.listRepeated, 'campaigns/list'),
    newQueryVerdict(r.spotsQueries, r.spotsRepeated, 'list_spots'),
  ]
}

export { int, ms, kb, pad, passMiss, MiB }

/** What the rows and columns mean; notes rotating rows that ran out of distinct URLs. */
export function printLegend(rotating: [string, LoadResult][]): void {
  console.log(`
  repeated: the same URL every time: the page is cut out of the query's result set (engine/result-sets.ts, kept until the
            next write), so this row is the HTTP door + paging path.
  rotating: each request a URL the engine has not answered before (limit=M,500 for M = 0..9500; list_spots with
            limit=M,500 for M = 0..2500): another page of a query already read, cut out of its result set. Same body size.
  new query each: each request a query the engine has not seen (campaign_id / spot_id lists of 500 ids drawn at random):
            the id query, then the rows, their serialization and their chunks, every time. About the same body size.
  srv CPU / load CPU: CPU time of the server / of the load generator during the row, in % of one core (each has its own core).
  rps/core: req/s / srv CPU, what the server would answer with a whole core (an estimate); per core: its ratio.
  other:    CPU time of every other process on the machine. [load-bound]: the load generator used >= 90% of its core, so
            req/s is a floor. [contended]: other processes used >= 10% of a core; rerun on a quiet machine.
  Latencies come from the load generator's histogram; at 50 connections latency ~ 50 / (req/s) (Little's law).`)
  for (const [name, r] of rotating)
    if (r.requestsStarted > r.distinctPaths) console.log(`  NOTE ${name} wrapped around (${int(r.requestsStarted)} requests over ${int(r.distinctPaths)} URLs): later ones were seen before.`)
}
