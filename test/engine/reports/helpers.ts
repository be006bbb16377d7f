/** Shared by the report tests: the seeds, building their datasets once per file, asking and comparing. */
import { expect } from 'vitest'
import type { Reply } from '../../helpers/make-engine'
import { buildDataset, type Dataset } from './dataset'
import { diffItems, type Answer, type Item, type Params } from './oracle'

export const SEEDS = [1, 2, 3] as const

export const PATHS = {
  basic: '/admonitor/v1/reports/basic/show',
  progress: '/admonitor/v1/reports/basic/progress',
  basicMinisite: '/admonitor/v1/reports/basic/show_minisite',
  realtime: '/admonitor/v1/reports/realtime/show',
  realtimeMinisite: '/admonitor/v1/reports/realtime/show_minisite',
  reach: '/admonitor/v1/reports/reach/show',
  overview: '/admonitor/v1/reports/audience/show_overview',
  audience: '/admonitor/v1/reports/audience/show',
} as const

/** Builds the datasets of every seed (call in beforeAll; about half a second each). */
export async function buildAll(): Promise<Map<number, Dataset>> {
  const out = new Map<number, Dataset>()
  for (const seed of SEEDS) out.set(seed, await buildDataset(seed))
  return out
}

const defined = (p: Params): Record<string, string> => Object.fromEntries(Object.entries(p).filter((e): e is [string, string] => e[1] !== undefined))

export function ask(ds: Dataset, path: string, p: Params): Promise<Reply> {
  return ds.t.get(path, defined(p))
}

/**
 * Asks the endpoint and compares its answer with the oracle's; returns the differences, each
 * prefixed with the request, so that a loop can collect them and fail once with all of them.
 */
export async function compare(ds: Dataset, path: string, p: Params, oracle: (ds: Dataset, p: Params) => Answer): Promise<string[]> {
  const label = `${path.split('/reports/')[1]} ${new URLSearchParams(defined(p)).toString()}`
  const r = await ask(ds, path, p)
  if (r.status !== 200) return [`${label}: status ${r.status} ${r.raw.body.slice(0, 300)}`]
  const want = oracle(ds, p)
  const out = diffItems(r.body.items as Item[], want.items).map((d) => `${label}: ${d}`)
  if (want.total_spot_num !== undefined && r.body.total_spot_num !== want.total_spot_num) out.push(`${label}: total_spot_num got ${r.body.total_spot_num} want ${want.total_spot_num}`)
  return out
}

/** Fails with every difference found (the first 40). */
export function noDifferences(diffs: string[]): void {
  expect(diffs.slice(0, 40), `${diffs.length} differences`).toEqual([])
}

/** A 400 answer naming the parameter. */
export function refused(r: Reply, param: string): void {
  expect(r.status, r.raw.body).toBe(400)
  expect(r.body.error).toBe('invalid_request')
  expect(r.body.error_description).toContain(`'${param}'`)
}

/** Every combination of the lists of an object of lists. */
export function combinations<T extends Record<string, readonly unknown[]>>(lists: T): { [K in keyof T]: T[K][number] }[] {
  let out: Record<string, unknown>[] = [{}]
  for (const [k, values] of Object.entries(lists)) out = out.flatMap((o) => values.map((v) => ({ ...o, [k]: v })))
  return out as { [K in keyof T]: T[K][number] }[]
}
