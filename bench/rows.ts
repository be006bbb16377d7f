/**
 * The measured rows: which URLs, against which server, in which order. One server is busy at a
 * time (both are pinned to the same CPU); the load generator has the other CPU.
 */
import type { Child } from './children'
import type { LoadJob, LoadMessage, LoadResult, ServerProfiled, ServerStats } from './protocol'
import { Rng } from './measure-events'
import { int } from './report'

/** A number from the environment, or `fallback`. */
export const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
export const CONNECTIONS = env('BENCH_CONNECTIONS', 50)
export const WARMUP_S = env('BENCH_WARMUP', 1.5)
export const DURATION_S = env('BENCH_DURATION', 6)
/** Rows whose every answer is computed afresh and large: 50 queued requests take seconds. */
export const SLOW_DURATION_S = env('BENCH_SLOW_DURATION', 6)

export interface Urls {
  list: string
  spots: string
  /** Distinct cache keys with the same answer size: 500 campaigns from offset M. */
  listRotating: string[]
  /** Distinct cache keys with the same answer size: 500 spots from offset M. */
  spotsRotating: string[]
  /** A new query every time: campaign_id lists of 500 campaigns drawn at random (no result set to page from). */
  listQueries: string[]
  /** The same for list_spots: spot_id lists of 500 of the campaign's spots. */
  spotsQueries: string[]
}

/** `count` lists of `size` ids drawn from `ids` (seeded: every run asks the same). */
function idLists(ids: readonly string[], size: number, count: number, seed: number): string[] {
  const rng = new Rng(seed)
  return Array.from({ length: count }, () => {
    const pick = new Set<string>()
    while (pick.size < Math.min(size, ids.length)) pick.add(ids[rng.int(ids.length)]!)
    return [...pick].join(',')
  })
}

/** New-query URLs: 2,000 of them, more than a row at a few hundred requests a second uses. */
const QUERIES = 2_000

export function benchUrls(token: string, spotCampaignId: string, ids: { campaigns: readonly string[]; spots: readonly string[] }): Urls {
  const tok = `access_token=${encodeURIComponent(token)}`
  // list_spots as a script asks for it: the default page (limit 0,500) with its monitoring codes.
  const spots = `/cms/v1/campaigns/list_spots?campaign_id=${spotCampaignId}&${tok}`
  return {
    list: `/cms/v1/campaigns/list?${tok}`,
    spots,
    listRotating: Array.from({ length: 9_501 }, (_, m) => `/cms/v1/campaigns/list?${tok}&limit=${m},500`),
    spotsRotating: Array.from({ length: 2_501 }, (_, m) => `${spots}&limit=${m},500`),
    listQueries: idLists(ids.campaigns, 500, QUERIES, 7).map((l) => `/cms/v1/campaigns/list?${tok}&campaign_id=${l}`),
    spotsQueries: idLists(ids.spots, 500, QUERIES, 11).map((l) => `${spots}&spot_id=${l}`),
  }
}

export interface Rig {
  engine: Child
  engineUrl: string
  bare: Child
  bareUrl: string
  loader: Child
  /** Take a CPU profile of the engine during each engine row. */
  profile: boolean
  /** Where profiles go. */
  profileFile: (row: string) => string
}

export type RowName = 'listBare' | 'listRepeated' | 'listRotating' | 'listQueries' | 'spotsBare' | 'spotsRepeated' | 'spotsRotating' | 'spotsQueries'

export interface Rows {
  results: Record<RowName, LoadResult>
  profiles: Partial<Record<RowName, ServerProfiled>>
  /** RSS of the server in bytes right after each row. */
  rssAfter: Partial<Record<RowName, number>>
}

interface Row {
  name: RowName
  label: string
  server: 'engine' | 'bare'
  paths: string[]
  durationS?: number
}

