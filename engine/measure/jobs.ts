/**
 * Long-running work of the local namespace (imports, simulations, rebuilds) as jobs whose progress
 * can be read while they run (GET /local/v1/jobs/show); a request may also wait for the end.
 */
import { nextTurn } from '../clock'
import { ApiError } from '../contract/errors'
import type { Problem } from '../contract/problems'

export interface JobError {
  line: number
  error: string
  /** The reason's problem key and arguments, answered to a client that asks (docs/errors.md, "Problem keys"). */
  error_problem?: Problem
}

export interface Job {
  job_id: string
  kind: 'import' | 'simulate' | 'rebuild'
  state: 'running' | 'done' | 'failed'
  /** Units of work known so far (lines, planned hits) and done. */
  total: number
  processed: number
  imported: number
  rejected: number
  /** Good lines left out: repeats of a media request id counted within 24 hours (docs/attribution.md). */
  repeated: number
  /** The first 1,000 problems, with line numbers. */
  errors: JobError[]
  message: string
  /** The message's problem key and arguments when the job failed on a refusal of the catalogue, answered to a client that asks. */
  message_problem?: Problem
  started_at: string
  finished_at: string
  /** A finished simulation's figures (contract: Job.simulation). */
  simulation?: SimulationFigures
}

/** What a finished simulation made (the job's `message` says it in English). */
export interface SimulationFigures {
  impressions: number
  clicks: number
  identities: number
  days: number
  capped: number
  panel_persons: number
  panel_oversampling: number
  full: number
  /** Clients reached by kind, shared addresses, prefetches and invalid hits (docs/simulator.md). */
  clients: { cookie_keepers: number; cookie_refusers: number; apps: number; server_to_server: number; bots: number }
  nat_groups: number
  prefetches: number
  bot_hits: number
  datacenter_hits: number
}

export const MAX_LISTED_ERRORS = 1000

/**
 * Records the pieces of a job (an import's slices, a simulation's chunks) one after the other:
 * each piece is made (the iterator's next()) while the one before is being written, and recorded
 * once that one is durable; the event loop turns between pieces, so that a tracking hit waits for
 * at most one piece, never for the job. `settle`, awaited after each turn, before the next piece
 * is made, lets a job whose pieces may take long (a simulation's) have the hits read in that turn
 * made durable and answered first: else a hit read between two long pieces waits for both.
 */
export async function recordInTurns<T>(pieces: Iterable<T>, record: (piece: T) => Promise<void>, settle?: () => Promise<void>): Promise<void> {
  let writing: Promise<void> = Promise.resolve()
  for (const piece of pieces) {
    await writing
    writing = record(piece)
    // (awaited before the next piece; a failure meanwhile is not an unhandled rejection)
    writing.catch(() => undefined)
    await nextTurn()
    if (settle) {
      // (a second turn: after a piece made in a request's callback the first one ends before any
      // request that came meanwhile is read)
      await nextTurn()
      await settle()
    }
  }
  await writing
}

export class Jobs {
  private jobs = new Map<string, Job>()

  /**
   * @param nextId the next job id; the engine's counts on in its data directory, so that an id
   * polled after a restart names no other job (ids started at 1 again with every run)
   */
  constructor(private readonly nextId: () => number) {}

  start(kind: Job['kind'], now: number, total = 0): Job {
    const job: Job = { job_id: String(this.nextId()), kind, state: 'running', total, processed: 0, imported: 0, rejected: 0, repeated: 0, errors: [], message: '', started_at: new Date(now).toISOString(), finished_at: '' }
    this.jobs.set(job.job_id, job)
    // keep the last 100 jobs
    if (this.jobs.size > 100) this.jobs.delete(this.jobs.keys().next().value!)
    return job
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id)
  }

  /** Drops a job that never started (Measurement.startJob). */
  forget(job: Job): void {
    this.jobs.delete(job.job_id)
  }

  list(): Job[] {
    return [...this.jobs.values()].reverse()
  }

  reject(job: Job, line: number, error: string, problem?: Problem): void {
    job.rejected++
    if (job.errors.length < MAX_LISTED_ERRORS) job.errors.push({ line, error, ...(problem ? { error_problem: problem } : {}) })
  }

  /** Runs `work`, marking the job done or failed (with the reason) when it ends. */
  async run(job: Job, now: () => number, work: () => Promise<void>): Promise<Job> {
    try {
      await work()
      job.state = 'done'
    } catch (err) {
      job.state = 'failed'
      job.message = (err as Error).message
      if (err instanceof ApiError && err.problem) job.message_problem = err.problem
    }
    job.finished_at = new Date(now()).toISOString()
    return job
  }
}
