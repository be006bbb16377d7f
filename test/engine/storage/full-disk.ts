// A disk that fills up, for tests of what a write does when it does: wraps a real FileHandle.
import type * as Fsp from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { vi } from 'vitest'

/** The bytes the disk still has room for; a test frees space by raising it. */
export interface Disk {
  free: number
}

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })

/**
 * Makes `fh` write as on `disk`: a write larger than the room left is short without an error (as
 * write(2) is on a full disk or past a file-size limit), and a write with no room left throws
 * ENOSPC. Truncating gives the space back.
 */
export function onDisk(fh: FileHandle, disk: Disk): FileHandle {
  const write = fh.write.bind(fh) as (b: Uint8Array, o: number, l: number, p?: number | null) => Promise<{ bytesWritten: number; buffer: Uint8Array }>
  const truncate = fh.truncate.bind(fh)
  fh.write = (async (buf: Uint8Array, offset = 0, length = buf.byteLength - offset, position?: number | null) => {
    if (disk.free <= 0) throw enospc()
    const r = await write(buf, offset, Math.min(length, disk.free), position)
    disk.free -= r.bytesWritten
    return r
  }) as typeof fh.write
  fh.truncate = async (len = 0) => {
    const before = (await fh.stat()).size
    await truncate(len)
    disk.free += before - len
  }
  // (FileHandle.writeFile writes through its own binding, not fh.write: routed through the disk too)
  fh.writeFile = (async (data: string | Uint8Array) => {
    const buf = typeof data === 'string' ? Buffer.from(data) : data
    for (let done = 0; done < buf.length;) done += (await fh.write(buf, done, buf.length - done)).bytesWritten
  }) as typeof fh.writeFile
  return fh
}

/**
 * Makes every file opened for writing under `dir` (through `fsp`, node:fs/promises mocked by the
 * test file with vi.mock) write as on `disk`: a whole data directory on a disk that fills up.
 */
export function directoryOnDisk(fsp: typeof Fsp, dir: string, disk: Disk): void {
  const realOpen = vi.mocked(fsp.open).getMockImplementation()!
  vi.mocked(fsp.open).mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    const fh = await realOpen(...args)
    const [path, flags = 'r'] = args
    return String(path).startsWith(dir) && flags !== 'r' ? onDisk(fh, disk) : fh
  })
}

/**
 * Makes the next `open` of `fsp` (node:fs/promises, mocked by the test file with vi.mock) return a
 * handle whose writeFile writes half the bytes, then fails like a full disk.
 */
export function failNextWriteHalfway(fsp: typeof Fsp): void {
  const realOpen = vi.mocked(fsp.open).getMockImplementation()!
  vi.mocked(fsp.open).mockImplementationOnce(async (...args: Parameters<typeof fsp.open>) => {
    const fh = await realOpen(...args)
    fh.writeFile = async (data: Parameters<typeof fh.writeFile>[0]) => {
      const buf = data as Uint8Array
      await fh.write(buf.subarray(0, Math.floor(buf.length / 2)))
      throw enospc()
    }
    return fh
  })
}
