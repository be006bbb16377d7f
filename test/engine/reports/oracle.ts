/**
 * The report figures of docs/metrics.md, recomputed by brute force over the raw events a test
 * sent (dataset.ts): plain loops, Sets and Maps, nothing shared with engine/reports or
 * engine/measure. Each function takes the request's parameters as the wire gives them and answers
 * the items the endpoint should return (in no particular order) and, where the report has it,
 * total_spot_num.
 */
import type { CampaignDef, Dataset, IvtClass, PanelDef, PersonDef, RawEvent, SpotDef } from './dataset'
import { generatePersons } from '../../../engine/measure/panel/generate'
import { DAY_MS, localDay, localHour } from './dataset'

export type Attributes = Record<string, string | number | null>
export type Metrics = Record<string, number | null>
export interface Item {
  attributes: Attributes
  metrics: Metrics
}
export interface Answer {
  total_spot_num?: number
  items: Item[]
}
/** Request parameters as strings, as they go on the wire. */
export type Params = Record<string, string | undefined>

const GLOBAL = '000000000000000000000000'
const hh = (h: number) => String(h).padStart(2, '0')
const HOURS = Array.from({ length: 24 }, (_, h) => h)

export const NAMES = {
  basicAcc: ['imp_acc', 'clk_acc', 'uim_acc', 'ucl_acc'],
  basicDay: ['imp_day', 'clk_day', 'uim_day', 'ucl_day'],
  basicAvg: ['imp_avg_day', 'clk_avg_day', 'uim_avg_day', 'ucl_avg_day'],
  basicHrs: [...HOURS.map((h) => `imp_acc_h${hh(h)}`), ...HOURS.map((h) => `clk_acc_h${hh(h)}`)],
  realtimeDay: ['imp_day', 'clk_day'],
  realtimeHrs: [...HOURS.map((h) => `imp_h${hh(h)}`), ...HOURS.map((h) => `clk_h${hh(h)}`)],
  reachAcc: ['imp_acc', 'grp_acc', ...Array.from({ length: 10 }, (_, i) => `rch_acc_p${hh(i + 1)}`)],
  reachSpl: Array.from({ length: 10 }, (_, i) => `rch_spl_p${hh(i + 1)}`),
}

/** The metric names a basic/show request answers (metrics.md: no day figures with a target). */
export function basicMetricNames(metrics: string, audience: string): string[] {
  switch (metrics) {
    case 'acc': return NAMES.basicAcc
    case 'day': return NAMES.basicDay
    case 'avg_day': return NAMES.basicAvg
    case 'acc_hrs': return NAMES.basicHrs
    default: return [...NAMES.basicAcc, ...(audience === 'target' ? [] : NAMES.basicDay), ...NAMES.basicAvg, ...NAMES.basicHrs]
  }
}

// ---------------------------------------------------------------------------------------------
// Facts about each raw event, from the rules of metrics.md.

export interface Facts {
  /** Invalid-traffic class of each event (by seq). */
  cls: IvtClass[]
  /** Whether each event is of the stable audience. */
  stable: boolean[]
  day: string[]
  hour: number[]
  /** Minisite events: the campaign and spot credited ('' spot: none), or null. */
  credit: ({ campaign_id: string; spot_id: string } | null)[]
}

const factsCache = new WeakMap<Dataset, Facts>()

export function facts(ds: Dataset): Facts {
  const hit = factsCache.get(ds)
  if (hit) return hit
  const cls: IvtClass[] = []
  const stable: boolean[] = []
  const day: string[] = []
  const hour: number[] = []
  const credit: Facts['credit'] = []
  // Invalid traffic: bot first, then data centre, then an identity's impressions beyond 30 (clicks
  // beyond 5) within the 10 minutes up to each one, among those that arrived before it; an
  // address+agent identity (an import line without identity) is exempt.
  const earlier = new Map<string, { ts: number; kind: string }[]>()
  // Stable: mobile, or at least 24 h after the identity's first hit.
  const firstHit = new Map<string, number>()
  for (const e of ds.events) {
    day[e.seq] = localDay(e.ts)
    hour[e.seq] = localHour(e.ts)
    if (!firstHit.has(e.identity)) firstHit.set(e.identity, e.ts)
    stable[e.seq] = e.platform === 'mb' || e.ts - firstHit.get(e.identity)! >= 24 * 3_600_000
    if (e.bot) {
      cls[e.seq] = 'bot'
      continue
    }
    if (e.kind === 'evt') {
      cls[e.seq] = e.dc ? 'dc' : 'valid'
      continue
    }
    const list = earlier.get(e.identity) ?? []
    earlier.set(e.identity, list)
    const inWindow = list.filter((x) => x.kind === e.kind && x.ts > e.ts - 600_000 && x.ts <= e.ts).length + 1
    list.push({ ts: e.ts, kind: e.kind })
    const over = !e.hashIdentity && inWindow > (e.kind === 'imp' ? 30 : 5)
    // (a data-centre hit beyond the limit is abnormal where its spot counts data centres)
    if (e.dc) cls[e.seq] = over ? 'dc-abnormal' : 'dc'
    else cls[e.seq] = over ? 'abnormal' : 'valid'
  }
  // Credit of minisite events: the identity's latest click, else latest impression, within 30
  // days, on a campaign linked to the minisite (only the k= campaign when the tag names one),
  // among the touches that count in their spot's net figures: valid, or a data-centre hit within
  // the frequency limit on a spot that counts data-centre hits (dsf 0).
  const touches = new Map<string, RawEvent[]>()
  for (const e of ds.events) {
    if (e.kind === 'evt' || !(cls[e.seq] === 'valid' || (cls[e.seq] === 'dc' && ds.spots.get(e.spot_id)?.dsf === 0))) continue
    const list = touches.get(e.identity) ?? []
    list.push(e)
    touches.set(e.identity, list)
  }
  for (const e of ds.events) {
    if (e.kind !== 'evt') continue
    const site = ds.minisites.find((m) => m.minisite_id === e.minisite_id)!
    const allowed = site.campaign_ids.filter((c) => !e.k || c === e.k)
    let best: { click: RawEvent | null; imp: RawEvent | null } = { click: null, imp: null }
    for (const x of touches.get(e.identity) ?? []) {
      if (x.ts > e.ts || e.ts - x.ts > 30 * DAY_MS || !allowed.includes(x.campaign_id)) continue
      if (x.kind === 'clk' && (!best.click || x.ts > best.click.ts)) best = { ...best, click: x }
      if (x.kind === 'imp' && (!best.imp || x.ts > best.imp.ts)) best = { ...best, imp: x }
    }
    const chosen = best.click ?? best.imp
    if (chosen) credit[e.seq] = { campaign_id: chosen.campaign_id, spot_id: chosen.spot_id }
    else if (e.k && site.campaign_ids.includes(e.k)) credit[e.seq] = { campaign_id: e.k, spot_id: '' }
    else credit[e.seq] = null
  }
  const f = { cls, stable, day, hour, credit }
  factsCache.set(ds, f)
  return f
}

