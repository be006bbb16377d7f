/**
 * Where the database lives: a snapshot plus journal segments. Adapters: `adapters/file.ts`
 * (the data directory) and `adapters/memory.ts` (tests). The persister decides when to call what.
 */
export interface LoadedStorage {
  /** The last saved snapshot, or null when there is none yet. */
  snapshot: Uint8Array | null
  /** Raw bytes of every journal segment, oldest first. */
  segments: Uint8Array[]
}

export interface StoragePort {
  /** Reads the stored state; afterwards appends go to a fresh segment. */
  load(): Promise<LoadedStorage>
  /** Appends to the current segment; resolves once the bytes are on stable storage. */
  append(bytes: Uint8Array): Promise<void>
  /** Starts a new segment for later appends and returns its number. */
  rotate(): Promise<number>
  /** Atomically replaces the snapshot, then drops the segments numbered below `dropBefore`. */
  save(snapshot: Uint8Array, dropBefore: number): Promise<void>
  /** Keeps a named copy of a database image (taken before a migration). */
  backup(name: string, bytes: Uint8Array): Promise<void>
  close(): Promise<void>
}
