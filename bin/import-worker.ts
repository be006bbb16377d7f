/**
 * An import worker thread (bin/import-workers.ts): parses pieces of an event file into columns of
 * hits, checked against a snapshot of the spots and minisites, and sends them back. It holds no
 * engine state: identities, invalid-traffic frequency and credit are decided by the main thread's
 * ingest, in line order.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { zoneOffset } from '../engine/runtime'
import { Attributor } from '../engine/measure/attribute'
import { buffersOf, parseLines } from '../engine/measure/import-parse'
import { lines } from '../engine/measure/import-run'
import { SnapshotLookup, type LookupSnapshot } from '../engine/measure/lookup'
import type { ImportContext } from '../engine/measure/import'

const { snapshot, timeZone } = workerData as { snapshot: LookupSnapshot; timeZone: string }
const attributor = new Attributor()
const context: ImportContext = { lookup: new SnapshotLookup(snapshot), attributor: () => attributor, zoneOffsetAt: (ms) => zoneOffset(timeZone, ms) }

parentPort!.on('message', ({ id, data, format }: { id: number; data: string | Uint8Array; format: 'ndjson' | 'csv' }) => {
  try {
    // bytes: whole lines of UTF-8, decoded here and their lines counted (they number the next piece's)
    const text = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')
    let textLines = 1
    if (typeof data !== 'string') for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) textLines++
    const parsed = parseLines(lines(text, format), context, Infinity)
    parentPort!.postMessage({ id, parsed, textLines }, parsed ? buffersOf(parsed.hits) : [])
  } catch (err) {
    parentPort!.postMessage({ id, error: (err as Error).message })
  }
})
