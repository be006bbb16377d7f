// spec §4.4 basic/show_minisite and realtime/show_minisite; metrics.md (minisite events)
import { wholeWeight } from '../measure/panel/index'
import type { ParamsFor } from '../contract/endpoints'
import { badRequest } from '../contract/errors'
import { metricNames } from '../contract/metrics-catalogue'
import type { MinisiteReport, ReportAttributes } from '../contract/models-reports'
import { checkMinisite } from '../contract/report-rules'
import { toBase62 } from '../contract/base62'
import type { Partition } from '../measure/columns'
import { GLOBAL_REGION_ID } from '../reference/regions'
import { assertCampaignExists } from '../storage/repos/campaigns'
import { eventsOf, linkedCampaigns, minisiteById, spotsOfLinkedCampaigns, targetsOfLinkedCampaigns } from '../storage/repos/minisites'
import { dayNumber } from '../time-zone'
import { census } from './census'
import { audienceMask, homeCells, universes, type ReportEnv } from './env'
import { personCells } from './persons'
import { finish, metricsIn, nullMetrics, type Row } from './items'
import { loadCampaignMeta } from './meta'
import { regionCells, regionIdsOf, type RegionLevel } from './region-cells'
import { checkRegions } from './setup'
import { MINISITE_KINDS, flagTable, type Selector } from './selector'

type Basic = ParamsFor<'reports.basic_show_minisite'>
type Realtime = ParamsFor<'reports.realtime_show_minisite'>

interface Site {
  id: number
  name: string
  events: { event_id: number; event_name: string }[]
  /** Credited spots of the linked campaigns: spot -> publisher, campaign. */
  spots: Map<number, { publisher_id: number; campaign_id: number }>
}

/**
 * The minisite of a report; a `campaign_id` filter naming no campaign is invalid_campaign_id, as on
 * every endpoint taking one (errors.md). A campaign that
 * exists but is not linked to the minisite answers no rows: nothing of it is credited there.
 */
function loadSite(env: ReportEnv, id: string, campaigns: readonly string[] | undefined): Site {
  for (const c of campaigns ?? []) assertCampaignExists(env.db, c)
  const site = minisiteById(env.db, Number(id))
  if (!site) throw badRequest('param.notFoundSee', { param: 'minisite_id', value: id, list: '/local/v1/minisites/list' })
  const events = eventsOf(env.db, site.minisite_id)
  const spots = spotsOfLinkedCampaigns(env.db, site.minisite_id)
  return { id: site.minisite_id, name: site.minisite_name, events, spots: new Map(spots.map((s) => [s.spot_id, s])) }
}

type By = 'total' | 'campaign' | 'publisher' | 'spot'

/** Position of an event: total, or its credited campaign / publisher / spot (uncredited: none). */
function positionsOf(site: Site, part: Partition | undefined, by: By, f: { campaign_id?: string[] | undefined; publisher_id?: string[] | undefined; spot_id?: string[] | undefined }) {
  const keys: string[] = []
  const attrs: Partial<ReportAttributes>[] = []
  const index = new Map<string, number>()
  const keyOf = (campaign: number, spot: number): string | null => {
    if (by === 'total') return 'total'
    if (campaign === 0 || (f.campaign_id && !f.campaign_id.includes(String(campaign)))) return null
    if (by === 'campaign') return `c${campaign}`
    const s = site.spots.get(spot)
    if (!s || (f.publisher_id && !f.publisher_id.includes(String(s.publisher_id)))) return null
    if (by === 'publisher') return `p${campaign}:${s.publisher_id}`
    return f.spot_id && !f.spot_id.includes(String(spot)) ? null : `s${spot}`
  }
  const attrsOf = (campaign: number, spot: number): Partial<ReportAttributes> => {
    if (by === 'total') return {}
    const s = site.spots.get(spot)
    return { campaign_id: String(campaign), ...(by !== 'campaign' && s ? { publisher_id: String(s.publisher_id) } : {}), ...(by === 'spot' ? { spot_id: String(spot), spot_id_str: toBase62(spot) } : {}) }
  }
  const posOfEvent = new Int32Array(part?.n ?? 0).fill(-1)
  for (let i = 0; i < (part?.n ?? 0); i++) {
    const k = keyOf(part!.campaign[i]!, part!.spot[i]!)
    if (k === null) continue
    let pos = index.get(k)
    if (pos === undefined) {
      pos = keys.length
      index.set(k, pos)
      keys.push(k)
      attrs.push(attrsOf(part!.campaign[i]!, part!.spot[i]!))
    }
    posOfEvent[i] = pos
  }
  if (by === 'total' && keys.length === 0) attrs.push({})
  // rows in id order (campaign, publisher, spot), not in the order their first events are stored,
  // which a rebuild changes (paging with `limit` would then move a row to another page)
  const id = (v: string | undefined) => (v === undefined ? -1 : Number(v))
  const order = attrs.map((_, i) => i).sort((a, b) => id(attrs[a]!.campaign_id) - id(attrs[b]!.campaign_id) || id(attrs[a]!.publisher_id) - id(attrs[b]!.publisher_id) || id(attrs[a]!.spot_id) - id(attrs[b]!.spot_id))
  const rank = new Int32Array(order.length)
  order.forEach((was, now) => (rank[was] = now))
  for (let i = 0; i < posOfEvent.length; i++) if (posOfEvent[i]! >= 0) posOfEvent[i] = rank[posOfEvent[i]!]!
  return { n: attrs.length, attrs: order.map((i) => attrs[i]!), posOfEvent }
}

