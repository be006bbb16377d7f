/**
 * Files of derived data kept beside the event log between starts (`events/census.bin`,
 * `events/panels.bin`): read at an offset, written whole (temp file, fsync, rename). Beside an
 * in-memory log (tests) they live in memory as long as the log does.
 */
import { closeSync, openSync, readSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { removeDeadTemps, writeFileAtomic } from '../storage/durable-file'
import { FileEventLog, type EventLog } from './event-log'

/** Where a kept file lives: bytes read at an offset, written whole (temp file + rename). */
export interface KeptFile {
  /** `length` bytes from `at` (in an ArrayBuffer of their own), or null when the file is missing or shorter. */
  read(at: number, length: number): Uint8Array | null
  write(parts: readonly Uint8Array[]): Promise<void>
  remove(): Promise<void>
}

/** The in-memory logs' files (tests), by name: surviving an engine as its log does. */
const memoryFiles = new WeakMap<EventLog, Map<string, { bytes: Buffer | null }>>()

/** The kept file `name` of an event log: in its directory, or beside an in-memory log. */
export function fileBesideLog(log: EventLog, name: string): KeptFile {
  if (log instanceof FileEventLog) return diskFile(join(log.dir, name))
  let files = memoryFiles.get(log)
  if (!files) memoryFiles.set(log, (files = new Map()))
  let held = files.get(name)
  if (!held) files.set(name, (held = { bytes: null }))
  const h = held
  return {
    read: (at, length) => (h.bytes && at + length <= h.bytes.length ? new Uint8Array(h.bytes.subarray(at, at + length)) : null),
    write: async (parts) => void (h.bytes = Buffer.concat(parts)),
    remove: async () => void (h.bytes = null),
  }
}

function diskFile(path: string): KeptFile {
  const dir = dirname(path)
  return {
    read(at, length) {
      let fd: number
      try {
        fd = openSync(path, 'r')
      } catch {
        return null
      }
      try {
        const buf = new Uint8Array(length)
        let got = 0
        while (got < length) {
          const r = readSync(fd, buf, got, length - got, at + got)
          if (r === 0) return null
          got += r
        }
        return buf
      } finally {
        closeSync(fd)
      }
    },
    async write(parts) {
      // (a temp file of a process killed while writing is as large as the file)
      await removeDeadTemps(path)
      await writeFileAtomic(path, parts, dir)
    },
    remove: () => rm(path, { force: true }),
  }
}
