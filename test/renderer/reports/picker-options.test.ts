// renderer/src/reports/picker-options.ts and table.ts: what the pickers offer, column titles
import { describe, expect, it } from 'vitest'
import { pickerFields, severalPositions, type PickerData } from '../../../renderer/src/reports/picker-options'
import { defaultPickers, type Pickers } from '../../../renderer/src/reports/pickers'
import { formatCell, metricColumn } from '../../../renderer/src/reports/table'
import { GLOBAL, MAINLAND, env, panel, spot, t } from './fixtures'

const data: PickerData = {
  spots: [spot('1', '10', []), spot('2', '11', [], [[5, 'shampoo']])],
  publishers: [{ publisher_id: '10', publisher_name: 'Pub 10' }, { publisher_id: '11', publisher_name: 'Pub 11' }],
  targets: [],
  regions: [{ region_id: GLOBAL, region_name: 'Global', parent_id: '', level: 0 }, { region_id: MAINLAND, region_name: 'Mainland', parent_id: GLOBAL, level: 0 }],
  minisites: [],
  panels: ['p1'],
  panel,
}
const pick = (over: Partial<Pickers> = {}): Pickers => ({ ...defaultPickers(), ...over })
const keys = (view: Parameters<typeof pickerFields>[1], p = pick()) => pickerFields(p, view, env, data, t).map((f) => f.key)

describe('pickerFields', () => {
  it('shows each view its own pickers', () => {
    expect(keys('trend')).toEqual(['by_position', 'publisher_id', 'spot_id', 'keyword_id', 'by_audience', 'target_id', 'by_region', 'region_id', 'platform', 'sdk', 'filtration_type'])
    expect(keys('realtime')).toEqual(['by_position', 'publisher_id', 'spot_id', 'platform'])
    expect(keys('region')).toEqual(['rank_level', 'metrics', 'measure', 'by_position', 'publisher_id', 'spot_id', 'keyword_id', 'by_audience', 'target_id', 'platform', 'sdk', 'filtration_type'])
    expect(keys('audience')).toEqual(['panel_id', 'type_id', 'audience_measure', 'by_position', 'publisher_id', 'spot_id'])
    expect(keys('minisite')[0]).toBe('minisite_id')
  })

  it('disables the target audience without targets, and pickers the API would refuse, with the reason', () => {
    const fields = pickerFields(pick(), 'hours', env, data, t)
    expect(fields.find((f) => f.key === 'by_audience')!.options.find((o) => o.value === 'target')).toMatchObject({ disabled: true, reason: 'reports.reason.noTargets' })
    expect(fields.find((f) => f.key === 'spot_id')!.disabledReason).toMatch(/'spot_id'/)
    expect(fields.find((f) => f.key === 'sdk')!.disabledReason).toMatch(/'sdk'/)
    expect(fields.find((f) => f.key === 'region_id')!.options.map((o) => o.value)).toEqual([MAINLAND])
  })

  it('offers keyword positions only where the report has them, and lists spots of the chosen publishers', () => {
    const reach = pickerFields(pick(), 'reach', env, data, t).find((f) => f.key === 'by_position')!
    expect(reach.options.find((o) => o.value === 'keyword')).toMatchObject({ disabled: true })
    const spots = pickerFields(pick({ by_position: 'spot', publisher_id: ['11'] }), 'trend', env, data, t).find((f) => f.key === 'spot_id')!
    expect(spots.options.map((o) => o.value)).toEqual(['2'])
    expect(spots.disabledReason).toBeNull()
  })

  it('disables unique figures of the ranking when several positions would be added up', () => {
    expect(severalPositions(pick({ by_position: 'spot', spot_id: ['1'] }))).toBe(false)
    expect(severalPositions(pick({ by_position: 'spot' }))).toBe(true)
    const measure = pickerFields(pick({ by_position: 'publisher' }), 'region', env, data, t).find((f) => f.key === 'measure')!
    expect(measure.options.filter((o) => o.disabled).map((o) => o.value)).toEqual(['uim', 'ucl'])
    const periods = pickerFields(pick({ by_audience: 'target' }), 'region', env, data, t).find((f) => f.key === 'metrics')!
    expect(periods.options.map((o) => [o.value, o.disabled])).toEqual([['acc', false], ['day', true], ['avg_day', false]])
  })
})

describe('table columns', () => {
  it('titles metrics by figure and period, with the wire name as the hint', () => {
    expect(metricColumn(t, 'imp_day')).toEqual({ key: 'imp_day', title: 'reports.measure.imp · reports.period.day', numeric: true, hint: 'imp_day' })
    expect(metricColumn(t, 'rch_acc_p03').title).toBe('reports.measure.rch · 3+')
    expect(metricColumn(t, 'rch_spl_p10').title).toBe('reports.measure.spl{"of":"reports.measure.rch"} · 10+')
    expect(metricColumn(t, 'imp_acc_h07').title).toBe('reports.measure.imp · reports.period.acc 07:00')
    expect(metricColumn(t, 'uim_spl').title).toBe('reports.measure.spl{"of":"reports.measure.uim"}')
  })

  it('formats numbers with separators and leaves text alone', () => {
    expect(formatCell(1234567, 'en')).toBe('1,234,567')
    expect(formatCell(null, 'en')).toBe('–')
    expect(formatCell('a', 'en')).toBe('a')
  })
})
