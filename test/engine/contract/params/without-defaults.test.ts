// engine/contract/params.ts withoutDefaults: what recorded answers, snapshot series and the report
// screen's snapshot matching are keyed by (docs/sync.md, "Server modes")
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../../engine/contract/endpoints'
import { withoutDefaults } from '../../../../engine/contract/params'

describe('withoutDefaults', () => {
  it('leaves out what says what the default says, as the codec reads it, and keeps the rest', () => {
    const params = { campaign_id: '12', date: '2025-01-20', platform: 'pc', metrics: 'ACC', with_null: '0', by_position: 'spot', limit: 'x' }
    expect(withoutDefaults(endpoints['reports.basic_show'].params, params)).toEqual({ campaign_id: '12', date: '2025-01-20', by_position: 'spot', limit: 'x' })
    expect(withoutDefaults(endpoints['campaigns.list'].params, { limit: '0,500', campaign_name: 'a', unknown: '1' })).toEqual({ campaign_name: 'a', unknown: '1' })
  })
})
