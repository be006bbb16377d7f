import { spawn } from 'node:child_process'
import * as fsp from 'node:fs/promises'
import { mkdtemp, readFile, readdir, rm, stat, truncate, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FileStorage } from '../../../engine/storage/adapters/file'
import { DataDirInUseError } from '../../../engine/storage/lock'
import { Persister } from '../../../engine/storage/persister'
import { failNextWriteHalfway, onDisk, type Disk } from './full-disk'

// Lets one test make a temp-file write fail half-way (a full disk); every other call is real.
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return { ...real, open: vi.fn(real.open), rename: vi.fn(real.rename) }
})

const onWindows = process.platform === 'win32'
if (onWindows) console.warn('file-adapter.test: file mode checks are skipped on win32: Windows has no POSIX permission bits')

let root: string
let dir: string
const opened: FileStorage[] = []
const storageAt = (d: string) => {
  const s = new FileStorage(d)
  opened.push(s)
  return s
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'admonitor-fs-'))
  dir = join(root, 'data') // not created yet: load() creates it
})
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => undefined)
  await rm(root, { recursive: true, force: true })
})

const bytes = (s: string) => new Uint8Array(Buffer.from(s))
const files = async (d: string) => (await readdir(d)).sort()
const mode = async (p: string) => (await stat(p)).mode & 0o777


/**
 * Records, in order, the writes, fsyncs and renames that FileStorage makes, naming each file by
 * its kind (segment, tmp, dir). Returns the log and a function that puts the real calls back.
 */
function recordIo(): { log: string[]; restore(): void } {
  const log: string[] = []
  const realOpen = vi.mocked(fsp.open).getMockImplementation()!
  const realRename = vi.mocked(fsp.rename).getMockImplementation()!
  const kind = (p: string) => (p.endsWith('.log') ? 'segment' : p.includes('.tmp-') ? 'tmp' : p.endsWith('LOCK') ? 'lock' : /admonitor\.db$/.test(p) ? 'db' : 'dir')
  vi.mocked(fsp.open).mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    const fh = await realOpen(...args)
    const k = kind(String(args[0]))
    const { write, writeFile: wf, sync, datasync } = { write: fh.write.bind(fh), writeFile: fh.writeFile.bind(fh), sync: fh.sync.bind(fh), datasync: fh.datasync.bind(fh) }
    fh.write = (async (...a: Parameters<typeof fh.write>) => {
      const r = await write(...a)
      log.push(`${k}:write`)
      return r
    }) as typeof fh.write
    fh.writeFile = async (...a: Parameters<typeof fh.writeFile>) => {
      await wf(...a)
      log.push(`${k}:writeFile`)
    }
    fh.sync = async () => {
      await sync()
      log.push(`${k}:fsync`)
    }
    fh.datasync = async () => {
      await datasync()
      log.push(`${k}:fsync`)
    }
    return fh
  })
  vi.mocked(fsp.rename).mockImplementation(async (from, to) => {
    await realRename(from, to)
    log.push(`rename ${kind(String(from))}->${kind(String(to))}`)
  })
  return {
    log,
    restore: () => {
      vi.mocked(fsp.open).mockImplementation(realOpen)
      vi.mocked(fsp.rename).mockImplementation(realRename)
    },
  }
}

/**
 * Makes every journal segment opened from now on write as on `disk` (see full-disk.ts), with
 * `truncate` in place of the real one if given. Returns a function that puts the real open back.
 */
function segmentsOn(disk: Disk, truncate?: () => Promise<void>): { restore(): void } {
  const realOpen = vi.mocked(fsp.open).getMockImplementation()!
  vi.mocked(fsp.open).mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    const fh = await realOpen(...args)
    if (!String(args[0]).endsWith('.log')) return fh
    onDisk(fh, disk)
    if (truncate) fh.truncate = truncate
    return fh
  })
  return { restore: () => vi.mocked(fsp.open).mockImplementation(realOpen) }
}

