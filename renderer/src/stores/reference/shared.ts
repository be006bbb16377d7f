/** Pure helpers of the reference store: cache keys, name lookups and picker options. */

export type ApiLang = 'en' | 'cn'

/** Largest page the reference lists take (engine/contract/params.ts MAX_LIMIT_N is higher; pickers need no more). */
export const REFERENCE_ROWS = 5000
/** `limit` of the row-based lists (M = start row). */
export const ROWS_LIMIT = `0,${REFERENCE_ROWS}`
/** `limit` of the page-based lists (product, programs, plmttype, extensiontype: M = page; 1 = the first). */
export const PAGE_LIMIT = `1,${REFERENCE_ROWS}`

/**
 * A cache key. Lists whose names follow the language (panels: type and tag names) are kept per
 * `lang`; the others (advertisers, brands, agencies, named lists) have one name in every language.
 */
export function cacheKey(list: string, lang: ApiLang | null, arg = ''): string {
  return [list, lang ?? '*', arg].join('|')
}

/** Select options: label and value. */
export type Option = {
  label: string
  value: string
}

/** Options of id/name records, in the order given. */
export function toOptions<T>(rows: readonly T[], value: (r: T) => string, label: (r: T) => string): Option[] {
  return rows.map((r) => ({ value: value(r), label: label(r) }))
}

/** Options of a `{name}` list (the value is the name itself). */
export const namedOptions = (rows: readonly { name: string }[]): Option[] => rows.map((r) => ({ value: r.name, label: r.name }))

/**
 * The id of the record whose name is exactly `name` (show answers names, update takes ids);
 * the first when several share it, null when none or the name is empty.
 */
export function idByName<T>(rows: readonly T[], name: string, getName: (r: T) => string, getId: (r: T) => string): string | null {
  if (name.trim() === '') return null
  const hit = rows.find((r) => getName(r) === name) ?? rows.find((r) => getName(r).trim().toLowerCase() === name.trim().toLowerCase())
  return hit ? getId(hit) : null
}

/** The panel platform of a new campaign (engine: pc campaigns use pc panels, pm ones pm or pmo by panel_type). */
export function panelPlatform(platform: 'pc' | 'pm', panelType: 'pm' | 'pmo'): 'pc' | 'pm' | 'pmo' {
  return platform === 'pc' ? 'pc' : panelType
}
