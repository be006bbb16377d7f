// renderer/src/reports/panel-state.ts: the synthetic-panel label and the empty-panel refusal, read from the wire members
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import type { EndpointId } from '../../../engine/contract/endpoints'
import { readResponse } from '../../../renderer/src/api/client'
import { messages } from '../../../renderer/src/i18n'
import type { Caller } from '../../../renderer/src/reports/load'
import { answerPanel, emptyPanelOf, panelToolsRoute, panelsSeen, restsOnPanel, syntheticPanels } from '../../../renderer/src/reports/panel-state'

/** The error the client throws for an engine answer of `status` with `body`. */
function refusal(status: number, body: Record<string, unknown>): unknown {
  try {
    readResponse({ status, headers: {}, body: JSON.stringify(body) })
  } catch (e) {
    return e
  }
  throw new Error('the answer was not a refusal')
}

const synthetic = { panel_id: 'china-pm-2026', persons: 20000, synthetic: true, calibration: { pc: 0.0123, mb: 0.0045 } }

describe('restsOnPanel', () => {
  it('says which requests give panel figures: reach and audience always, the basic report with a target only', () => {
    expect(restsOnPanel('reports.reach_show', {})).toBe(true)
    expect(restsOnPanel('reports.audience_show', {})).toBe(true)
    expect(restsOnPanel('reports.audience_show_overview', {})).toBe(true)
    expect(restsOnPanel('reports.basic_show', { by_audience: 'target' })).toBe(true)
    expect(restsOnPanel('reports.basic_show', { by_audience: 'overall' })).toBe(false)
    expect(restsOnPanel('reports.basic_show', {})).toBe(false)
    expect(restsOnPanel('reports.realtime_show', { by_audience: 'target' })).toBe(false)
  })
})

describe('answerPanel and syntheticPanels', () => {
  it('reads the panel member of an answer, synthetic only when the engine says true', () => {
    expect(answerPanel({ items: [], panel: synthetic })).toEqual({ panel_id: 'china-pm-2026', persons: 20000, synthetic: true })
    expect(answerPanel({ items: [], panel: { panel_id: 'p1', persons: 512, synthetic: false } })).toEqual({ panel_id: 'p1', persons: 512, synthetic: false })
    expect(answerPanel({ items: [], panel: { panel_id: 'p1', synthetic: 'true' } })?.synthetic).toBe(false)
    expect(answerPanel({ items: [] })).toBeNull()
    expect(answerPanel({ panel: ['china-pm-2026'] })).toBeNull()
    expect(answerPanel(null)).toBeNull()
  })

  it('names each synthetic panel once, real panels and answers without a panel not at all', () => {
    const seen = [answerPanel({ panel: synthetic }), null, answerPanel({ panel: { panel_id: 'p1', persons: 9, synthetic: false } }), answerPanel({ panel: synthetic })]
    expect(syntheticPanels(seen)).toEqual(['china-pm-2026'])
    expect(syntheticPanels([answerPanel({ panel: { panel_id: 'p1', persons: 9, synthetic: false } })])).toEqual([])
  })
})

describe('panelsSeen', () => {
  it('tells the panel of the answers whose figures rest on it, and passes every answer on unchanged', async () => {
    const answers: Record<string, unknown> = {
      'reports.reach_show': { items: [], panel: synthetic },
      'reports.basic_show': { items: [], panel: synthetic },
    }
    const fake = (async (id: EndpointId) => answers[id]) as Caller
    const seen: unknown[] = []
    const call = panelsSeen(fake, (p) => seen.push(p))
    expect(await call('reports.basic_show', { by_audience: 'overall' })).toBe(answers['reports.basic_show'])
    expect(seen).toEqual([])
    await call('reports.basic_show', { by_audience: 'target' })
    await call('reports.reach_show', {})
    expect(seen).toEqual([{ panel_id: 'china-pm-2026', persons: 20000, synthetic: true }, { panel_id: 'china-pm-2026', persons: 20000, synthetic: true }])
  })
})

describe('emptyPanelOf', () => {
  const description = 'The panel china-pm-2026 has no persons: import them (POST /local/v1/panels/persons/import?panel_id=china-pm-2026).'

  it('reads the panel of a 409 panel_empty refusal from its panel_id member, keeping the sentence for the hover', () => {
    const e = refusal(409, { error: 'panel_empty', error_description: description, panel_id: 'china-pm-2026' })
    expect(emptyPanelOf(e)).toEqual({ panel_id: 'china-pm-2026', description })
  })

  it('keys on the error code, not on the English: another refusal naming a panel is not an empty panel', () => {
    expect(emptyPanelOf(refusal(400, { error: 'invalid_request', error_description: 'panel_empty: The panel china-pm-2026 has no persons.', panel_id: 'china-pm-2026' }))).toBeNull()
    expect(emptyPanelOf(new Error('panel_empty'))).toBeNull()
    expect(emptyPanelOf('panel_empty')).toBeNull()
  })

  it('says the refusal in both languages with the panel named, and links to the panel on the Server page', () => {
    const e = emptyPanelOf(refusal(409, { error: 'panel_empty', error_description: description, panel_id: 'china-pm-2026' }))!
    const say = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages: { [lang]: messages[lang] } }).global.t('reports.panel.empty', { panel_id: e.panel_id })
    expect(say('en')).toBe('Panel china-pm-2026 has no persons. Import persons or generate a demo panel on the Server page.')
    expect(say('zh')).toContain('china-pm-2026')
    expect(say('zh').replace('china-pm-2026', '')).not.toMatch(/[A-Za-z]/)
    expect(panelToolsRoute(e.panel_id)).toEqual({ name: 'server', query: { tab: 'panels', panel: 'china-pm-2026' } })
  })
})
