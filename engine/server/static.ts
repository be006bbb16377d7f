/**
 * Serves the renderer build: files under one folder, and index.html for a browser's navigation to
 * any other path without a file extension (the app routes in the URL's hash; a typed path lands
 * in it). Anything else is not here (null): the door answers the engine's JSON 404. A file counts
 * as under the folder by its real path, so a symlink inside that leads out of it is not followed.
 */
import { readFile, realpath, stat } from 'node:fs/promises'
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

/**
 * The real path of `path` when it is a file whose real path lies under `realRoot` (the folder's
 * own real path), else null: the name alone says nothing about where a symlink leads.
 */
async function fileUnder(realRoot: string, path: string): Promise<string | null> {
  const real = await realpath(path).catch(() => null)
  if (real === null || !real.startsWith(realRoot + sep)) return null
  return (await stat(real).then((s) => s.isFile(), () => false)) ? real : null
}

/** Whether a request is a browser's navigation to a page (it accepts HTML), not a script's or an asset's fetch. */
export const isPageRequest = (accept: string | undefined): boolean => (accept ?? '').includes('text/html')

/**
 * The file at `urlPath`, else index.html for a page request (`page`) to a path without a file
 * extension, else null: a missing script and `/X/k=1` get the JSON 404, not the app.
 */
export async function serveStatic(dir: string, urlPath: string, page: boolean): Promise<EngineResponse | null> {
  let rel: string
  try {
    rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '')
  } catch {
    rel = ''
  }
  const root = resolve(dir)
  const realRoot = await realpath(root).catch(() => root)
  const asked = resolve(root, rel)
  // Never leave the folder; a page request to a path that is no file is the single-page app's.
  let file = asked.startsWith(root + sep) ? await fileUnder(realRoot, asked) : null
  if (file === null) {
    const appRoute = rel === '' || (page && extname(rel) === '')
    if (!appRoute) return null
    file = await fileUnder(realRoot, join(root, 'index.html'))
  }
  if (file === null) {
    return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'The web interface is not built; run npm run build.' }
  }
  const bytes = await readFile(file)
  const hashed = /^assets[\\/]/.test(relative(realRoot, file))
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
