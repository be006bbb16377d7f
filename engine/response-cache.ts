import { VersionedLru } from './versioned-lru'

/**
 * Serialized answers of read endpoints, kept until the next committed write (the database
 * version changes) or the next day (campaign status depends on today). Each entry keeps its
 * UTF-8 bytes too, so the HTTP door does not encode a large body again for every answer.
 * Bounded by total size, least recently used first out.
 */
export interface CachedBody {
  /** The text, or undefined for an answer that was written as bytes (setBytes). */
  body: string | undefined
  bytes: Uint8Array
}

const cost = (e: CachedBody) => (e.body?.length ?? 0) * 2 + e.bytes.length

export class ResponseCache {
  private readonly lru: VersionedLru<CachedBody>

  constructor(private readonly maxBytes = 96 << 20) {
    this.lru = new VersionedLru(maxBytes)
  }

  get(key: string, version: number | string): CachedBody | undefined {
    return this.lru.get(key, version)
  }

  /** Keeps an answer (not one over a quarter of the bound) and returns it with its bytes. */
  set(key: string, version: number | string, body: string): CachedBody & { body: string } {
    const entry = { body, bytes: Buffer.from(body, 'utf8') }
    this.keep(key, version, entry)
    return entry
  }

  /** Keeps an answer written as UTF-8 pieces (its text is decoded only if a door reads it). */
  setBytes(key: string, version: number | string, parts: readonly Uint8Array[]): void {
    const size = parts.reduce((n, p) => n + p.length, 0)
    // a copy: a piece is a view on a buffer of 1 MiB, which the cache would keep whole
    if (size <= this.maxBytes / 4) this.keep(key, version, { body: undefined, bytes: Buffer.concat(parts, size) })
  }

  private keep(key: string, version: number | string, entry: CachedBody): void {
    if (cost(entry) <= this.maxBytes / 4) this.lru.set(key, version, entry, cost(entry))
  }
}
