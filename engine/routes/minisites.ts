// Local namespace: minisites (spec §4.4 show_minisite needs them; the spec has no endpoint for them)
import { E, badRequest, refuse } from '../contract/errors'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import type { Db } from '../storage/db'

interface MinisiteRow {
  minisite_id: number
  minisite_name: string
}

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
  for (const id of ids ?? []) if (!db.scalar('SELECT 1 FROM campaigns WHERE campaign_id = ?', [Number(id)])) throw refuse(E.invalidCampaignId, 'param.notFound', { param: 'campaign_id', value: id })
}

function requireMinisite(db: Db, id: string): MinisiteRow {
  const row = db.get<MinisiteRow>('SELECT minisite_id, minisite_name FROM minisites WHERE minisite_id = ?', [Number(id)])
  if (!row) throw badRequest('param.notFoundSee', { param: 'minisite_id', value: id, list: '/local/v1/minisites/list' })
  return row
}

function nameFree(db: Db, name: string, self = 0): void {
  const owner = db.scalar<number>('SELECT minisite_id FROM minisites WHERE minisite_name = ?', [name])
  if (owner !== undefined && owner !== self) throw badRequest('minisite.nameUsed', { param: 'minisite_name', value: name, id: String(owner) })
}

/** Adds events after the minisite's last event id; returns how many it has. */
function addEvents(db: Db, minisite: number, names: string[], param: string): number {
  const have = new Set(db.query<{ event_name: string }>('SELECT event_name FROM minisite_events WHERE minisite_id = ?', [minisite]).map((r) => r.event_name))
  for (const n of names) if (have.has(n)) throw badRequest('minisite.eventExists', { param, value: n })
  let next = Number(db.scalar<number>('SELECT COALESCE(MAX(event_id), 0) FROM minisite_events WHERE minisite_id = ?', [minisite]) ?? 0)
  for (const n of names) db.run('INSERT INTO minisite_events(minisite_id, event_id, event_name) VALUES (?,?,?)', [minisite, ++next, n])
  return Number(db.scalar<number>('SELECT COUNT(*) FROM minisite_events WHERE minisite_id = ?', [minisite]))
}

function linkCampaigns(db: Db, minisite: number, ids: string[]): void {
  db.run('DELETE FROM minisite_campaigns WHERE minisite_id = ?', [minisite])
  for (const id of ids) db.run('INSERT INTO minisite_campaigns(minisite_id, campaign_id) VALUES (?,?)', [minisite, Number(id)])
}

const list: Handler<'minisites.list'> = (ctx: Ctx) => {
  const sites = ctx.db.query<MinisiteRow>('SELECT minisite_id, minisite_name FROM minisites ORDER BY minisite_id')
  const links = ctx.db.query<{ minisite_id: number; campaign_id: number }>('SELECT minisite_id, campaign_id FROM minisite_campaigns ORDER BY campaign_id')
  const events = ctx.db.query<{ minisite_id: number; event_id: number; event_name: string }>('SELECT minisite_id, event_id, event_name FROM minisite_events ORDER BY event_id')
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
    const site = ctx.db.run('INSERT INTO minisites(minisite_name, created_at) VALUES (?,?)', [p.minisite_name, new Date(ctx.clock.now()).toISOString()]).lastId
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
    if (p.minisite_name !== undefined) ctx.db.run('UPDATE minisites SET minisite_name = ? WHERE minisite_id = ?', [p.minisite_name, site.minisite_id])
    if (p.campaign_id !== undefined) linkCampaigns(ctx.db, site.minisite_id, p.campaign_id)
    return addEvents(ctx.db, site.minisite_id, names, 'add_event')
  })
  return { minisite_id: p.minisite_id, events }
}

const remove: Handler<'minisites.delete'> = (ctx, p) => {
  const site = requireMinisite(ctx.db, p.minisite_id)
  ctx.db.tx(() => ctx.db.run('DELETE FROM minisites WHERE minisite_id = ?', [site.minisite_id]))
  return { minisite_id: p.minisite_id }
}

export const minisiteRoutes = { 'minisites.list': list, 'minisites.create': create, 'minisites.update': update, 'minisites.delete': remove }
