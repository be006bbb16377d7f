// renderer/src/reports/rows-panel.ts and rows-minisite.ts: reach, audience and minisite rows
import { describe, expect, it } from 'vitest'
import type { ReportItem } from '../../../engine/contract/models-reports'
import { baseOf, composition, compositionTable, overviewBars, overviewTable, positionSamples, reachCurves, reachTable, smallSamples, tagOrder } from '../../../renderer/src/reports/rows-panel'
import { eventFigures, eventHours, eventHoursTable, minisiteTable } from '../../../renderer/src/reports/rows-minisite'
import { GLOBAL, MAINLAND, item, names, panel, t } from './fixtures'

const reachMetrics = (samples: number[]) => ({
  imp_acc: 5000, grp_acc: 50,
  ...Object.fromEntries(samples.map((s, i) => [`rch_acc_p${String(i + 1).padStart(2, '0')}`, 1000 - i * 100])),
  ...Object.fromEntries(samples.map((s, i) => [`rch_spl_p${String(i + 1).padStart(2, '0')}`, s])),
})

describe('reach', () => {
  const items = [
    item({ audience: 'target', target_id: '4', region_id: GLOBAL, universe: 10000 }, reachMetrics([900, 700, 500, 350, 299, 200, 100, 50, 10, 0])),
    item({ audience: 'overall', region_id: MAINLAND, universe: 20000 }, reachMetrics([900, 900, 900, 900, 900, 900, 900, 900, 900, 900])),
  ]

  it('reads a curve per row with its GRP, universe and samples', () => {
    const [c] = reachCurves(items, names)
    expect(c).toMatchObject({ label: 'Women · Global', universe: 10000, grp: 50, imp: 5000 })
    expect(c!.reach).toHaveLength(10)
    expect(c!.reach[9]).toBe(100)
    expect(c!.sample[4]).toBe(299)
  })

  it('names the first frequency resting on fewer than 300 persons', () => {
    expect(smallSamples(reachCurves(items, names))).toEqual([{ label: 'Women · Global', from: 5, sample: 299 }])
  })

  it('flags the reach and sample cells of small samples in the table', () => {
    const table = reachTable(reachCurves(items, names), t)
    expect(table.columns).toHaveLength(4 + 20)
    const row = table.rows[0]!
    expect(row.cells.rch_acc_p05).toBe(600)
    expect(Object.keys(row.warn ?? {})).toContain('rch_spl_p05')
    expect(Object.keys(row.warn ?? {})).not.toContain('rch_acc_p04')
    expect(row.warn?.rch_acc_p10).toContain('"sample":0')
    expect(table.rows[1]!.warn).toBeUndefined()
  })
})

describe('audience', () => {
  const overview = [item({ panel_id: 'p1', publisher_id: '10', spot_id: '1', spot_id_str: '1' }, { uim_acc: 1000, ucl_acc: 20, uim_spl: 500, ucl_spl: 3 })]
  const show = [
    item({ panel_id: 'p1', tag_id: '18-24Y' }, { uim_pct: 20, ucl_pct: 10, uim_idx: 120, ucl_idx: 80 }),
    item({ panel_id: 'p1', tag_id: 'male' }, { uim_pct: 55, ucl_pct: 60, uim_idx: 110, ucl_idx: null }),
    item({ panel_id: 'p1', tag_id: 'female' }, { uim_pct: 45, ucl_pct: 40, uim_idx: 90, ucl_idx: 85 }),
  ]

  it('flags overview figures on small samples', () => {
    const table = overviewTable(overview, names, t)
    expect(table.rows[0]!.cells).toMatchObject({ position: 'Spot 1 (1)', uim_acc: 1000, ucl_spl: 3 })
    expect(Object.keys(table.rows[0]!.warn ?? {})).toEqual(['ucl_acc', 'ucl_spl'])
    expect(overviewBars(overview, names, t)[0]).toMatchObject({ label: 'Spot 1 (1)', uim: 1000, uclSample: 3 })
  })

  it('orders tags as the panel does and reads share and index per position', () => {
    const tags = tagOrder(show, names, panel.tag_list.map((x) => x.tag_id))
    expect(tags).toEqual(['male', 'female', '18-24Y'])
    const [s] = composition(show, tags, 'ucl', names)
    expect(s).toMatchObject({ pct: [60, 40, 10], idx: [null, 85, 80] })
    const table = compositionTable(show, names, t)
    expect(table.rows[1]!.cells).toMatchObject({ type: 'Gender', tag: 'Male', tag_id: 'male', uim_pct: 55, ucl_idx: null, position: 'reports.position.campaign' })
    expect(table.rows[1]!.warn).toBeUndefined()
  })

  it("flags the clicking persons' shares and indexes when the overview's click sample is small", () => {
    const campaignRow = [item({ panel_id: 'p1' }, { uim_acc: 1000, ucl_acc: 20, uim_spl: 500, ucl_spl: 15 })]
    const table = compositionTable(show, names, t, positionSamples(campaignRow))
    expect(table.rows.map((r) => Object.keys(r.warn ?? {}))).toEqual([['ucl_pct', 'ucl_idx'], ['ucl_pct', 'ucl_idx'], ['ucl_pct', 'ucl_idx']])
  })
})

