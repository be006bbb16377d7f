/**
 * The state of the panel behind a report's figures, as the engine answers it: the top-level `panel`
 * member of a report answer (`synthetic: true` while the panel has no imported persons and its
 * figures come from a seeded synthetic population), and the refusal `panel_empty` (HTTP 409) of a
 * panel the user emptied. Both are read from the wire members, never from the English text.
 */
import type { EndpointId } from '../../../engine/contract/endpoints'
import { ApiError } from '../../../engine/contract/errors'
import type { Params } from '../api/client'
import type { Caller } from './load'

/** The panel member of a report answer (docs/api.md). */
export interface AnswerPanel {
  panel_id: string
  persons: number | null
  synthetic: boolean
}

/** A panel the engine refused to report on because it has no persons. */
export interface EmptyPanel {
  panel_id: string
  /** The engine's own sentence (shown on hover). */
  description: string
}

/** Reports whose every figure is a panel projection; the basic report's only with `by_audience=target`. */
const PANEL_REPORTS: ReadonlySet<EndpointId> = new Set<EndpointId>(['reports.reach_show', 'reports.audience_show', 'reports.audience_show_overview'])

/** Whether the figures a request asks for rest on a panel (so that its answer's `panel` matters to them). */
export function restsOnPanel(id: EndpointId, params: Params): boolean {
  return PANEL_REPORTS.has(id) || (id === 'reports.basic_show' && params.by_audience === 'target')
}

const record = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null)

/** The `panel` member of a report answer, or null when it has none (or not of the documented shape). */
export function answerPanel(answer: unknown): AnswerPanel | null {
  const p = record(record(answer)?.panel)
  if (!p || typeof p.panel_id !== 'string') return null
  return { panel_id: p.panel_id, persons: typeof p.persons === 'number' ? p.persons : null, synthetic: p.synthetic === true }
}

/** The ids of the synthetic panels among `panels`, each once, in the order first seen. */
export function syntheticPanels(panels: readonly (AnswerPanel | null)[]): string[] {
  return [...new Set(panels.filter((p): p is AnswerPanel => p?.synthetic === true).map((p) => p.panel_id))]
}

/** The empty panel a refusal names (`error` = `panel_empty` with its `panel_id`), or null for any other error. */
export function emptyPanelOf(e: unknown): EmptyPanel | null {
  if (!(e instanceof ApiError) || e.def.error !== 'panel_empty') return null
  return { panel_id: e.extra.panel_id ?? '', description: e.message }
}

/** A caller that tells `seen` the `panel` member of every answer whose figures rest on a panel. */
export function panelsSeen(call: Caller, seen: (p: AnswerPanel | null) => void): Caller {
  return (async (id: EndpointId, params: Params = {}) => {
    const answer = await call(id, params)
    if (restsOnPanel(id, params)) seen(answerPanel(answer))
    return answer
  }) as Caller
}

/** Where the Server page's panel tools open with a panel chosen (the link of the synthetic and empty-panel notices). */
export function panelToolsRoute(panelId: string): { name: 'server'; query: Record<string, string> } {
  return { name: 'server', query: panelId ? { tab: 'panels', panel: panelId } : { tab: 'panels' } }
}
