// renderer/src/campaign/targets.ts: tag expressions built from and read back into a selection
import { describe, expect, it } from 'vitest'
import type { Panel, PanelSummary } from '../../../engine/contract/models'
import type { BasicReport } from '../../../engine/contract/models-reports'
import { buildExpression, describeExpression, estimateUniverse, GLOBAL_REGION, parseExpression, universeByTarget } from '../../../renderer/src/campaign/targets'

const panel: Panel = {
  panel_id: 'china-123', panel_name: 'China', platform: 'pc',
  type_list: [{ type_id: 'gender', type_name: 'Gender' }, { type_id: 'age', type_name: 'Age' }],
  tag_list: [
    { type_id: 'gender', tag_id: 'male', tag_name: 'Male' },
    { type_id: 'gender', tag_id: 'female', tag_name: 'Female' },
    { type_id: 'age', tag_id: '20-24Y', tag_name: '20-24' },
    { type_id: 'age', tag_id: '25-29Y', tag_name: '25-29' },
  ],
}

describe('buildExpression', () => {
  it('joins tags of a type with , and types with &, in the panel order', () => {
    expect(buildExpression(panel, { age: ['25-29Y', '20-24Y'], gender: ['female'] })).toBe('female&20-24Y,25-29Y')
    expect(buildExpression(panel, { gender: [], age: ['20-24Y'] })).toBe('20-24Y')
    expect(buildExpression(panel, {})).toBe('')
  })
})

describe('parseExpression', () => {
  it('reads an expression back into the selection', () => {
    expect(parseExpression(' female & 20-24Y,25-29Y ', panel)).toEqual({ selection: { gender: ['female'], age: ['20-24Y', '25-29Y'] }, problems: [] })
    expect(parseExpression('', panel)).toEqual({ selection: {}, problems: [] })
  })

  it('reports what publish_target would refuse', () => {
    expect(parseExpression('male,20-24Y', panel).problems).toEqual([{ code: 'mixedTypes', tags: ['male', '20-24Y'] }])
    expect(parseExpression('male&female', panel).problems).toEqual([{ code: 'typeTwice', type: 'gender' }])
    expect(parseExpression('male&&x', panel).problems).toEqual([{ code: 'emptyGroup' }, { code: 'unknownTag', tag: 'x' }])
  })

  it('round-trips with buildExpression', () => {
    const text = 'male,female&25-29Y'
    expect(buildExpression(panel, parseExpression(text, panel).selection)).toBe(text)
  })
})

describe('describeExpression', () => {
  it('names the types and tags', () => {
    expect(describeExpression('female&20-24Y,zz', panel)).toEqual([{ type: 'Gender', tags: ['Female'] }, { type: 'Age', tags: ['20-24', 'zz'] }])
  })
})

describe('universe', () => {
  const summary: PanelSummary = {
    panel_id: 'china-123', synthetic: false, persons: 4, devices: 4, weight_total: 1000,
    by_type: { gender: [{ tag_id: 'male', persons: 2, weight: 600 }, { tag_id: 'female', persons: 2, weight: 400 }], age: [{ tag_id: '20-24Y', persons: 1, weight: 250 }, { tag_id: '25-29Y', persons: 3, weight: 750 }] },
    by_region_level1: [],
  }

  it('is exact for one tag type and an independence estimate across types', () => {
    expect(estimateUniverse(summary, { gender: ['male', 'female'] })).toEqual({ value: 1000, exact: true })
    expect(estimateUniverse(summary, { gender: ['female'], age: ['20-24Y'] })).toEqual({ value: 100, exact: false })
    expect(estimateUniverse(summary, { gender: [] })).toBeNull()
    expect(estimateUniverse({ ...summary, weight_total: 0 }, { gender: ['male'] })).toBeNull()
  })

  it('takes published targets from the report, global region first', () => {
    const report = {
      campaign_id: 1, date: '2025-01-10', version: 'V1.0', platform: 'pm', total_spot_num: 1,
      items: [
        { attributes: { target_id: '1', region_id: '0'.repeat(23) + '8', universe: 5 }, metrics: {} },
        { attributes: { target_id: '1', region_id: GLOBAL_REGION, universe: 9 }, metrics: {} },
        { attributes: { target_id: '2', region_id: GLOBAL_REGION, universe: null }, metrics: {} },
      ],
    } as BasicReport
    expect([...universeByTarget(report)]).toEqual([['1', 9]])
  })
})
