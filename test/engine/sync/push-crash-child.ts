/**
 * The process push-crash.test.ts kills. Usage:
 *   node --import tsx test/engine/sync/push-crash-child.ts <dataDir> <remoteUrl>
 * It opens an engine on the data directory, adds a profile for the remote, drafts a campaign with
 * a spot and a target, queues it, prints `QUEUED <op ids>`, then pushes. It never ends on its own
 * while the remote holds the answer: the parent ends it with SIGKILL.
 */
import { createEngine } from '../../../engine/index'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT, FakeClock, DATES } from '../../helpers/make-engine'
import { say } from '../../helpers/say'
import { FAST } from './remote'

const [dir, remoteUrl] = process.argv.slice(2)
if (!dir || !remoteUrl) throw new Error('usage: push-crash-child.ts <dataDir> <remoteUrl>')

async function main(): Promise<void> {
  const engine = await createEngine({ storage: fileStorage(dir!), clock: new FakeClock(DATES.today), account: ACCOUNT, sync: FAST, log: { error: (m, c) => say(`LOG-ERROR ${m} ${String(c)}`), info: () => undefined } })
  const call = async (path: string, form: Record<string, string>) => {
    const body = new URLSearchParams({ ...form, access_token: await engine.localToken() }).toString()
    const r = await engine.handle({ method: 'POST', path, query: {}, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`)
    return JSON.parse(r.body) as Record<string, unknown>
  }
  const profile = await call('/local/v1/sync/profiles/create', { name: 'Real service', base_url: remoteUrl!, ...ACCOUNT })
  const { campaign_id } = await call('/cms/v1/campaigns/create', { campaign_name: 'Killed draft', start_date: DATES.tomorrow, end_date: DATES.nextMonth, advertiser_id: '1', agency_id: '1' })
  await call('/cms/v1/campaigns/create_spot', { campaign_id: String(campaign_id), publisher_name: 'Twitter', channel_name: 'news', placement_name: 'top banner', guid: 'g-kill' })
  await call('/cms/v1/campaigns/publish_target', { campaign_id: String(campaign_id), target_name: 'Women', tag_id: 'female' })
  const ops = (await call('/local/v1/sync/outbox/add', { profile_id: String(profile.profile_id), kind: 'campaign', op: 'create', local_id: String(campaign_id) })) as unknown as { op_id: string }[]
  await engine.flush()
  say(`QUEUED ${ops.map((o) => o.op_id).join(',')}`)
  const r = await call('/local/v1/sync/push/start', { profile_id: String(profile.profile_id) })
  say(`PUSHED ${JSON.stringify(r)}`)
}

main().catch((err: unknown) => {
  say(`ERR ${(err as Error)?.stack ?? String(err)}`)
  process.exit(1)
})
