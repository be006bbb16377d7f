/**
 * The two import formats, one line at a time (docs/panel.md): NDJSON objects, and CSV rows with
 * a header, tags joined by `|` and devices written `pc:<device>` or `mb:<device>` joined by `|`.
 * Parsing checks the shape only; `check.ts` checks the values against the panel.
 */
import { jsonBreak } from '../json-break'
import { lineError } from './person'

/** A line whose shape is right; its values are not checked yet. */
export interface Candidate {
  person_id: string
  weight: number
  home_region: string
  tags: string[]
  devices: { device: string; platform: string }[]
}

/** The two file formats of import and export. */
export type ImportFormat = 'ndjson' | 'csv'

/** The CSV columns, in the order export writes them; tags and devices may be left out. */
export const CSV_COLUMNS = ['person_id', 'weight', 'home_region', 'tags', 'devices'] as const
const REQUIRED_COLUMNS = ['person_id', 'weight', 'home_region'] as const

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
/** A value of the file, quoted in a message: short. */
const shown = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v)).slice(0, 60)

function text(o: Record<string, unknown>, name: string): string {
  const v = o[name]
  if (v === undefined || v === null) throw lineError('panelLine.missing', { column: name })
  if (typeof v !== 'string') throw lineError('panelLine.string', { column: name, got: shown(v) })
  return v
}

function strings(v: unknown, name: string): string[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw lineError('panelLine.strings', { column: name })
  return v as string[]
}

function devicesOf(v: unknown): Candidate['devices'] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) throw lineError('panelLine.devices', {})
  return v.map((d, i) => {
    if (!isObject(d) || typeof d.device !== 'string' || typeof d.platform !== 'string')
      throw lineError('panelLine.deviceObject', { index: i })
    return { device: d.device, platform: d.platform }
  })
}

/** One NDJSON line: a JSON object with person_id, weight, home_region, tags, devices. */
export function parseNdjsonLine(line: string): Candidate {
  let o: unknown
  try {
    // a byte order mark at a line's start (files joined together), as an event import reads it
    o = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line)
  } catch {
    // where the JSON breaks, never the parser's English message
    const at = jsonBreak(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line)
    throw at === 'end' || at === null ? lineError('panelLine.jsonEnd', {}) : lineError('panelLine.json', at)
  }
  if (!isObject(o)) throw lineError('panelLine.object', {})
  const weight = o.weight
  if (weight === undefined || weight === null) throw lineError('panelLine.missing', { column: 'weight' })
  // (a string "7.5" is said to be one: "got 7.5" would read as if the number were refused)
  if (typeof weight === 'string') throw lineError('panelLine.weightString', { got: JSON.stringify(weight).slice(0, 60) })
  if (typeof weight !== 'number') throw lineError('panelLine.weight', { got: shown(weight) })
  return { person_id: text(o, 'person_id'), weight, home_region: text(o, 'home_region'), tags: strings(o.tags, 'tags'), devices: devicesOf(o.devices) }
}

/** Splits one CSV line into fields (RFC 4180 quoting; a quoted field may not span lines). */
export function splitCsv(line: string): string[] {
  const fields: string[] = []
  let i = 0
  for (;;) {
    if (line[i] === '"') {
      let value = ''
      i++
      for (;;) {
        const q = line.indexOf('"', i)
        if (q < 0) throw lineError('panelLine.openQuote', {})
        value += line.slice(i, q)
        if (line[q + 1] === '"') {
          value += '"'
          i = q + 2
        } else {
          i = q + 1
          break
        }
      }
      if (i < line.length && line[i] !== ',') throw lineError('panelLine.afterQuote', {})
      fields.push(value)
    } else {
      const comma = line.indexOf(',', i)
      const end = comma < 0 ? line.length : comma
      fields.push(line.slice(i, end))
      i = end
    }
    if (i >= line.length) return fields
    i++ // the comma
  }
}

/** Positions of the columns in a CSV file, from its header row. */
export type CsvLayout = Record<(typeof CSV_COLUMNS)[number], number> & { width: number }

/** Reads the header row; throws a message naming the problem when it is not a usable header. */
export function parseCsvHeader(line: string): CsvLayout {
  const names = splitCsv(line).map((s) => s.trim().toLowerCase())
  const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c))
  if (missing.length > 0)
    throw lineError(missing.length > 1 ? 'panelFile.lacksColumns' : 'panelFile.lacksColumn', { columns: missing.join(', '), header: CSV_COLUMNS.join(',') })
  const seen = new Set<string>()
  for (const n of names) {
    if (n !== '' && seen.has(n)) throw lineError('panelFile.columnTwice', { column: n })
    seen.add(n)
  }
  // A header is written once for the file: a typo in it (`tag`) would lose that column of every
  // person, and in merge mode wipe the tags or devices of persons already stored. Refused, as an
  // event import's header is. An empty
  // name (a spreadsheet's trailing comma) names no column.
  const unknown = names.filter((n) => n !== '' && !(CSV_COLUMNS as readonly string[]).includes(n))
  if (unknown.length > 0)
    throw lineError(unknown.length > 1 ? 'panelFile.unknownColumns' : 'panelFile.unknownColumn', { columns: unknown.join(', '), header: CSV_COLUMNS.join(',') })
  const at = (c: string) => names.indexOf(c)
  return { person_id: at('person_id'), weight: at('weight'), home_region: at('home_region'), tags: at('tags'), devices: at('devices'), width: names.length }
}

// (a sign is read, so that a negative weight is refused as not above 0 rather than as no number)
const NUMBER_RE = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/
const list = (s: string): string[] => (s.trim() === '' ? [] : s.split('|').map((x) => x.trim()))

/** One CSV data row, read through the header's layout. */
export function parseCsvLine(line: string, layout: CsvLayout): Candidate {
  const f = splitCsv(line)
  if (f.length !== layout.width) throw lineError('panelLine.fieldCount', { n: f.length, header: layout.width })
  const get = (i: number) => (i < 0 ? '' : f[i]!.trim())
  const weightText = get(layout.weight)
  if (weightText === '') throw lineError('panelLine.missing', { column: 'weight' })
  if (!NUMBER_RE.test(weightText)) throw lineError('panelLine.weightQuoted', { got: shown(weightText) })
  const devices = list(get(layout.devices)).map((d) => {
    const cut = d.indexOf(':')
    if (cut < 0) throw lineError('panelLine.devicePrefix', { device: shown(d) })
    return { platform: d.slice(0, cut), device: d.slice(cut + 1) }
  })
  const personId = get(layout.person_id)
  const region = get(layout.home_region)
  if (personId === '') throw lineError('panelLine.missing', { column: 'person_id' })
  if (region === '') throw lineError('panelLine.missing', { column: 'home_region' })
  return { person_id: personId, weight: Number(weightText), home_region: region, tags: list(get(layout.tags)), devices }
}
