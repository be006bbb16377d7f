// Local namespace: minisites (spec §4.4 show_minisite needs them; the spec has no endpoint for them)
import { E, badRequest, refuse } from '../contract/errors'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import type { Db } from '../storage/db'
import { campaignExists } from '../storage/repos/campaigns'
import {
  allMinisiteEvents, allMinisiteLinks, allMinisites, countEvents, deleteMinisite, eventNamesOf, insertEvent, insertMinisite, lastEventId, minisiteById, minisiteIdByName,
  renameMinisite, setLinkedCampaigns, type MinisiteRow,
} from '../storage/repos/minisites'

/** Event names from `a,b,c`: trimmed, non-empty (as id lists: `a,,b` is refused), at most 100 characters, no repeats. */
function eventNames(text: string | undefined, param: string): string[] {
  if ((text ?? '').trim() === '') return []
  const names = text!.split(',').map((s) => s.trim())
  if (names.includes('')) throw badRequest('minisite.eventsEmpty', { param, got: String(text) })
  for (const n of names) if ([...n].length > 100) throw badRequest('minisite.eventLong', { param, start: n.slice(0, 20) })
  if (new Set(names).size !== names.length) throw badRequest('minisite.eventTwice', { param })
  return names
}

function checkCampaigns(db: Db, ids: string[] | undefined): void {
  for (const id of ids ?? []) if (!campaignExists(db, Number(id))) throw refuse(E.invalidCampaignId, 'param.notFound', { param: 'campaign_id', value: id })
}

function requireMinisite(db: Db, id: string): MinisiteRow {
  const row = minisiteById(db, Number(id))
  if (!row) throw badRequest('param.notFoundSee', { param: 'minisite_id', value: id, list: '/local/v1/minisites/list' })
  return row
}

function nameFree(db: Db, name: string, self = 0): void {
  const owner = minisiteIdByName(db, name)
  if (owner !== undefined && owner !== self) throw badRequest('minisite.nameUsed', { param: 'minisite_name', value: name, id: String(owner) })
}

/** Adds events after the minisite's last event id; returns how many it has. */
function addEvents(db: Db, minisite: number, names: string[], param: string): number {
  const have = new Set(eventNamesOf(db, minisite))
  for (const n of names) if (have.has(n)) throw badRequest('minisite.eventExists', { param, value: n })
  let next = lastEventId(db, minisite)
  for (const n of names) insertEvent(db, minisite, ++next, n)
  return countEvents(db, minisite)
}

const linkCampaigns = (db: Db, minisite: number, ids: string[]): void => setLinkedCampaigns(db, minisite, ids.map(Number))

const list: Handler<'minisites.list'> = (ctx: Ctx) => {
  const sites = allMinisites(ctx.db)
  const links = allMinisiteLinks(ctx.db)
  const events = allMinisiteEvents(ctx.db)
  return sites.map((m) => ({
    minisite_id: String(m.minisite_id),
    minisite_name: m.minisite_name,
    campaign_ids: links.filter((l) => l.minisite_id === m.minisite_id).map((l) => String(l.campaign_id)),
    events: events.filter((e) => e.minisite_id === m.minisite_id).map((e) => ({ event_id: String(e.event_id), event_name: e.event_name })),
    event_url: `${ctx.settings.publicUrl}/e/m=${m.minisite_id}&ev=EVENT`,
  }))
}

const create: Handler<'minisites.create'> = (ctx, p) => {
  nameFree(ctx.db, p.minisite_name)
  checkCampaigns(ctx.db, p.campaign_id)
  const names = eventNames(p.events, 'events')
  const id = ctx.db.tx(() => {
    const site = insertMinisite(ctx.db, p.minisite_name, new Date(ctx.clock.now()).toISOString())
    linkCampaigns(ctx.db, site, p.campaign_id ?? [])
    addEvents(ctx.db, site, names, 'events')
    return site
  })
  return { minisite_id: String(id) }
}

const update: Handler<'minisites.update'> = (ctx, p) => {
  const site = requireMinisite(ctx.db, p.minisite_id)
  if (p.minisite_name !== undefined) nameFree(ctx.db, p.minisite_name, site.minisite_id)
  checkCampaigns(ctx.db, p.campaign_id)
  const names = eventNames(p.add_event, 'add_event')
  const events = ctx.db.tx(() => {
    if (p.minisite_name !== undefined) renameMinisite(ctx.db, site.minisite_id, p.minisite_name)
    if (p.campaign_id !== undefined) linkCampaigns(ctx.db, site.minisite_id, p.campaign_id)
    return addEvents(ctx.db, site.minisite_id, names, 'add_event')
  })
  return { minisite_id: p.minisite_id, events }
}

const remove: Handler<'minisites.delete'> = (ctx, p) => {
  const site = requireMinisite(ctx.db, p.minisite_id)
  ctx.db.tx(() => deleteMinisite(ctx.db, site.minisite_id))
  return { minisite_id: p.minisite_id }
}

export const minisiteRoutes = { 'minisites.list': list, 'minisites.create': create, 'minisites.update': update, 'minisites.delete': remove }