/** Spawns a node process that exits at once and returns its (now dead) pid. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  const pid = child.pid!
  await new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return pid
}

describe('FileStorage', () => {
  describe('load', () => {
    it('returns a null snapshot and no segments when the directory does not exist yet', async () => {
      const s = storageAt(dir)
      expect(await s.load()).toEqual({ snapshot: null, segments: [], readOnly: null })
      expect(await files(dir)).toEqual(['LOCK', 'journal-000001.log'])
    })

    it('returns the snapshot and every segment when it reopens after a close', async () => {
      const a = storageAt(dir)
      await a.load()
      await a.append(bytes('one,'))
      await a.append(bytes('two,'))
      await a.save(bytes('SNAPSHOT'), 1) // drops nothing: the segment is number 1
      await a.close()
      const b = storageAt(dir)
      const loaded = await b.load()
      expect(Buffer.from(loaded.snapshot!).toString()).toBe('SNAPSHOT')
      expect(loaded.segments.map((x) => Buffer.from(x).toString())).toEqual(['one,two,'])
    })

    it('reads segments in numeric order and appends to a new segment after the highest when it loads', async () => {
      await mkdir(dir, { recursive: true })
      const names: [string, string][] = [
        ['journal-000010.log', 'ten'],
        ['journal-000002.log', 'two'],
        ['journal-1000000.log', 'million'],
        ['journal-000001.log', 'one'],
        ['journal-000009.log', 'nine'],
        ['journal-1.log', 'too-short-a-name'],
        ['journal-000003.log.bak', 'not-a-segment'],
        ['journal-00000x.log', 'not-a-number'],
      ]
      for (const [n, c] of names) await writeFile(join(dir, n), c)
      const s = storageAt(dir)
      const loaded = await s.load()
      expect(loaded.segments.map((x) => Buffer.from(x).toString())).toEqual(['one', 'two', 'nine', 'ten', 'million'])
      await s.append(bytes('new'))
      expect(await readFile(join(dir, 'journal-1000001.log'), 'utf8')).toBe('new')
      expect(await readFile(join(dir, 'journal-1000000.log'), 'utf8')).toBe('million')
    })

    it('ignores a leftover temp file of an interrupted snapshot write when it loads', async () => {
      await mkdir(dir, { recursive: true })
      await writeFile(join(dir, 'admonitor.db.tmp-12345-deadbeef'), 'half a snapsh')
      const first = storageAt(dir)
      expect((await first.load()).snapshot).toBeNull()
      await first.save(bytes('GOOD'), 0)
      await first.close()
      await writeFile(join(dir, 'admonitor.db.tmp-999-cafebabe'), 'half of a newer one')
      const second = storageAt(dir)
      expect(Buffer.from((await second.load()).snapshot!).toString()).toBe('GOOD')
    })
  })

  describe('append, rotate and save', () => {
    it('appends to the current segment and moves to a new one when it rotates', async () => {
      const s = storageAt(dir)
      await s.load()
      await s.append(bytes('a'))
      expect(await s.rotate()).toBe(2)
      await s.append(bytes('b'))
      await s.append(bytes('c'))
      expect(await readFile(join(dir, 'journal-000001.log'), 'utf8')).toBe('a')
      expect(await readFile(join(dir, 'journal-000002.log'), 'utf8')).toBe('bc')
    })

    it('refuses to append when it has not been loaded', async () => {
      await expect(storageAt(dir).append(bytes('x'))).rejects.toThrow(/not open/)
    })

    it('resolves append only when the bytes are written and fsynced', async () => {
      const s = storageAt(dir)
      const io = recordIo()
      try {
        await s.load()
        io.log.length = 0
        await s.append(bytes('record'))
        io.log.push('resolved')
        expect(io.log).toEqual(['segment:write', 'segment:fsync', 'resolved'])
      } finally {
        io.restore()
      }
    })

    it('writes the snapshot to a temp file, fsyncs it, renames it, then fsyncs the directory when it saves', async () => {
      const s = storageAt(dir)
      await s.load()
      const io = recordIo()
      try {
        await s.save(bytes('SNAPSHOT'), 0)
        expect(io.log).toEqual(['tmp:writeFile', 'tmp:fsync', 'rename tmp->db', 'dir:fsync'])
      } finally {
        io.restore()
      }
    })

    it('replaces the snapshot and drops only the segments below dropBefore when it saves', async () => {
      const s = storageAt(dir)
      await s.load()
      await s.append(bytes('1'))
      await s.rotate()
      await s.append(bytes('2'))
      const keep = await s.rotate()
      await s.append(bytes('3'))
      await s.save(bytes('OLD'), 0)
      await s.save(bytes('NEW'), keep)
      expect(await readFile(join(dir, 'admonitor.db'), 'utf8')).toBe('NEW')
      expect(await files(dir)).toEqual(['LOCK', 'admonitor.db', 'journal-000003.log'])
    })

    it('leaves one whole snapshot and no temp files when many saves run at once', async () => {
      const s = storageAt(dir)
      await s.load()
      const images = Array.from({ length: 20 }, (_, i) => Buffer.alloc(1000 + i * 997, 65 + i))
      await Promise.all(images.map((img) => s.save(img, 0)))
      const final = await readFile(join(dir, 'admonitor.db'))
      expect(images.some((img) => img.equals(final))).toBe(true)
      expect((await files(dir)).filter((n) => n.includes('.tmp-'))).toEqual([])
    })

    it('writes a backup under backups/ when asked to keep an image', async () => {
      const s = storageAt(dir)
      await s.load()
      await s.backup('admonitor.v1.2025-01-10.db', bytes('IMAGE'))
      expect(await readFile(join(dir, 'backups', 'admonitor.v1.2025-01-10.db'), 'utf8')).toBe('IMAGE')
      expect(await files(join(dir, 'backups'))).toEqual(['admonitor.v1.2025-01-10.db'])
      expect(await files(dir)).not.toContain('admonitor.db')
    })

    it('keeps the old snapshot and fails when FileStorage.save cannot write the temp file', async () => {
      const s = storageAt(dir)
      await s.load()
      await s.save(bytes('GOOD'), 0)
      await s.append(bytes('record'))
      failNextWriteHalfway(fsp)
      await expect(s.save(Buffer.alloc(5000, 1), 99)).rejects.toThrow(/ENOSPC/)
      expect(await readFile(join(dir, 'admonitor.db'), 'utf8')).toBe('GOOD')
      expect(await readFile(join(dir, 'journal-000001.log'), 'utf8')).toBe('record') // segments survive a failed save
    })

    it.skipIf(onWindows)('creates files with mode 0600 and directories with mode 0700 when it writes the data directory', async () => {
      const s = storageAt(dir)
      await s.load()
      await s.append(bytes('x'))
      await s.save(bytes('S'), 0)
      await s.rotate()
      await s.backup('b.db', bytes('B'))
      expect(await mode(dir)).toBe(0o700)
      expect(await mode(join(dir, 'backups'))).toBe(0o700)
      for (const f of ['LOCK', 'admonitor.db', 'journal-000001.log', 'journal-000002.log', join('backups', 'b.db')]) {
        expect(await mode(join(dir, f)), f).toBe(0o600)
      }
    })
  })

  describe('on a full disk', () => {
    it('refuses an append that does not fit, keeps the segment whole, and appends after it once space is freed', async () => {
      const disk: Disk = { free: 10 }
      const io = segmentsOn(disk)
      try {
        const s = storageAt(dir)
        await s.load()
        await s.append(bytes('one,'))
        await expect(s.append(bytes('a-long-record,'))).rejects.toMatchObject({ code: 'ENOSPC' })
        expect(await readFile(join(dir, 'journal-000001.log'), 'utf8')).toBe('one,')
        disk.free = 100
        await s.append(bytes('two,'))
        disk.free = 2
        await expect(s.append(bytes('three,'))).rejects.toMatchObject({ code: 'ENOSPC' })
        await s.close()
      } finally {
        io.restore()
      }
      const loaded = await storageAt(dir).load()
      expect(loaded.segments.map((x) => Buffer.from(x).toString())).toEqual(['one,two,'])
    })

    it('appends nothing more to a segment that may end torn: the next append starts a new one', async () => {
      const disk: Disk = { free: 6 }
      const io = segmentsOn(disk, () => Promise.reject(new Error('EIO: i/o error, ftruncate')))
      try {
        const s = storageAt(dir)
        await s.load()
        await expect(s.append(bytes('a-long-record,'))).rejects.toThrow(/could not be cut back/)
        disk.free = 100
        await s.append(bytes('next,'))
        expect(await readFile(join(dir, 'journal-000001.log'), 'utf8')).toBe('a-long')
        expect(await readFile(join(dir, 'journal-000002.log'), 'utf8')).toBe('next,')
      } finally {
        io.restore()
      }
    })

    it('never acknowledges a transaction whose record did not fit, and reopens with every one it did', async () => {
      const io = segmentsOn({ free: 3000 })
      const acked: string[] = []
      try {
        const p = await Persister.open(storageAt(dir), { idleMs: 3_600_000 })
        p.db.tx(() => p.db.execScript('CREATE TABLE t (v TEXT NOT NULL)'))
        await p.durable()
        for (let i = 0; i < 100; i++) {
          const v = `${i}:${'x'.repeat(200)}`
          p.db.tx(() => p.db.run('INSERT INTO t(v) VALUES (?)', [v]))
          const ok = await p.durable().then(() => true, () => false)
          if (!ok) break
          acked.push(v)
        }
      } finally {
        io.restore()
      }
      for (const s of opened.splice(0)) await s.close()
      expect(acked.length).toBeGreaterThan(5)
      expect(acked.length).toBeLessThan(100)
      const again = await Persister.open(storageAt(dir), { idleMs: 3_600_000 })
      expect(again.db.query<{ v: string }>('SELECT v FROM t ORDER BY rowid').map((r) => r.v)).toEqual(acked)
    })
  })

  describe('with a Persister', () => {
    const SCHEMA = 'CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE t (v TEXT NOT NULL UNIQUE)'
    const put = (p: Persister, v: string) => p.db.tx(() => p.db.run('INSERT INTO t(v) VALUES (?)', [v]))
    const values = (p: Persister) => p.db.query<{ v: string }>('SELECT v FROM t ORDER BY rowid').map((r) => r.v)

    it('keeps the writes made after reopening when the last segment ends in a torn record', async () => {
      // A "crash" here closes the FileStorage (its file handle and lock) without a checkpoint.
      const sa = storageAt(dir)
      const a = await Persister.open(sa, { idleMs: 3_600_000 })
      a.db.tx(() => a.db.execScript(SCHEMA))
      put(a, 'one')
      put(a, 'two')
      await a.durable()
      await sa.close()
      expect(await files(dir)).toEqual(['journal-000001.log'])
      const segment = join(dir, 'journal-000001.log')
      await truncate(segment, (await stat(segment)).size - 3) // 'two' was being written
      const sb = storageAt(dir)
      const b = await Persister.open(sb, { idleMs: 3_600_000 })
      expect(values(b)).toEqual(['one'])
      put(b, 'three')
      await b.durable()
      await sb.close()
      expect(await files(dir)).toEqual(['journal-000001.log', 'journal-000002.log'])
      const c = await Persister.open(storageAt(dir), { idleMs: 3_600_000 })
      expect(values(c)).toEqual(['one', 'three'])
    })
  })

  describe('lock', () => {
    it('fails with DataDirInUseError when a second FileStorage in the same process opens the directory', async () => {
      const a = storageAt(dir)
      await a.load()
      const err = await storageAt(dir).load().catch((e: unknown) => e)
      expect(err).toBeInstanceOf(DataDirInUseError)
      expect((err as DataDirInUseError).pid).toBe(process.pid)
      expect(await readFile(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid))
    })

    it('fails with DataDirInUseError when the same directory is spelled differently', async () => {
      const a = storageAt(dir)
      await a.load()
      const other = relative(process.cwd(), dir)
      expect(other).not.toBe(dir)
      await expect(storageAt(other).load()).rejects.toBeInstanceOf(DataDirInUseError)
    })

    it('lets another FileStorage open the directory when the first one closed', async () => {
      const a = storageAt(dir)
      await a.load()
      await a.close()
      expect(await files(dir)).not.toContain('LOCK')
      expect((await storageAt(dir).load()).snapshot).toBeNull()
    })

    it('takes over a stale LOCK when the pid in it is dead', async () => {
      await mkdir(dir, { recursive: true })
      const pid = await deadPid()
      await writeFile(join(dir, 'LOCK'), String(pid))
      await storageAt(dir).load()
      expect(await readFile(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid))
    })

    it('takes over an empty LOCK when its owner died before writing its pid', async () => {
      await mkdir(dir, { recursive: true })
      await writeFile(join(dir, 'LOCK'), '')
      await storageAt(dir).load()
      expect(await readFile(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid))
    })

    it('fails with DataDirInUseError naming the pid when another live process holds the LOCK', async () => {
      await mkdir(dir, { recursive: true })
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
      try {
        await writeFile(join(dir, 'LOCK'), String(child.pid))
        const err = await storageAt(dir).load().catch((e: unknown) => e)
        expect(err).toBeInstanceOf(DataDirInUseError)
        expect((err as DataDirInUseError).pid).toBe(child.pid)
        expect((err as Error).message).toContain(String(child.pid))
        expect(await readFile(join(dir, 'LOCK'), 'utf8')).toBe(String(child.pid)) // left alone
      } finally {
        child.kill('SIGKILL')
      }
    })
  })
})
