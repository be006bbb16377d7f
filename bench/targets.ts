/**
 * The bench's targets (bench/README.md, "Targets") and their verdicts. Machines of one kind
 * differ by about 2x from day to day, so each target is a ratio of an engine figure to a baseline measured in the same run
 * on the same machine; two are absolute (server memory, which does not scale with the machine's
 * speed, and the time to load the server's modules, which has no baseline in the run). PASS/MISS
 * comes from the ratio alone; the absolute figures are printed beside it as information.
 * Pure: no I/O, no clock (the unit test is test/bench/targets.test.ts).
 */

export type TargetId = 'import' | 'basic' | 'reach' | 'audience' | 'hits' | 'modules' | 'open' | 'serverRss' | 'listVsBare' | 'listNewQuery'
  | 'firstReport' | 'tabCold' | 'tabWarm' | 'searchImport'

/**
 * How a target's ratio is formed from its two figures:
 * - `baseline/engine`: both are times (smaller is better), so the ratio is how many times faster the engine is;
 * - `engine/baseline`: both are rates (larger is better), or both are times and the ratio says how many of the baseline's the engine takes;
 * - `absolute`: no baseline; the engine's figure is compared with the goal as it is.
 */
export type Form = 'baseline/engine' | 'engine/baseline' | 'absolute'

export interface Target {
  id: TargetId
  /** What is measured, as the verdict line names it. */
  title: string
  /** The same in a word or two: a column of bench/README.md's tables per machine (bench/history.ts). */
  short: string
  /** The baseline the ratio is taken against, read after the ratio ('0.53x as fast as ...'), or why the target is absolute. */
  baseline: string
  form: Form
  op: '>=' | '<='
  goal: number
  /** Printed after a ratio or an absolute figure: 'x' (times), '' (a share), ' s', ' MiB'. */
  unit: string
  /** The bench part that measures it. */
  part: 'measure' | 'http' | 'felt'
}

/** Every target of `npm run bench`, in the order the verdicts are printed (bench/README.md, "Targets"). */
export const TARGETS: readonly Target[] = [
  { id: 'import', short: 'import', title: 'batch import of the events file', baseline: 'as fast as DuckDB reading and attributing the same file', form: 'baseline/engine', op: '>=', goal: 1, unit: 'x', part: 'measure' },
  { id: 'basic', short: 'basic', title: 'basic/show spot x city, all metrics, cold', baseline: 'as fast as DuckDB computing it in SQL (p50 vs p50)', form: 'baseline/engine', op: '>=', goal: 50, unit: 'x', part: 'measure' },
  { id: 'reach', short: 'reach', title: 'reach/show, cold', baseline: 'as fast as DuckDB computing it in SQL (p50 vs p50)', form: 'baseline/engine', op: '>=', goal: 50, unit: 'x', part: 'measure' },
  { id: 'audience', short: 'audience', title: 'audience/show, cold', baseline: 'as fast as DuckDB computing it in SQL (p50 vs p50)', form: 'baseline/engine', op: '>=', goal: 50, unit: 'x', part: 'measure' },
  { id: 'hits', short: 'hits per core', title: 'tracking hits over HTTP, per server core', baseline: 'of the req/s of a bare node:http server answering the same GIF', form: 'engine/baseline', op: '>=', goal: 0.7, unit: '', part: 'measure' },
  { id: 'modules', short: 'modules', title: 'start: modules loaded', baseline: 'absolute: no baseline in the run', form: 'absolute', op: '<=', goal: 0.3, unit: ' s', part: 'measure' },
  { id: 'open', short: 'open / cat', title: 'start: modules loaded -> first report', baseline: 'the time of cat reading the data directory\'s files', form: 'engine/baseline', op: '<=', goal: 1.5, unit: 'x', part: 'measure' },
  { id: 'serverRss', short: 'server RSS', title: 'server peak RSS', baseline: 'absolute: memory does not scale with the machine\'s speed', form: 'absolute', op: '<=', goal: 600, unit: ' MiB', part: 'measure' },
  { id: 'listVsBare', short: 'vs bare per core', title: 'CMS list paged from its result set, per core', baseline: 'of the req/s of a bare node:http server answering the same bytes', form: 'engine/baseline', op: '>=', goal: 0.5, unit: '', part: 'http' },
  { id: 'listNewQuery', short: 'new query', title: 'CMS list, a new query (500 random ids)', baseline: 'the req/s of the same endpoint\'s repeated URL (its cached answer)', form: 'engine/baseline', op: '>=', goal: 0.3, unit: 'x', part: 'http' },
  { id: 'firstReport', short: 'first report', title: 'start to the Reports screen\'s first report', baseline: 'absolute: what a user waits for, not a machine speed', form: 'absolute', op: '<=', goal: 3, unit: ' s', part: 'felt' },
  { id: 'tabCold', short: 'tab cold', title: 'Reports tab, first visit (click -> rendered)', baseline: 'absolute: what a user waits for', form: 'absolute', op: '<=', goal: 1000, unit: ' ms', part: 'felt' },
  { id: 'tabWarm', short: 'tab warm', title: 'Reports tab, second visit (click -> rendered)', baseline: 'absolute: what a user waits for', form: 'absolute', op: '<=', goal: 300, unit: ' ms', part: 'felt' },
  { id: 'searchImport', short: 'search p95', title: 'campaigns/list search during the events file\'s import, p95', baseline: 'absolute: what a user waits for; the idle p95 beside it', form: 'absolute', op: '<=', goal: 250, unit: ' ms', part: 'felt' },
]

