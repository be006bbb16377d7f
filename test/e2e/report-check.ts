/**
 * Comparing a report screen with the API: the report requests the page made are recorded, sent
 * again by the test with its own token, and every metric cell of the table must be a number of
 * those answers (the table shows the API's figures, not figures of its own).
 */
import type { Page } from 'playwright-core'

/** Table columns that carry a figure of the API (not ranks, plans or labels). */
const METRIC = /^(imp|clk|uim|ucl|evt|uev|universe|grp|rch|uim_pct|uim_idx)/

export interface Cell {
  col: string
  value: number
}

/** The metric cells of the visible tables of a report view (raw values from data-value). */
export async function metricCells(page: Page, view: string): Promise<Cell[]> {
  const raw = await page.$$eval(`[data-test^=table-${view}] [data-value]`, (els) =>
    els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => ({ col: e.getAttribute('data-col') ?? '', value: e.getAttribute('data-value') ?? '' })))
  return raw.filter((c) => METRIC.test(c.col) && c.value !== '' && Number.isFinite(Number(c.value))).map((c) => ({ col: c.col, value: Number(c.value) }))
}

/** Every number in the JSON answers of `urls`, fetched again with `token`. */
export async function numbersIn(base: string, token: string, urls: string[]): Promise<Set<number>> {
  const out = new Set<number>()
  const walk = (v: unknown): void => {
    if (typeof v === 'number') out.add(v)
    else if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) out.add(Number(v))
    else if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') Object.values(v).forEach(walk)
  }
  for (const u of urls) {
    const url = new URL(u, base)
    url.searchParams.set('access_token', token)
    const res = await fetch(url)
    if (!res.ok) throw new Error(`${url.pathname}: ${res.status} ${await res.text()}`)
    walk(await res.json())
  }
  return out
}

const isReport = (url: string): boolean => url.includes('/admonitor/v1/report') || url.includes('/local/v1/reports/')

/** Records the report requests a page makes (`/admonitor/v1/report...`, and the trend's `/local/v1/reports/basic_days`). */
export function reportCalls() {
  let urls: string[] = []
  let pending = 0
  return {
    watch(page: Page): void {
      page.on('request', (r) => {
        if (!isReport(r.url())) return
        pending++
        urls.push(r.url())
      })
      const done = (r: { url(): string }) => { if (isReport(r.url())) pending-- }
      page.on('requestfinished', done)
      page.on('requestfailed', done)
    },
    reset(): void {
      urls = []
    },
    urls: (): string[] => [...new Set(urls)],
    /** Resolves when no report request is in flight (after a short quiet spell). */
    async settled(): Promise<void> {
      for (let quiet = 0; quiet < 3;) {
        await new Promise((r) => setTimeout(r, 150))
        quiet = pending === 0 ? quiet + 1 : 0
      }
    },
  }
}
