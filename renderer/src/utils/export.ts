/**
 * Tables to files and files to tables: CSV (papaparse) and XLSX (write-excel-file /
 * read-excel-file, universal builds: the same code runs in the app and in vitest).
 * CSV files start with a UTF-8 byte-order mark so that Excel reads Chinese names correctly.
 */
import Papa from 'papaparse'
import readXlsx from 'read-excel-file/universal'
import writeXlsx from 'write-excel-file/universal'

/** One column of an exported table: its title and how to read a row's value. */
export interface ExportColumn<Row> {
  title: string
  value: (row: Row) => string | number | null | undefined
  /** The values are days (`yyyy-MM-dd`): XLSX writes them as dates (CSV as they are). */
  date?: boolean
}

const BOM = '\ufeff'

/**
 * CSV options: CRLF, and text cells that begin with `=`, `+`, `-`, `@`, a tab or a CR prefixed
 * with `'` (OWASP's defence against spreadsheet formula injection: Excel and LibreOffice run such a
 * cell, quoted or not): a spot named `=HYPERLINK(...)` goes out as text. Numbers are written as
 * they are.
 */
const CSV_OPTIONS = { newline: '\r\n', escapeFormulae: true } as const

/** The CSV text of a table (header row, then one line per row; RFC 4180 quoting; formulas defused). */
export function toCsv<Row>(columns: readonly ExportColumn<Row>[], rows: readonly Row[]): string {
  return Papa.unparse({ fields: columns.map((c) => c.title), data: rows.map((r) => columns.map((c) => c.value(r) ?? '')) }, CSV_OPTIONS)
}

/** One line of a CSV file holding `text` as a single field (quoted as it needs, formulas defused). */
export function csvLine(text: string): string {
  return Papa.unparse([[text]], CSV_OPTIONS)
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** A number cell, a text cell, a date cell (a day of a `date` column), or null for an empty value. */
type XlsxCell = { value: number; type: NumberConstructor } | { value: string; type: StringConstructor } | { value: Date; type: DateConstructor; format: string } | null

/**
 * The XLSX cell of a value: numbers as numbers, a day of a `date` column as a date shown
 * `yyyy-mm-dd` (as text a spreadsheet would neither sort it by date nor filter it by month),
 * anything else as text.
 */
export function xlsxCell<Row>(column: ExportColumn<Row>, row: Row): XlsxCell {
  const v = column.value(row)
  if (v === null || v === undefined || v === '') return null
  if (typeof v === 'number') return { value: v, type: Number }
  const day = column.date ? DAY.exec(v) : null
  if (day) return { value: new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))), type: Date, format: 'yyyy-mm-dd' }
  return { value: String(v), type: String }
}

/** The width of a column: its title, and the text of its first 200 cells, within 8 to 60 characters. */
export function xlsxWidth<Row>(column: ExportColumn<Row>, rows: readonly Row[]): { width: number } {
  const text = rows.slice(0, 200).map((r) => String(column.value(r) ?? '').length + 2)
  return { width: Math.min(60, Math.max(8, column.title.length + 2, ...text)) }
}

/** The XLSX file of a table: a bold header row, numbers as numbers, days as dates, a frozen header. */
export function toXlsx<Row>(columns: readonly ExportColumn<Row>[], rows: readonly Row[], sheet = 'Sheet1'): Promise<Blob> {
  const header = columns.map((c) => ({ value: c.title, fontWeight: 'bold' as const }))
  const body = rows.map((r) => columns.map((c) => xlsxCell(c, r)))
  return writeXlsx([header, ...body], { sheet: sheet.slice(0, 31), columns: columns.map((c) => xlsxWidth(c, rows)), stickyRowsCount: 1 }).toBlob()
}

/** Saves a blob under `filename` (an anchor with a blob URL: works in the browser and in Electron). */
export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** Downloads a table as CSV. */
export function exportCsv<Row>(filename: string, columns: readonly ExportColumn<Row>[], rows: readonly Row[]): void {
  download(new Blob([BOM + toCsv(columns, rows)], { type: 'text/csv;charset=utf-8' }), filename.endsWith('.csv') ? filename : `${filename}.csv`)
}

/** Downloads a table as XLSX. */
export async function exportXlsx<Row>(filename: string, columns: readonly ExportColumn<Row>[], rows: readonly Row[], sheet?: string): Promise<void> {
  download(await toXlsx(columns, rows, sheet), filename.endsWith('.xlsx') ? filename : `${filename}.xlsx`)
}

/** The most UTF-8 bytes of a file name before its extension (file systems allow 255). */
const NAME_BYTES = 180
const utf8 = new TextEncoder()

/**
 * A file name from free text (a campaign name and the export's choices): no path or reserved
 * characters, at most NAME_BYTES of UTF-8. A longer one loses the middle of its first part (the
 * campaign name, written first) and keeps its end, where the view, date and choices are, so that
 * different exports of a long-named campaign get different names.
 */
export function safeFileName(text: string): string {
  const clean = text.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim() || 'export'
  if (utf8.encode(clean).length <= NAME_BYTES) return clean
  const chars = [...clean]
  // keep the last 60% of the budget whole, cut the head down to what is left
  let tail = chars.length
  while (tail > 0 && utf8.encode(chars.slice(tail - 1).join('')).length <= NAME_BYTES * 0.6) tail--
  let head = 0
  while (head < tail && utf8.encode(`${chars.slice(0, head + 1).join('')}…${chars.slice(tail).join('')}`).length <= NAME_BYTES) head++
  return `${chars.slice(0, head).join('').trimEnd()}…${chars.slice(tail).join('').trimStart()}`
}

/** The rows of a sheet as text cells (CSV or the first XLSX sheet); the first row is the header. */
export async function readTable(file: Blob, name: string): Promise<string[][]> {
  if (/\.xlsx$/i.test(name)) {
    const sheets = await readXlsx(file)
    const data = sheets[0]?.data ?? []
    return data.map((row) => row.map((c) => (c === null || c === undefined ? '' : c instanceof Date ? c.toISOString().slice(0, 10) : String(c))))
  }
  return parseCsv((await file.text()).replace(/^\ufeff/, ''))
}

/** CSV text (or tab-separated text pasted from a spreadsheet) to rows of text cells, blank lines dropped. */
export function parseCsv(text: string): string[][] {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? ''
  const delimiter = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ','
  const r = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: 'greedy' })
  return r.data.map((row) => row.map((c) => c.trim()))
}
