// docs/measurement.md "Raw events": events/NNNNNN.seg, append-only, fsynced, torn tails ignored
import { constants } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { mkdtemp, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FileEventLog, MemoryEventLog, type EventLog } from '../../../engine/measure/event-log'
import { FrameWriter, type EventRecord, type IdentityRecord } from '../../../engine/measure/record'
import { KIND } from '../../../engine/measure/types'
import { onDisk, type Disk } from '../storage/full-disk'
import { countTurns } from '../../helpers/turns'

// Lets a test give the files the log opens a full disk; every other call is real.
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return { ...real, open: vi.fn(real.open) }
})
const realOpen = vi.mocked(fsp.open).getMockImplementation()!

const dirs: string[] = []
const logs: EventLog[] = []
afterEach(async () => {
  vi.mocked(fsp.open).mockImplementation(realOpen)
  for (const l of logs.splice(0)) await l.close().catch(() => undefined)
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'admonitor-event-log-'))
  dirs.push(d)
  return d
}

function fileLog(dir: string): FileEventLog {
  const l = new FileEventLog(dir)
  logs.push(l)
  return l
}

const ev = (campaign: number, ts = 1_736_481_600_000): EventRecord => ({ kind: KIND.impression, flags: 0, region: 0, campaign, spot: 1, keyword: 0, identity: 1, minisite: 0, event: 0, ts })

/** One frame holding events for the given campaign numbers. */
function frame(...campaigns: number[]): Buffer {
  const w = new FrameWriter()
  for (const c of campaigns) w.event(ev(c))
  return w.take()
}

/** The campaign of every event the log visits, in order, and the bytes it reports. */
async function campaignsOf(log: EventLog): Promise<{ campaigns: number[]; identities: IdentityRecord[]; bytes: number }> {
  const campaigns: number[] = []
  const identities: IdentityRecord[] = []
  const bytes = await log.readAll({ identity: (r) => identities.push(r), event: (e) => campaigns.push(e.campaign) })
  return { campaigns, identities, bytes }
}

const segs = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith('.seg')).sort()

/** Makes the files opened from now on whose name ends with `suffix` write as on `disk` (see full-disk.ts). */
function filesOn(suffix: string, disk: Disk): void {
  vi.mocked(fsp.open).mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    const fh = await realOpen(...args)
    return String(args[0]).endsWith(suffix) ? onDisk(fh, disk) : fh
  })
}

