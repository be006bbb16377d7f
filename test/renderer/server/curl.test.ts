// renderer/src/server/curl.ts: the copyable curl examples
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { openApiUrl, shellQuote, tokenCurl, tokenScript } from '../../../renderer/src/server/curl'

describe('shellQuote', () => {
  it('leaves safe words alone and single-quotes the rest', () => {
    expect(shellQuote('admin')).toBe('admin')
    expect(shellQuote('http://127.0.0.1:8366/oauth/token')).toBe('http://127.0.0.1:8366/oauth/token')
    expect(shellQuote('password=<password>')).toBe(`'password=<password>'`)
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
    expect(shellQuote('a b&c')).toBe(`'a b&c'`)
  })
})

describe('tokenCurl', () => {
  const input = { baseUrl: 'http://127.0.0.1:8366/', username: 'admin', clientId: 'admonitor-desk-abc123' }

  it('asks the token endpoint of this address with the password grant', () => {
    expect(tokenCurl(input)).toBe([
      'curl -s http://127.0.0.1:8366/oauth/token \\',
      '  -d grant_type=password \\',
      '  --data-urlencode username=admin \\',
      '  --data-urlencode password=PASSWORD \\',
      '  --data-urlencode client_id=admonitor-desk-abc123 \\',
      '  --data-urlencode client_secret=CLIENT_SECRET',
    ].join('\n'))
  })

  it('quotes names a shell would split or expand', () => {
    const text = tokenCurl({ ...input, username: "o'neil & co" })
    expect(text).toContain(`--data-urlencode 'username=o'\\''neil & co'`)
  })

  it('gives a script a POSIX shell can parse', () => {
    const script = tokenScript({ ...input, username: "o'neil $HOME" })
    expect(script.startsWith('TOKEN=$(curl -s http://127.0.0.1:8366/oauth/token \\')).toBe(true)
    expect(script).toContain(`sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`)
    expect(script.split('\n').at(-1)).toBe('curl -s -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8366/cms/v1/campaigns/list')
    const parsed = spawnSync('sh', ['-n', '-c', script])
    expect(parsed.status, String(parsed.stderr)).toBe(0)
  })

  it('links the OpenAPI document', () => {
    expect(openApiUrl('http://127.0.0.1:8366')).toBe('http://127.0.0.1:8366/openapi.json')
    expect(openApiUrl('http://127.0.0.1:8366/')).toBe('http://127.0.0.1:8366/openapi.json')
  })
})
