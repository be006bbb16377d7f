/**
 * Serves the renderer build: files under one folder, and index.html for a browser's navigation to
 * any other path without a file extension (the app routes in the URL's hash; a typed path lands
 * in it). Anything else is not here (null): the door answers the engine's JSON 404.
 */
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, relative, resolve, sep } from 'node:path'
import type { EngineResponse } from '../contract/envelope'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false)
}

/** Whether a request is a browser's navigation to a page (it accepts HTML), not a script's or an asset's fetch. */
export const isPageRequest = (accept: string | undefined): boolean => (accept ?? '').includes('text/html')

/**
 * The file at `urlPath`, else index.html for a page request (`page`) to a path without a file
 * extension, else null. Until 2026-11-26 every unknown path answered index.html with 200, also
 * a missing script and `/X/k=1`, where the docs promised a JSON 404.
 */
export async function serveStatic(dir: string, urlPath: string, page: boolean): Promise<EngineResponse | null> {
  let rel: string
  try {
    rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '')
  } catch {
    rel = ''
  }
  const root = resolve(dir)
  let file = resolve(root, rel)
  // Never leave the folder; a page request to a path that is no file is the single-page app's.
  if (!file.startsWith(root + sep) || !(await isFile(file))) {
    const appRoute = rel === '' || (page && extname(rel) === '')
    if (!appRoute) return null
    file = join(root, 'index.html')
  }
  if (!(await isFile(file))) {
    return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'The web interface is not built; run npm run build.' }
  }
  const bytes = await readFile(file)
  const hashed = /^assets[\\/]/.test(relative(root, file))
  return {
    status: 200,
    headers: {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      // frame-ancestors only counts as a header (a <meta> policy ignores it)
      'content-security-policy': "frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
    },
    body: '',
    bytes,
  }
}
