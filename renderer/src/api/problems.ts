/**
 * The problem (key and arguments, engine/contract/problems.ts) of each refusal the client read,
 * kept by its error_description: screens keep a refusal's message, and say it by its problem
 * (utils/problem-text.ts), never by reading the English.
 */
import { ApiError } from '../../../engine/contract/errors'
import { PROBLEMS, type Problem } from '../../../engine/contract/problems'

/** How many recent refusals are kept (a screen shows a handful at a time). */
const KEPT = 500
const known = new Map<string, Problem>()

/** Keeps `problem` as the problem of the refusal whose error_description is `text` (a key the catalogue does not have is not kept). */
export function rememberProblem(text: string, problem: Problem | null): void {
  if (!problem || !Object.hasOwn(PROBLEMS, problem.key)) return
  known.delete(text)
  known.set(text, problem)
  if (known.size > KEPT) known.delete(known.keys().next().value!)
}

/** The problem of the refusal whose description is `text`, or null when none is known. */
export const problemOf = (text: string): Problem | null => known.get(text) ?? null

/** The message of `e`, its problem kept when it tells one (a refusal: the screens' own checks run the engine's codecs). */
export function messageOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e)
  const problem = e instanceof ApiError ? e.problem : (e as { problem?: unknown }).problem
  if (typeof problem === 'object' && problem !== null) rememberProblem(e.message, problem as Problem)
  return e.message
}

/** The parameter the refusal `text` is about (its problem's `param`), or null: a refusal of no known problem, or of the request as a whole. */
export function paramOfRefusal(text: string): string | null {
  const param = problemOf(text)?.args.param
  return typeof param === 'string' ? param : null
}

/**
 * Keeps the problems an answer tells of its messages (a job's rejected lines and failure, a panel
 * import's rejected lines: `error` with `error_problem`, `message` with `message_problem`).
 */
export function rememberMessages(answer: unknown): void {
  if (Array.isArray(answer)) return answer.forEach(rememberMessages)
  if (typeof answer !== 'object' || answer === null) return
  const o = answer as Record<string, unknown>
  for (const [member, value] of Object.entries(o)) {
    if (member.endsWith('_problem') && typeof o[member.slice(0, -'_problem'.length)] === 'string') rememberProblem(o[member.slice(0, -'_problem'.length)] as string, value as Problem)
    else if (typeof value === 'object') rememberMessages(value)
  }
}
