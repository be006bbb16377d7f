// vendor-notes §7: the tracking endpoints the monitoring codes of list_spots point at (no token)
import { get } from './endpoint'
import { any } from './schema'
import { TRACKING_PATHS, type TrackingKind } from './tracking-url'

const pixel = any('a 1x1 GIF (or 204 with rt=0/1), or on a browser\'s first contact a 302 back to the same tag with amc= and Set-Cookie amid (the cookie check); headers X-AdMonitor-Counted: 1 when it counts in the default (net) figures, or 0 and the reason (a bot, a data-centre hit the spot leaves out, beyond the frequency limit, a repeated request id, an unknown spot, outside the campaign\'s dates, a prefetch, the cookie check)')
// each at its .gif path, at its bare letter with a query (`/x?k=...`, old vendor codes) and under its prefix (parameters in the path)
const at = (kind: TrackingKind, summary: string, produces: string[]) => {
  const { gif, bare, prefix } = TRACKING_PATHS[kind]
  return { path: gif, meta: { summary, spec: 'vendor-notes §7', rawParams: true, prefix, aliases: [bare], produces } }
}
const impression = at('impression', 'Count an impression: /x/k=<campaign>&p=<spot_id_str>&...&o= or /x.gif?k=...&p=...', ['image/gif'])
const click = at('click', 'Count a click and redirect: /r/k=...&p=...&o=<landing page>', ['text/plain'])
const event = at('minisite', 'Count a minisite event: /e/m=<minisite>&ev=<event id>', ['image/gif'])

export const trackingEndpoints = {
  'tracking.impression': get(impression.path, 'none', {}, pixel, impression.meta),
  'tracking.click': get(click.path, 'none', {}, any('302 to the registered landing page (on a browser\'s first contact, first back to the same tag with amc=: the cookie check)'), click.meta),
  'tracking.event': get(event.path, 'none', {}, pixel, event.meta),
} as const
