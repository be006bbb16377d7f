/**
 * Dispatch waits for the journal writes of each request, exactly (docs/storage.md, "A full disk"):
 * a request whose write the disk refused while it waited for something else is answered 507, not
 * 200 (after a refusal the persister numbers writes again from the last durable one, so "is
 * everything written so far durable" does not see it); a request whose own write is durable is
 * answered 200 though another's is refused after it; and a request that wrote nothing answers
 * without waiting for another's write in flight.
 *
 * The requests are the engine's own, through engine.handle(); the handler of account.sign_out in
 * the engine's route table is replaced by a script of the test's (a write, a wait, an answer).
 * The storage is in memory, and its appends can be held or refused with ENOSPC.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { handlers } from '../../engine/routes'
import type { Ctx } from '../../engine/context'
import { MemoryStorage } from '../../engine/storage/adapters/memory'
import { makeEngine, type Reply, type TestEngine } from '../helpers/make-engine'

/** Memory storage whose appends can wait for `hold` and whose next append can fail like a full disk. */
class FaultyStorage extends MemoryStorage {
  hold: Promise<void> | null = null
  refuseNext = false
  override async append(bytes: Uint8Array): Promise<void> {
    if (this.hold) await this.hold
    if (this.refuseNext) {
      this.refuseNext = false
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    }
    return super.append(bytes)
  }
}

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

const original = handlers['account.sign_out']
afterEach(() => {
  handlers['account.sign_out'] = original
})

/** Makes account.sign_out run `script` (with the key of the request's form) and answer what it returns. */
function script(fn: (ctx: Ctx, key: string) => Promise<unknown>): void {
  handlers['account.sign_out'] = (async (ctx: Ctx) => fn(ctx, new URLSearchParams(ctx.request.body ?? '').get('key') ?? '')) as unknown as typeof original
}

const call = (t: TestEngine, key: string): Promise<Reply> => t.post('/local/v1/account/sign_out', { key })
const write = (ctx: Ctx, key: string) => ctx.db.tx(() => ctx.db.setMeta(`test-${key}`, key))

/** The test keys whose writes a fresh engine on the same storage finds (what the disk holds). */
async function kept(storage: MemoryStorage, keys: string[]): Promise<string[]> {
  const fresh = await makeEngine({ storage })
  const found: string[] = []
  script(async (ctx) => {
    for (const k of keys) if (ctx.db.meta(`test-${k}`) !== undefined) found.push(k)
    return {}
  })
  expect((await call(fresh, '')).status).toBe(200)
  await fresh.engine.close()
  return found
}

describe('dispatch: the writes of a request', () => {
  it('answers 507 when the disk refused its write while it waited for something else, and keeps nothing of it', async () => {
    const storage = new FaultyStorage()
    const t = await makeEngine({ storage })
    script(async (ctx, key) => {
      write(ctx, key)
      // waits for something else (a remote, a job) until memory went back to the disk
      const version = ctx.db.version
      while (ctx.db.version === version) await turn()
      return { revoked: 1 }
    })
    storage.refuseNext = true
    const r = await call(t, 'refused')
    expect(r.status, r.raw.body).toBe(507)
    expect(r.body).toMatchObject({ error: 'insufficient_storage', path: 'memory', cause: 'ENOSPC' })
    script(async (ctx, key) => (write(ctx, key), { revoked: 1 }))
    expect((await call(t, 'after')).status).toBe(200)
    await t.engine.close()
    expect(await kept(storage, ['refused', 'after'])).toEqual(['after'])
  })

  it('answers 200 when its own write is durable, though the disk refuses a later write of another request', async () => {
    const storage = new FaultyStorage()
    const t = await makeEngine({ storage })
    const first = gate()
    const durable = gate()
    script(async (ctx, key) => {
      write(ctx, key)
      if (key !== 'first') return { revoked: 1 }
      // (its record is appended at the next turns: then the other request writes, and is refused)
      while (storage.segments.size === 0 || !Buffer.concat([...storage.segments.values()].flat()).includes('test-first')) await turn()
      durable.open()
      await first.opened
      return { revoked: 1 }
    })
    const a = call(t, 'first')
    await durable.opened
    storage.refuseNext = true
    const b = await call(t, 'second')
    expect(b.status, b.raw.body).toBe(507)
    first.open()
    const answered = await a
    expect(answered.status, answered.raw.body).toBe(200)
    await t.engine.close()
    expect(await kept(storage, ['first', 'second'])).toEqual(['first'])
  })

  it('answers a request that wrote nothing without waiting for the write of another in flight', async () => {
    const storage = new FaultyStorage()
    const t = await makeEngine({ storage })
    const reading = gate()
    const started = gate()
    script(async (ctx, key) => {
      if (key === 'writer') return write(ctx, key), { revoked: 1 }
      started.open()
      await reading.opened
      return { revoked: 0 }
    })
    const a = call(t, 'waiting')
    await started.opened
    const disk = gate()
    storage.hold = disk.opened
    const b = call(t, 'writer')
    // the writer's record is held by the disk; the other request then ends
    for (let i = 0; i < 5; i++) await turn()
    reading.open()
    let turns = 0
    const before = await Promise.race([a.then(() => 'answered'), (async () => {
      while (turns++ < 200) await turn()
      return 'still waiting'
    })()])
    expect(before).toBe('answered')
    storage.hold = null
    disk.open()
    expect((await b).status).toBe(200)
    expect((await a).status).toBe(200)
    await t.engine.close()
  })
})
