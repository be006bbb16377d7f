import type { IdentityTexts } from './identity-texts'
import { hashText } from './text-hash'

/**
 * Identity text -> id, over the identities' own texts (IdentityTexts): an open-addressing table in
 * one Int32Array of (id, hash) pairs, placed by a 32-bit FNV-1a hash of the text, each candidate
 * checked against its hash and then the bytes of text id. A JS Map of a million string keys cost
 * 0.7 us a lookup here even with the key's hash cached, and 2.5 us for a key just built by
 * concatenation (the common case: an identity text is `namespace:value`); the batch import spent
 * a fifth of its time there. The pair sits in one cache line, so a lookup misses the cache about
 * twice: the pair and the text's bytes (their start, `ends[id - 1]`, a third when far).
 */
export class TextIndex {
  /** [2i]: 0 for an empty slot, else the id; [2i + 1]: the text's hash. */
  private table: Int32Array
  private mask: number
  private count = 0

  constructor(private readonly texts: IdentityTexts, capacity = 1024) {
    let slots = 1024
    while (slots < capacity * 2) slots *= 2
    this.table = new Int32Array(slots * 2)
    this.mask = slots - 1
  }

  get size(): number {
    return this.count
  }

  /** The id of `text`; `h` is its hashText when the caller has it already. */
  get(text: string, h = hashText(text)): number | undefined {
    const t = this.table
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const id = t[2 * i]!
      if (id === 0) return undefined
      if (t[2 * i + 1] === h && this.texts.equals(id, text)) return id
    }
  }

  /**
   * The id in the first slot of `hash` (0: none), most often the id a get() of a text of that hash
   * answers: reading it a few lookups ahead brings the slot into the cache meanwhile (Ingest's
   * import lookups: a lookup otherwise waits for the slot, the text's start and its bytes in turn).
   */
  peek(hash: number): number {
    return this.table[2 * (hash & this.mask)]!
  }

  /** Maps text `id` of the texts to `id`, replacing an earlier id of the same text; `h` is its hash. */
  set(id: number, h = this.texts.hashOf(id)): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.grow()
    const t = this.table
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const at = t[2 * i]!
      if (at === 0) {
        t[2 * i] = id
        t[2 * i + 1] = h
        this.count++
        return
      }
      if (t[2 * i + 1] === h && this.texts.same(at, id)) {
        t[2 * i] = id
        return
      }
    }
  }

  private grow(): void {
    const old = this.table
    this.table = new Int32Array(old.length * 2)
    this.mask = this.table.length / 2 - 1
    for (let j = 0; j < old.length; j += 2) {
      if (old[j] === 0) continue
      let i = old[j + 1]! & this.mask
      while (this.table[2 * i] !== 0) i = (i + 1) & this.mask
      this.table[2 * i] = old[j]!
      this.table[2 * i + 1] = old[j + 1]!
    }
  }
}
