// renderer/src/reports/pickers.ts: remembered state read back safely
import { describe, expect, it } from 'vitest'
import { defaultPickers, readPickers, rememberable, screenKey, withChange } from '../../../renderer/src/reports/pickers'

describe('readPickers', () => {
  it('keeps valid remembered values and replaces the rest by defaults', () => {
    const p = readPickers({ view: 'reach', by_position: 'spot', spot_id: ['1', 2, 'bad id!'], platform: 'tv', target_id: '4', region_id: 5, date: '2026-01-01', junk: 1 })
    expect(p).toMatchObject({ view: 'reach', by_position: 'spot', spot_id: ['1'], platform: 'pm', target_id: '4', region_id: null, date: null })
    expect(p).not.toHaveProperty('junk')
  })

  it('gives the defaults for nothing remembered', () => {
    expect(readPickers({})).toEqual(defaultPickers())
  })

  it('shows every platform by default (a plan has none), where the API defaults to pc', () => {
    expect(defaultPickers().platform).toBe('pm')
  })
})

describe('rememberable and withChange', () => {
  it('never remembers the date', () => {
    expect(rememberable({ ...defaultPickers(), date: '2026-01-01' })).not.toHaveProperty('date')
    expect(screenKey('12')).toBe('reports:12')
  })

  it('clears the choices that depended on the changed picker', () => {
    const p = { ...defaultPickers(), region_id: 'r', target_id: 't', type_id: ['age'], by_audience: 'target' as const }
    expect(withChange(p, 'by_region', 'level2').region_id).toBeNull()
    expect(withChange(p, 'by_audience', 'overall').target_id).toBeNull()
    expect(withChange(p, 'by_audience', 'target').target_id).toBe('t')
    expect(withChange(p, 'panel_id', 'p2').type_id).toEqual([])
  })
})
