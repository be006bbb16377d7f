/**
 * Names for the ids in report rows: publishers, spots, keywords and targets of the campaign,
 * regions and panel tags in the interface language, minisite events. An id without a name
 * shows as the id.
 */
import type { ListSpot, Panel, Publisher, Region, Target } from '../../../engine/contract/models'
import type { ReportAttributes } from '../../../engine/contract/models-reports'
import type { MinisiteRecord } from './load'

export interface Names {
  publisher(id: string): string
  spot(id: string): string
  keyword(id: string): string
  target(id: string): string
  region(id: string): string
  tag(id: string): string
  /** The tag type a tag belongs to ('' when unknown). */
  tagType(tagId: string): string
  typeName(typeId: string): string
  event(id: string): string
  campaign(id: string): string
}

export interface NameSources {
  campaignId?: string
  campaignName?: string
  spots?: readonly ListSpot[]
  publishers?: readonly Publisher[]
  targets?: readonly Target[]
  regions?: readonly Region[]
  panel?: Panel | null
  minisite?: MinisiteRecord | null
}

const lookup = (pairs: Iterable<[string, string]>): ((id: string) => string) => {
  const map = new Map(pairs)
  return (id) => map.get(id) ?? id
}

/** Name lookups from what the screen loaded. */
export function makeNames(s: NameSources): Names {
  const spots = s.spots ?? []
  const tags = s.panel?.tag_list ?? []
  const typeOf = new Map(tags.map((t) => [t.tag_id, t.type_id]))
  return {
    publisher: lookup([...spots.map((x): [string, string] => [x.publisher_id, x.publisher_name]), ...(s.publishers ?? []).map((p): [string, string] => [p.publisher_id, p.publisher_name])]),
    spot: lookup(spots.map((x) => [x.spot_id, `${x.placement_name} (${x.spot_id_str})`])),
    keyword: lookup(spots.flatMap((x) => x.keyword.map((k): [string, string] => [String(k.keywordId), k.keyword]))),
    target: lookup((s.targets ?? []).map((t) => [t.target_id, t.target_name])),
    region: lookup((s.regions ?? []).map((r) => [r.region_id, r.region_name])),
    tag: lookup(tags.map((t) => [t.tag_id, t.tag_name])),
    tagType: (id) => typeOf.get(id) ?? '',
    typeName: lookup((s.panel?.type_list ?? []).map((t) => [t.type_id, t.type_name])),
    event: lookup((s.minisite?.events ?? []).map((e) => [e.event_id, e.event_name])),
    campaign: lookup(s.campaignId && s.campaignName ? [[s.campaignId, s.campaignName]] : []),
  }
}

/** Which attributes a row label shows. */
export interface LabelParts {
  target?: boolean
  position?: boolean
  region?: boolean
  event?: boolean
}

/** A row's label from its attributes: target · publisher · spot · keyword · region (the parts asked for). */
export function rowLabel(a: ReportAttributes, n: Names, parts: LabelParts = { target: true, position: true, region: true }): string {
  const out: string[] = []
  if (parts.event && a.event_id) out.push(n.event(a.event_id))
  if (parts.target && a.target_id) out.push(n.target(a.target_id))
  if (parts.position) {
    if (a.campaign_id && !a.publisher_id) out.push(n.campaign(a.campaign_id))
    if (a.publisher_id && !a.spot_id) out.push(n.publisher(a.publisher_id))
    if (a.spot_id) out.push(n.spot(a.spot_id))
    if (a.keyword_id) out.push(n.keyword(a.keyword_id))
  }
  if (parts.region && a.region_id) out.push(n.region(a.region_id))
  return out.join(' · ')
}
