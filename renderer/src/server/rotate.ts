/**
 * Replacing the account's secrets (the Server page's account card): through the HTTP API the
 * engine asks the current password first (docs/decisions.md, "Tokens"); the desktop app's window
 * is not asked. What the card says when the engine refuses it.
 */
import { paramOfDescription } from '../../../engine/contract/errors'
import type { Translate } from '../reports/table'

/**
 * The card's message for a refused rotation: a missing or wrong current password in the
 * interface's language, any other refusal as the engine said it.
 */
export function rotateProblem(description: string, t: Translate): string {
  if (paramOfDescription(description) !== 'password') return description
  return /is required/.test(description) ? t('server.account.passwordNeeded') : t('server.account.wrongPassword')
}
