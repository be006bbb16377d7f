/**
 * An engine on in-memory storage with a fixed clock, seeded randomness and a known account,
 * plus small request helpers. Every route test starts here (STYLE H9).
 */
import { createEngine, type Engine, type EngineOptions } from '../../engine/index'
import type { EngineResponse } from '../../engine/contract/envelope'
import { memory, type MemoryStorage } from '../../engine/storage/adapters/memory'
import type { Clock } from '../../engine/clock'
import type { Random } from '../../engine/random'

export const ACCOUNT = { username: 'tester', password: 'pw-for-tests', client_id: 'test-client', client_secret: 'client-secret-for-tests' }

/** A clock fixed at noon (Asia/Shanghai) of `date`; `advance` moves it, `sleep` advances it. */
export class FakeClock implements Clock {
  t: number
  slept: number[] = []
  constructor(date: string) {
    this.t = Date.parse(`${date}T12:00:00+08:00`)
  }
  now(): number {
    return this.t
  }
  async sleep(ms: number): Promise<void> {
    this.slept.push(ms)
    this.t += ms
  }
  advance(ms: number): void {
    this.t += ms
  }
}

/** Deterministic bytes (xorshift32) so that runs repeat. */
export function seededRandom(seed = 1): Random {
  let x = seed >>> 0 || 1
  return {
    bytes(n) {
      const out = new Uint8Array(n)
      for (let i = 0; i < n; i++) {
        x ^= x << 13
        x >>>= 0
        x ^= x >>> 17
        x ^= x << 5
        x >>>= 0
        out[i] = x & 0xff
      }
      return out
    },
  }
}

export interface Reply {
  status: number
  headers: Record<string, string>
  /** Parsed JSON body (undefined when the body is not JSON). */
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- test convenience
  raw: EngineResponse
}

export function toReply(res: EngineResponse): Reply {
  let body: unknown
  try {
    body = JSON.parse(res.body)
  } catch {
    body = undefined
  }
  return { status: res.status, headers: res.headers, body, raw: res }
}

export interface TestEngine {
  engine: Engine
  storage: MemoryStorage
  clock: FakeClock
  token: string
  get(path: string, query?: Record<string, string | number>, token?: string | null): Promise<Reply>
  post(path: string, form?: Record<string, string | number>, token?: string | null): Promise<Reply>
  postJson(path: string, json: unknown, token?: string | null): Promise<Reply>
  /** Gets a fresh token for the test account. */
  login(): Promise<string>
}

export async function makeEngine(opts: { today?: string; storage?: MemoryStorage; engine?: Partial<EngineOptions> } = {}): Promise<TestEngine> {
  const storage = opts.storage ?? memory()
  const clock = new FakeClock(opts.today ?? '2025-01-10')
  const engine = await createEngine({ storage, clock, random: seededRandom(), account: ACCOUNT, log: { error: () => undefined, info: () => undefined }, ...opts.engine })
  const str = (o: Record<string, string | number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]))
  const t: TestEngine = {
    engine, storage, clock, token: '',
    async get(path, query = {}, token) {
      const tok = token === undefined ? t.token : token
      return toReply(await engine.handle({ method: 'GET', path, query: { ...str(query), ...(tok ? { access_token: tok } : {}) } }))
    },
    async post(path, form = {}, token) {
      const tok = token === undefined ? t.token : token
      const body = new URLSearchParams({ ...str(form), ...(tok ? { access_token: tok } : {}) }).toString()
      return toReply(await engine.handle({ method: 'POST', path, query: {}, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
    },
    async postJson(path, json, token) {
      const tok = token === undefined ? t.token : token
      return toReply(await engine.handle({ method: 'POST', path, query: tok ? { access_token: tok } : {}, body: JSON.stringify(json), headers: { 'content-type': 'application/json' } }))
    },
    async login() {
      const r = await t.post('/oauth/token', { grant_type: 'password', ...ACCOUNT }, null)
      if (r.status !== 200) throw new Error(`login failed: ${r.raw.body}`)
      return r.body.access_token as string
    },
  }
  t.token = await t.login()
  return t
}

/** Tomorrow relative to the default test date, and other handy dates. */
export const DATES = { today: '2025-01-10', tomorrow: '2025-01-11', nextWeek: '2025-01-17', nextMonth: '2025-02-10', yesterday: '2025-01-09' }
