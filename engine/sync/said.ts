/**
 * The messages a pull, a push and the outbox store, each with its problem (key and arguments,
 * engine/contract/problems.ts): the English in `message`, the problem as JSON text in the
 * `message_problem` column beside it ('' for a message of no key: a fault's own words, or a row
 * written before the column), answered as `message_problem` to a client that asks for problems
 * (respond.ts forClient) so that the app says it in its own language.
 */
import { describeProblem, problem, toldText, type Problem, type Told } from '../contract/problems'
import { RemoteError } from './remote-error'

/** What `err` says: its problem when it has one whose English is its message, else its message. */
export function toldOf(err: unknown): Told {
  if (err instanceof RemoteError) return err.keyed && describeProblem(err.keyed) === err.message ? err.keyed : err.message
  return err instanceof Error ? err.message : String(err)
}

/** `parts` said one after another, a space between them (a pull's stop, then what it skipped). */
export const oneAfterAnother = (parts: readonly Told[]): Told => (parts.length === 0 ? '' : parts.reduce((first, next) => problem('sync.then', { first, next })))

/** The columns of a stored message: its English and its problem as JSON text. */
export const messageColumns = (m: Told): { message: string; message_problem: string } =>
  ({ message: toldText(m), message_problem: typeof m === 'string' ? '' : JSON.stringify(m) })

/** The member that tells a stored message's problem (none when it has no key). */
export const problemMember = (column: string | undefined): { message_problem?: Problem } =>
  (column ? { message_problem: JSON.parse(column) as Problem } : {})
