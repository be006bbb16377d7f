/**
 * Pulled records (remote origin), compared by content hash: a pull writes only the records that
 * were added or changed and deletes those the remote no longer has, and counts each per kind.
 */
import { createHash } from 'node:crypto'
import type { RemoteKind } from '../contract/endpoints-sync'
import type { Db } from '../storage/db'

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
  const where = parent === null ? '' : ' AND parent_id = ?'
  const args = parent === null ? [profileId, kind] : [profileId, kind, parent]
  const stored = new Map(db.query<{ parent_id: string; remote_id: string; hash: string }>(`SELECT parent_id, remote_id, hash FROM remote_records WHERE profile_id = ? AND kind = ?${where}`, args).map((r) => [`${r.parent_id}\u0000${r.remote_id}`, r.hash]))
  for (const r of incoming) {
    const key = `${r.parent_id}\u0000${r.remote_id}`
    const { text, hash } = storedForm(r.record)
    const old = stored.get(key)
    stored.delete(key)
    if (old === hash) bump(counts, kind, 'unchanged')
    else if (old === undefined) {
      db.run('INSERT INTO remote_records (profile_id, kind, parent_id, remote_id, name, record, hash, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [profileId, kind, r.parent_id, r.remote_id, r.name, text, hash, now])
      bump(counts, kind, 'added')
    } else {
      db.run('UPDATE remote_records SET name = ?, record = ?, hash = ?, fetched_at = ? WHERE profile_id = ? AND kind = ? AND parent_id = ? AND remote_id = ?', [r.name, text, hash, now, profileId, kind, r.parent_id, r.remote_id])
      bump(counts, kind, 'changed')
    }
  }
  for (const key of stored.keys()) {
    const [parentId, remoteId] = key.split('\u0000') as [string, string]
    db.run('DELETE FROM remote_records WHERE profile_id = ? AND kind = ? AND parent_id = ? AND remote_id = ?', [profileId, kind, parentId, remoteId])
    bump(counts, kind, 'removed')
  }
}

/** Adds or updates one record, leaving the others of its kind alone. Inside a transaction. */
export function upsertRecord(db: Db, profileId: number, kind: RemoteKind, r: Incoming, now: string, counts: CountsByKind): void {
  const old = db.scalar<string>('SELECT hash FROM remote_records WHERE profile_id = ? AND kind = ? AND parent_id = ? AND remote_id = ?', [profileId, kind, r.parent_id, r.remote_id])
  const { text, hash } = storedForm(r.record)
  if (old === hash) return bump(counts, kind, 'unchanged')
  db.run(
    `INSERT INTO remote_records (profile_id, kind, parent_id, remote_id, name, record, hash, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(profile_id, kind, parent_id, remote_id) DO UPDATE SET name = excluded.name, record = excluded.record, hash = excluded.hash, fetched_at = excluded.fetched_at`,
    [profileId, kind, r.parent_id, r.remote_id, r.name, text, hash, now],
  )
  bump(counts, kind, old === undefined ? 'added' : 'changed')
}

export const CAMPAIGN_CHILDREN = ['spot', 'target', 'publisher'] as const

/** Removes a campaign the remote no longer has, with its spots, targets and publishers. */
export function removeCampaign(db: Db, profileId: number, campaignId: string, counts: CountsByKind): void {
  const { changes } = db.run("DELETE FROM remote_records WHERE profile_id = ? AND kind = 'campaign' AND remote_id = ?", [profileId, campaignId])
  if (changes > 0) bump(counts, 'campaign', 'removed')
  for (const kind of CAMPAIGN_CHILDREN) {
    const r = db.run('DELETE FROM remote_records WHERE profile_id = ? AND kind = ? AND parent_id = ?', [profileId, kind, campaignId])
    if (r.changes > 0) bump(counts, kind, 'removed', r.changes)
  }
}

/** Remote ids of the campaigns stored for a profile. */
export const storedCampaignIds = (db: Db, profileId: number): string[] =>
  db.query<{ remote_id: string }>("SELECT remote_id FROM remote_records WHERE profile_id = ? AND kind = 'campaign'", [profileId]).map((r) => r.remote_id)
