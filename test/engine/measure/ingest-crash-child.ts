/**
 * The process that ingest-crash.test.ts kills. Usage:
 *   node --import tsx test/engine/measure/ingest-crash-child.ts <dataDir> <tag> [checkpoints]
 * Opens an engine on the data directory (database and event log), creates (once) a campaign with
 * a spot, prints `READY <events loaded>`, then sends impressions through the tracking endpoint,
 * four at a time, each with its own device id and media request id `<tag>-<n>`, and prints `ACK <n>` after each
 * answer arrived; with `checkpoints`, it also saves a checkpoint every 40 ms while the hits flow
 * (every other one sorted).
 * It never stops on its own: the parent SIGKILLs it.
 */
import { join } from 'node:path'
import { createEngine } from '../../../engine/index'
import { FileEventLog } from '../../../engine/measure/event-log'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT } from '../../helpers/make-engine'
import { say } from '../../helpers/say'

const [dir, tag = 'h', mode = ''] = process.argv.slice(2)
if (!dir) throw new Error('usage: ingest-crash-child.ts <dataDir> <tag>')
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

async function main(): Promise<void> {
  const engine = await createEngine({ storage: fileStorage(dir!), eventLog: new FileEventLog(join(dir!, 'events')), account: ACCOUNT, log: { error: () => undefined, info: () => undefined } })
  const call = async (path: string, form: Record<string, string>) => {
    const r = await engine.handle({ method: 'POST', path, query: {}, body: new URLSearchParams(form).toString(), headers: FORM })
    return JSON.parse(r.body) as Record<string, string>
  }
  const token = (await call('/oauth/token', { grant_type: 'password', ...ACCOUNT })).access_token!
  const list = () => engine.handle({ method: 'GET', path: '/cms/v1/campaigns/list_spots', query: { access_token: token, campaign_id: '1', code_type: 'mma' } })
  let spot = (await list()).body
  if (!spot.startsWith('[{')) {
    await call('/cms/v1/campaigns/create', { access_token: token, campaign_name: 'crash', start_date: '2099-01-01', end_date: '2099-12-31' })
    await call('/cms/v1/campaigns/create_spot', { access_token: token, campaign_id: '1', publisher_name: 'P', channel_name: 'c', placement_name: 'p' })
    spot = (await list()).body
  }
  const tagUrl = new URL((JSON.parse(spot) as { tracking_tags: { impression_url: string } }[])[0]!.tracking_tags.impression_url).pathname
  say(`READY ${engine.measure.loaded} ${engine.measure.ingest.started.from}`)
  // sorted as at close, and as the ingest's own saves leave them (the unsorted tail as it is), in turn
  let saves = 0
  if (mode === 'checkpoints') setInterval(() => void engine.measure.ingest.checkpoint(saves++ % 2 === 0), 40)
  let n = 0
  const writer = async (): Promise<void> => {
    for (;;) {
      const id = n++
      const path = tagUrl.replace('__IDFA__', `${tag}-${id}`).replace('__REQUESTID__', `${tag}-${id}`)
      const r = await engine.handle({ method: 'GET', path, query: {}, rawQuery: '', headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' }, remoteAddress: '127.0.0.1' })
      // (recorded either way: the campaign's dates lie ahead, so its hits count in no report yet)
      const said = r.headers['x-admonitor-counted'] ?? ''
      if (r.status !== 200 || (said !== '1' && !said.startsWith("0; outside the campaign's dates ("))) {
        say(`ERR ${id} ${r.status} ${r.headers['x-admonitor-counted']}`)
        process.exit(3)
      }
      say(`ACK ${id}`)
    }
  }
  await Promise.all([writer(), writer(), writer(), writer()])
}

main().catch((err: Error) => {
  say(`FATAL ${err.stack ?? err.message}`)
  process.exit(2)
})
