/**
 * Replacing the account's secrets (the Server page's account card): through the HTTP API the
 * engine asks the current password first (docs/decisions.md, "Tokens"); the desktop app's window
 * is not asked. What the card says when the engine refuses it.
 */
import { problemOf } from '../api/problems'
import type { Translate } from '../reports/table'

/** The card's words for the password problems (engine/contract/problems.ts auth.*). */
const PASSWORD: Readonly<Record<string, string>> = { 'auth.passwordRequired': 'server.account.passwordNeeded', 'auth.passwordWrong': 'server.account.wrongPassword' }

/**
 * The card's message for a refused rotation: a missing or wrong current password in the
 * interface's language, any other refusal as the engine said it.
 */
export function rotateProblem(description: string, t: Translate): string {
  const key = PASSWORD[problemOf(description)?.key ?? '']
  return key === undefined ? description : t(key)
}
