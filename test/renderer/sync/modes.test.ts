// renderer/src/sync/modes.ts: the server modes tab of the Sync page
import { describe, expect, it } from 'vitest'
import { anyRemote, defaultModeProfile, modeChange, modeRows, type ModeRow } from '../../../renderer/src/sync/modes'

const row = (over: Partial<ModeRow> = {}): ModeRow => ({ group: 'reports', mode: 'local', profile_id: '', profile_name: '', recorded: 0, updated_at: '', ...over })

describe('modeRows', () => {
  it('lists every group in order, local when the engine has no row', () => {
    const rows = modeRows([row({ mode: 'forward', profile_id: '2', profile_name: 'vendor' })])
    expect(rows.map((r) => [r.group, r.mode])).toEqual([['campaigns', 'local'], ['reference', 'local'], ['reports', 'forward']])
    expect(rows[2]!.profile_name).toBe('vendor')
  })
})

describe('modeChange', () => {
  it('sends local without a profile', () => {
    expect(modeChange(row({ mode: 'offline', profile_id: '1' }), 'local', '1')).toEqual({ ok: true, params: { group: 'reports', mode: 'local' } })
  })

  it('needs a profile for forward and offline', () => {
    expect(modeChange(row(), 'forward', null)).toEqual({ ok: false, reason: 'needProfile' })
    expect(modeChange(row(), 'offline', '3')).toEqual({ ok: true, params: { group: 'reports', mode: 'offline', profile_id: '3' } })
  })

  it('sends nothing when nothing changes', () => {
    expect(modeChange(row(), 'local', null)).toEqual({ ok: false, reason: 'unchanged' })
    expect(modeChange(row({ mode: 'forward', profile_id: '3' }), 'forward', '3')).toEqual({ ok: false, reason: 'unchanged' })
    expect(modeChange(row({ mode: 'forward', profile_id: '3' }), 'forward', '4').ok).toBe(true)
  })
})

describe('defaultModeProfile and anyRemote', () => {
  it('prefers the group profile, then the page profile, then the first', () => {
    expect(defaultModeProfile(row({ profile_id: '2' }), '1', ['1', '2'])).toBe('2')
    expect(defaultModeProfile(row({ profile_id: '9' }), '1', ['1', '2'])).toBe('1')
    expect(defaultModeProfile(row(), null, ['5'])).toBe('5')
    expect(defaultModeProfile(row(), null, [])).toBeNull()
  })

  it('tells when a group is answered from a remote', () => {
    expect(anyRemote([row()])).toBe(false)
    expect(anyRemote([row(), row({ mode: 'offline', profile_id: '1' })])).toBe(true)
  })
})
