/**
 * The refusal of a write the data directory cannot take (docs/storage.md, "A full disk"): HTTP 507
 * `insufficient_storage`, naming the directory and the system's error code, so that a caller and
 * the app can tell a full disk from a fault of the engine.
 */
import { E, refuse, type ApiError } from '../contract/errors'

/** The system error codes that mean the disk takes no more bytes: no room, a quota or size limit, mounted read-only. */
const NO_WRITES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS'])

/** The system's error code of a failed file operation (ENOSPC, EIO, ...), or null for another error. */
export function errnoOf(err: unknown): string | null {
  const code = (err as NodeJS.ErrnoException | null)?.code
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : null
}

/** Whether `err` says the disk takes no more bytes: a start then opens the data directory read-only. */
export const refusesWrites = (err: unknown): boolean => NO_WRITES.has(errnoOf(err) ?? '')

const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'its disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'a file reached the size limit',
  EROFS: 'its file system is mounted read-only',
}

/**
 * The ApiError for a write refused because `cause` failed in the data directory `path`. Extra
 * members: `path` and `cause` (the error code, `EIO` when the failure had none).
 */
export function storageRefusal(cause: unknown, path: string): ApiError {
  const code = errnoOf(cause) ?? 'EIO'
  const reason = REASONS[code] ?? 'writing to it fails'
  return refuse(E.insufficientStorage, 'storage.refused', { path, reason, cause: code }, {}, { path, cause: code })
}
