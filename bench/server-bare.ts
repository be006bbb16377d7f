/**
 * Child process: the baseline. A bare node:http server on 127.0.0.1 (port 0) that answers every
 * request with prebuilt bytes: the exact body and headers the engine returned, read once from
 * BODIES_JSON ({ "<path prefix>": { "file": ..., "headers": {...} } }). No routing beyond a
 * prefix test, no parsing, no engine.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ServerCommand, ServerMessage } from './protocol'

interface Canned {
  prefix: string
  body: Buffer
  headers: Record<string, string>
}

const imported = performance.now()

function send(m: ServerMessage): void {
  process.send?.(m)
}

function load(manifestPath: string): Canned[] {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, { file: string; headers: Record<string, string> }>
  // Longest prefix first, so that /campaigns/list_spots wins over /campaigns/list.
  return Object.entries(manifest)
    .map(([prefix, m]) => {
      const body = readFileSync(m.file)
      return { prefix, body, headers: { ...m.headers, 'content-length': String(body.length) } }
    })
    .sort((a, b) => b.prefix.length - a.prefix.length)
}

const manifestPath = process.argv[2]
if (!manifestPath) throw new Error('usage: server-bare.ts BODIES_JSON')
const canned = load(manifestPath)
const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
  const hit = canned.find((c) => (req.url ?? '').startsWith(c.prefix))
  if (!hit) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, hit.headers)
  res.end(hit.body)
})
server.listen(0, '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port
  send({ type: 'ready', port, marks: { imported, engineOpen: imported, listening: performance.now() } })
})
process.on('message', (cmd: ServerCommand) => {
  if (cmd.type === 'stats') {
    const m = process.memoryUsage()
    const c = process.cpuUsage()
    send({ type: 'stats', rss: m.rss, heapUsed: m.heapUsed, external: m.external, cpuMs: (c.user + c.system) / 1000 })
  } else {
    server.close(() => {
      send({ type: 'stopped' })
      process.disconnect?.()
    })
    server.closeAllConnections()
  }
})
