/**
 * `npx tsx bench/history.ts [FILE...]`: the verdicts of the runs in bench/results (or of the files
 * named) as markdown, one table per machine (CPU model and cores) and part, for bench/README.md's
 * "Ratios per machine": runs are compared within one machine only. Each run's ratios are
 * computed from the figures its results file holds, with the functions the bench prints them
 * with, so that runs written before the verdicts were recorded get theirs too (a baseline such a
 * run did not measure is `-`).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { importVerdict, reportVerdict, startVerdicts, type ReportFigures } from './measure-report'
import type { LoadResult } from './protocol'
import type { ReadFigures } from './read-files'
import { bareVerdict, int, listVerdicts } from './report'
import type { StartupRun } from './startup'
import { formatRatio, target, type Verdict } from './targets'

/** What the history reads of a measure results file (written by bench/measure.ts, old and new). */
interface MeasureFile {
  machine: string | { cpu: string; cores: number; node: string; bareReqPerS?: number }
  events: number
  ingest: { bare: LoadResult; engine: LoadResult }
  import: { imported: number; seconds: number; wallS: number; peakRss: number; cpuMs?: number }
  reports: ReportFigures[]
  duck: { loadMs: number; loadCpuMs?: number }
  memory: { afterReports: { peak: number } | null; importPeak: number }
  startup: { runs: StartupRun[]; read?: ReadFigures }
}

/** What the history reads of an http results file (bench/index.ts). */
interface HttpFile {
  machine: { cpu: string; cores: number; node: string }
  results: Parameters<typeof listVerdicts>[0]
}

interface Run {
  machine: string
  node: string
  /** The run's file name, with the number of events of a measure run other than 10 million. */
  run: string
  bare: number
  verdicts: Verdict[]
}

/** `AMD EPYC, 2 cores` and the node version, from a results file's machine (a line in older files). */
export function machineKey(m: MeasureFile['machine']): { machine: string; node: string } {
  if (typeof m !== 'string') return { machine: `${m.cpu}, ${m.cores} cores`, node: m.node }
  const parts = /^(.*, \d+ cores), node (\S+)$/.exec(m)
  return parts ? { machine: parts[1]!, node: parts[2]! } : { machine: m, node: '?' }
}

export function measureRun(file: string, j: MeasureFile): Run {
  const verdicts = [
    importVerdict(j.import, j.duck.loadMs, j.duck.loadCpuMs, typeof j.machine === 'string' ? undefined : j.machine.cores),
    ...j.reports.map(reportVerdict).filter((v): v is Verdict => v !== null),
    bareVerdict('hits', j.ingest.engine, j.ingest.bare),
    ...startVerdicts(j.startup.runs, j.startup.read, j.memory.afterReports?.peak ?? 0, j.memory.importPeak),
  ]
  const events = j.events === 10_000_000 ? '' : ` (${int(j.events)} events)`
  return { ...machineKey(j.machine), run: `${basename(file, '.json')}${events}`, bare: j.ingest.bare.rps, verdicts }
}

/** What the history reads of a felt results file (bench/felt.ts): its verdicts as printed (absolute targets, no figure to recompute). */
interface FeltFile {
  machine: { cpu: string; cores: number; node: string }
  verdicts: Verdict[]
  search: { idle: { p95: number } } | null
}

/** A felt run; its third column is the idle search's p95 in ms (the baseline printed beside the search's verdict). */
export function feltRun(file: string, j: FeltFile): Run {
  return { ...machineKey(j.machine), run: basename(file, '.json'), bare: j.search?.idle.p95 ?? NaN, verdicts: j.verdicts }
}

export function httpRun(file: string, j: HttpFile): Run {
  return { ...machineKey(j.machine), run: basename(file, '.json'), bare: j.results.listBare.rps, verdicts: listVerdicts(j.results) }
}

/** A verdict's cell: the ratio with its unit, bold when missed, `-` when not measured. */
const cell = (v: Verdict) => (v.ratio === null ? '-' : `${v.pass ? '' : '**'}${formatRatio(v.ratio)}${target(v.id).unit}${v.pass ? '' : '**'}`)

/** One markdown table per machine: a row per run, a column per verdict (the first run's, in order). */
export function tables(runs: Run[], bareLabel: string): string {
  const byMachine = new Map<string, Run[]>()
  for (const r of runs) byMachine.set(r.machine, [...(byMachine.get(r.machine) ?? []), r])
  const out: string[] = []
  for (const [machine, rs] of byMachine) {
    const heads = rs[0]!.verdicts.map((v) => `${target(v.id).short}${v.row ? `, ${v.row}` : ''}`)
    const goals = rs[0]!.verdicts.map((v) => `${v.op} ${formatRatio(v.goal)}${target(v.id).unit}`)
    out.push(`${machine}:`, '', `| run | node | ${bareLabel} | ${heads.join(' | ')} | met |`, `|---|---|---|${heads.map(() => '---|').join('')}---|`)
    out.push(`| target | | | ${goals.join(' | ')} | |`)
    for (const r of rs) {
      const judged = r.verdicts.filter((v) => v.pass !== null)
      out.push(`| ${r.run} | ${r.node} | ${int(r.bare)} | ${r.verdicts.map(cell).join(' | ')} | ${judged.filter((v) => v.pass).length} of ${judged.length} |`)
    }
    out.push('')
  }
  return out.join('\n')
}

function main(): void {
  const dir = fileURLToPath(new URL('results/', import.meta.url))
  const files = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f))
  const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as unknown
  const measure = files.filter((f) => basename(f).startsWith('measure-')).map((f) => measureRun(f, read(f) as MeasureFile))
  const http = files.filter((f) => basename(f).startsWith('http-')).map((f) => httpRun(f, read(f) as HttpFile))
  if (measure.length) console.log(`Measure part (bold: missed; ${'`-`'}: not measured in that run)\n\n${tables(measure, 'bare /x/ req/s')}`)
  if (http.length) console.log(`HTTP part (bold: missed)\n\n${tables(http, 'bare list req/s')}`)
  const felt = files.filter((f) => basename(f).startsWith('felt-')).map((f) => feltRun(f, read(f) as FeltFile))
  if (felt.length) console.log(`Felt part (bold: missed; absolute targets)\n\n${tables(felt, 'idle search p95 ms')}`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