describe('FileEventLog', () => {
  it('does create the directory and read nothing when it does not exist yet', async () => {
    const dir = join(await tempDir(), 'events', 'nested')
    expect(await campaignsOf(fileLog(dir))).toEqual({ campaigns: [], identities: [], bytes: 0 })
    expect((await stat(dir)).isDirectory()).toBe(true)
  })

  it('does append the first frame to 000001.seg and count the bytes appended', async () => {
    const dir = await tempDir()
    const log = fileLog(dir)
    await log.readAll({ identity: () => undefined, event: () => undefined })
    const a = frame(1, 2)
    const b = frame(3)
    await log.append(a)
    expect(log.appended).toBe(a.length)
    await log.append(b)
    expect(log.appended).toBe(a.length + b.length)
    expect(await segs(dir)).toEqual(['000001.seg'])
    expect((await readFile(join(dir, '000001.seg'))).equals(Buffer.concat([a, b]))).toBe(true)
  })

  it('does create segment files readable and writable by the owner only', async () => {
    if (process.platform === 'win32') return
    const dir = await tempDir()
    await fileLog(dir).append(frame(1))
    expect((await stat(join(dir, '000001.seg'))).mode & 0o777).toBe(0o600)
  })

  it('does write segments synchronised (O_DSYNC): an append returns once its bytes are on stable storage', async () => {
    if (process.platform !== 'linux') return // the flags of open files are read from /proc
    const dir = await tempDir()
    await fileLog(dir).append(frame(1))
    const segment = join(dir, '000001.seg')
    const fds = await readdir('/proc/self/fd')
    const open = (await Promise.all(fds.map(async (fd) => ((await readlink(`/proc/self/fd/${fd}`).catch(() => '')) === segment ? fd : null)))).filter((fd) => fd !== null)
    expect(open).toHaveLength(1)
    const flags = parseInt(/^flags:\s+([0-7]+)/m.exec(await readFile(`/proc/self/fdinfo/${open[0]}`, 'utf8'))![1]!, 8)
    expect(flags & constants.O_DSYNC).toBe(constants.O_DSYNC)
    expect(flags & constants.O_APPEND).toBe(constants.O_APPEND)
  })

  it('does read every segment in numeric order, not name order', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, '000002.seg'), frame(2))
    await writeFile(join(dir, '1000000.seg'), frame(4))
    await writeFile(join(dir, '999999.seg'), frame(3))
    await writeFile(join(dir, '000001.seg'), Buffer.concat([frame(1), frame(11)]))
    const got = await campaignsOf(fileLog(dir))
    expect(got.campaigns).toEqual([1, 11, 2, 3, 4])
  })

  it('does ignore files that are not segments', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, '000001.seg'), frame(1))
    await writeFile(join(dir, '12345.seg'), frame(99)) // fewer than 6 digits
    await writeFile(join(dir, '000003.seg.tmp'), frame(98))
    await writeFile(join(dir, 'notes.txt'), 'hello')
    expect((await campaignsOf(fileLog(dir))).campaigns).toEqual([1])
  })

  it('does return the bytes of intact frames, over all segments', async () => {
    const dir = await tempDir()
    const a = frame(1)
    const b = frame(2, 3)
    await writeFile(join(dir, '000001.seg'), a)
    await writeFile(join(dir, '000002.seg'), Buffer.concat([b, Buffer.alloc(13)]))
    expect((await campaignsOf(fileLog(dir))).bytes).toBe(a.length + b.length)
  })

  it('does read only the frames after a checkpoint extent, and keep the same extent as a whole read', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, '000001.seg'), Buffer.concat([frame(1), frame(2)]))
    await writeFile(join(dir, '000002.seg'), frame(3))
    const first = fileLog(dir)
    await campaignsOf(first)
    const at = first.extent()
    // later: frames after the extent in the last segment, and one more segment
    await writeFile(join(dir, '000002.seg'), Buffer.concat([frame(3), frame(4, 5)]))
    await writeFile(join(dir, '000003.seg'), frame(6))
    const whole = fileLog(dir)
    await campaignsOf(whole)
    const after = fileLog(dir)
    const seen: number[] = []
    const bytes = await after.readAll({ identity: () => undefined, event: (e) => seen.push(e.campaign) }, at)
    expect(seen).toEqual([4, 5, 6])
    expect(bytes).toBe(frame(4, 5).length + frame(6).length)
    expect(after.extent()).toEqual(whole.extent())
    // nothing after the extent: the extent as it was
    const still = fileLog(dir)
    await still.readAll({ identity: () => undefined, event: () => undefined }, whole.extent())
    expect(still.extent()).toEqual(whole.extent())
  })

  it('does append to a new segment after readAll, never to the last one read', async () => {
    const dir = await tempDir()
    const old = Buffer.concat([frame(1), frame(2)])
    await writeFile(join(dir, '000001.seg'), frame(0))
    await writeFile(join(dir, '000002.seg'), old)
    const log = fileLog(dir)
    await log.readAll({ identity: () => undefined, event: () => undefined })
    await log.append(frame(3))
    expect(await segs(dir)).toEqual(['000001.seg', '000002.seg', '000003.seg'])
    expect((await readFile(join(dir, '000002.seg'))).equals(old)).toBe(true)
    expect((await campaignsOf(fileLog(dir))).campaigns).toEqual([0, 1, 2, 3])
  })

  it('does append to a new segment when it was not read first', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, '000004.seg'), frame(4))
    await fileLog(dir).append(frame(5))
    expect(await segs(dir)).toEqual(['000004.seg', '000005.seg'])
  })

  it('does ignore a torn tail in an old segment and never append after it', async () => {
    const dir = await tempDir()
    const whole = frame(1)
    const torn = frame(2, 2).subarray(0, 30)
    const damaged = Buffer.concat([whole, torn])
    await writeFile(join(dir, '000001.seg'), damaged)
    const log = fileLog(dir)
    const first = await campaignsOf(log)
    expect(first).toEqual({ campaigns: [1], identities: [], bytes: whole.length })
    await log.append(frame(3))
    await log.append(frame(4))
    await log.close()
    expect((await readFile(join(dir, '000001.seg'))).equals(damaged)).toBe(true)
    expect((await campaignsOf(fileLog(dir))).campaigns).toEqual([1, 3, 4])
  })

  it('does ignore a zero-filled tail in an old segment', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, '000001.seg'), Buffer.concat([frame(1), Buffer.alloc(4096)]))
    await writeFile(join(dir, '000002.seg'), frame(2))
    expect((await campaignsOf(fileLog(dir))).campaigns).toEqual([1, 2])
  })

  it('does give each opened log its own segment, and reads them all back in order', async () => {
    const dir = await tempDir()
    for (let run = 1; run <= 3; run++) {
      const log = fileLog(dir)
      const before = await campaignsOf(log)
      expect(before.campaigns).toEqual(Array.from({ length: run - 1 }, (_, i) => [i * 10 + 1, i * 10 + 2]).flat())
      await log.append(frame((run - 1) * 10 + 1))
      await log.append(frame((run - 1) * 10 + 2))
      await log.close()
    }
    expect(await segs(dir)).toEqual(['000001.seg', '000002.seg', '000003.seg'])
  })

  it('does keep every record of a frame with identities and events', async () => {
    const dir = await tempDir()
    const w = new FrameWriter()
    w.identity({ id: 1, text: 'amid:访客', platform: 0, firstSeen: 5 })
    w.event(ev(7))
    await fileLog(dir).append(w.take())
    expect(await campaignsOf(fileLog(dir))).toMatchObject({ campaigns: [7], identities: [{ id: 1, text: 'amid:访客', platform: 0, firstSeen: 5 }] })
  })

  it('does start a new segment when appending after close', async () => {
    const dir = await tempDir()
    const log = fileLog(dir)
    await log.append(frame(1))
    await log.close()
    await log.append(frame(2))
    expect(await segs(dir)).toEqual(['000001.seg', '000002.seg'])
    expect((await campaignsOf(fileLog(dir))).campaigns).toEqual([1, 2])
  })
})

