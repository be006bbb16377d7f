/**
 * Import workers: the command line's `import` of a large file parses its pieces on other threads
 * (JSON, times, identities, attribution: about half of an import's work) while the main thread
 * ingests the pieces parsed before, in file order (docs/import.md, "Large files").
 */
import { Worker } from 'node:worker_threads'
import type { ParsedLines } from '../engine/measure/import-parse'
import type { LookupSnapshot } from '../engine/measure/lookup'

type Reply = { id: number; parsed?: ParsedLines | null; error?: string }

export class ImportWorkers {
  private readonly workers: Worker[]
  private readonly waiting = new Map<number, { resolve: (c: ParsedLines | null) => void; reject: (e: Error) => void }>()
  private next = 0
  private failed: Error | null = null
  private closing = false

  constructor(count: number, data: { snapshot: LookupSnapshot; timeZone: string }) {
    this.workers = Array.from({ length: count }, () => {
      const w = new Worker(new URL('./import-worker.mjs', import.meta.url), { workerData: data })
      w.on('message', (m: Reply) => this.settle(m))
      w.on('error', (err) => this.fail(err))
      w.on('exit', (code) => this.closing || this.fail(new Error(`an import worker stopped (exit code ${code})`)))
      return w
    })
  }

  /** Parses one piece on the next worker, in turn; pieces given to one worker are parsed in order. */
  parse(text: string, format: 'ndjson' | 'csv'): Promise<ParsedLines | null> {
    if (this.failed) return Promise.reject(this.failed)
    const id = this.next++
    const done = new Promise<ParsedLines | null>((resolve, reject) => this.waiting.set(id, { resolve, reject }))
    this.workers[id % this.workers.length]!.postMessage({ id, text, format })
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
    else w.resolve(m.parsed ?? null)
  }

  private fail(err: Error): void {
    this.failed ??= err
    for (const w of this.waiting.values()) w.reject(err)
    this.waiting.clear()
  }
}
