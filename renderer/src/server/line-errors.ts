/**
 * The problems of an import said in Chinese by their problem keys, which the answers tell
 * (api/problems.ts): a rejected line's reason (an event import's, engine/measure/import.ts and
 * import-run.ts; a panel person import's, engine/measure/panel/) and an import job's message (a
 * failure, a full campaign or minisite: engine/measure/ingest.ts). Columns keep their names (type,
 * ts, identity, person_id ...), as the import cards list them. Every value is kept, so the Chinese
 * says all the English does; the English stays on hover. A message of no known problem, and any in
 * English, is given as it is.
 */
import type { Translate } from '../reports/table'
import { keyedText } from '../utils/problem-text'

/** A rejected line's reason (an event or a panel person import) in the language `lang`: Chinese by its problem, else `error`. */
export function lineErrorText(error: string, t: Translate, lang: string): string {
  return lang === 'zh' ? (keyedText(error, t) ?? error) : error
}

/** An import job's message in the language `lang`: Chinese by its problem, else as it is. */
export const importMessageText = lineErrorText
