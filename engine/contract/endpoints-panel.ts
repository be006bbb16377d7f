// local: panel persons (DESIGN §3.6; docs/panel.md): import, export, summary, demo generator
import { get, post, type EndpointMeta } from './endpoint'
import * as m from './models'
import { p } from './params'

/** Largest import body; the file is the body (any content type, read as UTF-8 text). */
export const PANEL_IMPORT_MAX_BYTES = 64 << 20

const panelId = () => p.key().required('a panel of /cms/v1/panels/list')
const format = () => p.oneOf(['ndjson', 'csv'])
const meta = (summary: string, extra: Partial<EndpointMeta> = {}): EndpointMeta => ({ summary, spec: 'local', ...extra })

/** The panel person endpoints under /local/v1 (scope local). */
export const panelEndpoints = {
  'panels.persons_import': post('/local/v1/panels/persons/import', 'local', {
    panel_id: panelId(),
    format: format().optional('ndjson or csv; when absent, csv for a CSV body (text/csv, application/csv, application/vnd.ms-excel ...) and ndjson otherwise'),
    mode: p.oneOf(['replace', 'merge']).default('merge', "merge (default) upserts by person_id; replace deletes the panel's persons first"),
  }, m.PanelImportResult, meta('Import panel persons from an NDJSON or CSV file sent as the request body', { body: 'text' })),
  'panels.persons_export': get('/local/v1/panels/persons/export', 'local', {
    panel_id: panelId(),
    format: format().default('ndjson', 'ndjson (default) or csv: the import formats'),
  }, m.PanelExportFile, meta("Export a panel's persons as an NDJSON or CSV file (the import formats)", { produces: ['application/x-ndjson', 'text/csv'] })),
  'panels.persons_summary': get('/local/v1/panels/persons/summary', 'local', { panel_id: panelId() }, m.PanelSummary, meta('Persons, devices and weights of a panel by tag and by province', { cache: true })),
  'panels.generate': post('/local/v1/panels/generate', 'local', {
    panel_id: panelId(),
    persons: p.int(100, 500_000).default(20_000, 'number of persons, 100 to 500000'),
    seed: p.int(0, 2 ** 32 - 1).default(1, 'the same seed gives the same panel'),
    mode: p.oneOf(['replace']).default('replace', "replace: the panel's persons are replaced"),
  }, m.PanelGenerateResult, meta('Fill a panel with deterministic demo persons')),
} as const
