/**
 * Clients of the tracking endpoints as real traffic has them: a browser with its own cookie jar
 * that follows the cookie check's redirect, a browser that refuses cookies, a client that does not
 * follow redirects (curl, server-to-server trackers). Requests go through engine.handle().
 */
import type { EngineRequest, EngineResponse } from '../../engine/contract/envelope'
import { toReply, type Reply } from './make-engine'

/** What the tracking endpoints are called through (an Engine, a TestEngine's engine). */
export interface Door {
  handle(req: EngineRequest): Promise<EngineResponse>
}

export interface ClientOptions {
  userAgent: string
  /** The socket address the engine sees. */
  ip: string
  /** Stores the cookies it is sent and sends them back (a browser); default true. */
  keepsCookies?: boolean
  /** Follows a redirect back to a tracking endpoint (the cookie check); default true. */
  followsRedirects?: boolean
  /** Headers sent with every request. */
  headers?: Record<string, string>
}

/** The request for a URL or path (`/x/k=…&o=`, `http://host/x/…?q`): host taken off, query split. */
export function trackingRequest(url: string, headers: Record<string, string>, remoteAddress: string, method = 'GET'): EngineRequest {
  const bare = url.replace(/^https?:\/\/[^/]+/, '')
  const q = bare.indexOf('?')
  const path = q < 0 ? bare : bare.slice(0, q)
  const rawQuery = q < 0 ? '' : bare.slice(q + 1)
  return { method, path, query: Object.fromEntries(new URLSearchParams(rawQuery)), rawQuery, headers, remoteAddress }
}

const TRACKING_PATH = /^\/[xre](?:[/?.]|$)/

export class TrackingClient {
  /** The cookies it holds, name -> value. */
  readonly jar = new Map<string, string>()
  ip: string

  constructor(
    private readonly door: Door,
    readonly o: ClientOptions,
  ) {
    this.ip = o.ip
  }

  /** Requests `url` and follows the redirects back to a tracking endpoint; every answer, in order. */
  async get(url: string, extra: Record<string, string> = {}, method = 'GET'): Promise<Reply[]> {
    const answers: Reply[] = []
    let next: string | null = url
    while (next !== null && answers.length < 5) {
      const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ')
      const headers: Record<string, string> = { 'user-agent': this.o.userAgent, ...this.o.headers, ...extra, ...(cookie ? { cookie } : {}) }
      const r = toReply(await this.door.handle(trackingRequest(next, headers, this.ip, method)))
      answers.push(r)
      this.keep(r.headers['set-cookie'])
      const location = r.headers.location
      next = r.status === 302 && location !== undefined && TRACKING_PATH.test(location) && this.o.followsRedirects !== false ? location : null
    }
    return answers
  }

  /** The last answer of get(). */
  async last(url: string, extra: Record<string, string> = {}): Promise<Reply> {
    const all = await this.get(url, extra)
    return all[all.length - 1]!
  }

  private keep(setCookie: string | undefined): void {
    if (setCookie === undefined || this.o.keepsCookies === false) return
    const pair = setCookie.split(';')[0] ?? ''
    const eq = pair.indexOf('=')
    if (eq > 0) this.jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
  }
}
