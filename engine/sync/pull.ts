/**
 * One pull (docs/sync.md): log in, the reference lists (one checkpoint), then campaign after
 * campaign, each stored in one transaction with its spots, targets and publishers and checkpointed,
 * and at the end the campaigns the remote no longer has removed. A failure or a cancel leaves
 * every finished campaign stored and consistent; the next pull resumes after them.
 */
import { checkCancelled, type JobDeps } from './jobs'
import { fetchCampaign, fetchCampaignIds, fetchReference, type RemoteCampaignData } from './pull-fetch'
import { problem } from '../contract/problems'
import { isRefusal } from './remote-error'
import { messageColumns, oneAfterAnother, toldOf } from './said'
import { markCampaignDone, saveRun, type PullRun } from './pull-state'
import { CAMPAIGN_CHILDREN, removeCampaign, replaceSet, storedCampaignIds, upsertRecord } from './store'

async function pullReference(d: JobDeps, run: PullRun): Promise<void> {
  run.phase = 'reference'
  const sets = await fetchReference(d.client, d.pageSize, run.notes)
  checkCancelled(d.signal, 'pull')
  d.db.tx(() => {
    for (const s of sets) replaceSet(d.db, run.profile_id, s.kind, null, s.rows, d.now(), run.counts)
    run.phase = 'campaigns'
    saveRun(d.db, run)
  })
  await d.durable()
}

/** Stores one campaign: its data, its removal (null: the remote no longer has it), or nothing (skipped). */
function storeCampaign(d: JobDeps, run: PullRun, id: string, data: RemoteCampaignData | null | 'skipped'): void {
  const now = d.now()
  d.db.tx(() => {
    if (data === null) removeCampaign(d.db, run.profile_id, id, run.counts)
    else if (data !== 'skipped') {
      upsertRecord(d.db, run.profile_id, 'campaign', data.campaign, now, run.counts)
      for (const kind of CAMPAIGN_CHILDREN) replaceSet(d.db, run.profile_id, kind, id, data[`${kind}s`], now, run.counts)
    }
    markCampaignDone(d.db, run, id)
    saveRun(d.db, run)
  })
}

async function pullCampaigns(d: JobDeps, run: PullRun): Promise<string[]> {
  run.phase = 'campaigns'
  const ids = await fetchCampaignIds(d.client, d.pageSize)
  run.campaigns_total = new Set([...ids, ...run.done]).size
  for (const id of ids) {
    if (run.done.has(id)) continue
    checkCancelled(d.signal, 'pull')
    const data = await fetchCampaign(d.client, id, d.pageSize).catch((err: unknown) => {
      // one campaign the remote refuses (e.g. access_denied) does not stop the others
      if (!isRefusal(err, true)) throw err
      run.notes.push(problem('pull.campaignSkipped', { id, reason: toldOf(err) }))
      return 'skipped' as const
    })
    checkCancelled(d.signal, 'pull')
    storeCampaign(d, run, id, data)
    await d.durable()
  }
  return ids
}

/** Runs (or resumes) `run` to its end; throws a RemoteError when it stops early. */
export async function runPull(d: JobDeps, run: PullRun): Promise<void> {
  run.phase = 'login'
  await d.client.login()
  if (!run.resumed) await pullReference(d, run)
  const ids = new Set(await pullCampaigns(d, run))
  checkCancelled(d.signal, 'pull')
  d.db.tx(() => {
    for (const id of storedCampaignIds(d.db, run.profile_id)) if (!ids.has(id)) removeCampaign(d.db, run.profile_id, id, run.counts)
    run.phase = 'done'
    run.state = 'done'
    Object.assign(run, messageColumns(oneAfterAnother(run.notes)))
    run.finished_at = d.now()
    saveRun(d.db, run)
  })
  await d.durable()
}
