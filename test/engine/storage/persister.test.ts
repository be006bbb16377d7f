import { afterEach, describe, expect, it, vi } from 'vitest'
import { Db } from '../../../engine/storage/db'
import { decodeRecords } from '../../../engine/storage/journal'
import { Persister, type PersisterOptions } from '../../../engine/storage/persister'
import { MemoryStorage } from '../../../engine/storage/adapters/memory'
import { prng } from '../../helpers/prng'

interface Deferred {
  promise: Promise<void>
  resolve(): void
  reject(err: Error): void
}
function deferred(): Deferred {
  let resolve!: () => void
  let reject!: (err: Error) => void
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** Lets every pending promise callback and I/O callback run. */
async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r))
}

type State = 'pending' | 'resolved' | 'rejected'
function track(p: Promise<unknown>): { state: State; error: unknown } {
  const t: { state: State; error: unknown } = { state: 'pending', error: undefined }
  p.then(
    () => (t.state = 'resolved'),
    (err: unknown) => {
      t.state = 'rejected'
      t.error = err
    },
  )
  return t
}


const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })

/**
 * MemoryStorage whose appends and saves can be held (released by the test, one by one, with
 * success or failure) or delayed by a random number of event-loop turns.
 */
class FakeStorage extends MemoryStorage {
  appendCalls: Uint8Array[] = []
  holdAppends = false
  heldAppends: Deferred[] = []
  holdSaves = false
  heldSaves: Deferred[] = []
  saveCalls = 0
  rotations = 0

  constructor(private readonly delay: () => number = () => 0) {
    super()
  }

  private async jitter(): Promise<void> {
    for (let n = this.delay(); n > 0; n--) await new Promise<void>((r) => setImmediate(r))
  }

  override async append(bytes: Uint8Array): Promise<void> {
    this.appendCalls.push(Uint8Array.from(bytes))
    if (this.holdAppends) {
      const gate = deferred()
      this.heldAppends.push(gate)
      await gate.promise
    }
    await this.jitter()
    return super.append(bytes)
  }

  override async rotate(): Promise<number> {
    await this.jitter()
    this.rotations++
    return super.rotate()
  }

  override async save(snapshot: Uint8Array, dropBefore: number): Promise<void> {
    this.saveCalls++
    if (this.holdSaves) {
      const gate = deferred()
      this.heldSaves.push(gate)
      await gate.promise
    }
    await this.jitter()
    return super.save(snapshot, dropBefore)
  }
}

/**
 * What survives a crash at this instant: the saved snapshot and every appended byte, but
 * nothing still in flight. The old Persister keeps running against the old object, which
 * nobody reads again.
 */
