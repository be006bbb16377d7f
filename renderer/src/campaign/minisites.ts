/**
 * The campaign's minisites (docs/app.md, "Campaign detail"): which minisites credit the campaign,
 * the links an update sends to add or remove it, the event names a form holds, and the event tags
 * to place on the advertiser's pages.
 */
import type { Minisite } from '../../../engine/contract/endpoints-minisites'
import type { Infer } from '../../../engine/contract/schema'

export type MinisiteRecord = Infer<typeof Minisite>
export type MinisiteEvent = MinisiteRecord['events'][number]

/** The minisites linked to the campaign, and the others (which can be linked). */
export function splitByLink(sites: readonly MinisiteRecord[], campaignId: string): { linked: MinisiteRecord[]; others: MinisiteRecord[] } {
  const linked: MinisiteRecord[] = []
  const others: MinisiteRecord[] = []
  for (const s of sites) (s.campaign_ids.includes(campaignId) ? linked : others).push(s)
  return { linked, others }
}

const byNumber = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)

/**
 * The `campaign_id` a minisites/update sends to link the campaign (`on`) or unlink it, keeping the
 * minisite's other campaigns: the update replaces the whole list, and an empty one unlinks all.
 */
export function linksWith(site: MinisiteRecord, campaignId: string, on: boolean): string {
  const rest = site.campaign_ids.filter((id) => id !== campaignId)
  return (on ? [...rest, campaignId] : rest).sort(byNumber).join(',')
}

/**
 * Event names as typed: one per line or separated by commas (the API's separator, so a name
 * cannot hold one), trimmed, blank entries dropped. Repeats are kept: the engine refuses them by name.
 */
export function eventNames(text: string): string[] {
  return text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s !== '')
}

/**
 * The tag of one event: the engine's `event_url` with the event id. With `creditTo`, `k=` names
 * the campaign, so the event is credited to it rather than to the person's latest touch among
 * the minisite's campaigns (docs/metrics.md, "Minisite metrics").
 */
export function eventTag(site: MinisiteRecord, event: MinisiteEvent, creditTo?: string): string {
  const url = site.event_url.replace('EVENT', encodeURIComponent(event.event_id))
  return creditTo ? `${url}&k=${encodeURIComponent(creditTo)}` : url
}

/** Rows of an export of the tags: one per event of each minisite. */
export function tagRows(sites: readonly MinisiteRecord[], creditTo?: string): { key: string; minisite_id: string; minisite_name: string; event_id: string; event_name: string; tag: string }[] {
  return sites.flatMap((s) => s.events.map((e) => ({ key: `${s.minisite_id}-${e.event_id}`, minisite_id: s.minisite_id, minisite_name: s.minisite_name, event_id: e.event_id, event_name: e.event_name, tag: eventTag(s, e, creditTo) })))
}
