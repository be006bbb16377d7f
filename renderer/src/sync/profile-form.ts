/**
 * The remote profile form (docs/sync.md "Remote profiles"): validation mirroring the engine's
 * codecs for sync.profiles_create / sync.profiles_update, the default auth_url, and the
 * parameters sent. Secrets are write-only: an edit form starts them empty and an empty secret
 * is not sent (the engine keeps the stored one).
 */
import type { ResultOf } from '../../../engine/contract/endpoints'
import { parseUrl } from '../../../engine/contract/params'

export type Profile = ResultOf<'sync.profiles_list'>[number]

export interface ProfileForm {
  name: string
  base_url: string
  /** Empty: the origin of base_url (the engine's default). */
  auth_url: string
  username: string
  client_id: string
  password: string
  client_secret: string
}

export type ProfileField = keyof ProfileForm

/** An error: a message key under `sync.rule` with its parameters. */
export interface ProfileError {
  key: string
  params?: Record<string, string | number>
}

export type ProfileErrors = Partial<Record<ProfileField, ProfileError>>

/** Lengths of the engine's codecs (engine/contract/endpoints-sync.ts). */
export const PROFILE_MAX = { name: 100, username: 255, client_id: 255, secret: 1024, url: 2048 } as const

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/

/** An empty form (create). */
export function emptyProfileForm(): ProfileForm {
  return { name: '', base_url: '', auth_url: '', username: '', client_id: '', password: '', client_secret: '' }
}

/** The form of a stored profile (edit): an auth_url equal to the default is shown empty; secrets empty. */
export function profileToForm(p: Profile): ProfileForm {
  const auth = p.auth_url === defaultAuthUrl(p.base_url) ? '' : p.auth_url
  return { name: p.name, base_url: p.base_url, auth_url: auth, username: p.username, client_id: p.client_id, password: '', client_secret: '' }
}

/** The origin of base_url (where the engine looks for /oauth/token by default), or '' when not a URL. */
export function defaultAuthUrl(baseUrl: string): string {
  try {
    const u = new URL(baseUrl.trim())
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : ''
  } catch {
    return ''
  }
}

function textError(value: string, max: number, required: boolean): ProfileError | undefined {
  const s = value.trim()
  if (s === '') return required ? { key: 'required' } : undefined
  if ([...s].length > max) return { key: 'tooLong', params: { max } }
  if (CONTROL.test(s)) return { key: 'controlChars' }
  return undefined
}

function urlError(value: string, required: boolean): ProfileError | undefined {
  const s = value.trim()
  if (s === '') return required ? { key: 'required' } : undefined
  try {
    parseUrl(s, 'url')
  } catch {
    return { key: 'url' }
  }
  const u = new URL(s)
  if (u.username || u.password) return { key: 'urlCredentials' }
  if (u.search || u.hash) return { key: 'urlQuery' }
  return undefined
}

function secretError(value: string, required: boolean): ProfileError | undefined {
  if (value === '') return required ? { key: 'required' } : undefined
  if (value.length > PROFILE_MAX.secret) return { key: 'tooLong', params: { max: PROFILE_MAX.secret } }
  return undefined
}

/**
 * What the engine would refuse, by field. `create`: both secrets are required; `edit`: an empty
 * secret keeps the stored one. `taken`: names of the other profiles (names are unique).
 */
export function validateProfile(f: ProfileForm, mode: 'create' | 'edit', taken: readonly string[] = []): ProfileErrors {
  const out: ProfileErrors = {
    name: textError(f.name, PROFILE_MAX.name, true),
    base_url: urlError(f.base_url, true),
    auth_url: urlError(f.auth_url, false),
    username: textError(f.username, PROFILE_MAX.username, true),
    client_id: textError(f.client_id, PROFILE_MAX.client_id, true),
    password: secretError(f.password, mode === 'create'),
    client_secret: secretError(f.client_secret, mode === 'create'),
  }
  if (!out.name && taken.includes(f.name.trim())) out.name = { key: 'nameTaken' }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v)) as ProfileErrors
}

/** Parameters of sync.profiles_create. */
export function createParams(f: ProfileForm): Record<string, string> {
  const out: Record<string, string> = {
    name: f.name.trim(), base_url: f.base_url.trim(), username: f.username.trim(), client_id: f.client_id.trim(),
    password: f.password, client_secret: f.client_secret,
  }
  if (f.auth_url.trim() !== '') out.auth_url = f.auth_url.trim()
  return out
}

/**
 * Parameters of sync.profiles_update: what changed, and the secrets typed. An empty auth_url
 * means the default, the origin of the (new) base_url.
 */
export function updateParams(p: Profile, f: ProfileForm): Record<string, string> {
  const out: Record<string, string> = { profile_id: p.profile_id }
  const was = profileToForm(p)
  for (const k of ['name', 'base_url', 'username', 'client_id'] as const) if (f[k].trim() !== was[k]) out[k] = f[k].trim()
  const auth = f.auth_url.trim() === '' ? defaultAuthUrl(f.base_url) : f.auth_url.trim()
  if (auth !== '' && auth !== p.auth_url) out.auth_url = auth
  if (f.password !== '') out.password = f.password
  if (f.client_secret !== '') out.client_secret = f.client_secret
  return out
}

/** Whether an update would change anything (beyond naming the profile). */
export function hasChanges(params: Record<string, string>): boolean {
  return Object.keys(params).some((k) => k !== 'profile_id')
}
