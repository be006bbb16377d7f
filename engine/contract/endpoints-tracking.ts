// vendor-notes §7: the tracking endpoints the monitoring codes of list_spots point at (no token)
import { get } from './endpoint'
import { any } from './schema'

const pixel = any('a 1x1 GIF (or 204 with rt=0/1), or on a browser\'s first contact a 302 back to the same tag with amc= and Set-Cookie amid (the cookie check); headers X-AdMonitor-Counted: 1 when it counts in the default (net) figures, or 0 and the reason (a bot, a data-centre hit the spot leaves out, beyond the frequency limit, a repeated request id, an unknown spot, outside the campaign\'s dates, a prefetch, the cookie check)')
// each also at its bare letter with a query (`/x?k=...`, old vendor codes) and under its prefix (parameters in the path)
const meta = (summary: string, prefix: string, produces: string[]) => ({ summary, spec: 'vendor-notes §7', rawParams: true, prefix, aliases: [prefix.slice(0, -1)], produces })

export const trackingEndpoints = {
  'tracking.impression': get('/x.gif', 'none', {}, pixel, meta('Count an impression: /x/k=<campaign>&p=<spot_id_str>&...&o= or /x.gif?k=...&p=...', '/x/', ['image/gif'])),
  'tracking.click': get('/r.gif', 'none', {}, any('302 to the registered landing page (on a browser\'s first contact, first back to the same tag with amc=: the cookie check)'), meta('Count a click and redirect: /r/k=...&p=...&o=<landing page>', '/r/', ['text/plain'])),
  'tracking.event': get('/e.gif', 'none', {}, pixel, meta('Count a minisite event: /e/m=<minisite>&ev=<event id>', '/e/', ['image/gif'])),
} as const
