/** The copyable curl examples of the Server page (spec §4.1: the password grant, form-encoded). Pure. */

/** A word for a POSIX shell: as is when it is safe, else in single quotes. */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** The base address without a trailing slash. */
export const trimBase = (baseUrl: string): string => baseUrl.replace(/\/+$/, '')

export interface TokenExampleInput {
  baseUrl: string
  username: string
  clientId: string
  /** What stands for the secrets (they are never known to the page). */
  passwordPlaceholder?: string
  secretPlaceholder?: string
}

/** The curl command that asks this address for a token (password grant). */
export function tokenCurl(o: TokenExampleInput): string {
  const field = (name: string, value: string) => `  --data-urlencode ${shellQuote(`${name}=${value}`)}`
  return [
    `curl -s ${shellQuote(`${trimBase(o.baseUrl)}/oauth/token`)} \\`,
    '  -d grant_type=password \\',
    `${field('username', o.username)} \\`,
    `${field('password', o.passwordPlaceholder ?? 'PASSWORD')} \\`,
    `${field('client_id', o.clientId)} \\`,
    field('client_secret', o.secretPlaceholder ?? 'CLIENT_SECRET'),
  ].join('\n')
}

/**
 * A two-step shell example: keep the token in $TOKEN (no jq needed), then call an endpoint with it.
 */
export function tokenScript(o: TokenExampleInput, path = '/cms/v1/campaigns/list'): string {
  const get = tokenCurl(o).split('\n')
  const extract = `sed -E 's/.*"access_token":"([^"]+)".*/\\1/'`
  return [
    `TOKEN=$(${get[0]}`,
    ...get.slice(1, -1),
    `${get[get.length - 1]} | ${extract})`,
    `curl -s -H "Authorization: Bearer $TOKEN" ${shellQuote(`${trimBase(o.baseUrl)}${path}`)}`,
  ].join('\n')
}

/** The address of the OpenAPI document of this engine. */
export const openApiUrl = (baseUrl: string): string => `${trimBase(baseUrl)}/openapi.json`
