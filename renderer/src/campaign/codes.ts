/**
 * Monitoring codes (tracking tags) of list_spots: the `code_type` options the user picks
 * (spec §4.2, vendor-notes §7.2, docs/tracking.md) and one table row per spot and keyword,
 * for the preview, copying and export.
 */
import type { ListSpot } from '../../../engine/contract/models'
import { CODE_TYPE_NAMES, CODE_TYPES, type CodeType } from '../../../engine/contract/vocabulary'
import type { ExportColumn } from '../utils/export'

export { CODE_TYPE_NAMES, CODE_TYPES, type CodeType }

/** Options that exclude each other (the engine refuses both in one request). */
const EXCLUSIVE: Readonly<Partial<Record<CodeType, CodeType>>> = { utm: 'utm_auto', utm_auto: 'utm' }

/** The selection after ticking or unticking `name`: ticking utm unticks utm_auto and the reverse. */
export function toggleCodeType(selected: readonly CodeType[], name: CodeType, on: boolean): CodeType[] {
  const other = EXCLUSIVE[name]
  const rest = selected.filter((s) => s !== name && (!on || s !== other))
  return on ? [...rest, name] : rest
}

/** The code_type parameter: the options in the table's order, or undefined for none. */
export function codeTypeParam(selected: readonly CodeType[]): string | undefined {
  const chosen = new Set(selected)
  const list = CODE_TYPE_NAMES.filter((n) => chosen.has(n))
  return list.length > 0 ? list.join(',') : undefined
}

/** Selected options read back from remembered filters (unknown names dropped, exclusivity kept). */
export function readCodeTypes(value: unknown): CodeType[] {
  if (!Array.isArray(value)) return []
  return value.filter((v): v is CodeType => typeof v === 'string' && (CODE_TYPE_NAMES as string[]).includes(v))
    .reduce<CodeType[]>((acc, v) => toggleCodeType(acc, v, true), [])
}

/** One line of the codes table: a spot, or one keyword of a spot. */
export interface CodeRow {
  key: string
  spot_id: string
  spot_id_str: string
  publisher_name: string
  channel_name: string
  placement_name: string
  keyword_id: number | null
  keyword: string
  landing_page: string
  impression_url: string
  click_url: string
}

/** The rows of listed spots: each spot, then its keywords (list_spots keyword tags are one-key objects). */
export function codeRows(spots: readonly ListSpot[]): CodeRow[] {
  return spots.flatMap((s) => {
    const base = { spot_id: s.spot_id, spot_id_str: s.spot_id_str, publisher_name: s.publisher_name, channel_name: s.channel_name, placement_name: s.placement_name }
    const spotRow: CodeRow = {
      ...base, key: `s${s.spot_id}`, keyword_id: null, keyword: '', landing_page: s.landing_page,
      impression_url: s.tracking_tags.impression_url, click_url: s.tracking_tags.click_url,
    }
    const keywordRows = s.keyword.map((k): CodeRow => ({
      ...base, key: `k${k.keywordId}`, keyword_id: k.keywordId, keyword: k.keyword, landing_page: k.landingPage,
      impression_url: k.tracking_tags.find((t) => t.impression_url !== undefined)?.impression_url ?? '',
      click_url: k.tracking_tags.find((t) => t.click_url !== undefined)?.click_url ?? '',
    }))
    return [spotRow, ...keywordRows]
  })
}

/** The columns of the table and the export, in order. */
export const CODE_COLUMN_KEYS = [
  'spot_id', 'spot_id_str', 'publisher_name', 'channel_name', 'placement_name', 'keyword_id', 'keyword', 'landing_page', 'impression_url', 'click_url',
] as const
export type CodeColumnKey = (typeof CODE_COLUMN_KEYS)[number]

/** The export columns, titled by `title` (the interface language). */
export function codeColumns(title: (key: CodeColumnKey) => string): ExportColumn<CodeRow>[] {
  return CODE_COLUMN_KEYS.map((k) => ({ title: title(k), value: (r: CodeRow) => r[k] }))
}
