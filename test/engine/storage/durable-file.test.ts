// engine/storage/durable-file.ts: appends that never leave a torn record, atomic and exclusive file writes
import * as fsp from 'node:fs/promises'
import { mkdir, mkdtemp, open, readFile, readdir, rm, stat, writeFile, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appendDurably, createFileExclusive, TornAppendError, writeFileAtomic } from '../../../engine/storage/durable-file'
import { failNextWriteHalfway, onDisk } from './full-disk'

// Lets one test make a temp-file write fail half-way (a full disk); every other call is real.
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return { ...real, open: vi.fn(real.open) }
})

let dir: string
const handles: FileHandle[] = []
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admonitor-durable-'))
})
afterEach(async () => {
  for (const fh of handles.splice(0)) await fh.close().catch(() => undefined)
  await rm(dir, { recursive: true, force: true })
})

const files = async () => (await readdir(dir)).sort()
const bytes = (s: string) => new Uint8Array(Buffer.from(s))

/** A segment-like file opened for appending, already holding `initial`. */
async function appendable(initial: string): Promise<{ path: string; fh: FileHandle }> {
  const path = join(dir, 'seg')
  await writeFile(path, initial)
  const fh = await open(path, 'a')
  handles.push(fh)
  return { path, fh }
}


describe('appendDurably', () => {
  it('writes the rest of a record when a write is short and the next one succeeds', async () => {
    const { path, fh } = await appendable('old,')
    const write = fh.write.bind(fh) as (b: Uint8Array, o: number, l: number) => Promise<{ bytesWritten: number }>
    let calls = 0
    fh.write = (async (b: Uint8Array, o = 0, l = b.length - o) => write(b, o, ++calls === 1 ? 3 : l)) as typeof fh.write
    await appendDurably(fh, bytes('record,'), 4)
    expect(calls).toBe(2)
    expect(await readFile(path, 'utf8')).toBe('old,record,')
  })

  it('cuts the file back to its last whole record and throws when the disk fills mid-record', async () => {
    const { path, fh } = await appendable('old,')
    onDisk(fh, { free: 5 })
    await expect(appendDurably(fh, bytes('a-long-record,'), 4)).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(await readFile(path, 'utf8')).toBe('old,')
  })

  it('lets a later append land right after the last whole record once space is freed', async () => {
    const { path, fh } = await appendable('old,')
    const disk = { free: 5 }
    onDisk(fh, disk)
    await expect(appendDurably(fh, bytes('refused,'), 4)).rejects.toThrow(/ENOSPC/)
    disk.free = 100
    await appendDurably(fh, bytes('next,'), 4)
    expect(await readFile(path, 'utf8')).toBe('old,next,')
  })

  it('cuts the file back and throws when the datasync fails', async () => {
    const { path, fh } = await appendable('old,')
    fh.datasync = async () => Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))
    await expect(appendDurably(fh, bytes('record,'), 4)).rejects.toMatchObject({ code: 'EIO' })
    expect(await readFile(path, 'utf8')).toBe('old,')
  })

  it('does not datasync when told the handle writes synchronised', async () => {
    const { path, fh } = await appendable('')
    fh.datasync = vi.fn(fh.datasync.bind(fh))
    await appendDurably(fh, bytes('x'), 0, false)
    expect(fh.datasync).not.toHaveBeenCalled()
    expect(await readFile(path, 'utf8')).toBe('x')
  })

  it('throws a TornAppendError when the file cannot be cut back either', async () => {
    const { fh } = await appendable('old,')
    onDisk(fh, { free: 2 })
    fh.truncate = async () => Promise.reject(new Error('EIO: i/o error, ftruncate'))
    const err = await appendDurably(fh, bytes('record,'), 4).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TornAppendError)
    expect((err as TornAppendError).message).toMatch(/ENOSPC.*could not be cut back.*ftruncate/)
  })

  it('throws instead of looping when a write makes no progress', async () => {
    const { fh } = await appendable('')
    fh.write = (async () => ({ bytesWritten: 0, buffer: new Uint8Array() })) as unknown as typeof fh.write
    await expect(appendDurably(fh, bytes('x'), 0)).rejects.toThrow(/stopped after 0 of 1 bytes/)
  })
})

describe('writeFileAtomic', () => {
  it('replaces the whole file when it succeeds', async () => {
    const target = join(dir, 'f')
    await writeFile(target, 'old contents that are longer')
    await writeFileAtomic(target, bytes('new'), dir)
    expect(await readFile(target, 'utf8')).toBe('new')
    expect(await files()).toEqual(['f'])
  })

  it('writes the parts in order when given several', async () => {
    const target = join(dir, 'f')
    await writeFileAtomic(target, [bytes('one,'), Buffer.alloc(70_000, 50), bytes(',three')], dir)
    const got = await readFile(target)
    expect(got.length).toBe(4 + 70_000 + 6)
    expect(got.subarray(0, 4).toString()).toBe('one,')
    expect(got.subarray(-6).toString()).toBe(',three')
  })

  it('keeps the old file intact and removes its temp file when the temp write fails half-way', async () => {
    // On a full disk a left-behind partial temp file keeps the disk full, and nothing ever removes it.
    const target = join(dir, 'admonitor.db')
    await writeFile(target, 'OLD-SNAPSHOT')
    failNextWriteHalfway(fsp)
    await expect(writeFileAtomic(target, Buffer.alloc(10_000, 7), dir)).rejects.toThrow(/ENOSPC/)
    expect(await readFile(target, 'utf8')).toBe('OLD-SNAPSHOT')
    expect(await files()).toEqual(['admonitor.db'])
  })

  it('never creates a half-written target when the temp write fails and there was no old file', async () => {
    const target = join(dir, 'admonitor.db')
    failNextWriteHalfway(fsp)
    await expect(writeFileAtomic(target, Buffer.alloc(10_000, 7), dir)).rejects.toThrow(/ENOSPC/)
    await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('removes its temp file and throws when the rename fails', async () => {
    const target = join(dir, 'occupied')
    await mkdir(join(target, 'inside'), { recursive: true }) // a non-empty directory cannot be renamed over
    await expect(writeFileAtomic(target, bytes('x'), dir)).rejects.toThrow()
    expect(await files()).toEqual(['occupied'])
  })

  it('fails without touching anything when the directory does not exist', async () => {
    await expect(writeFileAtomic(join(dir, 'missing', 'f'), bytes('x'), join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' })
  })
})

describe('createFileExclusive', () => {
  it('creates the file whole, with mode 0600, and leaves no temp file', async () => {
    const target = join(dir, 'key')
    expect(await createFileExclusive(target, bytes('content'), dir)).toBe(true)
    expect(await readFile(target, 'utf8')).toBe('content')
    if (process.platform !== 'win32') expect((await stat(target)).mode & 0o777).toBe(0o600)
    expect(await files()).toEqual(['key'])
  })

  it('returns false and leaves an existing file as it is', async () => {
    const target = join(dir, 'key')
    await writeFile(target, 'first')
    expect(await createFileExclusive(target, bytes('second'), dir)).toBe(false)
    expect(await readFile(target, 'utf8')).toBe('first')
    expect(await files()).toEqual(['key'])
  })

  it('never leaves the file half-written when the temp write fails', async () => {
    const target = join(dir, 'key')
    failNextWriteHalfway(fsp)
    await expect(createFileExclusive(target, Buffer.alloc(10_000, 7), dir)).rejects.toThrow(/ENOSPC/)
    expect(await files()).toEqual([])
  })
})
