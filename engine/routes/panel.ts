// local: panel persons (DESIGN §3.6; docs/panel.md): import, export, summary, demo generator
import { bodyFormat } from '../contract/envelope'
import { PANEL_IMPORT_MAX_BYTES } from '../contract/endpoints-panel'
import { E, refuse } from '../contract/errors'
import { FORMAT_CONTENT_TYPE, exportPersons } from '../measure/panel/export'
import { generatePanel } from '../measure/panel/generate'
import { importPersons } from '../measure/panel/import'
import { panelCacheOf } from '../measure/panel/index'
import { summarize } from '../measure/panel/summary'
import { regionTable } from '../reference/region-table'
import { RawResponse } from '../answers'
import type { Handler } from '../handler'
import { requirePanel } from '../storage/repos/reference'
import { forClient } from '../respond'

const importRoute: Handler<'panels.persons_import'> = (ctx, p) => {
  requirePanel(ctx.db, p.panel_id)
  const text = ctx.text
  if (Buffer.byteLength(text, 'utf8') > PANEL_IMPORT_MAX_BYTES) throw refuse(E.payloadTooLarge, 'panel.bodyTooLarge', { max: PANEL_IMPORT_MAX_BYTES })
  const format = bodyFormat(ctx.request, p.format)
  const report = importPersons(ctx.db, p.panel_id, text, format, p.mode)
  return forClient(ctx.request, { panel_id: p.panel_id, format, mode: p.mode, ...report })
}

const exportRoute: Handler<'panels.persons_export'> = (ctx, p) => {
  requirePanel(ctx.db, p.panel_id)
  const headers = {
    'content-type': FORMAT_CONTENT_TYPE[p.format],
    'content-disposition': `attachment; filename="${p.panel_id}-persons.${p.format}"`,
    'cache-control': 'no-store',
  }
  return new RawResponse(200, headers, exportPersons(ctx.db, p.panel_id, p.format, regionTable()))
}

const summaryRoute: Handler<'panels.persons_summary'> = (ctx, p) => {
  requirePanel(ctx.db, p.panel_id)
  const panel = panelCacheOf(ctx.db).get(ctx.db, p.panel_id, regionTable())
  return summarize(ctx.db, panel, regionTable())
}

const generateRoute: Handler<'panels.generate'> = (ctx, p) => {
  requirePanel(ctx.db, p.panel_id)
  return generatePanel(ctx.db, p.panel_id, p.persons, p.seed)
}

/** Handlers of the panel endpoints (engine/contract/endpoints-panel.ts). */
export const panelRoutes = {
  'panels.persons_import': importRoute,
  'panels.persons_export': exportRoute,
  'panels.persons_summary': summaryRoute,
  'panels.generate': generateRoute,
}
