/**
 * The printed table and the targets: engine rps / bare rps >= 0.5, and engine p99 < 20 ms.
 */
import type { LoadResult } from './protocol'

export const TARGETS = { minRatio: 0.5, maxP99Ms: 20 }

export interface EngineRow {
  label: string
  result: LoadResult
}

export interface Group {
  title: string
  bodyBytes: number
  bare: LoadResult
  engine: EngineRow[]
  /** The p99 target of this group's engine rows (default TARGETS.maxP99Ms); null: no p99 target. */
  maxP99Ms?: number | null
}

export interface Verdict {
  group: string
  row: string
  ratio: number
  ratioPass: boolean
  /** The same ratio of req/s per server core (req/s / srv CPU): an estimate of capacity, fair when a row is load-bound. */
  coreRatio?: number
  coreRatioPass?: boolean
  /** The engine row or its baseline was limited by the load generator. */
  loadBound: boolean
  p99Pass: boolean
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
  `${pad('srv CPU', 8)}${pad('load CPU', 9)}${pad('other', 7)}${pad('rps/core', 9)}${pad('ratio', 7)}${pad('per core', 9)}  targets`

function line(label: string, r: LoadResult, ratios: [string, string], targets: string): string {
  const core = perCore(r)
  return `  ${pad(label, 28, true)}${pad(int(r.rps), 8)}${pad(ms(r.p50Ms), 8)}${pad(ms(r.p99Ms), 8)}${pad(ms(r.maxMs), 8)}${pad(int(r.completed), 9)}` +
    `${pad(pct(r.serverCpuPct), 8)}${pad(pct(r.loadCpuPct), 9)}${pad(pct(r.otherCpuPct), 7)}${pad(core === undefined ? '-' : int(core), 9)}` +
    `${pad(ratios[0], 7)}${pad(ratios[1], 9)}  ${targets}${problems(r)}`
}

const passMiss = (ok: boolean) => (ok ? 'PASS' : 'MISS')

/** Prints one group (bare baseline and engine rows) and returns the verdicts of the engine rows. */
export function printGroup(g: Group): Verdict[] {
  console.log(`\n${g.title}  (body ${int(g.bodyBytes)} B = ${kb(g.bodyBytes)})`)
  console.log(HEAD)
  const maxP99 = g.maxP99Ms === undefined ? TARGETS.maxP99Ms : g.maxP99Ms
  const bareP99 = maxP99 === null || g.bare.p99Ms < maxP99 ? '' : `(bare p99 itself >= ${maxP99} ms)`
  console.log(line('bare node:http, same bytes', g.bare, ['1.00', '1.00'], bareP99))
  const bareCore = perCore(g.bare)
  return g.engine.map(({ label, result }) => {
    const ratio = g.bare.rps > 0 ? result.rps / g.bare.rps : 0
    const engineCore = perCore(result)
    const coreRatio = engineCore !== undefined && bareCore !== undefined ? engineCore / bareCore : undefined
    const v: Verdict = {
      group: g.title,
      row: label,
      ratio,
      ratioPass: ratio >= TARGETS.minRatio,
      ...(coreRatio === undefined ? {} : { coreRatio, coreRatioPass: coreRatio >= TARGETS.minRatio }),
      loadBound: loadBound(result) || loadBound(g.bare),
      p99Pass: maxP99 === null || result.p99Ms < maxP99,
      invalid: invalid(result) || invalid(g.bare),
    }
    const perCoreNote = v.loadBound && v.coreRatioPass !== undefined ? ` (load-bound: per core ${passMiss(v.coreRatioPass)})` : ''
    const targets = `ratio ${passMiss(v.ratioPass)}${perCoreNote}${maxP99 === null ? '' : `, p99 ${passMiss(v.p99Pass)}`}`
    console.log(line(label, result, [ratio.toFixed(2), coreRatio === undefined ? '-' : coreRatio.toFixed(2)], targets))
    return v
  })
}

/** The summary lines: one PASS/MISS per target over all engine rows. */
export function printVerdicts(verdicts: Verdict[]): void {
  const all = (f: (v: Verdict) => boolean) => verdicts.filter((v) => !v.invalid).every(f)
  const list = (f: (v: Verdict) => boolean) => verdicts.filter((v) => !f(v)).map((v) => `${v.group.split(' ')[0]} ${v.row}`)
  console.log('\nTargets (every engine row):')
  const ratioMisses = list((v) => v.ratioPass)
  const p99Misses = list((v) => v.p99Pass)
  console.log(`  engine rps / bare rps >= ${TARGETS.minRatio}: ${all((v) => v.ratioPass) ? 'PASS' : `MISS (${ratioMisses.join('; ')})`}`)
  const coreMisses = list((v) => v.coreRatioPass !== false)
  console.log(`    per server core (estimate; the fair figure where a row is [load-bound]): ${coreMisses.length === 0 ? 'PASS' : `MISS (${coreMisses.join('; ')})`}`)
  console.log(`  engine p99 < ${TARGETS.maxP99Ms} ms:         ${all((v) => v.p99Pass) ? 'PASS' : `MISS (${p99Misses.join('; ')})`}`)
  const bad = verdicts.filter((v) => v.invalid)
  if (bad.length > 0) console.log(`  INVALID rows (errors during the run, figures not comparable): ${bad.map((v) => `${v.group.split(' ')[0]} ${v.row}`).join('; ')}`)
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
