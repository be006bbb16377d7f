/**
 * An import worker thread (bin/import-workers.ts): parses pieces of an event file into columns of
 * hits, checked against a snapshot of the spots and minisites, and sends them back. It holds no
 * engine state: identities, invalid-traffic frequency and credit are decided by the main thread's
 * ingest, in line order.
 */
import { parentPort } from 'node:worker_threads'
import { zoneOffset } from '../engine/time-zone'
import { Attributor } from '../engine/measure/attribute'
import { buffersOf, parseLines } from '../engine/measure/import-parse'
import { lines } from '../engine/measure/import-run'
import { SnapshotLookup, type LookupSnapshot } from '../engine/measure/lookup'
import type { ImportContext } from '../engine/measure/import'
import { decodePiece } from './pieces'

type Message = { start: { snapshot: LookupSnapshot; timeZone: string; identityKey: Uint8Array } } | { id: number; data: string | Uint8Array; format: 'ndjson' | 'csv' }

// built while the main thread opens the engine (the IP database takes a while)
const preloaded = new Attributor()
let context: ImportContext | null = null

parentPort!.on('message', (m: Message) => {
  if ('start' in m) {
    const { snapshot, timeZone, identityKey } = m.start
    // (the data directory's key: lines with an address and agent and no identity get its address identity)
    const attributor = new Attributor(preloaded.locator, { identityKey })
    context = { lookup: new SnapshotLookup(snapshot), attributor: () => attributor, zoneOffsetAt: (ms) => zoneOffset(timeZone, ms) }
    return
  }
  const { id, data, format } = m
  try {
    if (!context) throw new Error('an import worker was given a piece before start()')
    // bytes (NDJSON): decoded here, their lines counted (they number the next piece's)
    const { text, lines: textLines } = typeof data === 'string' ? { text: data, lines: 0 } : decodePiece(data)
    const parsed = parseLines(lines(text, format), context, Infinity)
    parentPort!.postMessage({ id, parsed, textLines }, parsed ? buffersOf(parsed.hits) : [])
  } catch (err) {
    parentPort!.postMessage({ id, error: (err as Error).message })
  }
})
