/**
 * The durability steps: a call's writes are noted in its own scope; its answer waits for exactly
 * those, and a read's also for the writes made while it ran; a refusal replaces the answer, but
 * for a token (valid once issued). A tracking hit has no scope and skips the wait for writes.
 */
import { describe, expect, it } from 'vitest'
import { E } from '../../../../engine/contract/errors'
import { awaitWrites, waitForWrites, writeScope } from '../../../../engine/dispatch/steps/durability'
import { noteWrite, type JournalWrite } from '../../../../engine/storage/persister-writes'
import { storageRefusal } from '../../../../engine/storage/refusal'
import type { Services } from '../../../../engine/services'
import { callOf } from '../fake-call'

const ok = { status: 200, headers: {}, body: '{}' }
const refused = () => storageRefusal(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }), '/data')

/** A persister that records what it was asked to wait for, and refuses when told. */
function fakeStorage() {
  const asked: (readonly JournalWrite[] | 'all')[] = []
  let refuse = false
  return {
    asked,
    refuseNext: () => (refuse = true),
    durable: async () => void asked.push('all'),
    durableWrites: async (writes: readonly JournalWrite[]) => {
      asked.push([...writes])
      if (refuse) throw refused()
    },
  }
}

describe('write scope step', () => {
  it('notes the writes committed while the call runs, and the database version it began at', async () => {
    const db = { version: 5 } as Services['db']
    const call = callOf('campaigns.create')
    await writeScope(db).run(call, async () => {
      noteWrite({ seq: 11, generation: 0 })
      await Promise.resolve()
      noteWrite({ seq: 12, generation: 0 })
      return ok
    })
    expect(call.version).toBe(5)
    expect(call.scope?.close()).toEqual([{ seq: 11, generation: 0 }, { seq: 12, generation: 0 }])
    expect(writeScope(db).applies({ id: 'tracking.impression', def: callOf('tracking.impression').def, paged: false })).toBe(false)
  })
})

describe('await writes step', () => {
  it('answers once the call\'s own writes are durable, and a read also once the writes made while it ran are', async () => {
    const db = { version: 5 } as Services['db']
    const storage = fakeStorage()
    const step = awaitWrites(waitForWrites(db, storage))
    const write = callOf('campaigns.create')
    await writeScope(db).run(write, (c) => step.run(c, async () => (noteWrite({ seq: 3, generation: 1 }), ok)))
    expect(storage.asked).toEqual([[{ seq: 3, generation: 1 }]])
    const read = callOf('campaigns.show')
    await writeScope(db).run(read, (c) => step.run(c, async () => ok))
    expect(storage.asked.slice(1)).toEqual([[]])
    await writeScope(db).run(callOf('campaigns.show'), (c) => step.run(c, async () => (db.version++, ok)))
    expect(storage.asked.slice(2)).toEqual([[], 'all'])
  })

  it('answers the refusal of a write instead of the answer, but a token all the same', async () => {
    const db = { version: 5 } as Services['db']
    const storage = fakeStorage()
    const step = awaitWrites(waitForWrites(db, storage))
    storage.refuseNext()
    await expect(step.run(callOf('campaigns.create'), async () => ok)).rejects.toMatchObject({ def: E.insufficientStorage })
    await expect(step.run(callOf('oauth.token'), async () => ok)).resolves.toBe(ok)
  })

  it('lets a tracking hit, with no scope, skip the wait for writes: the persister is never asked (nor its checkpoint started)', () => {
    const db = { version: 5 } as Services['db']
    const storage = fakeStorage()
    const hit = callOf('tracking.impression')
    expect(awaitWrites(waitForWrites(db, storage)).applies({ id: hit.id, def: hit.def, paged: false })).toBe(false)
    expect(storage.asked).toEqual([])
  })
})
