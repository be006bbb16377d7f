// The web interface's files (engine/server/static.ts): only files whose real path lies in the
// folder are served; a symlink in the folder that leads out of it is refused like a path outside.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpDoor, type HttpDoor } from '../../../engine/server/http'
import { serveStatic } from '../../../engine/server/static'

const SECRET = 'TOP-SECRET-OUTSIDE'
let root: string
let www: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'admonitor-static-'))
  www = join(root, 'www')
  mkdirSync(join(www, 'assets'), { recursive: true })
  writeFileSync(join(www, 'index.html'), '<!doctype html><title>AdMonitor Desk</title>')
  writeFileSync(join(www, 'assets', 'app.js'), 'console.log("app")')
  mkdirSync(join(root, 'outside'))
  writeFileSync(join(root, 'outside', 'secret.txt'), SECRET)
  writeFileSync(join(root, 'outside', 'index.html'), SECRET)
  // a file and a folder in the UI folder that lead out of it, and one that stays in it
  symlinkSync(join(root, 'outside', 'secret.txt'), join(www, 'leak.txt'))
  symlinkSync(join(root, 'outside'), join(www, 'ext'), 'dir')
  symlinkSync('../outside/secret.txt', join(www, 'assets', 'relative.txt'))
  symlinkSync(join(www, 'assets', 'app.js'), join(www, 'alias.js'))
  // the UI folder itself reached through a symlink (as an installed build may be)
  symlinkSync(www, join(root, 'www-link'), 'dir')
  // a folder whose index.html leads out
  mkdirSync(join(root, 'hollow'))
  symlinkSync(join(root, 'outside', 'index.html'), join(root, 'hollow', 'index.html'))
})

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true })
})

const text = (r: { body: string; bytes?: Uint8Array } | null) => (r?.bytes ? Buffer.from(r.bytes).toString('utf8') : (r?.body ?? ''))

describe.skipIf(process.platform === 'win32')('serveStatic', () => {
  it('does not serve a symlink in the folder that leads to a file or a folder outside it', async () => {
    for (const path of ['/leak.txt', '/ext/secret.txt', '/assets/relative.txt', '/ext/index.html']) {
      const r = await serveStatic(www, path, false)
      expect([path, r]).toEqual([path, null])
    }
  })

  it("answers a page request to such a symlink with the app's index.html, as for any path that is no file of it", async () => {
    const r = await serveStatic(www, '/ext', true)
    expect(r?.status).toBe(200)
    expect(text(r)).toContain('<title>AdMonitor Desk</title>')
  })

  it('serves a symlink that stays in the folder, and the folder when it is reached through a symlink', async () => {
    const alias = await serveStatic(www, '/alias.js', false)
    expect([alias?.status, text(alias)]).toEqual([200, 'console.log("app")'])
    const viaLink = await serveStatic(join(root, 'www-link'), '/assets/app.js', false)
    expect([viaLink?.status, text(viaLink), viaLink?.headers['cache-control']]).toEqual([200, 'console.log("app")', 'public, max-age=31536000, immutable'])
  })

  it('does not serve an index.html that leads out of the folder', async () => {
    const r = await serveStatic(join(root, 'hollow'), '/', true)
    expect(r?.status).toBe(404)
    expect(text(r)).not.toContain(SECRET)
  })
})

describe.skipIf(process.platform === 'win32')('http door with staticDir', () => {
  let door: HttpDoor
  beforeAll(async () => {
    // static paths never reach the engine
    door = await startHttpDoor({ handle: () => Promise.reject(new Error('not an API path')) }, { port: 0, staticDir: www })
  })
  afterAll(() => door?.close())

  const get = (path: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      request({ host: '127.0.0.1', port: door.port, path, headers: { connection: 'close' } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
      }).on('error', reject).end()
    })

  it('answers the JSON 404 not_found for a symlink that leads out, as for a path outside the folder', async () => {
    for (const path of ['/leak.txt', '/ext/secret.txt', '/assets/relative.txt']) {
      const r = await get(path)
      expect([path, r.status, JSON.parse(r.text).error]).toEqual([path, 404, 'not_found'])
      expect(r.text).not.toContain(SECRET)
    }
    expect((await get('/alias.js')).text).toBe('console.log("app")')
  })
})
