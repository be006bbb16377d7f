// renderer/src/reports/table.ts: projected and stable figures named as such
import { describe, expect, it } from 'vitest'
import { contextColumn, metricColumn, numberColumn, qualifierOf, qualifyTable, textColumn } from '../../../renderer/src/reports/table'
import { t } from './fixtures'

describe('qualifyTable', () => {
  it('names the figures of target rows projected and of stable rows stable, not plans, ranks or the universe', () => {
    expect([qualifierOf('target'), qualifierOf('stable'), qualifierOf('overall')]).toEqual(['projected', 'stable', null])
    const table = { columns: [textColumn('date', 'Date'), contextColumn('plan_imp', 'Plan'), metricColumn(t, 'imp_acc'), numberColumn('universe', 'Universe', 'universe')], rows: [] }
    expect(qualifyTable(table, t, 'projected').columns.map((c) => c.title)).toEqual(['Date', 'Plan', 'reports.qualified.projected{"what":"reports.measure.imp · reports.period.acc"}', 'Universe'])
    expect(qualifyTable(table, t, null)).toBe(table)
  })
})
