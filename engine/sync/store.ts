/**
 * Pulled records (remote origin), compared by content hash: a pull writes only the records that
 * were added or changed and deletes those the remote no longer has, and counts each per kind.
 */
import { createHash } from 'node:crypto'
import type { RemoteKind } from '../contract/endpoints-sync'
import type { Db } from '../storage/db'
import { deleteCampaignRecord, deleteChildRecords, deleteRecord, insertRecord, recordHash as storedHash, recordHashes, updateRecord, upsertRecordRow } from '../storage/repos/sync-records'

export { storedCampaignIds } from '../storage/repos/sync-records'

export interface Counts {
  added: number
  changed: number
  removed: number
  unchanged: number
}
export type CountsByKind = Partial<Record<RemoteKind, Counts>>

export interface Incoming {
  remote_id: string
  parent_id: string
  name: string
  record: unknown
}

/** JSON with object members in sorted order, so equal content hashes equally. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>
    return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`
  }
  return JSON.stringify(v) ?? 'null'
}

/** The SHA-256 (hex) of a text: of canonical JSON, the hash records and snapshots are stored with. */
export const textHash = (text: string): string => createHash('sha256').update(text).digest('hex')

/** The hash a pulled record is stored with (of its canonical JSON). */
export const recordHash = (record: unknown): string => textHash(canonicalJson(record))

/** What a pulled record is stored as: its JSON with the members in the remote's order, and its hash. */
const storedForm = (record: unknown): { text: string; hash: string } => ({ text: JSON.stringify(record), hash: recordHash(record) })

export function bump(counts: CountsByKind, kind: RemoteKind, what: keyof Counts, n = 1): void {
  const c = (counts[kind] ??= { added: 0, changed: 0, removed: 0, unchanged: 0 })
  c[what] += n
}

/**
 * Makes the stored records of `kind` (of one parent, or of every parent when `parent` is null)
 * equal to `incoming`. Must run inside a transaction.
 */
export function replaceSet(db: Db, profileId: number, kind: RemoteKind, parent: string | null, incoming: readonly Incoming[], now: string, counts: CountsByKind): void {
  const stored = new Map(recordHashes(db, profileId, kind, parent).map((r) => [`${r.parent_id}\u0000${r.remote_id}`, r.hash]))
  for (const r of incoming) {
    const key = `${r.parent_id}\u0000${r.remote_id}`
    const { text, hash } = storedForm(r.record)
    const old = stored.get(key)
    stored.delete(key)
    if (old === hash) bump(counts, kind, 'unchanged')
    else if (old === undefined) {
      insertRecord(db, profileId, kind, { parent_id: r.parent_id, remote_id: r.remote_id, name: r.name, text, hash }, now)
      bump(counts, kind, 'added')
    } else {
      updateRecord(db, profileId, kind, { parent_id: r.parent_id, remote_id: r.remote_id, name: r.name, text, hash }, now)
      bump(counts, kind, 'changed')
    }
  }
  for (const key of stored.keys()) {
    const [parentId, remoteId] = key.split('\u0000') as [string, string]
    deleteRecord(db, profileId, kind, parentId, remoteId)
    bump(counts, kind, 'removed')
  }
}

/** Adds or updates one record, leaving the others of its kind alone. Inside a transaction. */
export function upsertRecord(db: Db, profileId: number, kind: RemoteKind, r: Incoming, now: string, counts: CountsByKind): void {
  const old = storedHash(db, profileId, kind, r.parent_id, r.remote_id)
  const { text, hash } = storedForm(r.record)
  if (old === hash) return bump(counts, kind, 'unchanged')
  upsertRecordRow(db, profileId, kind, { parent_id: r.parent_id, remote_id: r.remote_id, name: r.name, text, hash }, now)
  bump(counts, kind, old === undefined ? 'added' : 'changed')
}

export const CAMPAIGN_CHILDREN = ['spot', 'target', 'publisher'] as const

/** Removes a campaign the remote no longer has, with its spots, targets and publishers. */
export function removeCampaign(db: Db, profileId: number, campaignId: string, counts: CountsByKind): void {
  if (deleteCampaignRecord(db, profileId, campaignId) > 0) bump(counts, 'campaign', 'removed')
  for (const kind of CAMPAIGN_CHILDREN) {
    const changes = deleteChildRecords(db, profileId, kind, campaignId)
    if (changes > 0) bump(counts, kind, 'removed', changes)
  }
}
