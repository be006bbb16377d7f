/**
 * Export of a panel's persons in the import formats (docs/panel.md): importing an export into
 * another panel gives the same persons, tags, devices and weights.
 */
import type { Db } from '../../storage/db'
import { panelTagTypes } from '../../storage/repos/panels'
import type { ImportFormat } from './parse'
import { CSV_COLUMNS } from './parse'
import type { PersonRecord } from './person'
import type { RegionSeed } from '../../reference/types'
import { countPersons, eachPersonPage } from './store'
import { syntheticPersons } from './synthetic'

/** Content types of the two formats (what an export answers with). */
export const FORMAT_CONTENT_TYPE: Readonly<Record<ImportFormat, string>> = {
  ndjson: 'application/x-ndjson;charset=UTF-8',
  csv: 'text/csv;charset=UTF-8',
}

/** One person as an NDJSON line (without the line break). */
export function toNdjson(p: PersonRecord): string {
  return JSON.stringify({ person_id: p.person_id, weight: p.weight, home_region: p.home_region, tags: p.tags, devices: p.devices.map((d) => ({ device: d.device, platform: d.platform })) })
}

const csvField = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)

/** One person as a CSV row (without the line break), columns as CSV_COLUMNS. */
export function toCsv(p: PersonRecord): string {
  const devices = p.devices.map((d) => `${d.platform}:${d.device}`).join('|')
  return [p.person_id, String(p.weight), p.home_region, p.tags.join('|'), devices].map(csvField).join(',')
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The whole file: every person of the panel in person_id order, tags in panel order, one per line.
 * A panel whose reports read its synthetic population (no persons stored, not emptied) exports
 * those persons, so the file re-imports to the persons the reports and the summary show.
 */
export function exportPersons(db: Db, panelId: string, format: ImportFormat, regions: readonly RegionSeed[]): string {
  const order = new Map(panelTagTypes(db, panelId, true).map((t, i) => [t.tag_id, i]))
  const out: string[] = format === 'csv' ? [CSV_COLUMNS.join(',')] : []
  const write = format === 'csv' ? toCsv : toNdjson
  const visit = (page: PersonRecord[]) => {
    page.sort((a, b) => byText(a.person_id, b.person_id))
    for (const p of page) {
      p.tags.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
      p.devices.sort((a, b) => byText(a.device, b.device))
      out.push(write(p))
    }
  }
  const synthetic = countPersons(db, panelId) === 0 ? syntheticPersons(db, panelId, regions) : null
  if (synthetic) visit(synthetic.map((p) => ({ ...p, tags: [...p.tags], devices: p.devices.map((d) => ({ ...d })) })))
  else eachPersonPage(db, panelId, visit)
  return out.length === 0 ? '' : `${out.join('\n')}\n`
}
