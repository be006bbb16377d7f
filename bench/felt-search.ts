/**
 * Row 3 of what the user feels: the campaign list's search box while a 10M-event import runs.
 * The server (`npm run serve`) holds the bench's campaign and SEARCH_CAMPAIGNS more, made through
 * the API before anything is timed. A search is what the list screen asks when a name is typed
 * (renderer/src/campaigns/list-query.ts: `campaign_name`, newest first, a page of 50 and one row
 * more), a new term each time, sent at a steady pace whether or not the previous one was answered
 * (a user does not wait to type). First with nothing else running (the baseline), then while the
 * events file is imported through `POST /local/v1/events/import` in pieces of at most 64 MiB, one
 * after another, as a script sends a file of 1.8 GB (the command line refuses a data directory a
 * server holds: docs/import.md).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { OtherCpu } from './cpu'
import { latency, pieces, searchTerms, type Latency } from './felt-logic'
import { serveOn } from './felt-serve'
import { Api } from './measure-http'
import { env } from './rows'

const SEARCH_CAMPAIGNS = env('BENCH_FELT_CAMPAIGNS', 2_000)
const PER_S = env('BENCH_FELT_SEARCH_PER_S', 5)
const IDLE_S = env('BENCH_FELT_IDLE_S', 20)
/** The largest body `events/import` takes (engine/request.ts MAX_BODY_BYTES). */
const PIECE_BYTES = 64 << 20
const WORDS = ['Spring', 'Summer', 'Autumn', 'Winter', 'Launch', 'Brand', 'Retail', 'Promo']

export interface SearchRun {
  campaigns: number
  perS: number
  idle: Latency
  importing: Latency
  /** Other processes' CPU during the idle searches and during the import, % of one core (Linux). */
  otherPct: { idle?: number; importing?: number }
  /** Searches that failed (not 200 or no list), with the first reason. */
  failed: number
  failure?: string
  import: { pieces: number; bytes: number; imported: number; rejected: number; seconds: number }
}

/** Creates `n` campaigns named `Felt <word> <i>`, 25 requests in flight. */
async function makeCampaigns(api: Api, n: number): Promise<void> {
  for (let from = 0; from < n; from += 25) {
    await Promise.all(Array.from({ length: Math.min(25, n - from) }, (_, k) => {
      const i = from + k
      return api.post('/cms/v1/campaigns/create', { campaign_name: `Felt ${WORDS[i % WORDS.length]} ${i}`, start_date: '2099-06-01', end_date: '2099-06-30', platform: 'pm' })
    }))
  }
}

/** Sends searches at PER_S a second until `until` resolves; each search's ms (spawned, not awaited in turn). */
async function searches(base: string, token: string, terms: () => string, until: Promise<unknown>, failures: string[]): Promise<number[]> {
  const times: number[] = []
  const inFlight: Promise<void>[] = []
  let done = false
  void until.finally(() => (done = true))
  const one = async (): Promise<void> => {
    const q = new URLSearchParams({ campaign_name: terms(), order_desc: 'campaign_id', limit: '0,51' })
    const t0 = performance.now()
    try {
      const res = await fetch(`${base}/cms/v1/campaigns/list?${q.toString()}`, { headers: { authorization: `Bearer ${token}` } })
      const body: unknown = await res.json()
      times.push(performance.now() - t0)
      if (res.status !== 200 || !Array.isArray(body)) failures.push(`${res.status} ${JSON.stringify(body).slice(0, 200)}`)
    } catch (e) {
      failures.push((e as Error).message)
    }
  }
  const start = performance.now()
  for (let k = 0; !done; k++) {
    inFlight.push(one())
    const next = start + ((k + 1) * 1000) / PER_S
    await Promise.race([new Promise((r) => setTimeout(r, Math.max(0, next - performance.now()))), until])
  }
  await Promise.all(inFlight)
  return times
}

/** The offset just after the last newline at or before `pos` (and after `from`), or -1. */
function newlineFinder(fd: number): (pos: number, from: number) => number {
  const window = Buffer.alloc(1 << 20)
  return (pos, from) => {
    for (let end = pos + 1; end > from;) {
      const start = Math.max(from, end - window.length)
      readSync(fd, window, 0, end - start, start)
      const i = window.subarray(0, end - start).lastIndexOf(10)
      if (i >= 0) return start + i + 1
      end = start
    }
    return -1
  }
}

/** Imports `file` through the API in pieces, one after another; resolves with the counts. */
async function importFile(base: string, token: string, file: string): Promise<SearchRun['import']> {
  const fd = openSync(file, 'r')
  try {
    const size = statSync(file).size
    const ranges = pieces(size, PIECE_BYTES, newlineFinder(fd))
    const t0 = performance.now()
    let imported = 0
    let rejected = 0
    for (const [start, end] of ranges) {
      const body = Buffer.alloc(end - start)
      readSync(fd, body, 0, body.length, start)
      const res = await fetch(`${base}/local/v1/events/import?format=ndjson&wait=1`, { method: 'POST', body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' } })
      const job = (await res.json()) as { imported?: number; rejected?: number; state?: string; error_description?: string }
      if (res.status !== 200 || job.state !== 'done') throw new Error(`events/import of bytes ${start}-${end} answered ${res.status}: ${JSON.stringify(job).slice(0, 300)}`)
      imported += job.imported ?? 0
      rejected += job.rejected ?? 0
    }
    return { pieces: ranges.length, bytes: size, imported, rejected, seconds: (performance.now() - t0) / 1000 }
  } finally {
    closeSync(fd)
  }
}

/** Starts the server on `dataDir` (a copy it may write), then the baseline searches and the searches during the import of `eventsFile`. */
export async function searchDuringImport(dataDir: string, eventsFile: string, cpu: number): Promise<SearchRun> {
  const s = await serveOn(dataDir, { cpu })
  try {
    const api = new Api(s.url)
    const token = await api.login()
    await makeCampaigns(api, SEARCH_CAMPAIGNS)
    const all = searchTerms(20991)
    let k = 0
    const terms = () => all[k++ % all.length]!
    const failures: string[] = []
    const own = () => [s.proc.pid]
    const idleOther = new OtherCpu(own)
    const idle = await searches(s.url, token, terms, new Promise((r) => setTimeout(r, IDLE_S * 1000)), failures)
    const otherPct = { idle: idleOther.pct() }
    const importOther = new OtherCpu(own)
    const imported = importFile(s.url, token, eventsFile)
    const importing = await searches(s.url, token, terms, imported.catch(() => null), failures)
    Object.assign(otherPct, { importing: importOther.pct() })
    return {
      campaigns: SEARCH_CAMPAIGNS, perS: PER_S, idle: latency(idle), importing: latency(importing), otherPct, failed: failures.length,
      ...(failures.length ? { failure: failures[0]! } : {}), import: await imported,
    }
  } finally {
    await s.stop()
  }
}
