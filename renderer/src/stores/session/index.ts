/** Who is signed in: the desktop app always (as the local account), a browser after the login page. */
import { acceptHMRUpdate, defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { api, isDesktop } from '../../api'
import { StoreId } from '../ids'
import { LOGIN_KEY, TOKEN_KEY, readRemembered, type Remembered } from './shared'

export interface LoginForm extends Remembered {
  password: string
  client_secret: string
}

export const useSessionStore = defineStore(StoreId.Session, () => {
  /** Desktop app: requests are signed in by the main process; there is no login page. */
  const desktop = isDesktop()
  /** The access token of a browser session. */
  const token = ref<string | null>(desktop ? null : sessionStorage.getItem(TOKEN_KEY))
  /** Signed-in username (browser), for the header. */
  const username = ref<string>(readRemembered(localStorage).username)
  /** The reason the last session ended, shown on the login page. */
  const endedBecause = ref<string | null>(null)
  api.token = token.value

  /** Whether requests can be made. */
  const signedIn = computed(() => desktop || token.value !== null)

  /** Logs in with the password grant; the error (ApiError) is left to the caller to show. */
  async function login(form: LoginForm): Promise<void> {
    const t = await api.call('oauth.token', { grant_type: 'password', ...form })
    token.value = t.access_token
    api.token = t.access_token
    username.value = form.username
    endedBecause.value = null
    sessionStorage.setItem(TOKEN_KEY, t.access_token)
    localStorage.setItem(LOGIN_KEY, JSON.stringify({ username: form.username, client_id: form.client_id } satisfies Remembered))
  }

  /** Ends the browser session (the token simply expires on the engine). */
  function logout(reason: string | null = null): void {
    token.value = null
    api.token = null
    endedBecause.value = reason
    sessionStorage.removeItem(TOKEN_KEY)
  }

  /** What the login form starts with. */
  const remembered = (): Remembered => readRemembered(localStorage)

  return { desktop, token, username, endedBecause, signedIn, login, logout, remembered }
})

if (import.meta.hot) import.meta.hot.accept(acceptHMRUpdate(useSessionStore, import.meta.hot))
