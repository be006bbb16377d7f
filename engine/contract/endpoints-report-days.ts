// Local namespace (DESIGN §1): the daily figures of a range of days in one request, for the app's
// daily trend; the vendor API has basic/show only, one cut-off date a request (docs/api.md)
import { get } from './endpoint'
import { BasicReport } from './models-reports'
import { reportEndpoints } from './endpoints-reports'
import { p } from './params'
import { arr, obj } from './schema'

/** Most days one request may ask: a year and a day (the longest campaign plus a leap day). */
export const MAX_REPORT_DAYS = 367

// every parameter of basic/show but the date (one a day here) and metrics (day); target audiences
// and sdk are not offered: basic/show refuses both with metrics=day
const { date: _date, metrics: _metrics, by_audience: _audience, target_id: _target, sdk: _sdk, ...basicParams } = reportEndpoints['reports.basic_show'].params

export const reportDaysEndpoints = {
  'reports.basic_days': get('/local/v1/reports/basic_days', 'local', {
    ...basicParams,
    by_audience: p.oneOf(['overall', 'stable']).default('overall'),
    start_date: p.date().required('the first day'),
    end_date: p.date().required(`the last day: not before start_date, at most ${MAX_REPORT_DAYS} days in all`),
  }, obj({ reports: arr(BasicReport) }),
  { summary: 'The basic report of every day of a range in one request: one answer per day from start_date to end_date, each that of basic/show with metrics=day and that date', spec: 'local', cache: 'measure' as const }),
} as const
