/** Pure helpers of the session store: what is kept between visits, and where. */

/** The token lives for the tab only (sessionStorage); it expires after an hour anyway. */
export const TOKEN_KEY = 'admonitor.token'
/** Username and client id are remembered to fill the login form; secrets never are. */
export const LOGIN_KEY = 'admonitor.login'

export interface Remembered {
  username: string
  client_id: string
}

export function readRemembered(storage: Pick<Storage, 'getItem'>): Remembered {
  try {
    const r = JSON.parse(storage.getItem(LOGIN_KEY) ?? '{}') as Partial<Remembered>
    return { username: typeof r.username === 'string' ? r.username : '', client_id: typeof r.client_id === 'string' ? r.client_id : '' }
  } catch {
    return { username: '', client_id: '' }
  }
}

/** Which login field a token error points at, from the OAuth error code (RFC 6749 §5.2). */
export function loginFieldOf(error: string): 'password' | 'client' | null {
  if (error === 'invalid_grant') return 'password'
  if (error === 'invalid_client') return 'client'
  return null
}
