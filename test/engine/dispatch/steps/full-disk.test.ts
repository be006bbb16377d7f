/**
 * The full-disk steps: a read waits for the writes in flight before it runs, and runs again (a
 * fresh call) when one it waited for was refused, at most three times; a POST probes the disk
 * only while writes are refused.
 */
import { describe, expect, it } from 'vitest'
import { E } from '../../../../engine/contract/errors'
import { storageRefusal } from '../../../../engine/storage/refusal'
import { probeWrites, retryReads } from '../../../../engine/dispatch/steps/full-disk'
import type { Call } from '../../../../engine/dispatch/call'
import type { Services } from '../../../../engine/services'
import { callOf } from '../fake-call'

const full = () => storageRefusal(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }), '/data')
const ok = { status: 200, headers: {}, body: '{}' }

describe('retry reads step', () => {
  it('waits for the writes in flight before each run, and runs again as a fresh call after a refusal', async () => {
    const log: string[] = []
    const step = retryReads({ durable: async () => void log.push('durable') })
    const seen: Call[] = []
    const call = callOf('campaigns.show', { campaign_id: 7 })
    const res = await step.run(call, async (c) => {
      seen.push(c)
      log.push('run')
      c.today = '2026-03-10'
      if (seen.length < 3) throw full()
      return ok
    })
    expect(res).toBe(ok)
    expect(log).toEqual(['durable', 'run', 'durable', 'run', 'durable', 'run'])
    expect(seen[0]).toBe(call)
    expect(seen[1]).not.toBe(call)
    expect(seen[1]).toMatchObject({ id: 'campaigns.show', params: { campaign_id: 7 } })
  })

  it('answers the refusal after the third run, and any other error at once', async () => {
    let runs = 0
    const step = retryReads({ durable: async () => undefined })
    await expect(step.run(callOf('campaigns.show'), () => (runs++, Promise.reject(full())))).rejects.toMatchObject({ def: E.insufficientStorage })
    expect(runs).toBe(3)
    await expect(step.run(callOf('campaigns.show'), () => (runs++, Promise.reject(new Error('broken'))))).rejects.toThrow('broken')
    expect(runs).toBe(4)
  })

  it('applies to the reads that take a token only', () => {
    const step = retryReads({ durable: async () => undefined })
    const applies = (id: Call['id']) => step.applies({ id, def: callOf(id).def, paged: false })
    expect([applies('campaigns.show'), applies('local.status'), applies('tracking.impression'), applies('campaigns.create')]).toEqual([true, true, false, false])
  })
})

describe('probe writes step', () => {
  it('tries whether the disk takes writes again only while they are refused', async () => {
    const db = { refused: null as unknown }
    let probes = 0
    const step = probeWrites(db as Services['db'], { writable: async () => (probes++, true) })
    await step.run(callOf('campaigns.create'), async () => ok)
    expect(probes).toBe(0)
    db.refused = { error: full(), atOpen: false }
    await step.run(callOf('campaigns.create'), async () => ok)
    expect(probes).toBe(1)
  })
})
