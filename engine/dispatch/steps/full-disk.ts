/**
 * A full disk (docs/storage.md "A full disk"): while the disk refuses writes, a POST first tries
 * whether it takes them again; a read answers only what the disk holds, and runs again when a
 * write it waited for was refused (memory then went back to what the disk holds).
 */
import { ApiError, E } from '../../contract/errors'
import type { Services } from '../../services'
import { fresh, type Durability, type Step } from '../call'

/** Reads run at most this many times while the writes they wait for are refused. */
const READ_ATTEMPTS = 3

/**
 * POSTs: the first write after space returns is taken (its transaction is refused before it
 * starts otherwise).
 */
export function probeWrites(db: Services['db'], storage: Pick<Durability, 'writable'>): Step {
  return {
    name: 'probe writes',
    applies: ({ def }) => def.method === 'POST',
    async run(call, next) {
      if (db.refused) await storage.writable()
      return next(call)
    },
  }
}

/** GETs with a token (not a tracking hit, not the open documents): wait for the writes in flight first. */
export function retryReads(storage: Pick<Durability, 'durable'>): Step {
  return {
    name: 'retry reads',
    applies: ({ def }) => def.method === 'GET' && def.auth !== 'none',
    async run(call, next) {
      for (let attempt = 1; ; attempt++) {
        try {
          await storage.durable()
          return await next(attempt === 1 ? call : fresh(call))
        } catch (err) {
          if (!(err instanceof ApiError && err.def === E.insufficientStorage) || attempt === READ_ATTEMPTS) throw err
        }
      }
    },
  }
}
