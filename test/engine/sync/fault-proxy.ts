/**
 * A fault-injecting HTTP proxy between the local engine and the remote: for each request it may
 * delay, reset the connection, answer 500, cut the body short (mid-stream, or with a
 * Content-Length that makes the cut look complete), or pass the request on and lose the answer
 * (`lost`: the remote did the work, the client never hears of it). Real sockets, so the client
 * sees the errors undici really raises.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Fault = 'none' | 'delay' | 'reset' | '500' | 'cut' | 'short' | 'lost'

export interface FaultProxy {
  url: string
  /** Faults injected so far, by kind. */
  injected: Record<Fault, number>
  /** Decides the fault of the next request (path without the query). */
  choose: (path: string) => Fault
  close(): Promise<void>
}

function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: target.host }
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    out.on('error', reject)
    out.end(body)
  })
}

async function serve(target: URL, proxy: FaultProxy, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  const fault = proxy.choose((req.url ?? '/').split('?')[0]!)
  proxy.injected[fault]++
  if (fault === 'reset') return void req.socket.destroy()
  if (fault === '500') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"server_error","error_description":"injected"}')
  if (fault === 'delay') await new Promise((r) => setTimeout(r, 30))
  const r = await forward(target, req, Buffer.concat(chunks))
  if (fault === 'lost') return void req.socket.destroy()
  if ((fault === 'cut' || fault === 'short') && r.body.length <= 2) {
    // an answer of two bytes (an empty list) cannot be cut: it goes through whole, so it is no fault
    proxy.injected[fault]--
    proxy.injected.none++
  }
  const { 'content-length': _len, connection: _c, 'transfer-encoding': _te, ...headers } = r.headers
  if (fault === 'cut' && r.body.length > 2) {
    // promise the whole body, send half, then drop the connection
    res.writeHead(r.status, { ...headers, 'content-length': String(r.body.length) })
    res.write(r.body.subarray(0, r.body.length >> 1))
    return void setTimeout(() => req.socket.destroy(), 5)
  }
  const body = fault === 'short' && r.body.length > 2 ? r.body.subarray(0, r.body.length >> 1) : r.body
  res.writeHead(r.status, { ...headers, 'content-length': String(body.length) }).end(body)
}

export async function startFaultProxy(targetUrl: string, choose: FaultProxy['choose']): Promise<FaultProxy> {
  const target = new URL(targetUrl)
  const proxy: FaultProxy = { url: '', injected: { none: 0, delay: 0, reset: 0, '500': 0, cut: 0, short: 0, lost: 0 }, choose, close: async () => undefined }
  const server: Server = createServer((req, res) => {
    serve(target, proxy, req, res).catch(() => req.socket.destroy())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  proxy.close = () => new Promise((r) => {
    server.closeAllConnections()
    server.close(() => r())
  })
  return proxy
}
