// /local/v1/minisites/create and update: the event names of a minisite (docs/metrics.md, "Minisite metrics")
import { describe, expect, it } from 'vitest'
import { makeEngine } from '../../helpers/make-engine'

describe('minisite event names', () => {
  it('are trimmed, and an empty entry, a repeat or an overlong name is refused naming the parameter', async () => {
    const t = await makeEngine()
    const ok = await t.post('/local/v1/minisites/create', { minisite_name: 'names', events: ' home , product ' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    const list = (await t.get('/local/v1/minisites/list')).body as { minisite_id: string; events: { event_name: string }[] }[]
    expect(list.find((m) => m.minisite_id === ok.body.minisite_id)!.events.map((e) => e.event_name)).toEqual(['home', 'product'])
    const cases: [string, Record<string, string>, string][] = [
      ['/local/v1/minisites/create', { minisite_name: 'empty entry', events: 'home,,buy' }, "The 'events' has an empty entry; write event names separated by ',', got 'home,,buy'."],
      ['/local/v1/minisites/create', { minisite_name: 'trailing', events: 'home,' }, "The 'events' has an empty entry; write event names separated by ',', got 'home,'."],
      ['/local/v1/minisites/create', { minisite_name: 'twice', events: 'home,home' }, "The 'events' names an event twice."],
      ['/local/v1/minisites/update', { minisite_id: ok.body.minisite_id, add_event: 'x,,y' }, "The 'add_event' has an empty entry; write event names separated by ',', got 'x,,y'."],
    ]
    for (const [path, form, message] of cases) {
      const r = await t.post(path, form)
      expect([r.status, r.body.error_description]).toEqual([400, message])
    }
    expect((await t.post('/local/v1/minisites/create', { minisite_name: 'long', events: 'x'.repeat(101) })).body.error_description).toContain('longer than 100 characters')
  })
})

describe('minisite campaign links', () => {
  it('are replaced by campaign_id on update, an empty campaign_id unlinks them all and a missing one keeps them', async () => {
    const t = await makeEngine()
    const campaign = async (name: string) => (await t.post('/cms/v1/campaigns/create', { campaign_name: name, start_date: '2025-01-12', end_date: '2025-01-25' })).body.campaign_id as string
    const [a, b] = [await campaign('A'), await campaign('B')]
    const site = (await t.post('/local/v1/minisites/create', { minisite_name: 'links', campaign_id: `${a},${b}` })).body.minisite_id as string
    const links = async () => ((await t.get('/local/v1/minisites/list')).body as { minisite_id: string; campaign_ids: string[] }[]).find((m) => m.minisite_id === site)!.campaign_ids
    const linked = async (id: string) => ((await t.get('/cms/v1/campaigns/show', { campaign_id: id })).body.linked_minisites as string[])
    expect(await links()).toEqual([a, b])
    expect((await t.post('/local/v1/minisites/update', { minisite_id: site, minisite_name: 'renamed' })).status).toBe(200)
    expect(await links()).toEqual([a, b])
    expect((await t.post('/local/v1/minisites/update', { minisite_id: site, campaign_id: b })).status).toBe(200)
    expect(await links()).toEqual([b])
    expect((await t.post('/local/v1/minisites/update', { minisite_id: site, campaign_id: '' })).status).toBe(200)
    expect(await links()).toEqual([])
    expect(await linked(b)).toEqual([])
    const bad = await t.post('/local/v1/minisites/update', { minisite_id: site, campaign_id: `${a},,${b}` })
    expect([bad.status, bad.body.error_description]).toEqual([400, "The 'campaign_id' has an empty entry; write campaign_id=A,B,C."])
  })
})