export function target(id: TargetId): Target {
  const t = TARGETS.find((x) => x.id === id)
  if (!t) throw new Error(`no bench target '${id}'`)
  return t
}

export interface Verdict {
  id: TargetId
  /** The target's title, with the row it judges when one target judges several rows (e.g. 'campaigns/list'). */
  title: string
  /** That row, when there is one. */
  row?: string
  /** The ratio (the engine's figure for an absolute target); null when a figure was not measured. */
  ratio: number | null
  op: Target['op']
  goal: number
  /** PASS (true) or MISS (false) from the ratio; null when it could not be formed. */
  pass: boolean | null
  engine: number | null
  baseline: number | null
  /** The absolute figures, as information beside the ratio. */
  info: string
}

const usable = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0

/** The ratio of `engine` to `baseline` as the target forms it, or null when a figure is missing or not positive. */
export function ratioOf(t: Target, engine: number | null | undefined, baseline: number | null | undefined): number | null {
  if (!usable(engine)) return null
  if (t.form === 'absolute') return engine
  if (!usable(baseline)) return null
  return t.form === 'baseline/engine' ? baseline / engine : engine / baseline
}

/** Whether `ratio` meets the target (the goal itself meets it). */
export const meets = (t: Pick<Target, 'op' | 'goal'>, ratio: number): boolean => (t.op === '>=' ? ratio >= t.goal : ratio <= t.goal)

/**
 * The verdict of target `id` on figures of one run: `engine` and `baseline` in the same unit
 * (both ms, both req/s, ...; `baseline` unused by an absolute target), `info` the absolute figures
 * to print beside it, `row` what the title adds when the target judges several rows.
 */
export function judge(id: TargetId, engine: number | null | undefined, baseline: number | null | undefined, info: string, row?: string): Verdict {
  const t = target(id)
  const ratio = ratioOf(t, engine, baseline)
  return {
    id, title: row ? `${t.title}: ${row}` : t.title, ...(row ? { row } : {}), ratio, op: t.op, goal: t.goal, pass: ratio === null ? null : meets(t, ratio),
    engine: usable(engine) ? engine : null, baseline: t.form === 'absolute' || !usable(baseline) ? null : baseline, info,
  }
}

/** A ratio as printed: two decimals below 10, none from 10 on, commas from 1,000 on. */
export function formatRatio(r: number): string {
  return r >= 10 ? Math.round(r).toLocaleString('en-US') : r.toFixed(2)
}

const word = (pass: boolean | null) => (pass === null ? 'n/a ' : pass ? 'PASS' : 'MISS')

/**
 * One verdict line: PASS/MISS, what, the ratio with its baseline, the target, then the absolute
 * figures, e.g. `MISS  batch import ...  0.52x as fast as DuckDB reading ... (target >= 1.00x); engine 15.1 s; DuckDB 7.9 s`.
 */
export function verdictLine(v: Verdict): string {
  const t = target(v.id)
  const goal = `${formatRatio(t.goal)}${t.unit}`
  const ratio = v.ratio === null ? 'not measured' : `${formatRatio(v.ratio)}${t.unit}`
  const against = t.form === 'absolute' ? `(${t.baseline})` : t.baseline
  return `  ${word(v.pass)}  ${v.title.padEnd(64)}${ratio.padStart(10)} ${against} (target ${t.op} ${goal})${v.info ? `; ${v.info}` : ''}`
}

/** The summary after the verdict lines: how many targets were met, and the missed ones with their ratios. */
export function summaryLine(verdicts: readonly Verdict[]): string {
  const judged = verdicts.filter((v) => v.pass !== null)
  const missed = judged.filter((v) => v.pass === false)
  const unmeasured = verdicts.length - judged.length
  const list = missed.map((v) => `${v.title} ${formatRatio(v.ratio!)}${target(v.id).unit}`).join('; ')
  return `  ${judged.length - missed.length} of ${judged.length} targets met${missed.length ? `; missed: ${list}` : ''}${unmeasured ? `; ${unmeasured} not measured` : ''}`
}

/** Prints the verdicts of a part under a heading, then the summary. */
export function printVerdictLines(heading: string, verdicts: readonly Verdict[]): void {
  console.log(`\n${heading}`)
  for (const v of verdicts) console.log(verdictLine(v))
  console.log(summaryLine(verdicts))
}