// ---------------------------------------------------------------------------------------------
// Regions: a hit (or a home) is in the row of each of its ancestors (or itself) at the level.

const ancestorsCache = new WeakMap<Dataset, Map<string, { id: string; level: number }[]>>()

function ancestors(ds: Dataset, regionId: string): { id: string; level: number }[] {
  let map = ancestorsCache.get(ds)
  if (!map) {
    map = new Map()
    const byId = new Map(ds.regions.map((r) => [r.region_id, r]))
    for (const r of ds.regions) {
      const chain: { id: string; level: number }[] = []
      for (let at = byId.get(r.region_id); at; at = byId.get(at.parent_id)) chain.push({ id: at.region_id, level: at.level })
      map.set(r.region_id, chain)
    }
    ancestorsCache.set(ds, map)
  }
  return map.get(regionId) ?? []
}

const levelNumber = (level: string) => (level === 'level3' ? 3 : Number(level.slice(5)))

const rowsCache = new WeakMap<Dataset, Map<string, string[]>>()

/** The rows of a level a region counts in. */
export function regionRowsOf(ds: Dataset, level: string, regionId: string): string[] {
  let cache = rowsCache.get(ds)
  if (!cache) rowsCache.set(ds, (cache = new Map()))
  const key = `${level} ${regionId}`
  let rows = cache.get(key)
  if (!rows) {
    const n = levelNumber(level)
    rows = ancestors(ds, regionId).filter((a) => a.level === n).map((a) => a.id)
    cache.set(key, rows)
  }
  return rows
}

/** The rows of a level, or those of region_id. */
export function levelRows(ds: Dataset, level: string, only?: string): string[] {
  const n = levelNumber(level)
  const ids = ds.regions.filter((r) => r.level === n).map((r) => r.region_id)
  const want = list(only)
  return want ? ids.filter((id) => want.includes(id)) : ids
}

const list = (v: string | undefined): string[] | undefined => (v === undefined || v === '' ? undefined : v.split(','))

// ---------------------------------------------------------------------------------------------
// Campaign, window, positions.

export function campaignOf(ds: Dataset, id: string | undefined): CampaignDef {
  const c = ds.campaigns.find((x) => x.campaign_id === id)
  if (!c) throw new Error(`no campaign ${id}`)
  return c
}

