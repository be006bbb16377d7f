// The metric catalogue (engine/contract/metrics-catalogue.ts) in the app: English and Chinese have
// a label for every catalogue metric, and the report tables' column titles come from its label
// keys (renderer/src/reports/table.ts metricColumn), one title per metric of a report.
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { METRICS, METRIC_REPORTS, metricNames, type MetricReport } from '../../../engine/contract/metrics-catalogue'
import { messages } from '../../../renderer/src/i18n'
import { metricColumn } from '../../../renderer/src/reports/table'

const LANGS = ['en', 'zh'] as const
const tr = (lang: 'en' | 'zh') => {
  const g = createI18n({ legacy: false, locale: lang, messages, missingWarn: false, fallbackWarn: false }).global
  return (k: string, named?: Record<string, unknown>) => (named ? g.t(k, named) : g.t(k))
}

describe.each(LANGS)('metric labels in %s', (lang) => {
  const { measure, period } = messages[lang].reports as { measure: Record<string, string>; period: Record<string, string> }

  it("has the measure and period of every catalogue metric's label", () => {
    const missing = METRICS.flatMap((m) => [
      ...(m.label.measure in measure ? [] : [`${m.name}: reports.measure.${m.label.measure}`]),
      ...(m.label.period === '' || m.label.period in period ? [] : [`${m.name}: reports.period.${m.label.period}`]),
      ...(m.label.sample && !('spl' in measure) ? [`${m.name}: reports.measure.spl`] : []),
    ])
    expect(missing).toEqual([])
  })

  it("titles every metric of each report differently, with no message key left in the title", () => {
    const t = tr(lang)
    for (const report of Object.keys(METRIC_REPORTS) as MetricReport[]) {
      const titles = metricNames(report).map((n) => metricColumn(t, n).title)
      expect([report, titles.filter((x) => /reports\.|\{/.test(x))]).toEqual([report, []])
      expect([report, new Set(titles).size]).toEqual([report, titles.length])
    }
  })
})

describe('metricColumn', () => {
  it('writes hours as HH:00 and frequencies as N+, after the period of the accumulated ones', () => {
    const t = tr('en')
    expect(['imp_acc', 'imp_acc_h07', 'imp_h23', 'rch_acc_p03', 'rch_spl_p10', 'uim_spl', 'ucl_idx'].map((n) => metricColumn(t, n).title)).toEqual([
      'Impressions · accumulated', 'Impressions · accumulated 07:00', 'Impressions · 23:00', 'Reach · 3+', 'Sample (Reach) · 10+', 'Sample (Unique impressions)', 'Unique clicks · index',
    ])
    expect(metricColumn(t, 'not_a_metric')).toEqual({ key: 'not_a_metric', title: 'not_a_metric', numeric: true, hint: 'not_a_metric' })
  })
})
