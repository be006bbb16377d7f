/**
 * Full garbage collections between answers, made once the memory held outside V8's heap (array
 * buffers: columns, censuses, a report's passes) has grown by GROWTH since the last one. V8 makes
 * one on its own only once 64 MiB more is held there than after its last full collection, and the
 * typed arrays the reports let go meanwhile stay resident until then: in the bench's report
 * sequence (docs/measurement.md, "Memory"), 20-45 MiB of them at its peak. A collection here takes
 * 20-30 ms of a 10-million-event server and comes a few times in that sequence, after its largest
 * answers; the next request waits for it.
 */
import { getHeapStatistics } from 'node:v8'

/** Growth of the memory outside V8's heap, since the last collection, that makes one. */
export const GROWTH = 32 << 20
/** The least time between two looks at that memory: a look costs about 2 us, too much for every tracking hit. */
export const LOOK_MS = 20

/** Bytes V8 counts outside its heap (its array buffers' and other external memory). */
const external = (): number => getHeapStatistics().external_memory

/** What the HTTP door calls after each answer with the time (performance.now()). */
export interface Collector {
  (now: number): void
  /**
   * Measures from the memory held now: what an engine's open loaded while the door listened
   * (npm run serve opens in the background) is live, and a collection for it would free nothing.
   */
  rebase(): void
}

/**
 * A collector: it collects when the memory outside V8's heap grew by GROWTH since the last
 * collection (or since it last shrank, or was rebased). `gc` is V8's, which node gives with
 * --expose-gc (scripts/server-flags.mjs); without it the collector does nothing. `held` reads the
 * memory (a test gives its own).
 */
export function externalCollector(gc = (globalThis as { gc?: () => void }).gc, held: () => number = external): Collector {
  if (typeof gc !== 'function') return Object.assign(() => undefined, { rebase: () => undefined })
  let base = held()
  let lookedAt = -Infinity
  const collect = (now: number) => {
    if (now - lookedAt < LOOK_MS) return
    lookedAt = now
    const bytes = held()
    if (bytes < base) base = bytes
    else if (bytes > base + GROWTH) {
      gc()
      base = held()
    }
  }
  return Object.assign(collect, { rebase: () => void (base = held()) })
}
