// renderer/src/sync/remote-records.ts: pulled records (as the remote answered them) to table rows
import { describe, expect, it } from 'vitest'
import { campaignFields, campaignMember, matches, publisherRows, spotRows, targetRows } from '../../../renderer/src/sync/remote-records'

describe('remote records', () => {
  it('reads a member of a pulled campaign as text, empty when missing', () => {
    expect(campaignMember({ campaign: { start_date: '2025-01-01', budget: 5 } }, 'start_date')).toBe('2025-01-01')
    expect(campaignMember({ campaign: { budget: 5 } }, 'budget')).toBe('5')
    expect(campaignMember({ campaign: { end_date: null } }, 'end_date')).toBe('')
    expect(campaignMember({ campaign: null }, 'end_date')).toBe('')
  })

  it('reads spots with their keyword and plan counts, and tolerates odd shapes', () => {
    const spots = [{ spot_id: '7', spot_id_str: 'a1', publisher_name: 'Sina', keyword: [{}, {}], spot_plan: [{}], channel_name: null }]
    expect(spotRows(spots)).toEqual([{ spot_id: '7', spot_id_str: 'a1', publisher_name: 'Sina', channel_name: '', placement_name: '', placement_type: '', keywords: 2, plan_days: 1 }])
    expect(spotRows(null)).toEqual([])
    expect(spotRows({ items: [] })).toEqual([])
  })

  it('reads targets and publishers', () => {
    expect(targetRows([{ target_id: 3, target_name: 'Women', panel_id: 'pm', tag_id: '1&2' }])).toEqual([{ target_id: '3', target_name: 'Women', panel_id: 'pm', tag_id: '1&2' }])
    expect(publisherRows([{ publisher_id: '9', publisher_name: 'Youku' }])).toEqual([{ publisher_id: '9', publisher_name: 'Youku' }])
  })

  it('lists the known campaign members first, then other scalar members', () => {
    const f = campaignFields({ zeta: 1, campaign_name: 'Spring', campaign_id: '12', nested: { a: 1 }, linked_panels: ['pm'] })
    expect(f).toEqual([['campaign_id', '12'], ['campaign_name', 'Spring'], ['linked_panels', '["pm"]'], ['zeta', '1']])
  })

  it('matches a search text in any column, ignoring case', () => {
    expect(matches({ a: 'Sina News', b: 3 }, 'news')).toBe(true)
    expect(matches({ a: 'Sina News', b: 3 }, '3')).toBe(true)
    expect(matches({ a: 'Sina' }, 'youku')).toBe(false)
    expect(matches({ a: 'Sina' }, '  ')).toBe(true)
  })
})
