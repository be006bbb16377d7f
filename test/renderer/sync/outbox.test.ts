// renderer/src/sync/outbox.ts: editing an operation's parameters, the conflict field by field, push progress
import { describe, expect, it } from 'vitest'
import {
  choiceEdit, conflictRows, countByState, duplicateNames, sendRows, outcomeCounts, outcomeTone, paramRows, paramsEdit, pushPercent, type OutboxOp, type PushStatus,
} from '../../../renderer/src/sync/outbox'

describe('operation parameters', () => {
  it('lists the parameters as sorted rows', () => {
    expect(paramRows({ spot_name: 'B', campaign_id: '7', n: 3 })).toEqual([{ name: 'campaign_id', value: '7' }, { name: 'n', value: '3' }, { name: 'spot_name', value: 'B' }])
    expect(paramRows(null)).toEqual([])
  })

  it('sends only what changed, and an empty value for a member removed', () => {
    const before = paramRows({ a: '1', b: '2', c: '3' })
    const after = [{ name: 'a', value: '1' }, { name: 'b', value: 'two words' }, { name: 'd', value: '&' }, { name: ' ', value: 'ignored' }]
    expect(paramsEdit(before, after)).toBe('b=two+words&d=%26&c=')
    expect(paramsEdit(before, before)).toBe('')
  })

  it('finds names given twice', () => {
    expect(duplicateNames([{ name: 'a', value: '' }, { name: ' a', value: '' }, { name: 'b', value: '' }])).toEqual(['a'])
  })
})

describe('conflicts and pushes', () => {
  it('shows the fields both sides changed first', () => {
    const conflict: OutboxOp['conflict'] = [
      { name: 'description', local: null, base: 'old', remote: 'theirs' },
      { name: 'end_date', local: '2025-02-01', base: '2025-01-31', remote: '2025-01-15' },
    ]
    expect(conflictRows(conflict)).toEqual([
      { name: 'end_date', local: '2025-02-01', base: '2025-01-31', remote: '2025-01-15', sends: true, remoteChanged: true, localChanged: true, yields: false },
      { name: 'description', local: '', base: 'old', remote: 'theirs', sends: false, remoteChanged: true, localChanged: false, yields: false },
    ])
  })

  it("marks a field only the remote changed as the remote's to keep (keep mine leaves it), after those both sides changed", () => {
    const rows = conflictRows([
      { name: 'description', local: 'same', base: 'same', remote: 'theirs' },
      { name: 'linked_tvcaids', local: '1,2', base: [1, 2], remote: [1, 2, 3] },
      { name: 'slot_type', local: 'search', base: 'display', remote: 'video' },
    ])
    expect(rows.map((r) => [r.name, r.yields])).toEqual([['slot_type', false], ['description', true], ['linked_tvcaids', true]])
  })

  it("reads a flag sent as 0 or 1 as the record's false or true: no change", () => {
    const rows = conflictRows([
      { name: 'play_detect', local: '0', base: 'false', remote: 'false' },
      { name: 'total_net', local: '1', base: 'false', remote: 'true' },
    ])
    expect(rows.map((r) => [r.name, r.localChanged, r.remoteChanged])).toEqual([['total_net', true, true], ['play_detect', false, false]])
  })

  it('measures progress and colours outcomes', () => {
    const s = { state: 'running', ops_total: 4, ops_done: 1 } as PushStatus
    expect(pushPercent(s)).toBe(25)
    expect(pushPercent({ ...s, state: 'done' })).toBe(100)
    expect(pushPercent({ ...s, ops_total: 0 })).toBe(0)
    expect(['created', 'failed', 'conflict', 'not_sent'].map((o) => outcomeTone(o as never))).toEqual(['success', 'error', 'warning', 'default'])
  })

  it('counts operations by state and results by outcome', () => {
    const ops = [{ state: 'pending' }, { state: 'failed' }, { state: 'pending' }, { state: 'choose' }] as OutboxOp[]
    expect(countByState(ops)).toEqual({ pending: 2, sending: 0, failed: 1, conflict: 0, choose: 1 })
    const results = [{ outcome: 'failed' }, { outcome: 'created' }, { outcome: 'created' }] as PushStatus['results']
    expect(outcomeCounts(results)).toEqual([['created', 2], ['failed', 1]])
  })

  it("shows what the push sends: a reference's name beside its remote id, one not mapped yet, and what an update changes", () => {
    const op = {
      op: 'update',
      sends: [
        { name: 'advertiser_id', value: '5', label: '宝洁 Procter & Gamble', base: '宝洁 Procter & Gamble' },
        { name: 'agency_id', value: '', label: '哈瓦斯 Havas', base: 'AgencyX' },
        { name: 'play_detect', value: '1', label: '', base: 'false' },
      ],
    } as OutboxOp
    expect(sendRows(op).map((r) => [r.name, r.open, r.changed, r.base])).toEqual([
      ['advertiser_id', false, false, '宝洁 Procter & Gamble'], ['agency_id', true, true, 'AgencyX'], ['play_detect', false, true, 'false'],
    ])
    expect(choiceEdit({ advertiser_id: '6', agency_id: null, brand_id: '' })).toBe('advertiser_id=6&brand_id=')
    expect(choiceEdit({ advertiser_id: null })).toBe('')
  })
})
