/**
 * Entries valid for one version of the data (the database version, or it with the measurement
 * version), bounded by their total size, least recently used first out: the store under the
 * answer cache and the result sets of the long lists. Versions only move forward: at the first
 * read or write of a new version every entry of the old one goes (before a large answer is built).
 */
export class VersionedLru<T> {
  /** In insertion order; `used` orders them by last use (a hit updates it instead of moving the entry). */
  private entries = new Map<string, { value: T; size: number; used: number }>()
  private tick = 0
  private total = 0
  private version: number | string = -1

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: number | string): T | undefined {
    if (version !== this.version) {
      this.clear(version)
      return undefined
    }
    const hit = this.entries.get(key)
    if (hit === undefined) return undefined
    hit.used = ++this.tick
    return hit.value
  }

  /** Keeps `value` as the most recent entry, then drops the least recent ones past the bound. */
  set(key: string, version: number | string, value: T, size: number): void {
    if (version !== this.version) this.clear(version)
    const old = this.entries.get(key)
    if (old !== undefined) {
      this.total -= old.size
      this.entries.delete(key)
    }
    this.entries.set(key, { value, size, used: ++this.tick })
    this.total += size
    this.evict(key)
  }

  /** A kept entry's new size (it grew); an entry no longer kept is left alone. */
  resize(key: string, value: T, size: number): void {
    const e = this.entries.get(key)
    if (e === undefined || e.value !== value) return
    this.total += size - e.size
    e.size = size
    this.evict(key)
  }

  /**
   * Past the bound, drops the least recently used entries (never `keep`) until a tenth of the
   * bound is free again: one sort for many later insertions, not a scan for each.
   */
  private evict(keep: string): void {
    if (this.total <= this.maxBytes) return
    const byUse = [...this.entries].filter(([k]) => k !== keep).sort((a, b) => a[1].used - b[1].used)
    for (const [k, e] of byUse) {
      if (this.total <= this.maxBytes * 0.9) break
      this.entries.delete(k)
      this.total -= e.size
    }
  }

  private clear(version: number | string): void {
    this.entries.clear()
    this.total = 0
    this.version = version
  }
}
