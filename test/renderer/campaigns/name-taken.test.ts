// renderer/src/campaigns/name-taken.ts: which campaign already has the typed name
import { describe, expect, it } from 'vitest'
import { takenBy } from '../../../renderer/src/campaigns/name-taken'

const rows = [{ campaign_id: '3', campaign_name: 'Spring launch 2' }, { campaign_id: '5', campaign_name: 'Spring launch' }]

describe('takenBy', () => {
  it('finds the campaign whose name is exactly the one typed, among the rows its search answered', () => {
    expect(takenBy(rows, 'Spring launch', null)).toBe('5')
  })

  it('is null for a name only contained in others, another case, or the campaign being edited', () => {
    expect(takenBy(rows, 'Spring', null)).toBeNull()
    expect(takenBy(rows, 'spring launch', null)).toBeNull()
    expect(takenBy(rows, 'Spring launch', '5')).toBeNull()
  })
})
