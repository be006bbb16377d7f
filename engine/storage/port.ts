/**
 * Where the database lives: a snapshot plus journal segments. Adapters: `adapters/file.ts`
 * (the data directory) and `adapters/memory.ts` (tests). The persister decides when to call what.
 */
export interface LoadedStorage {
  /** The last saved snapshot, or null when there is none yet. */
  snapshot: Uint8Array | null
  /** Raw bytes of every journal segment, oldest first. */
  segments: Uint8Array[]
  /**
   * Set by `load()` when the storage could be read but not opened for appends (the disk has no
   * room for the lock or a new segment): why. `openForWrites()` tries again.
   */
  readOnly?: Error | null
}

export interface StoragePort {
  /** Where the storage is (the data directory), for messages. */
  readonly location: string
  /** Reads the stored state and opens it for appends (to a fresh segment) when it can (`readOnly` says why not). */
  load(): Promise<LoadedStorage>
  /** Reads the stored state again, changing nothing (after a refused write, to drop it from memory). */
  read(): Promise<LoadedStorage>
  /** Opens a storage that `load()` could only read for appends: takes what it lacked, starts a fresh segment. */
  openForWrites(): Promise<void>
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