describe('panel bases (an item\'s base: the unweighted panel persons behind its uim and ucl figures)', () => {
  /** An audience item carrying the engine's extra `base` member. */
  const based = (attributes: ReportItem['attributes'], metrics: ReportItem['metrics'], base: { uim: number; ucl: number }): ReportItem =>
    ({ ...item(attributes, metrics), base }) as ReportItem

  it('reads the base, and none where the engine sends none or something else', () => {
    expect(baseOf(based({ panel_id: 'p1' }, {}, { uim: 123, ucl: 4 }))).toEqual({ uim: 123, ucl: 4 })
    expect(baseOf(item({ panel_id: 'p1' }, {}))).toBeNull()
    expect(baseOf({ ...item({}, {}), base: { uim: '123' } } as unknown as ReportItem)).toEqual({ uim: null, ucl: null })
  })

  it('flags each tag\'s shares and indexes by its own base: uim figures under 300 reached persons, ucl figures under 300 clickers', () => {
    const show = [
      based({ panel_id: 'p1', tag_id: 'male' }, { uim_pct: 55, uim_idx: 110, ucl_pct: 100, ucl_idx: 195 }, { uim: 299, ucl: 2 }),
      based({ panel_id: 'p1', tag_id: 'female' }, { uim_pct: 45, uim_idx: 90, ucl_pct: 0, ucl_idx: 0 }, { uim: 300, ucl: 2 }),
      based({ panel_id: 'p1', tag_id: '18-24Y' }, { uim_pct: 20, uim_idx: 100, ucl_pct: 30, ucl_idx: 100 }, { uim: 5000, ucl: 300 }),
    ]
    // the position's samples are large: the rows' own bases decide
    const samples = positionSamples([item({ panel_id: 'p1' }, { uim_acc: 90000, ucl_acc: 900, uim_spl: 5000, ucl_spl: 5000 })])
    const table = compositionTable(show, names, t, samples)
    expect(table.rows.map((r) => Object.keys(r.warn ?? {}))).toEqual([['uim_pct', 'uim_idx', 'ucl_pct', 'ucl_idx'], ['ucl_pct', 'ucl_idx'], []])
    expect(table.rows[0]!.warn?.uim_pct).toBe('reports.warn.cell{"sample":299,"min":300}')
    expect(table.rows[0]!.warn?.ucl_idx).toBe('reports.warn.cell{"sample":2,"min":300}')
    const tags = ['male', 'female', '18-24Y']
    expect(composition(show, tags, 'uim', names, samples)[0]!.small).toEqual([true, false, false])
    expect(composition(show, tags, 'ucl', names, samples)[0]!.small).toEqual([true, true, false])
  })

  it('takes an overview row\'s base over its samples for the table, the bars and the composition without bases', () => {
    const overview = [based({ panel_id: 'p1' }, { uim_acc: 1000, ucl_acc: 20, uim_spl: 5000, ucl_spl: 5000 }, { uim: 250, ucl: 301 })]
    expect(Object.keys(overviewTable(overview, names, t).rows[0]!.warn ?? {})).toEqual(['uim_acc', 'uim_spl'])
    expect(overviewBars(overview, names, t)[0]).toMatchObject({ uimSample: 250, uclSample: 301 })
    const plain = [item({ panel_id: 'p1', tag_id: 'male' }, { uim_pct: 55, uim_idx: 110, ucl_pct: 60, ucl_idx: 90 })]
    expect(Object.keys(compositionTable(plain, names, t, positionSamples(overview)).rows[0]!.warn ?? {})).toEqual(['uim_pct', 'uim_idx'])
  })

  it('says a base of one person in the singular', () => {
    const one = [based({ panel_id: 'p1', tag_id: 'male' }, { uim_pct: 100, uim_idx: 195, ucl_pct: 100, ucl_idx: 195 }, { uim: 1, ucl: 1 })]
    expect(compositionTable(one, names, t).rows[0]!.warn?.ucl_pct).toBe('reports.warn.cellOne{"sample":1,"min":300}')
  })
})

