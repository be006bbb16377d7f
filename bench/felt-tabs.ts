/**
 * Row 2 of what the user feels: the Reports screen's tabs on the bench's 10M-event campaign in
 * headless Chromium (the web interface of `npm run serve`, as test/e2e drives it). Each tab is
 * timed from its click to its cards showing their figures (the tables' cells with values, no
 * spinner left) or their empty or error state, in the browser's own clock, with the requests the
 * tab made (the page's Resource Timing entries: start to the answer's last byte, and the wait for
 * its first byte). Cold: each tab's first visit after the server's start; warm: the second. The
 * screen is shown as on the day after the campaign's end (felt-logic.ts `asOn`).
 */
import type { Page } from 'playwright-core'
import { launch, signIn } from '../test/e2e/harness'
import { cpuMsOf, OtherCpu } from './cpu'
import { asOn, PROGRESS_PATH, STATUS_PATH, type TabTime } from './felt-logic'
import { eventsLoaded, serveOn } from './felt-serve'
import { BENCH_ACCOUNT } from './seed'

/** The tabs in the order they are clicked: the screen opens on the minisite view (no minisite: no request), the last one. */
export const TAB_ORDER = ['trend', 'hours', 'region', 'reach', 'audience', 'realtime', 'minisite'] as const
const TAB_TIMEOUT_MS = 60_000

export interface TabsRun {
  cold: TabTime[]
  warm: TabTime[]
  /** Navigation to the Reports screen -> its context shown, ms. */
  openMs: number
  /** Other processes' CPU while the tabs were timed, Chromium's included, % of one core (Linux). */
  otherPct?: number
}

/** The engine's answers naming today, as on `today`. */
async function showAsOn(page: Page, today: string): Promise<void> {
  await page.route((u) => u.pathname === STATUS_PATH || u.pathname === PROGRESS_PATH, async (route) => {
    const res = await route.fetch()
    const path = new URL(route.request().url()).pathname
    await route.fulfill({ response: res, json: asOn(path, await res.json(), today) })
  })
}

/** Clicks tab `view` and times it in the page (see the file's comment); `timeout` ms at most. */
function timeTab(page: Page, view: string): Promise<TabTime> {
  return page.evaluate(async ({ v, timeout }) => {
    const t0 = performance.now()
    ;(document.querySelector(`[data-test=tab-${v}]`) as HTMLElement).click()
    const cards = () => [...document.querySelectorAll<HTMLElement>('[data-test^="card-"]')].filter((c) => c.dataset.test!.startsWith(`card-${v}`))
    const failed = (c: HTMLElement) => c.querySelector('[data-test^="error-"], [data-test^="problem-"], [data-test^="panel-empty-"]') !== null
    const shown = (c: HTMLElement) => c.querySelector('.n-spin') === null && (c.querySelector('[data-test^="table-"] [data-value]') !== null || c.querySelector('.n-empty') !== null || failed(c))
    let state: 'data' | 'empty' | 'error' | 'timeout' = 'timeout'
    while (performance.now() - t0 < timeout) {
      const cs = cards()
      if (cs.length > 0 && cs.every(shown)) {
        state = cs.some(failed) ? 'error' : cs.some((c) => c.querySelector('[data-test^="table-"] [data-value]') !== null) ? 'data' : 'empty'
        break
      }
      await new Promise((r) => requestAnimationFrame(r))
    }
    // (one frame more: the chart paints in the frame after its option is set)
    await new Promise((r) => requestAnimationFrame(r))
    const ms = performance.now() - t0
    const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      // (http URLs of the page's requests, not file URLs: their path is the API's)
      .map((e) => ({ e, path: new URL(e.name) }))
      .filter(({ e, path }) => e.startTime >= t0 && /\/(admonitor|cms|local|oauth)\//.test(path.pathname))
      .map(({ e, path }) => ({ path: path.pathname, ms: e.responseEnd - e.startTime, waitMs: e.responseStart - e.requestStart, bytes: e.encodedBodySize }))
    return { view: v, ms, state, requests }
  }, { v: view, timeout: TAB_TIMEOUT_MS })
}

/** Starts the server on `dataDir` with the web interface in `uiDir`, opens the campaign's Reports screen, and times every tab twice. */
export async function reportTabs(dataDir: string, uiDir: string, campaignId: string, today: string, cpu: number): Promise<TabsRun> {
  const s = await serveOn(dataDir, { uiDir, cpu })
  const browser = await launch()
  try {
    await eventsLoaded(s)
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    // (tsx keeps function names with a helper the page lacks: the functions evaluated there call it)
    await page.addInitScript('window.__name = (f) => f')
    await showAsOn(page, today)
    await signIn(page, s.url, BENCH_ACCOUNT)
    // the screen opens on the view remembered for the campaign: one that asks nothing, so that every tab's first click is its first visit
    await page.evaluate((key) => {
      const all = JSON.parse(localStorage.getItem('admonitor.filters') ?? '{}') as Record<string, Record<string, unknown>>
      localStorage.setItem('admonitor.filters', JSON.stringify({ ...all, [key]: { ...all[key], view: 'minisite' } }))
    }, `reports:${campaignId}`)
    await page.goto('about:blank')
    const t0 = performance.now()
    await page.goto(`${s.url}/#/campaigns/${campaignId}/reports`)
    await page.locator('[data-test=card-minisite] .n-empty').first().waitFor({ timeout: TAB_TIMEOUT_MS })
    const openMs = performance.now() - t0
    await page.evaluate(() => performance.setResourceTimingBufferSize(100_000))
    const visit = async (): Promise<TabTime[]> => {
      const out: TabTime[] = []
      for (const v of TAB_ORDER) {
        const cpu0 = cpuMsOf(s.proc.pid)
        const t = await timeTab(page, v)
        const cpu1 = cpuMsOf(s.proc.pid)
        out.push(cpu0 === undefined || cpu1 === undefined ? t : { ...t, serverCpuMs: cpu1 - cpu0 })
      }
      return out
    }
    const other = new OtherCpu(() => [s.proc.pid])
    const cold = await visit()
    const warm = await visit()
    const otherPct = other.pct()
    return { cold, warm, openMs, ...(otherPct === undefined ? {} : { otherPct }) }
  } finally {
    await browser.close()
    await s.stop()
  }
}
