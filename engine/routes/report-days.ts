// local: basic/show (spec §4.4) for each day of a range, one request for the app's daily trend
import { MAX_REPORT_DAYS } from '../contract/endpoints-report-days'
import { endpoints } from '../contract/endpoints'
import { badParam } from '../contract/errors'
import { addDays } from '../contract/plan-rules'
import { basicShow } from '../reports/basic'
import type { ReportEnv } from '../reports/env'
import { JsonParts, type Ctx, type Handler } from '../runtime'

const utf8 = new TextEncoder()
const BASIC_PATH = endpoints['reports.basic_show'].path

/** The days from `start` to `end`, refused when they run backwards or past the limit. */
function daysOf(start: string, end: string): string[] {
  if (end < start) throw badParam('end_date', `(${end}) is earlier than start_date (${start})`)
  const days: string[] = []
  for (let d = start; d <= end; d = addDays(d, 1)) {
    if (days.length === MAX_REPORT_DAYS) throw badParam('end_date', `leaves more than ${MAX_REPORT_DAYS} days after start_date (${start}); ask for fewer days`)
    days.push(d)
  }
  return days
}

/**
 * One day's answer as basic/show gives it: from the remote or its recordings while the reports
 * group is not answered locally (docs/sync.md "Server modes"), else computed here.
 */
async function dayParts(ctx: Ctx, env: ReportEnv, p: Parameters<Handler<'reports.basic_days'>>[1], date: string): Promise<readonly Uint8Array[]> {
  const raw = new Map<string, string[]>()
  for (const [k, v] of Object.entries(ctx.request.query)) if (k !== 'start_date' && k !== 'end_date') raw.set(k, Array.isArray(v) ? v : [v])
  raw.set('date', [date]).set('metrics', ['day'])
  const routed = await ctx.sync.modes.route('reports.basic_show', BASIC_PATH, raw, ctx.settings.publicUrl)
  if (routed) return [utf8.encode(routed.body)]
  const { start_date: _s, end_date: _e, ...basic } = p
  return basicShow(env, { ...basic, date, metrics: 'day', target_id: undefined, sdk: undefined }).parts
}

const basicDays: Handler<'reports.basic_days'> = async (ctx, p) => {
  const days = daysOf(p.start_date, p.end_date)
  const env = ctx.measure.env(ctx.db, ctx.today)
  const parts: Uint8Array[] = [utf8.encode('{"reports":[')]
  for (const [i, date] of days.entries()) {
    if (i > 0) parts.push(utf8.encode(','))
    parts.push(...(await dayParts(ctx, env, p, date)))
  }
  parts.push(utf8.encode(']}'))
  return new JsonParts(parts)
}

export const reportDaysRoutes = {
  'reports.basic_days': basicDays,
}