describe('minisite', () => {
  const items = [
    item({ audience: 'overall', event_id: '1', region_id: GLOBAL, campaign_id: '7' }, { evt_acc: 10, uev_acc: 9, evt_day: 2, uev_day: 2 }),
    item({ audience: 'overall', event_id: '1', region_id: MAINLAND, campaign_id: '7' }, { evt_acc: 8, uev_acc: 7, evt_day: 1, uev_day: 1 }),
    item({ audience: 'overall', event_id: '2', region_id: GLOBAL, campaign_id: '7' }, { evt_acc: 4, uev_acc: 4, evt_day: 0, uev_day: 0 }),
  ]

  it('charts the global row of each event and tables every row', () => {
    expect(eventFigures(items, { byRegion: 'level0', regionChosen: false }).map((f) => [f.event_id, f.values.evt_acc])).toEqual([['1', 10], ['2', 4]])
    const table = minisiteTable(items, names, t)
    expect(table.rows.map((r) => [r.cells.event, r.cells.row, r.cells.evt_acc])).toEqual([['home', 'Global', 10], ['home', 'Mainland', 8], ['buy', 'Global', 4]])
  })

  it('gives today by hour per event with a day total', () => {
    const hours = eventHours([item({ event_id: '1' }, { evt_day: 3, evt_h00: 1, evt_h23: 2 }), item({ event_id: '2' }, { evt_day: 0 })])
    expect(hours[0]!.hours[0]).toBe(1)
    expect(hours[0]!.hours[23]).toBe(2)
    const table = eventHoursTable(hours, names, t)
    expect(table.columns.map((c) => c.key)).toEqual(['hour', 'evt|1', 'evt|2'])
    expect(table.rows.at(-1)!.cells).toMatchObject({ 'evt|1': 3, 'evt|2': 0 })
  })
})

describe('small-sample wording', () => {
  it('says "1 person", not "1 persons", in the warning of a cell', () => {
    const one = overviewTable([item({ panel_id: 'p1' }, { uim_acc: 10, ucl_acc: 1, uim_spl: 12, ucl_spl: 1 })], names, t).rows[0]!.warn!
    expect(one.ucl_acc).toMatch(/^reports\.warn\.cellOne\{"sample":1,/)
    expect(one.uim_acc).toMatch(/^reports\.warn\.cell\{"sample":12,/)
  })
})

describe('eventHours: hours not come yet', () => {
  it('leaves the hours after the last one come blank', () => {
    const metrics = Object.fromEntries(Array.from({ length: 24 }, (_, h) => [`evt_h${String(h).padStart(2, '0')}`, h < 3 ? 2 : 0]))
    const [s] = eventHours([item({ event_id: '1', region_id: GLOBAL }, metrics)], 2)
    expect(s!.hours.slice(0, 5)).toEqual([2, 2, 2, null, null])
  })
})
