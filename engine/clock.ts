/** The engine's clock, passed in (createEngine's `clock`) so that tests can fix time. */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Waits `ms` (login throttling); a fake clock may advance instead. */
  sleep(ms: number): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

/** Lets the event loop turn (requests, timers, other work) before going on: long work is cut into turns. */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve))
