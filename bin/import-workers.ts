/**
 * Import workers: the command line's `import` of a large file parses its pieces on other threads
 * (JSON, times, identities, attribution: about half of an import's work) while the main thread
 * ingests the pieces parsed before, in file order (docs/import.md, "Large files").
 */
import { Worker } from 'node:worker_threads'
import type { ParsedLines } from '../engine/measure/import-parse'
import type { LookupSnapshot } from '../engine/measure/lookup'

/** A piece parsed: its lines (null: none), and for bytes the number of lines of its text (the next piece starts after them). */
export type Parsed = { lines: ParsedLines | null; textLines: number }
type Reply = { id: number; parsed?: ParsedLines | null; textLines?: number; error?: string }

/**
 * A worker's young generation: semi-spaces of 32 MB, twice V8's default of 16, so that the garbage
 * of parsing a piece (a JSON object and its strings a line) is collected in fewer scavenges that
 * copy the piece's surviving hits less often (the worker's parse: 1.98 -> 1.86 us of CPU a line,
 * in-process; a 10M import 2-3% faster, measured alternately).
 */
const YOUNG_GENERATION_MB = 96

export class ImportWorkers {
  private readonly workers: Worker[]
  private readonly waiting = new Map<number, { resolve: (p: Parsed) => void; reject: (e: Error) => void }>()
  private next = 0
  private failed: Error | null = null
  private closing = false

  /**
   * Starts the threads: they load their modules and the IP database meanwhile (about 0.4 s), so the
   * command starts them before it opens the engine, and gives them what they check lines against
   * with start().
   */
  constructor(count: number) {
    this.workers = Array.from({ length: count }, () => {
      const w = new Worker(new URL('./import-worker.mjs', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } })
      w.on('message', (m: Reply) => this.settle(m))
      w.on('error', (err) => this.fail(err))
      w.on('exit', (code) => this.closing || this.fail(new Error(`an import worker stopped (exit code ${code})`)))
      return w
    })
  }

  /** Number of threads. */
  get size(): number {
    return this.workers.length
  }

  /** The spots and minisites as the import starts, the engine's time zone and its key of address identities: before any parse(). */
  start(data: { snapshot: LookupSnapshot; timeZone: string; identityKey: Uint8Array }): void {
    for (const w of this.workers) w.postMessage({ start: data })
  }

  /**
   * Parses one piece on the next worker, in turn; pieces given to one worker are parsed in order.
   * Bytes (NDJSON) are moved to the worker, whose buffer must hold nothing else; text is copied.
   */
  parse(data: string | Uint8Array<ArrayBuffer>, format: 'ndjson' | 'csv'): Promise<Parsed> {
    if (this.failed) return Promise.reject(this.failed)
    const id = this.next++
    const done = new Promise<Parsed>((resolve, reject) => this.waiting.set(id, { resolve, reject }))
    this.workers[id % this.workers.length]!.postMessage({ id, data, format }, typeof data === 'string' ? [] : [data.buffer])
    return done
  }

  async close(): Promise<void> {
    this.closing = true
    await Promise.all(this.workers.map((w) => w.terminate()))
  }

  private settle(m: Reply): void {
    const w = this.waiting.get(m.id)
    if (!w) return
    this.waiting.delete(m.id)
    if (m.error !== undefined) w.reject(new Error(m.error))
    else w.resolve({ lines: m.parsed ?? null, textLines: m.textLines ?? 0 })
  }

  private fail(err: Error): void {
    this.failed ??= err
    for (const w of this.waiting.values()) w.reject(err)
    this.waiting.clear()
  }
}