/** One load row against any server: warm-up, drain, measured run, drain (load.ts). */
export interface LoadRow {
  label: string
  server: Child
  url: string
  paths: string[]
  drainPath: string
  durationS?: number
  headers?: Record<string, string>
  /** Take a CPU profile of `server` during the row and write it here. */
  profileFile?: string
}

/** Runs one row on the load generator `loader`; prints the label, req/s and (when profiled) the hot functions. */
export async function runLoadRow(loader: Child, row: LoadRow): Promise<{ result: LoadResult; profile?: ServerProfiled }> {
  process.stdout.write(`  measuring ${row.label} ...`)
  const pid = row.server.proc.pid
  if (row.profileFile) row.server.send({ type: 'profile-start' })
  const job: LoadJob = {
    type: 'job', name: row.label, url: row.url, paths: row.paths, drainPath: row.drainPath,
    connections: CONNECTIONS, warmupS: WARMUP_S, durationS: row.durationS ?? DURATION_S,
    ...(pid === undefined ? {} : { serverPid: pid }), ...(row.headers ? { headers: row.headers } : {}),
  }
  loader.send(job)
  const m = await loader.next<LoadMessage>('result')
  if ('failed' in m) throw new Error(`load ${m.failed}`)
  process.stdout.write(` ${int(m.result.rps)} req/s\n`)
  if (!row.profileFile) return { result: m.result }
  row.server.send({ type: 'profile-stop', file: row.profileFile })
  const p = await row.server.next<ServerProfiled>('profiled')
  for (const h of p.hot) console.log(`      ${h.selfPct.toFixed(1).padStart(5)}%  ${h.name}  ${h.where}`)
  return { result: m.result, profile: p }
}

function runRow(rig: Rig, row: Row, drainPath: string): Promise<{ result: LoadResult; profile?: ServerProfiled }> {
  const engine = row.server === 'engine'
  return runLoadRow(rig.loader, {
    label: row.label, server: engine ? rig.engine : rig.bare, url: engine ? rig.engineUrl : rig.bareUrl, paths: row.paths, drainPath,
    ...(row.durationS === undefined ? {} : { durationS: row.durationS }),
    ...(rig.profile && engine ? { profileFile: rig.profileFile(row.name) } : {}),
  })
}

/** Runs every row in order; each is warm-up, drain, measured run, drain. */
export async function runRows(rig: Rig, urls: Urls): Promise<Rows> {
  const rows: Row[] = [
    { name: 'listBare', label: 'list bare', server: 'bare', paths: [urls.list] },
    { name: 'listRepeated', label: 'list engine repeated', server: 'engine', paths: [urls.list] },
    { name: 'listRotating', label: 'list engine rotating', server: 'engine', paths: urls.listRotating },
    { name: 'listQueries', label: 'list engine new queries', server: 'engine', paths: urls.listQueries, durationS: SLOW_DURATION_S },
    { name: 'spotsBare', label: 'list_spots bare', server: 'bare', paths: [urls.spots] },
    { name: 'spotsRepeated', label: 'list_spots engine repeated', server: 'engine', paths: [urls.spots] },
    { name: 'spotsRotating', label: 'list_spots engine rotating', server: 'engine', paths: urls.spotsRotating },
    { name: 'spotsQueries', label: 'list_spots engine new queries', server: 'engine', paths: urls.spotsQueries, durationS: SLOW_DURATION_S },
  ]
  const results: Partial<Record<RowName, LoadResult>> = {}
  const profiles: Partial<Record<RowName, ServerProfiled>> = {}
  const rssAfter: Partial<Record<RowName, number>> = {}
  for (const row of rows) {
    const r = await runRow(rig, row, urls.list)
    results[row.name] = r.result
    if (r.profile) profiles[row.name] = r.profile
    const server = row.server === 'engine' ? rig.engine : rig.bare
    server.send({ type: 'stats' })
    rssAfter[row.name] = (await server.next<ServerStats>('stats')).rss
  }
  return { results: results as Record<RowName, LoadResult>, profiles, rssAfter }
}
