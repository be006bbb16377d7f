/**
 * Serialized answers of read endpoints, kept until the next committed write (the database
 * version changes) or the next day (campaign status depends on today). Bounded by total size.
 */
export class ResponseCache {
  private entries = new Map<string, string>()
  private bytes = 0
  private version = -1

  constructor(private readonly maxBytes = 64 << 20) {}

  get(key: string, version: number): string | undefined {
    if (version !== this.version) return undefined
    const body = this.entries.get(key)
    if (body !== undefined) {
      // keep recently used entries at the end (LRU order)
      this.entries.delete(key)
      this.entries.set(key, body)
    }
    return body
  }

  set(key: string, version: number, body: string): void {
    if (version !== this.version) this.clear(version)
    if (body.length * 2 > this.maxBytes / 4) return
    const old = this.entries.get(key)
    if (old !== undefined) {
      this.bytes -= old.length * 2
      this.entries.delete(key)
    }
    this.bytes += body.length * 2
    this.entries.set(key, body)
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(k)
      this.bytes -= v.length * 2
    }
  }

  private clear(version: number): void {
    this.entries.clear()
    this.bytes = 0
    this.version = version
  }
}
