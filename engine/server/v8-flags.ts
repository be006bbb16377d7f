/**
 * V8's allocation-site pretenuring, off in the serving process (docs/decisions.md,
 * "Allocation-site pretenuring off in the serving process"). With it on, an object literal whose
 * objects outlived young collections (a request's call, with many requests in flight at once) is
 * allocated in the old generation from then on: every later request's call, with its
 * parameters (a list of ids split into strings) and its answer's pieces behind it, is then kept
 * through each scavenge and promoted, and only a full collection frees it.
 *
 * Unlike the heap's sizes, the flag takes effect when set in a running process, before the
 * engine allocates: the desktop app's main process and `admonitor serve` run from the sources set
 * it here; `npm run serve` and the bench's servers also give it on node's command line
 * (scripts/server-flags.mjs SERVER_NODE_FLAGS).
 */
import { setFlagsFromString } from 'node:v8'

export const NO_PRETENURING = '--no-allocation-site-pretenuring'

/** Turns pretenuring off in this process; call it before the engine is created. */
export function servingV8(): void {
  setFlagsFromString(NO_PRETENURING)
}