interface Query {
  site: Site
  part: Partition | undefined
  by: By
  level: RegionLevel
  regionIds: string[] | undefined
  eventIds: string[] | undefined
  from: number
  to: number
  day: number
  stableOnly: boolean
  uniques: boolean
  filters: { campaign_id?: string[] | undefined; publisher_id?: string[] | undefined; spot_id?: string[] | undefined }
}

/** Position x event of each event (-1: not counted). */
function eventPositions(part: Partition, posOfEvent: Int32Array, eventIndex: Map<number, number>, nE: number): Int32Array {
  const out = new Int32Array(part.n)
  for (let i = 0; i < part.n; i++) {
    const e = eventIndex.get(part.event[i]!)
    out[i] = e === undefined || posOfEvent[i]! < 0 ? -1 : posOfEvent[i]! * nE + e
  }
  return out
}

/** Minisite events count but bots (metrics.md), over the query's days. */
function minisiteSelector(q: Query, eventPos: Int32Array, stableOnly: boolean): Selector {
  return {
    from: q.from, to: q.to, ...MINISITE_KINDS, flagOk: flagTable({ platforms: 3, sdk: 0, stableOnly, filtration: 'none' }),
    spotBase: 0, spotPos: new Int32Array(0), spotDc: new Uint8Array(0), keywordPos: null, eventPos,
  }
}

/** Rows of (position x event x region) cells with their census counts. */
function minisiteCells(env: ReportEnv, q: Query) {
  const events = q.site.events.filter((e) => !q.eventIds || q.eventIds.includes(String(e.event_id)))
  const eventIndex = new Map(events.map((e, i) => [e.event_id, i]))
  const pos = positionsOf(q.site, q.part, q.by, q.filters)
  const cells = regionCells(q.level, q.regionIds)
  const nE = events.length
  const r = q.part && nE > 0 ? census({
    part: q.part, identities: env.identities.size, sel: minisiteSelector(q, eventPositions(q.part, pos.posOfEvent, eventIndex, nE), q.stableOnly), day: q.day, nPos: pos.n * nE,
    regionFirst: cells.first, regionSecond: cells.second, nRegions: cells.ids.length, uniques: q.uniques, averages: false,
  }) : null
  return { events, pos, cells, r, nE }
}

