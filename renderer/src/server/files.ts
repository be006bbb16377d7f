/** Files chosen for an import (event logs, panel persons): format, size checks, display. Pure. */
import { PANEL_IMPORT_MAX_BYTES } from '../../../engine/contract/endpoints-panel'

export type FileFormat = 'ndjson' | 'csv'

/** The largest file an import request takes (64 MiB; larger event logs go through the command line). */
export const MAX_UPLOAD_BYTES = PANEL_IMPORT_MAX_BYTES

/** The format a file name suggests: `.csv`/`.tsv`/`.txt` with commas are CSV, `.ndjson`/`.jsonl`/`.json` NDJSON. */
export function formatFromName(name: string): FileFormat | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase()
  if (ext === 'csv') return 'csv'
  if (ext === 'ndjson' || ext === 'jsonl' || ext === 'json') return 'ndjson'
  return null
}

/** The format the text looks like: a first non-blank line starting with `{` is NDJSON, else CSV. */
export function formatFromText(text: string): FileFormat {
  const first = /^[\s\ufeff]*(\S)/.exec(text)?.[1]
  return first === '{' || first === undefined ? 'ndjson' : 'csv'
}

/** The format of a chosen file: by its name, else by its first characters. */
export function detectFormat(name: string, head: string): FileFormat {
  return formatFromName(name) ?? formatFromText(head)
}

/** Lines with content (what an import counts; a CSV header is one of them). */
export function countLines(text: string): number {
  let n = 0
  for (const line of text.split('\n')) if (line.trim() !== '') n++
  return n
}

/** A file chosen for an import: its text, the lines an import counts and the format it suggests. */
export interface ChosenFile {
  name: string
  size: number
  text: string
  lines: number
  format: FileFormat
}

/** Reads a chosen file (a File, or anything with its name, size and text()). */
export async function readChosenFile(f: { name: string; size: number; text: () => Promise<string> }): Promise<ChosenFile> {
  const text = await f.text()
  return { name: f.name, size: f.size, text, lines: countLines(text), format: detectFormat(f.name, text.slice(0, 200)) }
}

/** "12.3 MB" and the like (1,024-based, one decimal from KB up). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB']
  let v = bytes / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v.toFixed(1)} ${units[i]}`
}

/** Whether a file is too large to send in one request. */
export const tooLarge = (bytes: number): boolean => bytes > MAX_UPLOAD_BYTES
