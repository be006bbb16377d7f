// The pure helpers of the session and preferences stores, and the window title
import { describe, expect, it } from 'vitest'
import { titleParts } from '../../renderer/src/composables/use-title'
import { apiLang, defaultLanguage, readFilters, readPrefs } from '../../renderer/src/stores/prefs/shared'
import { LOGIN_KEY, loginFieldOf, readRemembered } from '../../renderer/src/stores/session/shared'

describe('prefs', () => {
  it('defaults to Chinese for a Chinese system and English otherwise, following the system theme', () => {
    expect(readPrefs(null, 'zh-CN')).toEqual({ language: 'zh', theme: 'system' })
    expect(readPrefs(null, 'de-DE')).toEqual({ language: 'en', theme: 'system' })
    expect(defaultLanguage(undefined)).toBe('en')
  })

  it('keeps valid stored choices and replaces invalid or unreadable ones', () => {
    expect(readPrefs('{"language":"zh","theme":"dark"}', 'en')).toEqual({ language: 'zh', theme: 'dark' })
    expect(readPrefs('{"language":"fr","theme":"pink"}', 'en')).toEqual({ language: 'en', theme: 'system' })
    expect(readPrefs('not json', 'zh')).toEqual({ language: 'zh', theme: 'system' })
  })

  it('asks the reference endpoints for cn names in Chinese', () => {
    expect(apiLang('zh')).toBe('cn')
    expect(apiLang('en')).toBe('en')
  })

  it('reads remembered filters as an object of screens, anything else as none', () => {
    expect(readFilters('{"campaigns":{"status":"1"}}')).toEqual({ campaigns: { status: '1' } })
    expect(readFilters('[1]')).toEqual({})
    expect(readFilters('{')).toEqual({})
  })
})

describe('session', () => {
  it('remembers username and client id only', () => {
    const store = new Map([[LOGIN_KEY, '{"username":"u","client_id":"c","password":"p"}']])
    expect(readRemembered({ getItem: (k) => store.get(k) ?? null })).toEqual({ username: 'u', client_id: 'c' })
    expect(readRemembered({ getItem: () => 'x' })).toEqual({ username: '', client_id: '' })
  })

  it('points a refused login at the password or at the client', () => {
    expect(loginFieldOf('invalid_grant')).toBe('password')
    expect(loginFieldOf('invalid_client')).toBe('client')
    expect(loginFieldOf('invalid_request')).toBeNull()
  })
})

describe('window title', () => {
  it('says record, screen and app, leaving out what is missing', () => {
    expect(titleParts('Spring', 'Reports', 'AdMonitor Desk')).toBe('Spring · Reports · AdMonitor Desk')
    expect(titleParts(null, 'Campaigns', 'AdMonitor Desk')).toBe('Campaigns · AdMonitor Desk')
  })
})
