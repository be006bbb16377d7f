/**
 * A report chart of a snapshot with local measurement's series added (docs/app.md "Reports:
 * snapshot source"). Works on the finished options of both copies of a view,
 * so no chart builder changes. Only for plain line and bar charts whose category axes are the same
 * on both sides (a region ranking orders its axis by the figures, so the two differ) and with a
 * shown legend and few series: otherwise null (the chart stays the snapshot's).
 *
 * A local series is named "<name> (local)", dotted (lines) or faded (bars), stacked apart from the
 * remote ones, without the remote's mark lines; one identical to the remote series of the same name
 * (the plan, drawn from the local spots either way) is not repeated.
 */
import type { ECOption } from './common'

type Series = Record<string, unknown> & { type?: unknown; name?: unknown; data?: unknown }

/** More series than this (e.g. the audience composition's segments) is too much to double. */
export const MAX_SERIES = 6

const list = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x])
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** The category data of the axes (what the series' values line up with). */
function axesData(o: ECOption): unknown {
  const data = (a: unknown) => (a && typeof a === 'object' && 'data' in a ? (a as { data: unknown }).data : null)
  return [list(o.xAxis as unknown).map(data), list(o.yAxis as unknown).map(data)]
}

/** The local copy of one series. */
function localSeries(s: Series, name: (n: string) => string): Series {
  const out: Series = { ...s, name: name(String(s.name ?? '')) }
  delete out.markLine
  delete out.markArea
  if (typeof s.stack === 'string') out.stack = `${s.stack}|local`
  if (s.type === 'line') out.lineStyle = { ...(s.lineStyle as object | undefined), type: 'dotted' }
  else out.itemStyle = { ...(s.itemStyle as object | undefined), opacity: 0.45 }
  return out
}

/** `remote` with the series of `local` added (see the file comment), or null when it cannot be done simply. */
export function withLocalSeries(remote: ECOption | null, local: ECOption | null, name: (n: string) => string): ECOption | null {
  if (!remote || !local) return null
  const rs = list(remote.series as Series | Series[] | undefined)
  const ls = list(local.series as Series | Series[] | undefined)
  const legend = list<Record<string, unknown>>(remote.legend as Record<string, unknown> | undefined)
  if (!rs.length || !ls.length || rs.length > MAX_SERIES || ls.length > MAX_SERIES) return null
  if (![...rs, ...ls].every((s) => s.type === 'line' || s.type === 'bar')) return null
  if (!legend.length || legend.some((l) => l.show === false) || !same(axesData(remote), axesData(local))) return null
  const byName = new Map(rs.map((s) => [s.name, s]))
  const added = ls.filter((s) => !same(byName.get(s.name)?.data, s.data)).map((s) => localSeries(s, name))
  const legendOut = legend.map((l) => (Array.isArray(l.data) ? { ...l, data: [...l.data, ...added.map((s) => s.name)] } : l))
  return { ...remote, legend: Array.isArray(remote.legend) ? legendOut : legendOut[0], series: [...rs, ...added] } as ECOption
}
