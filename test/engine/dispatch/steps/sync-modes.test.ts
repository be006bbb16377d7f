/**
 * The sync modes step: a GET of a group the modes route is answered by the remote (its headers
 * say where from) once the call's writes are durable, and never reaches the handler; a GET the
 * modes leave local goes on; a POST of a mode group is checked before it goes on.
 */
import { describe, expect, it } from 'vitest'
import { syncModes } from '../../../../engine/dispatch/steps/sync-modes'
import type { Routed } from '../../../../engine/sync/modes'
import type { Services } from '../../../../engine/services'
import type { Call } from '../../../../engine/dispatch/call'
import { callOf } from '../fake-call'

const local = { status: 200, headers: {}, body: '"local"' }

function setup(routed: Routed | null) {
  const log: string[] = []
  const modes = {
    route: async (id: string, path: string, raw: ReadonlyMap<string, readonly string[]>, selfUrl: string) => (log.push(`route ${id} ${path} ${[...raw.keys()].join(',')} ${selfUrl}`), routed),
    checkWrite: (id: string) => void log.push(`check ${id}`),
  }
  const s = { sync: { modes }, settings: { publicUrl: 'http://127.0.0.1:8366' } } as unknown as Services
  const step = syncModes(s, async () => void log.push('writes durable'))
  const next = async (_: Call) => (log.push('local'), local)
  return { log, step, next }
}

describe('sync modes step', () => {
  it('answers a routed GET from the remote once its writes are durable, without the local handler', async () => {
    const { log, step, next } = setup({ body: '{"campaign_id":"7"}', source: 'forward', profileId: 2, fetchedAt: '2026-03-10 10:00:00' })
    const res = await step.run(callOf('campaigns.show', { campaign_id: 7 }, { query: { campaign_id: '7' }, callback: 'cb' }), next)
    expect(log).toEqual(['route campaigns.show /cms/v1/campaigns/show campaign_id http://127.0.0.1:8366', 'writes durable'])
    expect(res.status).toBe(200)
    expect(res.body).toBe('/**/cb({"campaign_id":"7"});')
    expect(res.headers).toMatchObject({ 'x-admonitor-source': 'forward', 'x-admonitor-profile-id': '2', 'x-admonitor-fetched-at': '2026-03-10 10:00:00' })
  })

  it('passes a GET the modes answer locally on, and checks a POST before passing it on', async () => {
    const { log, step, next } = setup(null)
    expect(await step.run(callOf('reports.basic_show'), next)).toBe(local)
    expect(await step.run(callOf('campaigns.create'), next)).toBe(local)
    expect(log).toEqual(['route reports.basic_show /admonitor/v1/reports/basic/show  http://127.0.0.1:8366', 'local', 'check campaigns.create', 'local'])
  })

  it('applies to the vendor API\'s groups only', () => {
    const { step } = setup(null)
    const applies = (id: Call['id']) => step.applies({ id, def: callOf(id).def, paged: false })
    expect([applies('campaigns.list'), applies('reports.reach_show'), applies('campaigns.update'), applies('local.status'), applies('tracking.click'), applies('oauth.token')]).toEqual([true, true, true, false, false, false])
  })
})
