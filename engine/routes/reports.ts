// spec §4.4: every report endpoint; the builders live in engine/reports/, the numbers in metrics.md
import { audienceOverview, audienceShow } from '../reports/audience'
import { basicShow } from '../reports/basic'
import { basicShowMinisite, realtimeShowMinisite } from '../reports/minisite'
import { reachShow } from '../reports/reach'
import { basicProgress, realtimeShow } from '../reports/realtime'
import type { Ctx } from '../context'
import type { Handler } from '../handler'

const env = (ctx: Ctx) => ctx.reports.env(ctx.db, ctx.today)

export const reportRoutes = {
  'reports.basic_show': ((ctx, p) => basicShow(env(ctx), p)) satisfies Handler<'reports.basic_show'>,
  'reports.basic_progress': ((ctx, p) => basicProgress(env(ctx), p, { ms: ctx.clock.now(), timeZone: ctx.settings.timeZone })) satisfies Handler<'reports.basic_progress'>,
  'reports.basic_show_minisite': ((ctx, p) => basicShowMinisite(env(ctx), p)) satisfies Handler<'reports.basic_show_minisite'>,
  'reports.realtime_show': ((ctx, p) => realtimeShow(env(ctx), p)) satisfies Handler<'reports.realtime_show'>,
  'reports.realtime_show_minisite': ((ctx, p) => realtimeShowMinisite(env(ctx), p)) satisfies Handler<'reports.realtime_show_minisite'>,
  'reports.reach_show': ((ctx, p) => reachShow(env(ctx), p)) satisfies Handler<'reports.reach_show'>,
  'reports.audience_show_overview': ((ctx, p) => audienceOverview(env(ctx), p)) satisfies Handler<'reports.audience_show_overview'>,
  'reports.audience_show': ((ctx, p) => audienceShow(env(ctx), p)) satisfies Handler<'reports.audience_show'>,
}
