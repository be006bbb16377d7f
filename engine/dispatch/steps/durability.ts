/**
 * The durability of an answer (docs/storage.md "A full disk"): a request's writes are noted in
 * its own scope (storage/persister-writes.ts), and its answer waits until they are durable (a
 * refused one answers 507; a token is valid once issued, its record written when the disk can);
 * a read's answer holds only what the disk holds, so it also waits for the writes others made
 * while it ran. A tracking hit writes the event log, never the database: it opens no scope, whose
 * async context costs about 1 us of a hit's 12 (bench/probe.ts hits).
 */
import type { EngineResponse } from '../../contract/envelope'
import type { Services } from '../../services'
import { withWrites } from '../../storage/persister-writes'
import type { Call, Durability, Step } from '../call'

const NONE: readonly never[] = []

/** Opens the scope that notes the answer's writes, and notes the database version it begins at. */
export function writeScope(db: Services['db']): Step {
  return {
    name: 'write scope',
    applies: ({ id }) => !id.startsWith('tracking.'),
    run: (call, next) =>
      withWrites((scope) => {
        call.scope = scope
        call.version = db.version
        return next(call)
      }),
  }
}

/** Waits for the writes the call made (and, for a read, the writes made while it ran). */
export function waitForWrites(db: Services['db'], storage: Pick<Durability, 'durable' | 'durableWrites'>): (call: Call) => Promise<void> {
  return async ({ id, def, scope, version }) => {
    const own = storage.durableWrites(scope?.close() ?? NONE)
    if (id === 'oauth.token') return own.catch(() => undefined)
    await own
    if (def.method === 'GET' && def.auth !== 'none' && db.version !== version) await storage.durable()
  }
}

/**
 * The handler's answer once its writes are durable. A paged list's answer does not wait: its
 * handler only reads (steps/paging.ts); nor does an answer kept by the answer cache, nor a tracking
 * hit, which writes no database record (and so never starts the database's checkpoint either).
 */
export function awaitWrites(wait: (call: Call) => Promise<void>): Step {
  return {
    name: 'await writes',
    applies: ({ id, paged }) => !paged && !id.startsWith('tracking.'),
    async run(call, next): Promise<EngineResponse> {
      const res = await next(call)
      await wait(call)
      return res
    },
  }
}
