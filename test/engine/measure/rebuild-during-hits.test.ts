/**
 * A rebuild on files while tracking hits keep coming (docs/measurement.md, "Hits during long
 * work"): the rebuild reads the segments up to where they ended when it started, beside the
 * appends, and replays what was written meanwhile. Every hit answered during it is counted once,
 * and a restart, from the checkpoint the rebuild saved and from the log alone, has the same state.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../../engine/index'
import { Columns } from '../../../engine/measure/columns'
import { FileEventLog } from '../../../engine/measure/event-log'
import { Identities } from '../../../engine/measure/identities'
import { Ingest } from '../../../engine/measure/ingest'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT, FakeClock, seededRandom } from '../../helpers/make-engine'
import { trackingRequest } from '../../helpers/tracking-client'

const APP_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148'
const device = (n: number) => `3f1e0c2a-8246-4ba4-ae5b-${n.toString(16).padStart(12, '0')}`
const quiet = { error: () => undefined, info: () => undefined }

const open = (dir: string) => createEngine({ storage: fileStorage(dir), eventLog: new FileEventLog(join(dir, 'events')), clock: new FakeClock('2025-01-10'), random: seededRandom(), account: ACCOUNT, log: quiet })

async function call(engine: Engine, path: string, query: Record<string, string>, body = '', type = 'application/x-www-form-urlencoded'): Promise<Record<string, unknown>> {
  const r = await engine.handle({ method: 'POST', path, query, body, headers: { 'content-type': type } })
  expect(r.status, r.body).toBe(200)
  return JSON.parse(r.body) as Record<string, unknown>
}

/** Identity texts of the campaign's events, sorted: the state compared across starts. */
function texts(engine: Engine, campaign: number): string[] {
  const p = engine.measure.columns.campaign(campaign)!
  return Array.from(p.identity.subarray(0, p.n), (id) => engine.measure.identities.text(id)).sort()
}

describe('measurement.rebuild on files, with hits during it', () => {
  it('counts every hit answered meanwhile once, and a restart from the checkpoint or the log has the same state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admonitor-rebuild-hits-'))
    try {
      const engine = await open(dir)
      const token = String((await call(engine, '/oauth/token', {}, new URLSearchParams({ grant_type: 'password', ...ACCOUNT }).toString())).access_token)
      const q = { access_token: token }
      const campaign = String((await call(engine, '/cms/v1/campaigns/create', q, new URLSearchParams({ campaign_name: 'Rebuild', start_date: '2025-01-10', end_date: '2025-01-20', platform: 'pm' }).toString())).campaign_id)
      const spot = String((await call(engine, '/cms/v1/campaigns/create_spot', q, new URLSearchParams({ campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' }).toString())).spot_id)
      const listed = await engine.handle({ method: 'GET', path: '/cms/v1/campaigns/list_spots', query: { ...q, campaign_id: campaign, code_type: 'mma' } })
      const tag = (JSON.parse(listed.body) as { tracking_tags: { impression_url: string } }[])[0]!.tracking_tags.impression_url
      const hit = async (n: number) => {
        const r = await engine.handle(trackingRequest(tag.replace('__IDFA__', device(n)), { 'user-agent': APP_AGENT }, '123.112.1.1'))
        return r.headers['x-admonitor-counted']
      }
      const lines = Array.from({ length: 200_000 }, (_, i) => JSON.stringify({ type: 'impression', ts: '2025-01-10T09:00:00+08:00', campaign_id: campaign, spot_id: spot, identity: `idfa:${device(i % 50_000)}` }))
      await call(engine, '/local/v1/events/import', { ...q, format: 'ndjson' }, lines.join('\n'), 'application/x-ndjson')

      // hits one after the other while the rebuild runs, a device of the import's among new ones
      let rebuilt = false
      const rebuilding = call(engine, '/local/v1/measurement/rebuild', q).finally(() => (rebuilt = true))
      let during = 0
      for (let n = 100_000; !rebuilt; n++) {
        expect(await hit(n % 3 === 0 ? n % 50_000 : n)).toBe('1')
        during++
      }
      expect((await rebuilding).events).toBeLessThanOrEqual(200_000 + during)
      expect(during).toBeGreaterThan(0)
      expect(engine.measure.columns.campaign(Number(campaign))!.n).toBe(200_000 + during)
      expect(await hit(7)).toBe('1')
      const seen = texts(engine, Number(campaign))
      await engine.close()

      // from the checkpoint of the close, then from the log alone
      const again = await open(dir)
      expect(texts(again, Number(campaign))).toEqual(seen)
      await again.close()
      const fromLog = new Ingest(new FileEventLog(join(dir, 'events')), new Columns(), new Identities(), () => 'Asia/Shanghai')
      await fromLog.open(false)
      const p = fromLog.columns.campaign(Number(campaign))!
      expect(Array.from(p.identity.subarray(0, p.n), (id) => fromLog.identities.text(id)).sort()).toEqual(seen)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
