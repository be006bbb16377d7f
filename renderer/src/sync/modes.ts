/**
 * Server modes of the localhost door (docs/sync.md "Server modes"), as the Sync page's "Server
 * modes" tab shows and changes them. Pure.
 */
import type { ResultOf } from '../../../engine/contract/endpoints'
import { MODE_GROUPS, SERVER_MODES, type ModeGroup, type ServerMode } from '../../../engine/contract/endpoints-sync-modes'

export type ModeRow = ResultOf<'sync.modes_list'>[number]
export { MODE_GROUPS, SERVER_MODES, type ModeGroup, type ServerMode }

/** Every group, in the contract's order: a group the engine did not list is `local`. */
export function modeRows(rows: readonly ModeRow[]): ModeRow[] {
  return MODE_GROUPS.map((group) => rows.find((r) => r.group === group)
    ?? { group, mode: 'local', profile_id: '', profile_name: '', recorded: 0, updated_at: '' })
}

export type ModeChange =
  | { ok: true; params: { group: ModeGroup; mode: ServerMode; profile_id?: string } }
  | { ok: false; reason: 'needProfile' | 'unchanged' }

/**
 * The `sync.modes_set` parameters that put `row`'s group into `mode` with `profileId` (forward and
 * offline need a profile; local takes none), or why nothing is sent.
 */
export function modeChange(row: ModeRow, mode: ServerMode, profileId: string | null): ModeChange {
  if (mode === 'local') return row.mode === 'local' ? { ok: false, reason: 'unchanged' } : { ok: true, params: { group: row.group, mode } }
  if (!profileId) return { ok: false, reason: 'needProfile' }
  if (row.mode === mode && row.profile_id === profileId) return { ok: false, reason: 'unchanged' }
  return { ok: true, params: { group: row.group, mode, profile_id: profileId } }
}

/** The profile a group that is switched to forward or offline starts with: its own, else the page's, else the first. */
export function defaultModeProfile(row: ModeRow, selected: string | null, profileIds: readonly string[]): string | null {
  if (row.profile_id && profileIds.includes(row.profile_id)) return row.profile_id
  if (selected && profileIds.includes(selected)) return selected
  return profileIds[0] ?? null
}

/** Whether any group is answered from a remote (the page warns that the door no longer shows local data there). */
export function anyRemote(rows: readonly ModeRow[]): boolean {
  return rows.some((r) => r.mode !== 'local')
}
