/**
 * In-memory storage for tests. The object outlives the engine that used it, so a test can
 * "crash" an engine (drop it without flushing) and open a new one on the same storage.
 */
import type { LoadedStorage, StoragePort } from '../port'

export class MemoryStorage implements StoragePort {
  snapshot: Uint8Array | null = null
  segments = new Map<number, Uint8Array[]>()
  current = 0
  saves = 0
  backups = new Map<string, Uint8Array>()
  readonly location: string = 'memory'

  async load(): Promise<LoadedStorage> {
    const loaded = await this.read()
    this.current = Math.max(0, ...this.segments.keys()) + 1
    return loaded
  }

  async read(): Promise<LoadedStorage> {
    const ids = [...this.segments.keys()].sort((a, b) => a - b)
    return { snapshot: this.snapshot, segments: ids.map((id) => Buffer.concat(this.segments.get(id) ?? [])) }
  }

  async openForWrites(): Promise<void> {
    this.current = Math.max(this.current, ...this.segments.keys()) + 1
  }

  async append(bytes: Uint8Array): Promise<void> {
    const seg = this.segments.get(this.current) ?? []
    seg.push(Uint8Array.from(bytes))
    this.segments.set(this.current, seg)
  }

  async rotate(): Promise<number> {
    return ++this.current
  }

  async save(snapshot: Uint8Array, dropBefore: number): Promise<void> {
    this.snapshot = Uint8Array.from(snapshot)
    this.saves++
    for (const id of [...this.segments.keys()]) if (id < dropBefore) this.segments.delete(id)
  }

  async backup(name: string, bytes: Uint8Array): Promise<void> {
    this.backups.set(name, Uint8Array.from(bytes))
  }

  async close(): Promise<void> {}
}

/** A fresh in-memory storage. */
export const memory = (): MemoryStorage => new MemoryStorage()
