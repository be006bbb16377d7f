/**
 * Which frame URLs are the app itself, and which links the window hands to the system browser
 * (DESIGN §5). Pure (no electron), so that plain Node tests them. Neither is a prefix check, which
 * would pass `http://127.0.0.1.evil.example/` for this machine, and any `file://` page with
 * `/renderer/` in its path for the app.
 */
import { sep } from 'node:path'
import { pathToFileURL } from 'node:url'

const parsed = (url: string): URL | null => {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** Whether `url` is the app: a file inside `rendererDir` (the built renderer), or a page of the dev server's origin. */
export function isAppUrlOf(url: string, rendererDir: string, devUrl?: string): boolean {
  const u = parsed(url)
  if (!u) return false
  const dev = devUrl ? parsed(devUrl) : null
  if (dev && u.origin === dev.origin && (u.protocol === 'http:' || u.protocol === 'https:')) return true
  const root = pathToFileURL(rendererDir.endsWith(sep) ? rendererDir : rendererDir + sep).href
  // (URL has already resolved '..' and escapes, so a path that leaves the directory does not start with it)
  return u.protocol === 'file:' && u.host === '' && u.href.startsWith(root)
}

/** This machine's names in a URL. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Whether a link the app opens goes to the system browser: https anywhere, http to this machine only. */
export function isExternalLink(url: string): boolean {
  const u = parsed(url)
  if (!u || u.username !== '' || u.password !== '') return false
  return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname))
}