describe('FileEventLog on a full disk', () => {
  it('does refuse a frame that does not fit, and keep every frame appended before and after it readable', async () => {
    const dir = await tempDir()
    const [a, b, c] = [frame(1), frame(2, 2, 2, 2), frame(3)]
    const disk: Disk = { free: a.length + 10 }
    filesOn('.seg', disk)
    const log = fileLog(dir)
    await log.append(a)
    await expect(log.append(b)).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(log.appended).toBe(a.length)
    expect((await readFile(join(dir, '000001.seg'))).equals(a)).toBe(true)
    disk.free = 1 << 20
    await log.append(c)
    expect(log.extent().segments).toEqual([expect.objectContaining({ id: 1, bytes: a.length + c.length })])
    await log.close()
    expect(await campaignsOf(fileLog(dir))).toMatchObject({ campaigns: [1, 3], bytes: a.length + c.length })
  })

  it('does start a new segment after a frame that failed and could not be cut back', async () => {
    const dir = await tempDir()
    const disk: Disk = { free: 10 }
    vi.mocked(fsp.open).mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
      const fh = await realOpen(...args)
      if (!String(args[0]).endsWith('000001.seg')) return fh
      onDisk(fh, disk)
      fh.truncate = () => Promise.reject(new Error('EIO: i/o error, ftruncate'))
      return fh
    })
    const log = fileLog(dir)
    await expect(log.append(frame(1))).rejects.toThrow(/could not be cut back/)
    await log.append(frame(2))
    expect(await segs(dir)).toEqual(['000001.seg', '000002.seg'])
    await log.close()
    expect((await campaignsOf(fileLog(dir))).campaigns).toEqual([2])
  })
})

describe('FileEventLog reading', () => {
  it('lets the event loop turn while it reads a large segment (a server listening meanwhile answers)', async () => {
    const dir = await tempDir()
    const log = fileLog(dir)
    // 40 frames of 4,000 events, about 5.5 MiB in one segment
    for (let f = 0; f < 40; f++) await log.append(frame(...Array.from({ length: 4000 }, (_, i) => f * 4000 + i)))
    await log.close()
    const loop = countTurns()
    const at: number[] = []
    const seen: number[] = []
    await fileLog(dir).readAll({
      identity: () => undefined,
      event: (e) => {
        if (e.campaign % 4000 === 0) at.push(loop.turns)
        seen.push(e.campaign)
      },
    })
    loop.stop()
    expect(seen).toEqual(Array.from({ length: 160_000 }, (_, i) => i))
    // the turns went on between the frames of one segment (in one synchronous call, none did)
    expect(at.at(-1)! - at[0]!).toBeGreaterThanOrEqual(3)
  })
})