export function basicShowMinisite(env: ReportEnv, p: Basic): MinisiteReport {
  checkMinisite(p)
  const site = loadSite(env, p.minisite_id, p.campaign_id)
  // (level3 has no regions to name: the IP library locates hits to cities at most)
  checkRegions(p.region_id, regionIdsOf(p.by_region), p.by_region)
  const day = dayNumber(p.date)
  const names = [...metricNames('minisite', p.metrics === 'all' ? undefined : p.metrics)]
  const query: Query = {
    site, part: env.columns.minisite(site.id), by: p.by_position, level: p.by_region, regionIds: p.region_id, eventIds: p.event_id,
    from: 0, to: day, day, stableOnly: p.by_audience === 'stable', uniques: true, filters: p,
  }
  const attributeNames = ['audience', ...(p.by_audience === 'target' ? ['target_id'] : []), 'campaign_id', 'publisher_id', 'spot_id', 'spot_id_str', 'event_id', 'region_id', 'universe']
  const finishing = { order_asc: p.order_asc, order_desc: p.order_desc, metricNames: names, attributeNames, rows: p.limit }
  const head = { minisite_id: String(site.id), minisite_name: site.name, date: p.date, version: 'V1.0' }
  if (p.by_audience === 'target') return { ...head, items: finish(targetRows(env, query, names, p.target_id), finishing) }
  const q = minisiteCells(env, query)
  const universeOf = rowUniverses(env, site.id, q.cells)
  const rows: Row[] = []
  for (let i = 0; i < q.pos.n; i++) for (let e = 0; e < q.nE; e++) for (let c = 0; c < q.cells.ids.length; c++) {
    const cell = (i * q.nE + e) * q.cells.ids.length + c
    const seen = q.r !== null && q.r.seen[cell] === 1
    if (!seen) continue
    const m = seen ? { evt_acc: q.r!.imp[cell]!, uev_acc: q.r!.uim[cell]!, evt_day: q.r!.impDay[cell]!, uev_day: q.r!.uimDay[cell]! } : null
    rows.push({
      attributes: { audience: p.by_audience, ...q.pos.attrs[i], event_id: String(q.events[e]!.event_id), region_id: q.cells.ids[c]!, universe: universeOf(q.pos.attrs[i]!.campaign_id, c) },
      metrics: m ? metricsIn(names, m) : nullMetrics(names), hasData: seen,
    })
  }
  return { ...head, items: finish(rows, finishing) }
}

/**
 * The universe of an overall or stable row (metrics.md, minisite): the population of the row's
 * region in the panel of the row's campaign, or, for rows of no campaign (`total`), of the linked
 * campaign of the lowest id; 0 where that panel has no persons (emptied) or the minisite links none.
 */
function rowUniverses(env: ReportEnv, minisite: number, cells: { first: Int32Array; second: Int32Array; ids: string[] }): (campaign: string | undefined, cell: number) => number {
  const fallback = linkedCampaigns(env.db, minisite, true)[0]
  const byPanel = new Map<string, Float64Array | null>()
  const byCampaign = new Map<string, { u: Float64Array | null; unit: number }>()
  const of = (campaign: string): { u: Float64Array | null; unit: number } => {
    let k = byCampaign.get(campaign)
    if (!k) {
      const panelId = loadCampaignMeta(env.db, campaign, env.today).panel_id
      const panel = env.panel(panelId)
      if (!byPanel.has(panelId)) byPanel.set(panelId, panel ? universes(panel, { first: cells.first, second: cells.second, n: cells.ids.length }, audienceMask(env, panel, 3)) : null)
      byCampaign.set(campaign, (k = { u: byPanel.get(panelId)!, unit: panel?.unit ?? 1 }))
    }
    return k
  }
  return (campaign, cell) => {
    const id = campaign ?? (fallback === undefined ? undefined : String(fallback))
    if (id === undefined) return 0
    const k = of(id)
    return k.u ? wholeWeight(k.u[cell]!, k.unit) : 0
  }
}

/**
 * Target rows (metrics.md, minisite): the targets of the campaigns linked to the minisite, each
 * over its campaign's panel; evt is projected (persons' events x weight), uev the weight of the
 * persons with an event; the region is the person's home.
 */
