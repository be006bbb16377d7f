// local: basic/show (spec §4.4) for each day of a range, one request for the app's daily trend
import { MAX_REPORT_DAYS } from '../contract/endpoints-report-days'
import { endpoints } from '../contract/endpoints'
import { badRequest } from '../contract/errors'
import { addDays } from '../contract/plan-rules'
import { basicShowDays } from '../reports/basic'
import { MAX_ANSWER_ROWS } from '../reports/setup'
import type { ReportEnv } from '../reports/env'
import { JsonParts } from '../answers'
import type { Ctx } from '../context'
import type { Handler } from '../handler'

const utf8 = new TextEncoder()
const BASIC_PATH = endpoints['reports.basic_show'].path
/**
 * Days asked of a remote at once while the reports group is forwarded: the remote's basic/show
 * answers one date a request. The client still spaces the requests' starts by its pacing.
 */
const REMOTE_DAYS_AT_ONCE = 4

type Params = Parameters<Handler<'reports.basic_days'>>[1]

/** The days from `start` to `end`, refused when they run backwards or past the limit. */
function daysOf(start: string, end: string): string[] {
  if (end < start) throw badRequest('plan.beforeOther', { param: 'end_date', date: end, otherParam: 'start_date', otherDate: start })
  const days: string[] = []
  for (let d = start; d <= end; d = addDays(d, 1)) {
    if (days.length === MAX_REPORT_DAYS) throw badRequest('report.tooManyDays', { param: 'end_date', max: MAX_REPORT_DAYS, start })
    days.push(d)
  }
  return days
}

/** basic/show's parameters of the range, but the date and metrics. */
function basicParams(p: Params) {
  const { start_date: _s, end_date: _e, ...basic } = p
  return { ...basic, target_id: undefined, sdk: undefined }
}

/**
 * One day's answer as basic/show gives it, and its rows: from the remote or its recordings while
 * the reports group is not answered locally (docs/sync.md "Server modes"), else computed here (a
 * day answered here is held to one answer's rows by basic/show itself; its rows count 0).
 */
async function dayParts(ctx: Ctx, env: ReportEnv, p: Params, date: string): Promise<{ parts: readonly Uint8Array[]; rows: number }> {
  const raw = new Map<string, string[]>()
  for (const [k, v] of Object.entries(ctx.request.query)) if (k !== 'start_date' && k !== 'end_date') raw.set(k, Array.isArray(v) ? v : [v])
  raw.set('date', [date]).set('metrics', ['day'])
  const routed = await ctx.sync.modes.route('reports.basic_show', BASIC_PATH, raw, ctx.settings.publicUrl)
  if (!routed) return { parts: basicShowDays(env, basicParams(p), [date])[0]!.parts, rows: 0 }
  const items = (JSON.parse(routed.body) as { items?: unknown }).items
  return { parts: [utf8.encode(routed.body)], rows: Array.isArray(items) ? items.length : 0 }
}

/**
 * The rows of a range's day answers from a remote, counted in date order as the days come (they
 * come a few at a time, in any order): the range's rows in all are held to one answer's
 * (MAX_ANSWER_ROWS) as the local answer's are (basicShowDays), refused naming end_date at the
 * first day past it.
 */
class DayRows {
  private readonly rows: (number | undefined)[]
  private counted = 0
  private total = 0
  /** The rows of every day come so far, in date order or not. */
  private known = 0

  constructor(private readonly days: readonly string[]) {
    this.rows = new Array<number | undefined>(days.length)
  }

  /** Counts day `i`'s `rows`; throws once the days counted in order hold more than one answer's rows. */
  add(i: number, rows: number): void {
    this.rows[i] = rows
    this.known += rows
    for (let r = this.rows[this.counted]; r !== undefined; r = this.rows[++this.counted]) {
      this.total += r
      if (this.total > MAX_ANSWER_ROWS) throw badRequest('report.tooManyDayRows', { param: 'end_date', rows: this.total, date: this.days[this.counted]!, max: MAX_ANSWER_ROWS })
    }
  }

  /**
   * Whether the days come so far hold more than one answer's rows: the range is refused once the
   * days before them come (every earlier day is asked already), so no later day need be asked.
   */
  get past(): boolean {
    return this.known > MAX_ANSWER_ROWS
  }
}

/**
 * `task` of each of `items`, at most `limit` at a time, the results in the order of `items`. After
 * a failure no further item is started, and the failure of the earliest item is thrown.
 */
async function inTurns<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  const failed = new Map<number, unknown>()
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length && failed.size === 0) {
      const i = next++
      try {
        out[i] = await task(items[i]!, i)
      } catch (err) {
        failed.set(i, err)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failed.size > 0) throw failed.get(Math.min(...failed.keys()))
  return out
}

/** The days' answers of the remote or its recordings, REMOTE_DAYS_AT_ONCE at a time, their rows held to one answer's. */
async function remoteDays(ctx: Ctx, env: ReportEnv, p: Params, days: readonly string[]): Promise<(readonly Uint8Array[])[]> {
  const rows = new DayRows(days)
  return inTurns(days, REMOTE_DAYS_AT_ONCE, async (date, i) => {
    if (rows.past) return []
    const day = await dayParts(ctx, env, p, date)
    rows.add(i, day.rows)
    return day.parts
  })
}

const basicDays: Handler<'reports.basic_days'> = async (ctx, p) => {
  const days = daysOf(p.start_date, p.end_date)
  const env = ctx.reports.env(ctx.db, ctx.today)
  // every day counted in one pass here; a remote's (or its recordings') basic/show a day at a time
  const answers = ctx.sync.modes.answersLocally('reports.basic_show') ? basicShowDays(env, basicParams(p), days).map((a) => a.parts) : await remoteDays(ctx, env, p, days)
  const parts: Uint8Array[] = [utf8.encode('{"reports":[')]
  for (const [i, day] of answers.entries()) {
    if (i > 0) parts.push(utf8.encode(','))
    parts.push(...day)
  }
  parts.push(utf8.encode(']}'))
  return new JsonParts(parts)
}

export const reportDaysRoutes = {
  'reports.basic_days': basicDays,
}
