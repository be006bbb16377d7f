// A real disk that fills up, for full-disk tests: a small tmpfs the test mounts (as root, where
// mounting is allowed), filled by a file beside the data directory and freed by deleting it.
import { execFileSync } from 'node:child_process'
import { rm, statfs, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** How a scenario fills and frees the disk of the data directory `dir`. */
export interface DiskControl {
  dir: string
  /** Leaves about `room` bytes free. */
  fill(room: number): Promise<void>
  free(): Promise<void>
}

/**
 * Mounts a tmpfs of `size` (mount's notation: '4m') and returns the control of a data directory
 * inside it, or false where mounting is not allowed; its unmount goes into `cleanups`.
 */
export function mountTmpfs(size: string, cleanups: (() => Promise<void>)[]): DiskControl | false {
  const mnt = execFileSync('mktemp', ['-d', join(tmpdir(), 'admonitor-tmpfs-XXXXXX')]).toString().trim()
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mnt], { stdio: 'ignore' })
  } catch {
    execFileSync('rmdir', [mnt])
    return false
  }
  cleanups.push(async () => {
    // (lazy: an engine a failed test left open still holds files there)
    execFileSync('umount', ['-l', mnt])
    execFileSync('rmdir', [mnt])
  })
  const dir = join(mnt, 'data')
  const filler = join(mnt, 'filler')
  const room = async () => {
    const s = await statfs(mnt)
    return s.bavail * s.bsize
  }
  return {
    dir,
    fill: async (keep) => {
      await writeFile(filler, Buffer.alloc(Math.max(0, (await room()) - keep)), { flag: 'a' })
      // (tmpfs counts whole pages: what is left is filled by a last write that fails)
      if (keep === 0) await writeFile(filler, Buffer.alloc(await room()), { flag: 'a' }).catch(() => undefined)
    },
    free: () => rm(filler, { force: true }),
  }
}