/** The accumulation window: start to the earlier of D and the end; days in it. */
export function windowOf(c: CampaignDef, date: string): { from: string; to: string; days: number } {
  const to = date < c.end ? date : c.end
  const days = to < c.start ? 0 : Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${c.start}T00:00:00Z`)) / DAY_MS) + 1
  return { from: c.start, to, days }
}

interface Position {
  attrs: Record<string, string>
  has: (e: RawEvent) => boolean
}

const spotAttrs = (s: SpotDef) => ({ publisher_id: s.publisher_id, spot_id: s.spot_id, spot_id_str: s.spot_id_str })
const byNumber = (a: string, b: string) => Number(a) - Number(b)

/**
 * The positions of a request: spots filtered by publisher_id and spot_id (ordered by id), paged
 * by limit M,N (spots; publishers for by_position=publisher), keywords of the chosen spots.
 */
export function positionsOf(c: CampaignDef, by: string, p: Params): { total: number; list: Position[] } {
  const pubs = list(p.publisher_id)
  const ids = list(p.spot_id)
  const kws = list(p.keyword_id)
  let spots = c.spots.filter((s) => (!pubs || pubs.includes(s.publisher_id)) && (!ids || ids.includes(s.spot_id))).sort((a, b) => byNumber(a.spot_id, b.spot_id))
  const total = spots.length
  const limit = p.limit ? p.limit.split(',').map(Number) as [number, number] : null
  const inSpots = (set: SpotDef[]) => { const chosen = new Set(set.map((s) => s.spot_id)); return (e: RawEvent) => chosen.has(e.spot_id) }
  if (by === 'campaign') return { total, list: [{ attrs: {}, has: inSpots(spots) }] }
  if (by === 'publisher') {
    let publishers = [...new Set(spots.map((s) => s.publisher_id))].sort(byNumber)
    if (limit) publishers = publishers.slice(limit[0], limit[0] + limit[1])
    return { total, list: publishers.map((pub) => ({ attrs: { publisher_id: pub }, has: inSpots(spots.filter((s) => s.publisher_id === pub)) })) }
  }
  if (limit) spots = spots.slice(limit[0], limit[0] + limit[1])
  if (by === 'spot') return { total, list: spots.map((s) => ({ attrs: spotAttrs(s), has: (e: RawEvent) => e.spot_id === s.spot_id })) }
  const rows: Position[] = []
  for (const s of spots) for (const k of s.keywords) if (!kws || kws.includes(k)) rows.push({ attrs: { ...spotAttrs(s), keyword_id: k }, has: (e) => e.spot_id === s.spot_id && e.keyword_id === k })
  return { total, list: rows }
}

/** Whether an event's class counts under a filtration (metrics.md, filtration_type). */
function classCounts(cls: IvtClass, spot: SpotDef | undefined, filtration: string): boolean {
  if (cls === 'bot') return false
  if (cls === 'dc') return spot !== undefined && spot.dsf === 0
  if (cls === 'dc-abnormal') return spot !== undefined && spot.dsf === 0 && filtration === 'totalnet'
  if (cls === 'abnormal') return filtration === 'totalnet'
  return true
}

const platformOk = (platform: string, want: string) => want === 'pm' || platform === want

// ---------------------------------------------------------------------------------------------
// Panel.

/**
 * The campaign's panel as reports read it: its persons, or, for a built-in panel without persons
 * (the dataset never empties one), its synthetic population: by definition the demo generator's
 * 20,000 persons of the seed FNV-1a(panel id) (docs/panel.md), whose figures are then recomputed here.
 */
export function panelOf(ds: Dataset, c: CampaignDef): PanelDef {
  const panel = ds.panels.get(c.panel_id)!
  if (panel.persons.length > 0) return panel
  let synthetic = syntheticCache.get(panel)
  if (!synthetic) {
    const persons = generatePersons(ds.regions, 20_000, fnv1a(panel.panel_id)).map((x) => ({ ...x, devices: x.devices.map((d) => ({ ...d })) }))
    syntheticCache.set(panel, (synthetic = { ...panel, persons }))
  }
  return synthetic
}

const syntheticCache = new WeakMap<PanelDef, PanelDef>()

function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

/**
 * Calibration factors (docs/metrics.md): per position and event platform, census impressions
 * (clicks) counted under `counted` / the sum over the panel's persons with a device of the
 * request's platform of their impressions (clicks) x weight; 0 where that sum is 0.
 */
interface Factors { imp: { pc: number; mb: number }; clk: { pc: number; mb: number } }

function factorsOf(ds: Dataset, panel: PanelDef, positions: Position[], platform: string, counted: (e: RawEvent) => boolean): Factors[] {
  const owner = personByDevice(panel)
  return positions.map((position) => {
    const census = { imp: { pc: 0, mb: 0 }, clk: { pc: 0, mb: 0 } }
    const raw = { imp: { pc: 0, mb: 0 }, clk: { pc: 0, mb: 0 } }
    for (const e of ds.events) {
      if ((e.kind !== 'imp' && e.kind !== 'clk') || !counted(e) || !position.has(e)) continue
      const kind = e.kind === 'imp' ? 'imp' : 'clk'
      census[kind][e.platform]++
      const person = owner.get(e.identity)
      if (person && hasDeviceOf(person, platform)) raw[kind][e.platform] += person.weight
    }
    const k = (kind: 'imp' | 'clk', q: 'pc' | 'mb') => (raw[kind][q] > 0 ? census[kind][q] / raw[kind][q] : 0)
    return { imp: { pc: k('imp', 'pc'), mb: k('imp', 'mb') }, clk: { pc: k('clk', 'pc'), mb: k('clk', 'mb') } }
  })
}

/** A person's factor: the mean of the platforms' factors weighted by their counts (0 without any). */
const personFactor = (k: { pc: number; mb: number }, n: { pc: number; mb: number }): number => (n.pc + n.mb > 0 ? (n.pc * k.pc + n.mb * k.mb) / (n.pc + n.mb) : 0)

function personByDevice(panel: PanelDef): Map<string, PersonDef> {
  const m = new Map<string, PersonDef>()
  for (const p of panel.persons) for (const d of p.devices) m.set(d.device, p)
  return m
}

/** A target's tag expression: `&` joins groups that must all hold; `,` lists tags of which one is enough. */
export function matches(person: PersonDef, expression: string): boolean {
  return expression.split('&').every((group) => group.split(',').some((tag) => person.tags.includes(tag)))
}

const hasDeviceOf = (p: PersonDef, platform: string) => p.devices.some((d) => platform === 'pm' || d.platform === platform)

/**
 * Unrounded weight of the persons at home in each region row of a level, with a device of the
 * platform (and matching the expression): row id -> weight.
 */
function universesOf(ds: Dataset, panel: PanelDef, level: string, platform: string, expression?: string): Map<string, number> {
  const u = new Map<string, number>()
  for (const p of panel.persons) {
    if (!hasDeviceOf(p, platform)) continue
    if (expression !== undefined && !matches(p, expression)) continue
    for (const row of regionRowsOf(ds, level, p.home_region)) u.set(row, (u.get(row) ?? 0) + p.weight)
  }
  return u
}

const nullMetrics = (names: readonly string[]): Metrics => Object.fromEntries(names.map((n) => [n, null]))
const pickMetrics = (all: Record<string, number | null>, names: readonly string[]): Metrics => Object.fromEntries(names.map((n) => [n, all[n] ?? 0]))

// ---------------------------------------------------------------------------------------------
// basic/show

interface CensusCell {
  imp: number
  clk: number
  uim: Set<string>
  ucl: Set<string>
  impDay: number
  clkDay: number
  uimDay: Set<string>
  uclDay: Set<string>
  uimByDay: Map<string, Set<string>>
  uclByDay: Map<string, Set<string>>
  impH: number[]
  clkH: number[]
}

const newCensusCell = (): CensusCell => ({
  imp: 0, clk: 0, uim: new Set(), ucl: new Set(), impDay: 0, clkDay: 0, uimDay: new Set(), uclDay: new Set(),
  uimByDay: new Map(), uclByDay: new Map(), impH: HOURS.map(() => 0), clkH: HOURS.map(() => 0),
})

interface PersonCell {
  person: PersonDef
  imp: number
  clk: number
  /** By the hit's platform. */
  impP: { pc: number; mb: number }
  clkP: { pc: number; mb: number }
  /** [pc hours, mobile hours]. */
  impH: [number[], number[]]
  clkH: [number[], number[]]
  impDays: Set<string>
  clkDays: Set<string>
}

const newPersonCell = (person: PersonDef): PersonCell => ({
  person, imp: 0, clk: 0, impP: { pc: 0, mb: 0 }, clkP: { pc: 0, mb: 0 }, impH: [HOURS.map(() => 0), HOURS.map(() => 0)], clkH: [HOURS.map(() => 0), HOURS.map(() => 0)], impDays: new Set(), clkDays: new Set(),
})

export function basicShow(ds: Dataset, p: Params): Answer {
  const f = facts(ds)
  const c = campaignOf(ds, p.campaign_id)
  const date = p.date!
  const by = p.by_position ?? 'campaign'
  const audience = p.by_audience ?? 'overall'
  const level = p.by_region ?? 'level0'
  const platform = p.platform ?? 'pc'
  const filtration = p.filtration_type ?? 'net'
  const sdk = p.sdk ?? 'all'
  const withNull = p.with_null === '1'
  const names = basicMetricNames(p.metrics ?? 'acc', audience)
  const pos = positionsOf(c, by, p)
  const rows = levelRows(ds, level, p.region_id)
  const rowSet: Set<string> = new Set(rows)
  const w = windowOf(c, date)
  const panel = panelOf(ds, c)
  const items: Item[] = []
  if (by === 'keyword' && audience !== 'overall') return { total_spot_num: pos.total, items } // keyword data only with overall

  const counted = (e: RawEvent) => {
    if ((e.kind !== 'imp' && e.kind !== 'clk') || e.campaign_id !== c.campaign_id) return false
    const d = f.day[e.seq]!
    if (d < w.from || d > w.to) return false
    if (!platformOk(e.platform, platform)) return false
    if (sdk !== 'all' && e.sdk !== sdk) return false
    return classCounts(f.cls[e.seq]!, ds.spots.get(e.spot_id), filtration)
  }

  if (audience !== 'target') {
    const cells = new Map<string, CensusCell>()
    for (const e of ds.events) {
      if (!counted(e) || (audience === 'stable' && !f.stable[e.seq])) continue
      const d = f.day[e.seq]!
      for (const [i, position] of pos.list.entries()) {
        if (!position.has(e)) continue
        for (const r of regionRowsOf(ds, level, e.region_id)) {
          if (!rowSet.has(r)) continue
          const key = `${i}|${r}`
          const cell = cells.get(key) ?? newCensusCell()
          cells.set(key, cell)
          const click = e.kind === 'clk'
          if (click) (cell.clk++, cell.ucl.add(e.identity), cell.clkH[f.hour[e.seq]!]!++)
          else (cell.imp++, cell.uim.add(e.identity), cell.impH[f.hour[e.seq]!]!++)
          if (d === date) click ? (cell.clkDay++, cell.uclDay.add(e.identity)) : (cell.impDay++, cell.uimDay.add(e.identity))
          const byDay = click ? cell.uclByDay : cell.uimByDay
          byDay.set(d, (byDay.get(d) ?? new Set()).add(e.identity))
        }
      }
    }
    const u = universesOf(ds, panel, level, platform)
    for (const [i, position] of pos.list.entries()) for (const r of rows) {
      const cell = cells.get(`${i}|${r}`)
      const universe = Math.round(u.get(r) ?? 0)
      const attributes = { audience, ...position.attrs, region_id: r, universe }
      if (!cell) {
        if (withNull) items.push({ attributes, metrics: nullMetrics(names) })
        continue
      }
      const sumDays = (m: Map<string, Set<string>>) => [...m.values()].reduce((s, set) => s + set.size, 0)
      const all: Record<string, number> = {
        imp_acc: cell.imp, clk_acc: cell.clk, uim_acc: cell.uim.size, ucl_acc: cell.ucl.size,
        imp_day: cell.impDay, clk_day: cell.clkDay, uim_day: cell.uimDay.size, ucl_day: cell.uclDay.size,
        imp_avg_day: Math.round(cell.imp / w.days), clk_avg_day: Math.round(cell.clk / w.days),
        uim_avg_day: Math.round(sumDays(cell.uimByDay) / w.days), ucl_avg_day: Math.round(sumDays(cell.uclByDay) / w.days),
      }
      for (const h of HOURS) (all[`imp_acc_h${hh(h)}`] = cell.impH[h]!), (all[`clk_acc_h${hh(h)}`] = cell.clkH[h]!)
      items.push({ attributes, metrics: pickMetrics(all, names) })
    }
    return { total_spot_num: pos.total, items }
  }

  // Target: panel projections over the persons matching each target, by home region, each count
  // with its position's and platform's calibration factor; reach-type figures with the person's.
  const targets = c.targets.filter((t) => !list(p.target_id) || list(p.target_id)!.includes(t.target_id))
  const owner = personByDevice(panel)
  const k = factorsOf(ds, panel, pos.list, platform, counted)
  for (const t of targets) {
    const cells = new Map<string, Map<PersonDef, PersonCell>>()
    for (const e of ds.events) {
      if (!counted(e)) continue
      const person = owner.get(e.identity)
      if (!person || !hasDeviceOf(person, platform) || !matches(person, t.tag_id)) continue
      for (const [i, position] of pos.list.entries()) {
        if (!position.has(e)) continue
        for (const r of regionRowsOf(ds, level, person.home_region)) {
          if (!rowSet.has(r)) continue
          const key: string = `${i}|${r}`
          const persons: Map<PersonDef, PersonCell> = cells.get(key) ?? new Map<PersonDef, PersonCell>()
          cells.set(key, persons)
          const pc: PersonCell = persons.get(person) ?? newPersonCell(person)
          persons.set(person, pc)
          if (e.kind === 'clk') (pc.clk++, pc.clkP[e.platform]++, pc.clkH[e.platform === 'pc' ? 0 : 1][f.hour[e.seq]!]!++, pc.clkDays.add(f.day[e.seq]!))
          else (pc.imp++, pc.impP[e.platform]++, pc.impH[e.platform === 'pc' ? 0 : 1][f.hour[e.seq]!]!++, pc.impDays.add(f.day[e.seq]!))
        }
      }
    }
    const u = universesOf(ds, panel, level, platform, t.tag_id)
    for (const [i, position] of pos.list.entries()) for (const r of rows) {
      const persons = cells.get(`${i}|${r}`)
      const universe = u.get(r) ?? 0
      const attributes = { audience, target_id: t.target_id, ...position.attrs, region_id: r, universe: Math.round(universe) }
      if (!persons) {
        if (withNull) items.push({ attributes, metrics: nullMetrics(names) })
        continue
      }
      const ki = k[i]!.imp
      const kc = k[i]!.clk
      let imp = 0, clk = 0, uim = 0, ucl = 0, impPersonDays = 0, clkPersonDays = 0
      const impH = HOURS.map(() => 0)
      const clkH = HOURS.map(() => 0)
      for (const pc of persons.values()) {
        const wgt = pc.person.weight
        imp += wgt * (pc.impP.pc * ki.pc + pc.impP.mb * ki.mb)
        clk += wgt * (pc.clkP.pc * kc.pc + pc.clkP.mb * kc.mb)
        const wi = wgt * personFactor(ki, pc.impP)
        const wc = wgt * personFactor(kc, pc.clkP)
        if (pc.imp > 0) uim += wi
        if (pc.clk > 0) ucl += wc
        impPersonDays += pc.impDays.size * wi
        clkPersonDays += pc.clkDays.size * wc
        for (const h of HOURS) {
          impH[h]! += wgt * (pc.impH[0][h]! * ki.pc + pc.impH[1][h]! * ki.mb)
          clkH[h]! += wgt * (pc.clkH[0][h]! * kc.pc + pc.clkH[1][h]! * kc.mb)
        }
      }
      const all: Record<string, number> = {
        imp_acc: Math.round(imp), clk_acc: Math.round(clk), uim_acc: Math.round(Math.min(uim, universe)), ucl_acc: Math.round(Math.min(ucl, universe)),
        imp_avg_day: Math.round(imp / w.days), clk_avg_day: Math.round(clk / w.days),
        uim_avg_day: Math.round(impPersonDays / w.days), ucl_avg_day: Math.round(clkPersonDays / w.days),
      }
      for (const h of HOURS) (all[`imp_acc_h${hh(h)}`] = Math.round(impH[h]!)), (all[`clk_acc_h${hh(h)}`] = Math.round(clkH[h]!))
      items.push({ attributes, metrics: pickMetrics(all, names) })
    }
  }
  return { total_spot_num: pos.total, items }
}

// ---------------------------------------------------------------------------------------------
// realtime/show: the day's hits as they arrive, every class (bots too), on the campaign's dates, global region.

export function realtimeShow(ds: Dataset, p: Params): Answer {
  const f = facts(ds)
  const c = campaignOf(ds, p.campaign_id)
  const date = p.date!
  const platform = p.platform ?? 'pc'
  const metrics = p.metrics ?? 'day'
  const names = metrics === 'day' ? NAMES.realtimeDay : metrics === 'hrs' ? NAMES.realtimeHrs : [...NAMES.realtimeDay, ...NAMES.realtimeHrs]
  const pos = positionsOf(c, p.by_position ?? 'campaign', p)
  const items: Item[] = []
  if (date < c.start || date > c.end) return { total_spot_num: pos.total, items }
  for (const position of pos.list) {
    let imp = 0, clk = 0
    const impH = HOURS.map(() => 0)
    const clkH = HOURS.map(() => 0)
    for (const e of ds.events) {
      if ((e.kind !== 'imp' && e.kind !== 'clk') || e.campaign_id !== c.campaign_id || f.day[e.seq] !== date) continue
      if (!platformOk(e.platform, platform) || !position.has(e)) continue
      if (e.kind === 'imp') (imp++, impH[f.hour[e.seq]!]!++)
      else (clk++, clkH[f.hour[e.seq]!]!++)
    }
    if (imp + clk === 0) continue
    const all: Record<string, number> = { imp_day: imp, clk_day: clk }
    for (const h of HOURS) (all[`imp_h${hh(h)}`] = impH[h]!), (all[`clk_h${hh(h)}`] = clkH[h]!)
    items.push({ attributes: { audience: 'overall', region_id: GLOBAL, ...position.attrs }, metrics: pickMetrics(all, names) })
  }
  return { total_spot_num: pos.total, items }
}

// ---------------------------------------------------------------------------------------------
// reach/show

export function reachShow(ds: Dataset, p: Params): Answer {
  const f = facts(ds)
  const c = campaignOf(ds, p.campaign_id)
  const date = p.date!
  const audience = p.by_audience ?? 'overall'
  const level = p.by_region ?? 'level0'
  const platform = p.platform ?? 'pc'
  const filtration = p.filtration_type ?? 'net'
  const withNull = p.with_null === '1'
  const metrics = p.metrics ?? 'all'
  const names = metrics === 'acc' ? NAMES.reachAcc : metrics === 'spl' ? NAMES.reachSpl : [...NAMES.reachAcc, ...NAMES.reachSpl]
  const pos = positionsOf(c, p.by_position ?? 'campaign', p)
  const rows = levelRows(ds, level, p.region_id)
  const rowSet: Set<string> = new Set(rows)
  const w = windowOf(c, date)
  const panel = panelOf(ds, c)
  const owner = personByDevice(panel)
  // the census and the panel's raw projection: overall audience, any region, the request's filtration
  const counted = (e: RawEvent) => {
    if (e.campaign_id !== c.campaign_id) return false
    const d = f.day[e.seq]!
    return d >= w.from && d <= w.to && platformOk(e.platform, platform) && classCounts(f.cls[e.seq]!, ds.spots.get(e.spot_id), filtration)
  }
  const k = factorsOf(ds, panel, pos.list, platform, counted)
  const audiences: { extra: Attributes; expression?: string }[] = audience === 'target'
    ? c.targets.filter((t) => !list(p.target_id) || list(p.target_id)!.includes(t.target_id)).map((t) => ({ extra: { target_id: t.target_id }, expression: t.tag_id }))
    : [{ extra: {} }]
  const items: Item[] = []
  for (const a of audiences) {
    // exposures of each person in each cell, by the platform of the hit
    const cells = new Map<string, Map<PersonDef, { pc: number; mb: number }>>()
    for (const e of ds.events) {
      if (e.kind !== 'imp' || !counted(e)) continue
      if (audience === 'stable' && !f.stable[e.seq]) continue
      const person = owner.get(e.identity)
      // a person is of a cell only with a device of its platform (the universe's rule)
      if (!person || !hasDeviceOf(person, platform) || (a.expression !== undefined && !matches(person, a.expression))) continue
      for (const [i, position] of pos.list.entries()) {
        if (!position.has(e)) continue
        for (const r of regionRowsOf(ds, level, person.home_region)) {
          if (!rowSet.has(r)) continue
          const persons = cells.get(`${i}|${r}`) ?? new Map<PersonDef, { pc: number; mb: number }>()
          cells.set(`${i}|${r}`, persons)
          const n = persons.get(person) ?? { pc: 0, mb: 0 }
          persons.set(person, n)
          n[e.platform]++
        }
      }
    }
    const universes = universesOf(ds, panel, level, platform, a.expression)
    for (const [i, position] of pos.list.entries()) for (const r of rows) {
      const u = universes.get(r) ?? 0
      const attributes = { audience, ...a.extra, ...position.attrs, region_id: r, universe: Math.round(u) }
      const persons = cells.get(`${i}|${r}`)
      if (!persons) {
        if (withNull) items.push({ attributes, metrics: nullMetrics(names) })
        continue
      }
      const ki = k[i]!.imp
      let projected = 0
      const all: Record<string, number | null> = {}
      for (const [person, n] of persons) projected += person.weight * (n.pc * ki.pc + n.mb * ki.mb)
      all.imp_acc = Math.round(projected)
      all.grp_acc = u > 0 ? Math.round((100 * projected) / u) : null
      for (let x = 1; x <= 10; x++) {
        let reach = 0, sample = 0
        for (const [person, n] of persons) if (n.pc + n.mb >= x) (reach += person.weight * personFactor(ki, n)), sample++
        all[`rch_acc_p${hh(x)}`] = Math.round(Math.min(reach, u))
        all[`rch_spl_p${hh(x)}`] = sample
      }
      items.push({ attributes, metrics: Object.fromEntries(names.map((n) => [n, all[n]!])) })
    }
  }
  return { total_spot_num: pos.total, items }
}

// ---------------------------------------------------------------------------------------------
// audience/show_overview and audience/show: net traffic, any platform and region.

type Exposures = Map<PersonDef, { pc: number; mb: number }>

function exposedPersons(ds: Dataset, p: Params): { panel: PanelDef | null; pos: Position[]; imp: Exposures[]; clk: Exposures[]; k: Factors[] } {
  const f = facts(ds)
  const c = campaignOf(ds, p.campaign_id)
  const pos = positionsOf(c, p.by_position ?? 'campaign', { ...p, limit: undefined }).list
  const panels = list(p.panel_id)
  const panel = !panels || panels.includes(c.panel_id) ? panelOf(ds, c) : null
  const imp = pos.map((): Exposures => new Map())
  const clk = pos.map((): Exposures => new Map())
  if (!panel) return { panel: null, pos, imp, clk, k: [] }
  const owner = personByDevice(panel)
  const w = windowOf(c, p.date!)
  const counted = (e: RawEvent) => {
    const d = f.day[e.seq]!
    return e.campaign_id === c.campaign_id && d >= w.from && d <= w.to && classCounts(f.cls[e.seq]!, ds.spots.get(e.spot_id), 'net')
  }
  for (const e of ds.events) {
    if ((e.kind !== 'imp' && e.kind !== 'clk') || !counted(e)) continue
    const person = owner.get(e.identity)
    if (!person) continue
    for (const [i, position] of pos.entries()) {
      if (!position.has(e)) continue
      const m = e.kind === 'imp' ? imp[i]! : clk[i]!
      const n = m.get(person) ?? { pc: 0, mb: 0 }
      m.set(person, n)
      n[e.platform]++
    }
  }
  return { panel, pos, imp, clk, k: factorsOf(ds, panel, pos, 'pm', counted) }
}

/** Each person's weight x factor (docs/metrics.md, "Calibration"). */
const calibrated = (m: Exposures, k: { pc: number; mb: number }): Map<PersonDef, number> => new Map([...m].map(([person, n]) => [person, person.weight * personFactor(k, n)]))

export function audienceOverview(ds: Dataset, p: Params): Answer {
  const metrics = p.metrics ?? 'all'
  const names = metrics === 'acc' ? ['uim_acc', 'ucl_acc'] : metrics === 'spl' ? ['uim_spl', 'ucl_spl'] : ['uim_acc', 'ucl_acc', 'uim_spl', 'ucl_spl']
  const a = exposedPersons(ds, p)
  const items: Item[] = []
  if (!a.panel) return { items }
  let most = 0
  for (const person of a.panel.persons) if (person.devices.length > 0) most += person.weight
  for (const [i, position] of a.pos.entries()) {
    const sum = (m: Map<PersonDef, number>) => Math.round(Math.min([...m.values()].reduce((s, x) => s + x, 0), most))
    const all = { uim_acc: sum(calibrated(a.imp[i]!, a.k[i]!.imp)), ucl_acc: sum(calibrated(a.clk[i]!, a.k[i]!.clk)), uim_spl: a.imp[i]!.size, ucl_spl: a.clk[i]!.size }
    if (all.uim_spl + all.ucl_spl === 0) continue
    items.push({ attributes: { panel_id: a.panel.panel_id, ...position.attrs }, metrics: pickMetrics(all, names) })
  }
  return { items }
}

export function audienceShow(ds: Dataset, p: Params): Answer {
  const metrics = p.metrics ?? 'all'
  const names = metrics === 'pct' ? ['uim_pct', 'ucl_pct'] : metrics === 'idx' ? ['uim_idx', 'ucl_idx'] : ['uim_pct', 'ucl_pct', 'uim_idx', 'ucl_idx']
  const a = exposedPersons(ds, p)
  const items: Item[] = []
  if (!a.panel) return { items }
  const panel = a.panel
  const types = list(p.type_id)
  let panelTotal = 0
  for (const person of panel.persons) panelTotal += person.weight
  for (const [i, position] of a.pos.entries()) {
    const exposed = calibrated(a.imp[i]!, a.k[i]!.imp)
    const clickers = calibrated(a.clk[i]!, a.k[i]!.clk)
    if (exposed.size + clickers.size === 0) continue
    for (const tag of panel.tags) {
      if (types && !types.includes(tag.type_id)) continue
      let tagTotal = 0
      for (const person of panel.persons) if (person.tags.includes(tag.tag_id)) tagTotal += person.weight
      const share = (persons: Map<PersonDef, number>): number | null => {
        let all = 0, withTag = 0
        for (const [person, weight] of persons) {
          all += weight
          if (person.tags.includes(tag.tag_id)) withTag += weight
        }
        return all > 0 ? (100 * withTag) / all : null
      }
      const baseShare = (100 * tagTotal) / panelTotal
      const index = (s: number | null) => (s === null || tagTotal === 0 ? null : Math.round((100 * s) / baseShare))
      const us = share(exposed)
      const cs = share(clickers)
      const all = { uim_pct: us === null ? null : Math.round(us), ucl_pct: cs === null ? null : Math.round(cs), uim_idx: index(us), ucl_idx: index(cs) }
      items.push({ attributes: { panel_id: panel.panel_id, tag_id: tag.tag_id, ...position.attrs }, metrics: Object.fromEntries(names.map((n) => [n, all[n as keyof typeof all]])) })
    }
  }
  return { items }
}

// ---------------------------------------------------------------------------------------------
// Minisite reports.

interface MinisitePosition {
  key: string
  attrs: Record<string, string>
}

/** The position of a minisite event: total, or its credited campaign / publisher / spot (uncredited: none). */
function minisitePosition(ds: Dataset, f: Facts, e: RawEvent, by: string, p: Params): MinisitePosition | null {
  if (by === 'total') return { key: 'total', attrs: {} }
  const credit = f.credit[e.seq]
  if (!credit) return null
  const cids = list(p.campaign_id)
  if (cids && !cids.includes(credit.campaign_id)) return null
  if (by === 'campaign') return { key: `c${credit.campaign_id}`, attrs: { campaign_id: credit.campaign_id } }
  const spot = credit.spot_id ? ds.spots.get(credit.spot_id) : undefined
  if (!spot) return null
  const pubs = list(p.publisher_id)
  if (pubs && !pubs.includes(spot.publisher_id)) return null
  if (by === 'publisher') return { key: `p${credit.campaign_id}:${spot.publisher_id}`, attrs: { campaign_id: credit.campaign_id, publisher_id: spot.publisher_id } }
  const ids = list(p.spot_id)
  if (ids && !ids.includes(spot.spot_id)) return null
  return { key: `s${spot.spot_id}`, attrs: { campaign_id: credit.campaign_id, ...spotAttrs(spot) } }
}

export function minisiteShow(ds: Dataset, p: Params): Answer {
  const f = facts(ds)
  const site = ds.minisites.find((m) => m.minisite_id === p.minisite_id)!
  const date = p.date!
  const by = p.by_position ?? 'total'
  const audience = p.by_audience ?? 'overall'
  const level = p.by_region ?? 'level0'
  const metrics = p.metrics ?? 'acc'
  const names = metrics === 'acc' ? ['evt_acc', 'uev_acc'] : metrics === 'day' ? ['evt_day', 'uev_day'] : ['evt_acc', 'uev_acc', 'evt_day', 'uev_day']
  const eventIds = list(p.event_id)
  const rows = level === 'level3' ? [] : levelRows(ds, level, p.region_id)
  const rowSet: Set<string> = new Set(rows)
  const counted = (e: RawEvent) => e.kind === 'evt' && e.minisite_id === site.minisite_id && f.day[e.seq]! <= date && f.cls[e.seq] !== 'bot' && (!eventIds || eventIds.includes(e.event_id))
  const items: Item[] = []
  if (audience !== 'target') {
    // the universe of a row: its region in the panel of its campaign, or of the linked campaign of
    // the lowest id for rows of no campaign (metrics.md, minisite)
    const lowest = [...site.campaign_ids].sort((a, b) => Number(a) - Number(b))[0]
    const rowUniverse = (campaign: string | undefined, r: string): number => {
      const id = campaign ?? lowest
      if (id === undefined) return 0
      return Math.round(universesOf(ds, panelOf(ds, campaignOf(ds, id)), level, 'pm').get(r) ?? 0)
    }
    interface Cell { attrs: Attributes; evt: number; uev: Set<string>; evtDay: number; uevDay: Set<string> }
    const cells = new Map<string, Cell>()
    for (const e of ds.events) {
      if (!counted(e) || (audience === 'stable' && !f.stable[e.seq])) continue
      const position = minisitePosition(ds, f, e, by, p)
      if (!position) continue
      for (const r of regionRowsOf(ds, level, e.region_id)) {
        if (!rowSet.has(r)) continue
        const key: string = `${position.key}|${e.event_id}|${r}`
        const cell: Cell = cells.get(key) ?? { attrs: { audience, ...position.attrs, event_id: e.event_id, region_id: r, universe: rowUniverse(position.attrs.campaign_id, r) }, evt: 0, uev: new Set<string>(), evtDay: 0, uevDay: new Set<string>() }
        cells.set(key, cell)
        cell.evt++
        cell.uev.add(e.identity)
        if (f.day[e.seq] === date) (cell.evtDay++, cell.uevDay.add(e.identity))
      }
    }
    for (const cell of cells.values()) {
      const all = { evt_acc: cell.evt, uev_acc: cell.uev.size, evt_day: cell.evtDay, uev_day: cell.uevDay.size }
      items.push({ attributes: cell.attrs, metrics: pickMetrics(all, names) })
    }
    return { items }
  }
  // Target: the targets of the linked campaigns, each over its campaign's panel, by home region.
  const targets = ds.campaigns.filter((c) => site.campaign_ids.includes(c.campaign_id)).flatMap((c) => c.targets)
    .filter((t) => !list(p.target_id) || list(p.target_id)!.includes(t.target_id))
  for (const t of targets) {
    const panel = ds.panels.get(t.panel_id)!
    if (panel.persons.length === 0) continue
    const owner = personByDevice(panel)
    const universes = universesOf(ds, panel, level, 'pm', t.tag_id)
    const cells = new Map<string, { attrs: Attributes; persons: Map<PersonDef, { n: number; nDay: number }> }>()
    for (const e of ds.events) {
      if (!counted(e)) continue
      const person = owner.get(e.identity)
      if (!person || !matches(person, t.tag_id)) continue
      const position = minisitePosition(ds, f, e, by, p)
      if (!position) continue
      for (const r of regionRowsOf(ds, level, person.home_region)) {
        if (!rowSet.has(r)) continue
        const key = `${position.key}|${e.event_id}|${r}`
        const universe = Math.round(universes.get(r) ?? 0)
        const cell = cells.get(key) ?? { attrs: { audience: 'target', target_id: t.target_id, ...position.attrs, event_id: e.event_id, region_id: r, universe }, persons: new Map() }
        cells.set(key, cell)
        const c = cell.persons.get(person) ?? { n: 0, nDay: 0 }
        cell.persons.set(person, c)
        c.n++
        if (f.day[e.seq] === date) c.nDay++
      }
    }
    for (const cell of cells.values()) {
      let evt = 0, uev = 0, evtDay = 0, uevDay = 0
      for (const [person, c] of cell.persons) {
        evt += c.n * person.weight
        uev += person.weight
        evtDay += c.nDay * person.weight
        if (c.nDay > 0) uevDay += person.weight
      }
      const all = { evt_acc: Math.round(evt), uev_acc: Math.round(uev), evt_day: Math.round(evtDay), uev_day: Math.round(uevDay) }
      items.push({ attributes: cell.attrs, metrics: pickMetrics(all, names) })
    }
  }
  return { items }
}

export function minisiteRealtime(ds: Dataset, p: Params): Answer {
  const f = facts(ds)
  const site = ds.minisites.find((m) => m.minisite_id === p.minisite_id)!
  const date = p.date!
  const by = p.by_position ?? 'total'
  const metrics = p.metrics ?? 'day'
  const hours = HOURS.map((h) => `evt_h${hh(h)}`)
  const names = metrics === 'day' ? ['evt_day'] : metrics === 'hrs' ? hours : ['evt_day', ...hours]
  const eventIds = list(p.event_id)
  const cells = new Map<string, { attrs: Attributes; n: number; byHour: number[] }>()
  for (const e of ds.events) {
    if (e.kind !== 'evt' || e.minisite_id !== site.minisite_id || f.day[e.seq] !== date || f.cls[e.seq] === 'bot') continue
    if (eventIds && !eventIds.includes(e.event_id)) continue
    const position = minisitePosition(ds, f, e, by, p)
    if (!position) continue
    const key = `${position.key}|${e.event_id}`
    const cell = cells.get(key) ?? { attrs: { audience: 'overall', ...position.attrs, event_id: e.event_id, region_id: GLOBAL }, n: 0, byHour: HOURS.map(() => 0) }
    cells.set(key, cell)
    cell.n++
    cell.byHour[f.hour[e.seq]!]!++
  }
  const items: Item[] = []
  for (const cell of cells.values()) {
    const all: Record<string, number> = { evt_day: cell.n }
    for (const h of HOURS) all[`evt_h${hh(h)}`] = cell.byHour[h]!
    items.push({ attributes: cell.attrs, metrics: pickMetrics(all, names) })
  }
  return { items }
}

// ---------------------------------------------------------------------------------------------
// basic/progress: the latest day that ended at least 3 hours ago in the engine zone, never later
// than the campaign's end.

export function progress(c: CampaignDef, now: number): string {
  const last = localDay(now - 3 * 3_600_000 - DAY_MS)
  return last < c.end ? last : c.end
}

// ---------------------------------------------------------------------------------------------
// Comparing answers.

const KEY_ATTRIBUTES = ['audience', 'target_id', 'panel_id', 'tag_id', 'campaign_id', 'publisher_id', 'spot_id', 'keyword_id', 'event_id', 'region_id']

export const itemKey = (a: Attributes): string => KEY_ATTRIBUTES.map((k) => (a[k] === undefined ? '' : `${k}=${a[k]}`)).filter(Boolean).join(' ')

/**
 * The differences between the items an endpoint answered and the oracle's, keyed by their
 * identifying attributes: missing and extra items, and every attribute or metric that differs.
 */
export function diffItems(got: Item[], want: Item[], max = 12): string[] {
  const out: string[] = []
  const g = new Map<string, Item>()
  for (const it of got) {
    const k = itemKey(it.attributes)
    if (g.has(k)) out.push(`duplicate item ${k}`)
    g.set(k, it)
  }
  const w = new Map(want.map((it) => [itemKey(it.attributes), it]))
  for (const [k, it] of w) {
    const x = g.get(k)
    if (!x) {
      out.push(`missing ${k} ${JSON.stringify(it.metrics).slice(0, 200)}`)
      continue
    }
    for (const name of new Set([...Object.keys(it.attributes), ...Object.keys(x.attributes)])) {
      if (x.attributes[name] !== it.attributes[name]) out.push(`${k}: attribute ${name} got ${JSON.stringify(x.attributes[name])} want ${JSON.stringify(it.attributes[name])}`)
    }
    for (const name of new Set([...Object.keys(it.metrics), ...Object.keys(x.metrics)])) {
      if (x.metrics[name] !== it.metrics[name]) out.push(`${k}: ${name} got ${JSON.stringify(x.metrics[name])} want ${JSON.stringify(it.metrics[name])}`)
    }
  }
  for (const [k, it] of g) if (!w.has(k)) out.push(`extra ${k} ${JSON.stringify(it.metrics).slice(0, 200)}`)
  return out.length > max ? [...out.slice(0, max), `... and ${out.length - max} more`] : out
}
