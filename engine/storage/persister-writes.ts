/**
 * The journal writes of each request (dispatch.ts): every transaction committed while a request's
 * code runs, and the work it started and waits for (a waited pull's), is noted in the request's
 * scope, so that its answer waits for exactly those writes and is the 507 refusal when the disk
 * refused one of them. The scope follows the request's async context (AsyncLocalStorage):
 * requests interleave at every await, and a commit has no other way to know whose it is.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * One committed transaction: its journal record's number, and how many refusals the persister had
 * met when it was committed (after a refusal, numbers are given again from the last durable one).
 */
export interface JournalWrite {
  readonly seq: number
  readonly generation: number
}

/** The writes of one request, noted until it is answered. */
export class WriteScope {
  private writes: JournalWrite[] = []
  private open = true

  note(w: JournalWrite): void {
    if (this.open) this.writes.push(w)
  }

  /** The writes noted so far (the scope stays open). */
  noted(): readonly JournalWrite[] {
    return [...this.writes]
  }

  /** The writes noted so far; work the request started and did not wait for writes on unnoted. */
  close(): readonly JournalWrite[] {
    this.open = false
    return this.writes
  }
}

const scopes = new AsyncLocalStorage<WriteScope>()

/** Runs `fn` with a scope of its own, which notes the writes `fn` commits (closed once it ends). */
export async function withWrites<T>(fn: (scope: WriteScope) => Promise<T>): Promise<T> {
  const scope = new WriteScope()
  try {
    return await scopes.run(scope, () => fn(scope))
  } finally {
    scope.close()
  }
}

/** Notes a committed transaction in the scope of the request that runs (none outside requests). */
export function noteWrite(w: JournalWrite): void {
  scopes.getStore()?.note(w)
}

/** The writes of the request that runs, so far (none outside requests). */
export function ownWrites(): readonly JournalWrite[] {
  return scopes.getStore()?.noted() ?? []
}
