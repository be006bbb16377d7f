// main/url-rules.ts: the frames that are the app (IPC and navigation) and the links handed to the system browser
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { isAppUrlOf, isExternalLink } from '../../main/url-rules'

const dir = join('/opt', 'AdMonitor Desk', 'out', 'renderer')
const file = (rel: string) => pathToFileURL(join(dir, rel)).href

describe('isAppUrlOf', () => {
  it("takes the built renderer's own files, and the dev server's origin", () => {
    expect(isAppUrlOf(file('index.html'), dir)).toBe(true)
    expect(isAppUrlOf(`${file('index.html')}#/reports/basic?campaign_id=3`, dir)).toBe(true)
    expect(isAppUrlOf('http://localhost:5173/#/campaigns', dir, 'http://localhost:5173')).toBe(true)
  })

  it('refuses a file elsewhere that only looks like it, a path leaving the directory, another origin and nonsense', () => {
    expect(isAppUrlOf('file:///tmp/evil/renderer/index.html', dir)).toBe(false)
    expect(isAppUrlOf(`${pathToFileURL(dir).href}-evil/index.html`, dir)).toBe(false)
    expect(isAppUrlOf(`${pathToFileURL(dir).href}/../../secret.html`, dir)).toBe(false)
    expect(isAppUrlOf('file://server/opt/AdMonitor%20Desk/out/renderer/index.html', dir)).toBe(false)
    expect(isAppUrlOf('http://localhost:5173.evil.example/', dir, 'http://localhost:5173')).toBe(false)
    expect(isAppUrlOf('http://localhost:5174/', dir, 'http://localhost:5173')).toBe(false)
    expect(isAppUrlOf('https://evil.example/', dir)).toBe(false)
    expect(isAppUrlOf('', dir)).toBe(false)
  })
})

describe('isExternalLink', () => {
  it('opens https anywhere and http on this machine in the system browser', () => {
    for (const url of ['https://example.com/docs', 'http://127.0.0.1:8366/openapi.json', 'http://localhost:8366/', 'http://[::1]:8366/']) expect(isExternalLink(url), url).toBe(true)
  })

  it('refuses http to another host (a prefix check let 127.0.0.1.evil.example through), other schemes and credentials in the link', () => {
    for (const url of ['http://127.0.0.1.evil.example/', 'http://evil.example/', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://user:pw@example.com/', 'not a url']) {
      expect(isExternalLink(url), url).toBe(false)
    }
  })
})
