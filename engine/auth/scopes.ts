/**
 * Token scopes. The spec names the categories cms and admonitor (§2.1) but not which endpoint
 * needs which (§5.7). Ours: /cms/v1 needs cms, /admonitor/v1 needs admonitor, /local/v1 needs local.
 * A token request without `scope` gets all three.
 */
import { E, refuse } from '../contract/errors'

export const ALL_SCOPES = ['cms', 'admonitor', 'local'] as const
export type Scope = (typeof ALL_SCOPES)[number]

/** The scopes asked for (space-delimited, RFC 6749 §3.3), or all of them when none is asked for. */
export function parseScope(raw: string | undefined): Scope[] {
  const asked = (raw ?? '').split(/[\s,]+/).filter((s) => s !== '')
  if (asked.length === 0) return [...ALL_SCOPES]
  const unknown = asked.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s))
  if (unknown.length > 0) throw refuse(E.invalidScope, 'auth.unknownScope', { scope: unknown.join(' '), list: ALL_SCOPES.join(' ') })
  return ALL_SCOPES.filter((s) => asked.includes(s))
}
