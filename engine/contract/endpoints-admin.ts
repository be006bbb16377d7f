// Local namespace: the account and API client of this installation, and the request log (docs/app.md)
import { get, post } from './endpoint'
import { p } from './params'
import { arr, int, lit, obj, str } from './schema'

const Account = obj({
  username: str(),
  client_id: str(),
  created_at: str(),
  password_rotated_at: str({ description: 'when the password was last set' }),
  client_secret_rotated_at: str({ description: 'when the client secret was last set' }),
  first_run_password: str({ description: 'the password created by this start, given once to the first caller (the app shows it); else empty' }),
  first_run_client_secret: str({ description: 'likewise the client secret' }),
})

const Rotated = obj({
  username: str(),
  client_id: str(),
  password: str({ description: 'the new password, shown once (empty when it was not rotated)' }),
  client_secret: str({ description: 'the new client secret, shown once (empty when it was not rotated)' }),
})

export const RequestEntry = obj({
  seq: int('increasing number of the entry'),
  at: str({ description: 'ISO time the request arrived' }),
  door: lit('http', 'ipc', 'internal'),
  method: str(),
  path: str({ description: 'the path, without the query (which may carry a token)' }),
  status: int(),
  ms: int('time to answer'),
}, {
  source: lit('forward', 'offline'),
  profile_id: str({ description: 'the remote profile that answered (forward) or whose recording answered (offline)' }),
})

const meta = (summary: string) => ({ summary, spec: 'local' })

export const adminEndpoints = {
  'account.show': get('/local/v1/account/show', 'local', {}, Account, meta('The local account and API client (secrets are stored hashed: they cannot be shown, only rotated)')),
  'account.rotate': post('/local/v1/account/rotate', 'local', {
    what: p.oneOf(['password', 'client_secret', 'both']).required('which secret to replace by a new random one'),
    password: p.text(1000).optional("the account's current password: required through the HTTP door (a stolen token alone must not lock the owner out); the desktop app's own window and `admonitor account rotate` on the data directory do not ask for it"),
  }, Rotated, meta('Replace the password and/or the client secret; the new value is shown once')),
  'account.sign_out': post('/local/v1/account/sign_out', 'local', {}, obj({ revoked: int('1: the token this request carries no longer works') }), meta('Sign out: revoke the access token this request carries')),
  'requests.list': get('/local/v1/requests/list', 'local', {
    after: p.int(0, 2 ** 52).default(0, 'only entries with a larger seq'),
    limit: p.int(1, 1000).default(200, 'at most this many, the newest'),
  }, arr(RequestEntry), meta('The last requests the engine answered, oldest first (the log itself is not logged)')),
} as const
