/**
 * Serialized answers of read endpoints, kept until the next committed write (the database
 * version changes) or the next day (campaign status depends on today). Each entry keeps its
 * UTF-8 bytes too, so the HTTP door does not encode a large body again for every answer.
 * Bounded by total size, least recently used first out.
 */
export interface CachedBody {
  body: string
  bytes: Uint8Array
}

const cost = (e: CachedBody) => e.body.length * 2 + e.bytes.length

export class ResponseCache {
  private entries = new Map<string, CachedBody>()
  private size = 0
  private version: number | string = -1

  constructor(private readonly maxBytes = 96 << 20) {}

  get(key: string, version: number | string): CachedBody | undefined {
    // Versions only move forward: entries of another one are never answered again. Dropping them
    // now (not at the next set) lets a large answer go before the next one is built.
    if (version !== this.version) {
      if (this.entries.size > 0) this.clear(this.version)
      return undefined
    }
    const hit = this.entries.get(key)
    if (hit !== undefined) {
      this.entries.delete(key)
      this.entries.set(key, hit)
    }
    return hit
  }

  set(key: string, version: number | string, body: string): CachedBody {
    const entry = { body, bytes: Buffer.from(body, 'utf8') }
    if (version !== this.version) this.clear(version)
    if (cost(entry) > this.maxBytes / 4) return entry
    const old = this.entries.get(key)
    if (old !== undefined) {
      this.size -= cost(old)
      this.entries.delete(key)
    }
    this.size += cost(entry)
    this.entries.set(key, entry)
    for (const [k, v] of this.entries) {
      if (this.size <= this.maxBytes) break
      this.entries.delete(k)
      this.size -= cost(v)
    }
    return entry
  }

  private clear(version: number | string): void {
    this.entries.clear()
    this.size = 0
    this.version = version
  }
}
