/**
 * Keywords of a spot as a list (the editor) and as the spec's text form (spec §2.3):
 * `name^landing_page` entries joined by `>`, and `keyword_id^name^landing_page` for
 * update_keyword. The API cannot delete a keyword, so existing keywords are only changed.
 */
import type { ListKeyword } from '../../../engine/contract/models'
import { parseUrl } from '../../../engine/contract/params'

/** One keyword in the editor; `keyword_id` is set for keywords the spot already has. */
export interface KeywordRow {
  keyword_id?: number | undefined
  keyword_name: string
  landing_page: string
}

/** Why a keyword row cannot be sent. */
export type KeywordProblem = 'empty' | 'separator' | 'tooLong' | 'url' | 'duplicate'

const MAX_NAME = 100

/** A landing page safe inside the text form: `>` separates entries, so it is percent-encoded. */
const safePage = (page: string): string => page.trim().replace(/>/g, '%3E')

const entry = (k: KeywordRow): string => `${k.keyword_name.trim()}^${safePage(k.landing_page)}`

/** The create / add_keyword text form of the rows. */
export function keywordText(rows: readonly KeywordRow[]): string {
  return rows.map(entry).join('>')
}

/** The update_keyword text form (rows with a keyword_id). */
export function keywordUpdateText(rows: readonly KeywordRow[]): string {
  return rows.filter((k) => k.keyword_id !== undefined).map((k) => `${k.keyword_id}^${entry(k)}`).join('>')
}

/**
 * Rows from text: entries separated by `>` or new lines, each `name^landing_page` (or just
 * `name`); with `withId`, `keyword_id^name^landing_page`. Blank entries are skipped; an entry
 * whose id is not a number is returned in `bad`.
 */
export function parseKeywordText(text: string, withId = false): { rows: KeywordRow[]; bad: string[] } {
  const rows: KeywordRow[] = []
  const bad: string[] = []
  for (const raw of text.split(/>|\r?\n/)) {
    let rest = raw.trim()
    if (rest === '') continue
    let keyword_id: number | undefined
    if (withId) {
      const cut = rest.indexOf('^')
      const id = cut < 0 ? '' : rest.slice(0, cut).trim()
      if (!/^[0-9]{1,15}$/.test(id)) {
        bad.push(raw)
        continue
      }
      keyword_id = Number(id)
      rest = rest.slice(cut + 1)
    }
    const cut = rest.indexOf('^')
    const keyword_name = (cut < 0 ? rest : rest.slice(0, cut)).trim()
    const landing_page = cut < 0 ? '' : rest.slice(cut + 1).trim()
    rows.push(withId ? { keyword_id, keyword_name, landing_page } : { keyword_name, landing_page })
  }
  return { rows, bad }
}

/** The editor rows of a listed spot's keywords (list_spots members are camelCase). */
export function rowsFromListKeywords(keywords: readonly ListKeyword[]): KeywordRow[] {
  return keywords.map((k) => ({ keyword_id: k.keywordId, keyword_name: k.keyword, landing_page: k.landingPage }))
}

function urlOk(page: string): boolean {
  try {
    parseUrl(page, 'landing_page')
    return true
  } catch {
    return false
  }
}

/** A row added in the editor and left empty: ignored rather than refused. */
export const isBlankRow = (k: KeywordRow): boolean => k.keyword_id === undefined && k.keyword_name.trim() === '' && k.landing_page.trim() === ''

/** The rows worth sending: every row but blank new ones. */
export const filledRows = (rows: readonly KeywordRow[]): KeywordRow[] => rows.filter((k) => !isBlankRow(k))

/** The problem of each row (null when fine): the engine's checks, before sending. */
export function keywordProblems(rows: readonly KeywordRow[]): (KeywordProblem | null)[] {
  const seen = new Map<string, number>()
  rows.forEach((k, i) => {
    const name = k.keyword_name.trim()
    if (name !== '' && !seen.has(name)) seen.set(name, i)
  })
  return rows.map((k, i) => {
    const name = k.keyword_name.trim()
    if (name === '') return 'empty'
    if (/[\^>\r\n]/.test(name)) return 'separator'
    if ([...name].length > MAX_NAME) return 'tooLong'
    if (k.landing_page.trim() !== '' && !urlOk(k.landing_page)) return 'url'
    if (seen.get(name) !== i) return 'duplicate'
    return null
  })
}

/** The update_spot keyword parameters that turn `original` into `draft` (unchanged: none). */
export function keywordChanges(original: readonly KeywordRow[], draft: readonly KeywordRow[]): { add_keyword?: string; update_keyword?: string } {
  const before = new Map(original.filter((k) => k.keyword_id !== undefined).map((k) => [k.keyword_id, k]))
  const added = draft.filter((k) => k.keyword_id === undefined || !before.has(k.keyword_id))
  const updated = draft.filter((k) => {
    const o = k.keyword_id === undefined ? undefined : before.get(k.keyword_id)
    return o !== undefined && (o.keyword_name.trim() !== k.keyword_name.trim() || o.landing_page.trim() !== k.landing_page.trim())
  })
  return {
    ...(added.length > 0 ? { add_keyword: keywordText(added.map((k) => ({ keyword_name: k.keyword_name, landing_page: k.landing_page }))) } : {}),
    ...(updated.length > 0 ? { update_keyword: keywordUpdateText(updated) } : {}),
  }
}