function crashCopy(s: MemoryStorage, delay?: () => number): FakeStorage {
  const c = new FakeStorage(delay)
  c.snapshot = s.snapshot ? Uint8Array.from(s.snapshot) : null
  c.segments = new Map([...s.segments].map(([k, v]) => [k, v.map((b) => Uint8Array.from(b))]))
  c.backups = new Map(s.backups)
  return c
}

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE items (k INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE);
  CREATE TABLE counter (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
  INSERT INTO counter VALUES (1, 0);
`

const open: Persister[] = []
/** Opens a Persister (idle checkpoints off unless asked) and creates the schema on a new store. */
async function openP(storage: MemoryStorage, opts: PersisterOptions = {}): Promise<Persister> {
  const p = await Persister.open(storage, { idleMs: 3_600_000, ...opts })
  open.push(p)
  if (p.db.scalar<number>("SELECT count(*) FROM sqlite_master WHERE name = 'items'") === 0) {
    p.db.tx(() => p.db.execScript(SCHEMA))
    await p.durable()
  }
  return p
}

afterEach(() => {
  vi.useRealTimers()
  open.length = 0
})

function add(p: Persister, v: string): void {
  p.db.tx(() => {
    p.db.run('INSERT INTO items(v) VALUES (?)', [v])
    p.db.run('UPDATE counter SET n = n + 1', [])
  })
}
const items = (p: Persister) => p.db.query<{ v: string }>('SELECT v FROM items ORDER BY k').map((r) => r.v)
const counter = (p: Persister) => p.db.scalar<number>('SELECT n FROM counter')
const seqsIn = (bytes: Uint8Array) => decodeRecords(bytes).records.map((r) => r.seq)
const segmentSeqs = (s: MemoryStorage, id: number) => seqsIn(Buffer.concat(s.segments.get(id) ?? []))
const journalSeqOf = async (snapshot: Uint8Array | null) => {
  if (!snapshot) return null
  const db = await Db.open(snapshot)
  try {
    return db.scalar<string>("SELECT value FROM meta WHERE key = 'journal_seq'") ?? null
  } finally {
    db.close()
  }
}

describe('Persister', () => {
  describe('on MemoryStorage', () => {
    it('appends each committed transaction as one journal record when durable() resolves', async () => {
      const s = new MemoryStorage()
      const p = await openP(s)
      add(p, 'a')
      add(p, 'b')
      await p.durable()
      const seqs = [...s.segments.keys()].flatMap((id) => segmentSeqs(s, id))
      expect(seqs).toEqual([1, 2, 3]) // schema, a, b
    })

    it('restores every durable write when a new Persister opens the same storage without a close', async () => {
      const s = new MemoryStorage()
      const p = await openP(s)
      for (const v of ['a', 'b', 'c']) add(p, v)
      await p.durable()
      const q = await openP(crashCopy(s))
      expect(items(q)).toEqual(['a', 'b', 'c'])
      expect(counter(q)).toBe(3)
      expect(q.replayed).toBe(4)
    })

    it('folds everything into the snapshot and replays nothing when it reopens after close()', async () => {
      const s = new MemoryStorage()
      const p = await openP(s)
      add(p, 'a')
      await p.close()
      expect(await journalSeqOf(s.snapshot)).toBe('2')
      const q = await openP(s)
      expect(q.replayed).toBe(0)
      expect(items(q)).toEqual(['a'])
      // And the next commits continue the sequence after the snapshot's.
      add(q, 'b')
      await q.durable()
      expect([...s.segments.keys()].flatMap((id) => segmentSeqs(s, id))).toEqual([3])
    })

    it('closes its storage (releasing the lock) even when the last writes fail at close, and says why', async () => {
      class FailingClose extends FakeStorage {
        closed = false
        override async close(): Promise<void> {
          this.closed = true
        }
      }
      const s = new FailingClose()
      const p = await openP(s)
      s.holdAppends = true
      add(p, 'last')
      const closing = track(p.close())
      await settle()
      s.heldAppends.shift()!.reject(enospc())
      await settle()
      expect(closing.state).toBe('rejected')
      expect((closing.error as Error).message).toContain('ENOSPC')
      expect(s.closed).toBe(true)
    })

    it('refuses writes when the Persister is closed', async () => {
      const p = await openP(new MemoryStorage())
      await p.close()
      expect(() => add(p, 'late')).toThrow()
    })

    it('refuses to open when a journal record in the middle is missing', async () => {
      const s = new MemoryStorage()
      const p = await openP(s)
      add(p, 'a')
      await p.durable()
      const s2 = crashCopy(s)
      const q = await openP(s2) // continues in a second segment
      add(q, 'b')
      await q.durable()
      expect(s2.segments.size).toBe(2)
      const damaged = crashCopy(s2)
      damaged.segments.delete(Math.min(...damaged.segments.keys()))
      await expect(Persister.open(damaged)).rejects.toThrow(/missing record 1/)
    })

    it('keeps the writes made after reopening when the journal ended in a torn record', async () => {
      const s = new MemoryStorage()
      const p = await openP(s)
      add(p, 'a')
      add(p, 'b')
      await p.durable()
      const c = crashCopy(s)
      const last = Math.max(...c.segments.keys())
      const whole = Buffer.concat(c.segments.get(last)!)
      c.segments.set(last, [whole.subarray(0, whole.length - 5)]) // 'b' was being written when the power went
      const q = await openP(c)
      expect(items(q)).toEqual(['a'])
      add(q, 'c')
      await q.durable()
      const r = await openP(crashCopy(c))
      expect(items(r)).toEqual(['a', 'c'])
      expect(counter(r)).toBe(2)
    })

    it('opens and keeps the intact records when a segment ends in zero bytes', async () => {
      // What a file system can leave after power loss: the file grew, its last block was never written.
      const s = new MemoryStorage()
      const p = await openP(s)
      add(p, 'a')
      await p.durable()
      const c = crashCopy(s)
      c.segments.get(Math.max(...c.segments.keys()))!.push(new Uint8Array(4096))
      const q = await openP(c)
      expect(items(q)).toEqual(['a'])
    })

    it('writes a snapshot holding meta journal_seq and drops the older segments when it checkpoints', async () => {
      const s = new MemoryStorage()
      const p = await openP(s)
      for (const v of ['a', 'b', 'c']) add(p, v)
      await p.durable()
      const before = [...s.segments.keys()]
      expect(before.length).toBeGreaterThan(0)
      await p.checkpoint()
      expect(s.saves).toBe(1)
      expect(await journalSeqOf(s.snapshot)).toBe('4')
      const snap = await Db.open(s.snapshot)
      expect(snap.query('SELECT v FROM items ORDER BY k')).toEqual([{ v: 'a' }, { v: 'b' }, { v: 'c' }])
      snap.close()
      for (const id of before) expect(s.segments.has(id)).toBe(false)
      add(p, 'd')
      await p.durable()
      const after = [...s.segments.keys()]
      expect(after).toHaveLength(1)
      expect(after[0]!).toBeGreaterThan(Math.max(...before))
      expect(segmentSeqs(s, after[0]!)).toEqual([5])
    })

    it('shares one checkpoint when checkpoint() is called again while one runs', async () => {
      const s = new MemoryStorage()
      const p = await openP(s)
      add(p, 'a')
      await Promise.all([p.checkpoint(), p.checkpoint(), p.checkpoint()])
      expect(s.saves).toBe(1)
    })

    it('checkpoints on its own when the journal written since the last one passes checkpointBytes', async () => {
      const s = new MemoryStorage()
      const p = await openP(s, { checkpointBytes: 2048 })
      for (let i = 0; i < 20; i++) {
        add(p, `${i}-${'x'.repeat(200)}`)
        await p.durable()
      }
      await settle()
      expect(s.saves).toBeGreaterThanOrEqual(1)
      expect(Number(await journalSeqOf(s.snapshot))).toBeGreaterThan(1)
      expect(s.segments.has(1)).toBe(false)
      const q = await openP(crashCopy(s))
      expect(items(q)).toHaveLength(20)
      expect(counter(q)).toBe(20)
    })
  })

  describe('group commit and durable()', () => {
    it('writes every commit in one following append when they were made while an append was in flight', async () => {
      const s = new FakeStorage()
      const p = await openP(s)
      const base = s.appendCalls.length
      s.holdAppends = true
      add(p, 'first')
      await settle()
      expect(s.appendCalls.length).toBe(base + 1)
      for (let i = 0; i < 50; i++) add(p, `v${i}`)
      const all = p.durable()
      await settle()
      expect(s.appendCalls.length).toBe(base + 1) // nothing else written while the first is in flight
      s.heldAppends[0]!.resolve()
      await settle()
      expect(s.appendCalls.length).toBe(base + 2)
      expect(seqsIn(s.appendCalls[base + 1]!)).toEqual(Array.from({ length: 50 }, (_, i) => i + 3))
      s.holdAppends = false
      s.heldAppends[1]!.resolve()
      await all
      expect(s.appendCalls.length).toBe(base + 2)
      expect(items(await openP(crashCopy(s)))).toHaveLength(51)
    })

    it('resolves durable() only when the append that holds the commit has resolved', async () => {
      const s = new FakeStorage()
      const p = await openP(s)
      s.holdAppends = true
      add(p, 'a')
      const da = track(p.durable())
      await settle()
      expect(da.state).toBe('pending')
      add(p, 'b')
      const db = track(p.durable())
      await settle()
      expect(s.heldAppends).toHaveLength(1)
      s.heldAppends[0]!.resolve() // holds only 'a'
      await settle()
      expect(da.state).toBe('resolved')
      expect(db.state).toBe('pending')
      expect(s.heldAppends).toHaveLength(2)
      s.heldAppends[1]!.resolve() // holds 'b'
      await settle()
      expect(db.state).toBe('resolved')
    })

    it('resolves durable() at once when everything committed is already durable', async () => {
      const s = new FakeStorage()
      const p = await openP(s)
      s.holdAppends = true
      const d = track(p.durable())
      await settle(1)
      expect(d.state).toBe('resolved')
    })

    it('refuses the failed commit and every later one, drops them from memory, and refuses writes before they start', async () => {
      const s = new FakeStorage()
      const p = await openP(s)
      add(p, 'kept')
      await p.durable()
      s.holdAppends = true
      add(p, 'a')
      const da = track(p.durable())
      add(p, 'b')
      const db = track(p.durable())
      await settle()
      s.heldAppends[0]!.reject(enospc())
      await settle()
      for (const d of [da, db]) {
        expect(d.state).toBe('rejected')
        expect(d.error).toMatchObject({ def: { status: 507, error: 'insufficient_storage' }, extra: { path: 'memory', cause: 'ENOSPC' } })
      }
      expect(items(p)).toEqual(['kept'])
      expect(counter(p)).toBe(1)
      expect(() => add(p, 'c')).toThrow(/cannot take writes: its disk is full \(ENOSPC\)/)
      await expect(p.checkpoint()).rejects.toMatchObject({ def: { status: 507 } })
      // schema, kept, the failed one, and the probe the refused write started; nothing of b or c
      expect(s.appendCalls.map((b) => seqsIn(b))).toEqual([[1], [2], [3], [3]])
      expect(decodeRecords(s.appendCalls[3]!).records[0]!.writes).toEqual([])
      expect(s.saveCalls).toBe(0)
      const q = await openP(crashCopy(s))
      expect(items(q)).toEqual(['kept'])
    })

    it('takes writes again once its probe is written, numbering them after the last durable record', async () => {
      const s = new FakeStorage()
      const p = await openP(s)
      s.holdAppends = true
      add(p, 'refused')
      await settle()
      s.heldAppends.shift()!.reject(enospc())
      await settle()
      const stillFull = p.writable()
      await settle()
      s.heldAppends.shift()!.reject(enospc())
      expect(await stillFull).toBe(false)
      expect(() => add(p, 'x')).toThrow(/ENOSPC/)
      s.holdAppends = false
      expect(await p.writable()).toBe(true)
      add(p, 'after')
      await p.durable()
      expect(items(p)).toEqual(['after'])
      expect([...s.segments.keys()].flatMap((id) => segmentSeqs(s, id))).toEqual([1, 2, 3]) // schema, the probe, after
      const q = await openP(crashCopy(s))
      expect(items(q)).toEqual(['after'])
    })

    it('opens read-only when the storage can only be read, and takes writes, with what another process wrote meanwhile, once it opens for appends', async () => {
      class FullAtStart extends FakeStorage {
        full = false
        override async load() {
          return { ...(await super.load()), readOnly: this.full ? enospc() : null }
        }
        override async openForWrites(): Promise<void> {
          if (this.full) throw enospc()
          return super.openForWrites()
        }
      }
      const s = new FullAtStart()
      const first = await openP(s)
      add(first, 'a')
      await first.close()
      s.full = true
      const p = await Persister.open(s, { idleMs: 3_600_000 })
      expect(p.db.refused).toMatchObject({ atOpen: true, error: { extra: { cause: 'ENOSPC' } } })
      expect(items(p)).toEqual(['a'])
      expect(() => add(p, 'refused')).toThrow(/ENOSPC/)
      expect(await p.writable()).toBe(false)
      s.full = false
      const other = await openP(s)
      add(other, 'other')
      await other.close()
      expect(await p.writable()).toBe(true)
      expect(p.db.refused).toBeNull()
      add(p, 'b')
      await p.close()
      expect(items(await openP(s))).toEqual(['a', 'other', 'b'])
    })
  })

  describe('checkpoint and crashes', () => {
    it('saves no snapshot holding a commit whose append failed after the rotation', async () => {
      const s = new FakeStorage()
      const p = await openP(s)
      s.holdAppends = true
      add(p, 'w') // its append is in flight
      await settle()
      add(p, 'x') // waits for the next append, after the rotation
      const cp = track(p.checkpoint()) // the image holds w and x
      s.heldAppends.shift()!.resolve()
      await settle()
      expect(s.rotations).toBe(1)
      s.heldAppends.shift()!.reject(enospc())
      await settle()
      expect(cp.state).toBe('rejected')
      expect(s.saveCalls).toBe(0)
      expect(items(p)).toEqual(['w'])
      expect(items(await openP(crashCopy(s)))).toEqual(['w'])
    })

    it('loses nothing committed after the export when it crashes after the rotation but before the save completes', async () => {
      const s = new FakeStorage()
      const p = await openP(s)
      for (const v of ['a', 'b']) add(p, v)
      await p.checkpoint()
      for (const v of ['c', 'd']) add(p, v)
      await p.durable()
      s.holdSaves = true
      const cp = p.checkpoint() // exports a..d, rotates, then waits in save
      await settle()
      expect(s.heldSaves).toHaveLength(1)
      const rotationsAtExport = s.rotations
      for (const v of ['e', 'f']) add(p, v)
      await p.durable()
      expect(s.rotations).toBe(rotationsAtExport)

      const crashedBeforeSave = crashCopy(s)
      const q = await openP(crashedBeforeSave)
      expect(items(q)).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
      expect(counter(q)).toBe(6)

      s.heldSaves[0]!.resolve()
      await cp
      expect(await journalSeqOf(s.snapshot)).toBe('5')
      const r = await openP(crashCopy(s))
      expect(items(r)).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
      expect(counter(r)).toBe(6)
      expect(r.replayed).toBe(2)
    })

    it('loses nothing committed after the export when the rotation had to wait behind an append in flight', async () => {
      const s = new FakeStorage()
      const p = await openP(s)
      s.holdAppends = true
      add(p, 'x1') // its append is in flight
      await settle()
      const cp = p.checkpoint() // the image holds x1; the rotation waits for that append
      add(p, 'x2') // committed after the export: only the journal has it
      const d = p.durable()
      s.holdAppends = false
      s.heldAppends[0]!.resolve()
      await Promise.all([cp, d])
      expect(await journalSeqOf(s.snapshot)).toBe('2')
      const q = await openP(crashCopy(s))
      expect(items(q)).toEqual(['x1', 'x2'])
      expect(counter(q)).toBe(2)
    })

    it('applies records committed before the export but appended after the rotation only once when it reopens', async () => {
      const s = new FakeStorage()
      const p = await openP(s)
      await p.checkpoint()
      s.holdAppends = true
      add(p, 'c1') // its append is in flight
      await settle()
      add(p, 'c2')
      add(p, 'c3') // waiting for the next append
      s.holdSaves = true
      const cp = p.checkpoint() // the image holds c1..c3 (journal_seq 4)
      s.holdAppends = false
      s.heldAppends[0]!.resolve()
      await settle()
      expect(s.heldSaves).toHaveLength(1)
      const newest = Math.max(...s.segments.keys())
      expect(segmentSeqs(s, newest)).toEqual([3, 4]) // c2, c3 went to the new segment

      const beforeSave = await openP(crashCopy(s))
      expect(items(beforeSave)).toEqual(['c1', 'c2', 'c3'])
      expect(counter(beforeSave)).toBe(3)

      s.heldSaves[0]!.resolve()
      await cp
      expect(await journalSeqOf(s.snapshot)).toBe('4')
      const afterSaveStore = crashCopy(s)
      const afterSave = await openP(afterSaveStore) // c2, c3 are in the image and in the journal
      expect(items(afterSave)).toEqual(['c1', 'c2', 'c3'])
      expect(counter(afterSave)).toBe(3)
      expect(afterSave.replayed).toBe(0)

      // The sequence continues after the image's journal_seq, so a later commit is not skipped.
      add(afterSave, 'c4')
      await afterSave.durable()
      const again = await openP(crashCopy(afterSaveStore))
      expect(items(again)).toEqual(['c1', 'c2', 'c3', 'c4'])
      expect(counter(again)).toBe(4)
    })

    it('matches a reference model when it crashes, checkpoints and reopens many times', async () => {
      const rnd = prng(20250110)
      const delay = () => Math.floor(rnd() * 3)
      let s = new FakeStorage(delay)
      let p = await openP(s)
      const model = new Map<number, string>()
      let n = 0
      const check = () => {
        expect(p.db.query('SELECT k, v FROM items ORDER BY k')).toEqual([...model].sort((a, b) => a[0] - b[0]).map(([k, v]) => ({ k, v })))
        expect(counter(p)).toBe(n)
      }
      const op = () => {
        const k = Math.floor(rnd() * 40)
        const v = `v${Math.floor(rnd() * 60)}-Ü`
        const kind = rnd()
        try {
          p.db.tx(() => {
            if (kind < 0.45) p.db.run('INSERT INTO items(k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v', [k, v])
            else if (kind < 0.7) p.db.run('DELETE FROM items WHERE k = ?', [k])
            else p.db.run('UPDATE items SET v = ? WHERE k = ?', [v, k])
            p.db.run('UPDATE counter SET n = n + 1', [])
          })
        } catch (err) {
          expect(String(err)).toMatch(/UNIQUE/) // v is unique: a clash rolls the whole transaction back
          return
        }
        n++
        if (kind < 0.45) model.set(k, v)
        else if (kind < 0.7) model.delete(k)
        else if (model.has(k)) model.set(k, v)
      }
      let crashes = 0
      let checkpoints = 0
      for (let round = 0; round < 40; round++) {
        const ops = 1 + Math.floor(rnd() * 15)
        for (let i = 0; i < ops; i++) op()
        await p.durable()
        const what = rnd()
        if (what < 0.25) {
          await p.checkpoint()
          checkpoints++
        } else if (what < 0.7) {
          // Crash somewhere inside a checkpoint, with acknowledged commits made during it.
          const cp = p.checkpoint().catch(() => undefined)
          for (let i = Math.floor(rnd() * 4); i > 0; i--) {
            op()
            await p.durable()
          }
          await settle(Math.floor(rnd() * 6))
          s = crashCopy(s, delay)
          void cp
          p = await openP(s)
          crashes++
        } else if (what < 0.85) {
          await p.close()
          p = await openP(s)
        } else {
          s = crashCopy(s, delay)
          p = await openP(s)
          crashes++
        }
        check()
      }
      expect(crashes).toBeGreaterThan(10)
      expect(checkpoints).toBeGreaterThan(3)
      expect(n).toBeGreaterThan(100)
    })
  })

  describe('idle checkpoint', () => {
    it('checkpoints when idleMs have passed without a write, and not before', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      const s = new MemoryStorage()
      const p = await openP(s, { idleMs: 1000 })
      add(p, 'a')
      await p.durable()
      await vi.advanceTimersByTimeAsync(900)
      add(p, 'b') // a write restarts the idle wait
      await p.durable()
      await vi.advanceTimersByTimeAsync(999)
      expect(s.saves).toBe(0)
      await vi.advanceTimersByTimeAsync(1)
      await vi.waitFor(() => expect(s.saves).toBe(1))
      expect(await journalSeqOf(s.snapshot)).toBe('3')
      await vi.advanceTimersByTimeAsync(10_000)
      expect(s.saves).toBe(1) // no writes since: no further snapshots
    })

    it('checkpoints with real timers when idleMs is small', async () => {
      const s = new MemoryStorage()
      const p = await openP(s, { idleMs: 20 })
      add(p, 'a')
      await p.durable()
      expect(s.saves).toBe(0)
      await vi.waitFor(() => expect(s.saves).toBe(1), { timeout: 2000, interval: 5 })
      expect(await journalSeqOf(s.snapshot)).toBe('2')
    })
  })
})

describe('Persister checkpoints without news', () => {
  it('writes no snapshot when nothing was committed since the last one', async () => {
    const storage = new MemoryStorage()
    const p = await Persister.open(storage, { idleMs: 1e9 })
    p.db.tx(() => p.db.run('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)'))
    await p.durable()
    await p.checkpoint()
    const saves = storage.saves
    await p.checkpoint()
    expect(storage.saves).toBe(saves)
    p.db.tx(() => p.db.run("INSERT INTO meta VALUES ('x', 'y')"))
    await p.checkpoint()
    expect(storage.saves).toBe(saves + 1)
    await p.close()
    const again = await Persister.open(storage, { idleMs: 1e9 })
    await again.checkpoint()
    expect(storage.saves).toBe(saves + 1)
    await again.close()
  })
})
