/**
 * The reference lists a push maps names with (outbox-refs.ts), read again from the remote when a
 * name is not found in the stored ones: the lists may never have been pulled, or the remote was
 * given the advertiser since. Each list is read at most once per push, and stored as a pull
 * stores it; a list the remote refuses leaves the choice to the user.
 */
import type { RemoteKind } from '../contract/endpoints-sync'
import type { JobDeps } from './jobs'
import type { OpRow } from './outbox'
import { paramsToSend } from './outbox-diff'
import { resolveRefs, type Resolved } from './outbox-refs'
import { REFERENCE, fetchBrands, fetchList } from './pull-fetch'
import { isRefusal } from './remote-error'
import { replaceSet, type Incoming } from './store'

/** Reads one list (`advertiser`, `agency` or `brand:<advertiser id>`) and stores it. */
async function refresh(d: JobDeps, profileId: number, list: string): Promise<void> {
  const [kind, parent] = list.split(':') as [RemoteKind, string | undefined]
  let rows: Incoming[]
  try {
    const spec = REFERENCE.find((l) => l.kind === kind)
    rows = parent !== undefined ? await fetchBrands(d.client, [{ remote_id: parent }], d.pageSize) : spec ? await fetchList(d.client, spec, d.pageSize) : []
  } catch (err) {
    if (isRefusal(err, true)) return
    throw err
  }
  d.db.tx(() => replaceSet(d.db, profileId, kind, parent ?? null, rows, d.now(), {}))
  await d.durable()
}

/** The operation's form with its references mapped, reading the lists a name was not found in (once per push: `read`). */
export async function mapRefs(d: JobDeps, op: OpRow, read: Set<string>): Promise<Resolved> {
  const params = paramsToSend(d.db, op)
  let r = resolveRefs(d.db, op.profile_id, params)
  for (;;) {
    const lists = r.choices.filter((c) => c.reason !== 'several').map((c) => (c.kind === 'brand' ? `brand:${r.form.advertiser_id ?? ''}` : c.kind)).filter((l) => !read.has(l))
    if (lists.length === 0) return r
    for (const l of lists) {
      read.add(l)
      await refresh(d, op.profile_id, l)
    }
    r = resolveRefs(d.db, op.profile_id, params)
  }
}