describe('FileEventLog checkpoint', () => {
  const parts = [Buffer.from('head,'), Buffer.alloc(100_000, 7), Buffer.from(',tail')]

  it('does replace the checkpoint whole and leave no temp file', async () => {
    const dir = await tempDir()
    const log = fileLog(dir)
    await log.saveCheckpoint([Buffer.from('old')])
    await log.saveCheckpoint(parts)
    expect((await readFile(join(dir, 'checkpoint.bin'))).equals(Buffer.concat(parts))).toBe(true)
    expect((await readdir(dir)).sort()).toEqual(['checkpoint.bin'])
  })

  it('does write the whole checkpoint when a write is short', async () => {
    const dir = await tempDir()
    filesOn('', { free: 100_007 }) // every file (the temp file has a unique name); the last part does not fit
    await fileLog(dir).saveCheckpoint(parts).catch(() => undefined)
    const saved = await readFile(join(dir, 'checkpoint.bin')).catch(() => null)
    // Refused (no checkpoint) or whole: never a cut one taken for the new checkpoint.
    if (saved) expect(saved.equals(Buffer.concat(parts))).toBe(true)
  })

  it("does remove the temp files of checkpoints a dead process was writing, old names and new, its process id this one's too (a container's)", async () => {
    const dir = await tempDir()
    const other = process.pid + 1
    const stale = [`checkpoint.bin.${other}.tmp`, `checkpoint.bin.tmp-${other}-0badf00d`, `checkpoint.bin.${process.pid}.tmp`, `checkpoint.bin.tmp-${process.pid}-cafe0123`]
    for (const n of stale) await writeFile(join(dir, n), 'partial')
    await campaignsOf(fileLog(dir))
    expect(await readdir(dir)).toEqual([])
  })

  it('does keep the temp file of the checkpoint this log is saving while the log is read', async () => {
    const dir = await tempDir()
    const log = fileLog(dir)
    const big = [new Uint8Array(48 << 20).fill(7), new Uint8Array(48 << 20).fill(9)]
    let saved = false
    const saving = log.saveCheckpoint(big).finally(() => (saved = true))
    // read the log (which removes dead processes' temp files) until the save is done, its temp file then on disk
    let readWhileSaving = 0
    while (!saved) {
      const names = await readdir(dir)
      if (!saved && names.some((n) => n.startsWith('checkpoint.bin.tmp-'))) {
        await campaignsOf(log)
        readWhileSaving++
      }
      await new Promise((r) => setImmediate(r))
    }
    await saving
    expect(readWhileSaving).toBeGreaterThan(0)
    expect((await readFile(join(dir, 'checkpoint.bin'))).equals(Buffer.concat(big))).toBe(true)
  })
})

describe('MemoryEventLog', () => {
  it('does read back appended frames in order and count their bytes', async () => {
    const log = new MemoryEventLog()
    const a = frame(1, 2)
    const b = frame(3)
    await log.append(a)
    await log.append(b)
    expect(log.appended).toBe(a.length + b.length)
    expect(await campaignsOf(log)).toEqual({ campaigns: [1, 2, 3], identities: [], bytes: a.length + b.length })
  })

  it('does keep a copy of the frame, not the caller buffer', async () => {
    const log = new MemoryEventLog()
    const a = frame(1)
    await log.append(a)
    a.fill(0)
    expect((await campaignsOf(log)).campaigns).toEqual([1])
  })

  it('does survive close, for a second reader', async () => {
    const log = new MemoryEventLog()
    await log.append(frame(5))
    await log.close()
    expect((await campaignsOf(log)).campaigns).toEqual([5])
  })

  it('does skip a damaged frame and still read the frames after it', async () => {
    const log = new MemoryEventLog()
    await log.append(frame(1))
    log.frames.push(frame(2).subarray(0, 20))
    await log.append(frame(3))
    const got = await campaignsOf(log)
    expect(got.campaigns).toEqual([1, 3])
    expect(got.bytes).toBe(frame(1).length + frame(3).length)
  })
})
