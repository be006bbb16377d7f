/**
 * Small HTTP helpers of the measure bench: form and JSON calls for the set-up, and timed GETs over
 * one keep-alive connection for the report latencies (the whole body read, as a client sees it).
 */
import { Agent, request } from 'node:http'
import { BENCH_ACCOUNT } from './seed'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  /** Request start to the last byte of the body. */
  ms: number
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** One request; `body` is sent as is with `contentType`. */
export function call(url: string, method = 'GET', body?: string, contentType?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const req = request(url, {
      method, agent,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': contentType ?? 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        // the time at the last body byte, before the chunks are joined (67 MiB for basic/show)
        const ms = performance.now() - t0
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

export class Api {
  token = ''
  constructor(readonly base: string) {}

  private check(a: Answer, what: string): unknown {
    if (a.status !== 200) throw new Error(`${what} answered ${a.status}: ${a.body.toString('utf8', 0, 300)}`)
    return JSON.parse(a.body.toString('utf8')) as unknown
  }

  async login(): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'password', ...BENCH_ACCOUNT }).toString()
    const r = this.check(await call(`${this.base}/oauth/token`, 'POST', form), 'login') as { access_token: string }
    this.token = r.access_token
    return this.token
  }

  url(path: string, params: Record<string, string | number> = {}): string {
    const q = new URLSearchParams({ ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])), access_token: this.token })
    return `${this.base}${path}?${q.toString()}`
  }

  async get<T>(path: string, params: Record<string, string | number> = {}): Promise<T> {
    return this.check(await call(this.url(path, params)), `GET ${path}`) as T
  }

  async text(path: string, params: Record<string, string | number> = {}): Promise<string> {
    const a = await call(this.url(path, params))
    if (a.status !== 200) throw new Error(`GET ${path} answered ${a.status}: ${a.body.toString('utf8', 0, 300)}`)
    return a.body.toString('utf8')
  }

  async post<T>(path: string, params: Record<string, string | number>): Promise<T> {
    const form = new URLSearchParams({ ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])), access_token: this.token }).toString()
    return this.check(await call(`${this.base}${path}`, 'POST', form), `POST ${path}`) as T
  }

  async postJson<T>(path: string, json: unknown): Promise<T> {
    return this.check(await call(`${this.base}${path}?access_token=${encodeURIComponent(this.token)}`, 'POST', JSON.stringify(json), 'application/json'), `POST ${path}`) as T
  }
}

export function closeAgent(): void {
  agent.destroy()
}