function targetRows(env: ReportEnv, q: Query, names: string[], only: string[] | undefined): Row[] {
  const targets = targetsOfLinkedCampaigns(env.db, q.site.id)
  const events = q.site.events.filter((e) => !q.eventIds || q.eventIds.includes(String(e.event_id)))
  const eventIndex = new Map(events.map((e, i) => [e.event_id, i]))
  const pos = positionsOf(q.site, q.part, q.by, q.filters)
  const cells = regionCells(q.level, q.regionIds)
  const nE = events.length
  const nR = cells.ids.length
  const rows: Row[] = []
  for (const t of targets.filter((x) => !only || only.includes(String(x.target_id)))) {
    const panel = env.panel(t.panel_id)
    if (!panel || !q.part) continue
    const matcher = env.matcher(panel, String(t.target_id), t.tag_id)
    const { homeFirst, homeSecond } = homeCells(panel, cells.first, cells.second)
    const inTarget = audienceMask(env, panel, 3, matcher)
    const u = universes(panel, { first: cells.first, second: cells.second, n: nR }, inTarget)!
    const byCell = personCells({
      part: q.part, sel: minisiteSelector(q, eventPositions(q.part, pos.posOfEvent, eventIndex, nE), false),
      personOf: env.personOf(panel), nPos: pos.n * nE, homeFirst, homeSecond, nRegions: nR, day: q.day,
    })
    const sums = new Map<number, { evt: number; uev: number; evtDay: number; uevDay: number }>()
    for (let j = 0; j < byCell.n; j++) {
      const person = byCell.person[j]!
      if (inTarget[person] !== 1) continue
      const w = panel.units[person]!
      const cell = byCell.cell[j]!
      const s = sums.get(cell) ?? { evt: 0, uev: 0, evtDay: 0, uevDay: 0 }
      s.evt += byCell.impressions[j]! * w
      s.uev += w
      s.evtDay += byCell.impressionsOnDay[j]! * w
      if (byCell.impressionsOnDay[j]! > 0) s.uevDay += w
      sums.set(cell, s)
    }
    for (let i = 0; i < pos.n; i++) for (let e = 0; e < nE; e++) for (let c = 0; c < nR; c++) {
      const s = sums.get((i * nE + e) * nR + c)
      if (!s) continue
      const m = s ? { evt_acc: wholeWeight(s.evt, panel.unit), uev_acc: wholeWeight(s.uev, panel.unit), evt_day: wholeWeight(s.evtDay, panel.unit), uev_day: wholeWeight(s.uevDay, panel.unit) } : null
      rows.push({
        attributes: { audience: 'target', target_id: String(t.target_id), ...pos.attrs[i], event_id: String(events[e]!.event_id), region_id: cells.ids[c]!, universe: wholeWeight(u[c]!, panel.unit) },
        metrics: m ? metricsIn(names, m) : nullMetrics(names), hasData: s !== undefined,
      })
    }
  }
  return rows
}

export function realtimeShowMinisite(env: ReportEnv, p: Realtime): MinisiteReport {
  checkMinisite(p)
  const site = loadSite(env, p.minisite_id, p.campaign_id)
  const day = dayNumber(p.date)
  const names = [...metricNames('realtime_minisite', p.metrics === 'all' ? undefined : p.metrics)]
  const q = minisiteCells(env, {
    site, part: env.columns.minisite(site.id), by: p.by_position, level: 'level0', regionIds: [GLOBAL_REGION_ID], eventIds: p.event_id,
    from: day, to: day, day, stableOnly: false, uniques: false, filters: p,
  })
  const rows: Row[] = []
  for (let i = 0; i < q.pos.n; i++) for (let e = 0; e < q.nE; e++) {
    const cell = i * q.nE + e
    const seen = q.r !== null && q.r.seen[cell] === 1
    if (!seen) continue
    const m: Record<string, number> = {}
    if (seen) {
      m.evt_day = q.r!.impDay[cell]!
      for (let h = 0; h < 24; h++) m[`evt_h${String(h).padStart(2, '0')}`] = q.r!.impHour[cell * 24 + h]!
    }
    rows.push({
      attributes: { audience: 'overall', ...q.pos.attrs[i], event_id: String(q.events[e]!.event_id), region_id: GLOBAL_REGION_ID },
      metrics: seen ? metricsIn(names, m) : nullMetrics(names), hasData: seen,
    })
  }
  return {
    minisite_id: String(site.id), minisite_name: site.name, date: p.date,
    items: finish(rows, { order_asc: p.order_asc, order_desc: p.order_desc, metricNames: names, attributeNames: ['audience', 'campaign_id', 'publisher_id', 'spot_id', 'spot_id_str', 'event_id', 'region_id'], rows: p.limit }),
  }
}
