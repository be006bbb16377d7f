/** Calls and services of a test of dispatch's steps, without an engine. */
import { endpoints, type EndpointId } from '../../../engine/contract/endpoints'
import type { EngineResponse } from '../../../engine/contract/envelope'
import type { Call } from '../../../engine/dispatch/call'
import type { Services } from '../../../engine/services'

/** A call of endpoint `id` with these decoded parameters (and query, for a forwarded GET). */
export function callOf(id: EndpointId, params: unknown = {}, options: { callback?: string; query?: Record<string, string> } = {}): Call {
  const query = options.query ?? {}
  return {
    req: { method: endpoints[id].method, path: endpoints[id].path, query, headers: {} },
    id,
    def: endpoints[id],
    parsed: { params: new Map(Object.entries(query).map(([k, v]) => [k, [v]])), json: undefined, text: '', token: undefined },
    user: null,
    params,
    opts: { common: { callback: options.callback ?? null, suppress: false }, noStore: false, ignored: [] },
    scope: undefined,
    version: 0,
    today: undefined,
    answer: undefined,
  }
}

/** The services a step reads, as plain values a test changes: versions, the day, the zone. */
export interface FakeServices {
  db: { version: number; refused: unknown }
  measure: { version: string; settled(): Promise<void> }
  settings: { timeZone: string; publicUrl: string }
  clock: { now(): number; sleep(ms: number): Promise<void> }
}

/** Services at 2026-03-10 10:00 in Shanghai, database version 1, measurement version 'm1'. */
export function fakeServices(): FakeServices & { asServices: Services } {
  let ms = Date.parse('2026-03-10T02:00:00Z')
  const s = {
    db: { version: 1, refused: null as unknown },
    measure: { version: 'm1', settled: () => Promise.resolve() },
    settings: { timeZone: 'Asia/Shanghai', publicUrl: 'http://127.0.0.1:8366' },
    clock: { now: () => ms, sleep: async (n: number) => void (ms += n) },
  }
  return Object.assign(s, { asServices: s as unknown as Services })
}

/** The answer's body as its bytes would be sent (its parts, or its text). */
export const sent = (r: EngineResponse): string => (r.parts ? Buffer.concat(r.parts) : r.bytes ? Buffer.from(r.bytes) : Buffer.from(r.body, 'utf8')).toString('utf8')
