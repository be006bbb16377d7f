// Local namespace: minisites, whose page events the minisite reports count (spec §4.4 show_minisite)
import { get, post } from './endpoint'
import { idStr, int, obj, str, arr } from './schema'
import { p } from './params'

export const Minisite = obj({
  minisite_id: idStr(),
  minisite_name: str(),
  campaign_ids: arr(idStr()),
  events: arr(obj({ event_id: idStr(), event_name: str() })),
  event_url: str({ description: 'the tracking URL of an event, with EVENT in place of the event id' }),
})

const meta = (summary: string) => ({ summary, spec: 'local' })
const events = () => p.text(5000).optional('event names separated by , (page names such as home,product,checkout)')

export const minisiteEndpoints = {
  'minisites.list': get('/local/v1/minisites/list', 'local', {}, arr(Minisite), meta('Minisites with their campaigns and events')),
  'minisites.create': post('/local/v1/minisites/create', 'local', {
    minisite_name: p.name(255).required(), campaign_id: p.idList().optional('campaigns whose hits the minisite credits'), events: events(),
  }, obj({ minisite_id: idStr() }), meta('Create a minisite')),
  'minisites.update': post('/local/v1/minisites/update', 'local', {
    minisite_id: p.id().required(), minisite_name: p.name(255).optional(),
    campaign_id: p.idListOrNone().optional('replaces the linked campaigns; empty unlinks them all'), add_event: events(),
  }, obj({ minisite_id: idStr(), events: int() }), meta('Rename a minisite, relink its campaigns, add events')),
  'minisites.delete': post('/local/v1/minisites/delete', 'local', { minisite_id: p.id().required() }, obj({ minisite_id: idStr() }), meta('Delete a minisite (its recorded events stay in the event log)')),
} as const
