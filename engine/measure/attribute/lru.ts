/**
 * A bounded cache that keeps recently used entries (the two-generation scheme of hashlru):
 * entries live in a young and an old Map; a hit in the old one moves the entry to the young one,
 * and when the young one is full it becomes the old one and the previous old one is dropped.
 * Attribution caches user-agent parses and IP lookups in it. Deliberately no Map.delete on a
 * hit: deleting and re-inserting the same key grows V8's hash chain until the next rehash, which
 * made a classic Map LRU cost ~17 µs a hit at 5,000 entries.
 */
export class Lru<K, V> {
  private young = new Map<K, V>()
  private old = new Map<K, V>()
  private readonly generation: number

  /** @param capacity most entries held (two generations of half each); at least 1. */
  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error(`LRU capacity must be at least 1, got ${capacity}`)
    this.generation = Math.max(1, Math.floor(capacity / 2))
  }

  /** Number of entries held (a key may be counted in both generations until its old copy goes). */
  get size(): number {
    return this.young.size + this.old.size
  }

  /** The value for `key` (and keeps it as recently used), or undefined. */
  get(key: K): V | undefined {
    const value = this.young.get(key)
    if (value !== undefined) return value
    const aged = this.old.get(key)
    if (aged !== undefined) this.promote(key, aged)
    return aged
  }

  /** Stores `value` as a recently used entry; the oldest generation goes when the young one fills. */
  set(key: K, value: V): void {
    if (this.young.has(key)) this.young.set(key, value)
    else this.promote(key, value)
  }

  /** The cached value for `key`, computing and storing it with `make` on a miss. */
  through(key: K, make: (key: K) => V): V {
    const hit = this.get(key)
    if (hit !== undefined) return hit
    const value = make(key)
    this.set(key, value)
    return value
  }

  private promote(key: K, value: V): void {
    if (this.young.size >= this.generation) {
      this.old = this.young
      this.young = new Map()
    }
    this.young.set(key, value)
  }
}
