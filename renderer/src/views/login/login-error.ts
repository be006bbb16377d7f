/**
 * Why a sign-in was refused, in the interface's language. A wrong password or an unknown client is
 * told by the OAuth error code (RFC 6749 §5.2: invalid_grant, invalid_client) in the app's own
 * words; a value the token endpoint's codecs refuse (longer than it takes, control characters, a
 * field left out: engine/contract/params.ts, engine/auth/token-service.ts) is said as the forms
 * say it, named by the login form's labels (utils/form-alert.ts), and the sentences any call may
 * get as every page says them (utils/engine-notice.ts). Any other sentence, and any in
 * English, is the engine's. The token endpoint's other refusals (another grant, a scope, client
 * credentials sent twice) need a request the form does not make; a throttled attempt is not
 * refused, only answered later (engine/auth/throttle.ts).
 */
import type { Translate } from '../../reports/table'
import { loginFieldOf } from '../../stores/session/shared'
import { engineNotice } from '../../utils/engine-notice'

/** The login form's fields, as the form labels them (login.*). */
const LABEL: Readonly<Record<string, string>> = { username: 'username', password: 'password', client_id: 'clientId', client_secret: 'clientSecret' }

/** The text of a refused sign-in whose OAuth error code is `error` and engine message `message`, in the language `lang`. */
export function loginErrorText(error: string, message: string, t: Translate, lang: string): string {
  const field = loginFieldOf(error)
  if (field === 'password') return t('login.wrongPassword')
  if (field === 'client') return t('login.wrongClient')
  return engineNotice(message, t, lang, (param) => (LABEL[param] ? t(`login.${LABEL[param]}`) : undefined))
}
