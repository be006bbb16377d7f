/**
 * The engine's refusals said by their problem key and arguments (engine/contract/problems.ts,
 * i18n `problem.*`), never by reading their English: the API client keeps each refusal's problem
 * by its description (api/problems.ts), so that a screen that kept only the message says it in
 * the interface's language. A text the engine sent with no problem, or one the client never read,
 * is left to the caller.
 */
import type { Problem } from '../../../engine/contract/problems'
import { problemOf } from '../api/problems'
import type { Translate } from '../reports/table'
import { storageReason } from './storage-reason'

/** The parameter a problem is about (its argument `param`), or null. */
export const paramOf = (p: Problem): string | null => (typeof p.args.param === 'string' ? p.args.param : null)

/** How a screen names a parameter (its label, or the wire name), and how it says a nested message (a remote's failure). */
export interface ProblemWords {
  nameOf?: (param: string) => string
  detail?: (text: string) => string
}

/** The arguments that hold a report position (by_position's values). */
export const POSITIONS = ['position', 'position1', 'position2', 'position3'] as const

/** The arguments in the interface's words: a parameter (`param`, `field`, *Param) by the screen's name, endpoint groups and modes as the Sync page names them, a full disk's reason, a nested problem said. */
function localArgs(args: Problem['args'], t: Translate, words: ProblemWords): Record<string, unknown> {
  const name = words.nameOf ?? ((param: string) => param)
  const out: Record<string, unknown> = {}
  for (const [arg, value] of Object.entries(args)) {
    if (typeof value === 'object') out[arg] = sayProblem(value, t, words)
    else out[arg] = typeof value === 'string' && arg.endsWith('Param') ? value.split(', ').map(name).join('、') : value
  }
  if (typeof args.param === 'string') out.field = name(args.param)
  if (typeof args.group === 'string') out.group = t(`sync.modes.group.${args.group}`)
  if (typeof args.mode === 'string') out.mode = t(`sync.modes.mode.${args.mode}`)
  if (typeof args.groups === 'string') out.groups = args.groups.split(', ').map((g) => t(`sync.modes.group.${g}`)).join(t('syncEngine.sep'))
  if (typeof args.cause === 'string' && typeof args.reason === 'string') out.reason = storageReason(args.cause, t)
  if (typeof args.detail === 'string' && words.detail) out.detail = words.detail(args.detail)
  if (typeof args.what === 'string') out.what = t(`problem.word.${args.what}`)
  if (typeof args.kind === 'string') out.kind = t(`sync.outbox.kind.${args.kind}`)
  if (typeof args.records === 'string') out.records = t(`sync.kind.${args.records}`)
  if (typeof args.ref === 'string') out.ref = t(`sync.outbox.choose.kind.${args.ref}`)
  for (const arg of POSITIONS) if (typeof args[arg] === 'string') out[arg] = t(`reports.position.${args[arg]}`)
  if (typeof args.level === 'string') out.level = t(`reports.level.${args.level}`)
  return out
}

/** Problem `p` said with `t`: its entry with the arguments in the interface's words (a value's problem without its field's name). */
export const problemText = (p: Problem, t: Translate, words: ProblemWords = {}): string => t(`problem.${p.key}`, localArgs(p.args, t, words))

/** Stands for the field's name to find whether an entry names the field itself. */
const MARK = '\u0001'

/** Whether `p` is a value's problem said after its field's name: a `param.*` key whose entry does not name the field itself. */
export const saidAfterField = (p: Problem, t: Translate): boolean =>
  p.key.startsWith('param.') && paramOf(p) !== null && !t(`problem.${p.key}`, { ...localArgs(p.args, t, {}), field: MARK }).includes(MARK)

/**
 * Problem `p` said with `t`: a value's problem (`param.*`) after its field's name, every other
 * entry as the sentence it is (naming the field where it puts `{field}`).
 */
export function sayProblem(p: Problem, t: Translate, words: ProblemWords = {}): string {
  const said = problemText(p, t, words)
  return saidAfterField(p, t) ? t('common.alert.field', { field: localArgs(p.args, t, words).field, problem: said }) : said
}

/** The refusal `text` in the interface's words when its problem is known (api/problems.ts), else null. */
export function keyedText(text: string, t: Translate, words: ProblemWords = {}): string | null {
  const p = problemOf(text)
  return p ? sayProblem(p, t, words) : null
}
