/**
 * Why the data directory takes no writes, in the interface's words, from the system's error code
 * the engine names (the 507 refusal's `cause`, the status endpoint's `storage.cause`).
 */
import type { Translate } from '../reports/table'

const KNOWN: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS'])

/** The reason for `cause` (ENOSPC: the disk is full; any code not listed: writing fails). */
export const storageReason = (cause: string, t: Translate): string => t(`common.storage.reason.${KNOWN.has(cause) ? cause : 'other'}`)
