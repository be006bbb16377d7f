/**
 * End to end in headless Chromium against `npm run serve` (issue 4): sign in, switch language and
 * theme. Runs where Chromium is installed, and is skipped with the reason printed where it is not.
 */
import { rmSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../helpers/build'
import { ACCOUNT, cannotRun, launch, serve, shot, type Served } from './harness'

const reason = cannotRun()
if (reason) console.warn(`[e2e] skipped: ${reason}`)

let out = ''
let server: Served
let browser: Browser
let page: Page

beforeAll(async () => {
  if (reason) return
  out = buildApp()
  server = await serve(out)
  browser = await launch()
  page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (out) rmSync(out, { recursive: true, force: true })
})

describe('the app in a browser', () => {
  it('asks for a login, refuses a wrong password with a clear message, then signs in', async ({ skip }) => {
    if (reason) return skip(reason)
    await page.goto(server.url)
    await page.waitForURL(/#\/login/)
    await page.fill('[data-test=username] input', ACCOUNT.username)
    await page.fill('[data-test=password] input', 'wrong')
    await page.fill('[data-test=client-id] input', ACCOUNT.client_id)
    await page.fill('[data-test=client-secret] input', ACCOUNT.client_secret)
    await page.click('[data-test=sign-in]')
    await expect.poll(() => page.textContent('[role=alert]')).toContain('username or password is wrong')
    await shot(page, '01-login-refused')
    await page.fill('[data-test=password] input', ACCOUNT.password)
    await page.click('[data-test=sign-in]')
    await page.waitForURL(/#\/campaigns/)
    await expect.poll(() => page.textContent('[data-test=engine-address]')).toContain(server.url)
    expect(await page.title()).toContain('AdMonitor Desk')
    await shot(page, '02-signed-in')
  })

  it('switches to Chinese and to the dark theme, and keeps both after a reload', async ({ skip }) => {
    if (reason) return skip(reason)
    await page.click('[data-test=language]')
    await page.click('.n-base-select-option:has-text("中文")')
    await expect.poll(() => page.textContent('.n-menu')).toContain('活动')
    await page.click('[data-test=theme]')
    await page.click('.n-base-select-option:has-text("深色")')
    await expect.poll(() => page.getAttribute('html', 'data-theme')).toBe('dark')
    await shot(page, '03-chinese-dark')
    await page.reload()
    await expect.poll(() => page.textContent('.n-menu')).toContain('活动')
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark')
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN')
    await page.click('[data-test=language]')
    await page.click('.n-base-select-option:has-text("English")')
    await page.click('[data-test=theme]')
    await page.click('.n-base-select-option:has-text("Light")')
    await expect.poll(() => page.getAttribute('html', 'data-theme')).toBe('light')
  })
})
