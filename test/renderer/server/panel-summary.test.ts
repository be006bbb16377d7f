// renderer/src/server/panel-summary.ts: a panel's summary as named tables
import { describe, expect, it } from 'vitest'
import { isSynthetic, panelOptions, percent, provinceRows, tagGroups, type PanelInfo, type PanelSummary } from '../../../renderer/src/server/panel-summary'

const panel: PanelInfo = {
  panel_id: 'china-pm-2026', panel_name: 'China PM panel 2026', platform: 'pm',
  type_list: [{ type_id: 'gender', type_name: 'Gender' }, { type_id: 'age', type_name: 'Age' }],
  tag_list: [
    { type_id: 'gender', tag_id: 'male', tag_name: 'Male' }, { type_id: 'gender', tag_id: 'female', tag_name: 'Female' },
    { type_id: 'age', tag_id: '18-24Y', tag_name: '18-24' },
  ],
}

const summary: PanelSummary = {
  panel_id: 'china-pm-2026', synthetic: false, persons: 10, devices: 14, weight_total: 1000,
  by_type: {
    age: [{ tag_id: '18-24Y', persons: 4, weight: 333 }],
    gender: [{ tag_id: 'male', persons: 6, weight: 600 }, { tag_id: 'female', persons: 4, weight: 400 }],
    extra: [{ tag_id: 'x', persons: 1, weight: 1 }],
  },
  by_region_level1: [
    { region_id: '000000000000001156110000', persons: 2, weight: 100 },
    { region_id: '000000000000001156310000', persons: 5, weight: 700 },
    { region_id: '000000000000001156440000', persons: 1, weight: 100 },
  ],
}

describe('tagGroups', () => {
  it('follows the panel type order, names tags and types, and counts untagged persons', () => {
    const groups = tagGroups(summary, panel)
    expect(groups.map((g) => g.type_id)).toEqual(['gender', 'age', 'extra'])
    expect(groups[0]).toEqual({
      type_id: 'gender', type_name: 'Gender', untagged: 0,
      rows: [{ tag_id: 'male', tag_name: 'Male', persons: 6, weight: 600, share: 60 }, { tag_id: 'female', tag_name: 'Female', persons: 4, weight: 400, share: 40 }],
    })
    expect(groups[1]!.rows[0]!.share).toBe(33.3)
    expect(groups[1]!.untagged).toBe(6)
    expect(groups[2]!.type_name).toBe('extra')
  })

  it('works without the panel (ids as names) and for an empty panel', () => {
    const groups = tagGroups({ ...summary, weight_total: 0, persons: 0 }, undefined)
    expect(groups[0]!.type_name).toBe('age')
    expect(groups[0]!.rows[0]).toMatchObject({ tag_name: '18-24Y', share: 0 })
    expect(groups[0]!.untagged).toBe(0)
  })
})

describe('provinceRows', () => {
  it('sorts by weight, heaviest first, with names', () => {
    const rows = provinceRows(summary, new Map([['000000000000001156310000', 'Shanghai']]))
    expect(rows.map((r) => r.region_name)).toEqual(['Shanghai', '000000000000001156110000', '000000000000001156440000'])
    expect(rows[0]!.share).toBe(70)
  })
})

describe('percent and panelOptions', () => {
  it('rounds to one decimal', () => {
    expect(percent(1, 3)).toBe(33.3)
    expect(percent(2, 3)).toBe(66.7)
    expect(percent(5, 0)).toBe(0)
  })

  it('labels panels with name and id', () => {
    const t = (k: string, p?: Record<string, unknown>) => (k === 'common.panel.builtIn' ? `中国 ${String(p?.platform)} 样本库 ${String(p?.year)}` : k)
    expect(panelOptions([panel], t)).toEqual([{ label: '中国 PM 样本库 2026 (china-pm-2026)', value: 'china-pm-2026' }])
    expect(panelOptions([{ ...panel, panel_id: 'my-panel', panel_name: 'Own panel' }], t)).toEqual([{ label: 'Own panel (my-panel)', value: 'my-panel' }])
  })
})

describe('isSynthetic', () => {
  it('says a summary is of the synthetic population only when the engine says true', () => {
    expect(isSynthetic({ ...summary, synthetic: true })).toBe(true)
    expect(isSynthetic(summary)).toBe(false)
  })
})
