/**
 * A read that comes while a write's journal record is being written answers only what the disk
 * holds: it waits for the record, and when the disk refuses it, the read is answered without the
 * refused write (dispatch runs it again on the database read back from the disk). The truth is
 * what the engine acknowledged.
 */
import { describe, expect, it } from 'vitest'
import { MemoryStorage } from '../../../engine/storage/adapters/memory'
import { makeEngine } from '../../helpers/make-engine'

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })

/** Memory storage whose appends wait for the test while `held`, which then lets each pass or fail. */
class HeldDisk extends MemoryStorage {
  held = false
  gates: { pass: () => void; fail: (err: Error) => void }[] = []
  override async append(bytes: Uint8Array): Promise<void> {
    if (this.held) await new Promise<void>((pass, fail) => this.gates.push({ pass, fail }))
    return super.append(bytes)
  }
}

const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r))
}

describe('reads while a write is refused', () => {
  it('answers a list that came while the refused campaign was being written without it, and the create with 507', async () => {
    const storage = new HeldDisk()
    const t = await makeEngine({ storage })
    const kept = await t.post('/cms/v1/campaigns/create', { campaign_name: 'kept', start_date: '2025-01-10', end_date: '2025-01-20' })
    expect(kept.status).toBe(200)
    storage.held = true
    const creating = t.post('/cms/v1/campaigns/create', { campaign_name: 'refused', start_date: '2025-01-10', end_date: '2025-01-20' })
    await turns()
    expect(storage.gates).toHaveLength(1)
    let answered = false
    const listing = t.get('/cms/v1/campaigns/list').then((r) => ((answered = true), r))
    const counting = t.get('/cms/v1/campaigns/show', { campaign_id: 2 })
    await turns()
    expect(answered).toBe(false) // it waits for the record
    storage.gates[0]!.fail(enospc())
    const [created, listed, shown] = await Promise.all([creating, listing, counting])
    expect(created.status).toBe(507)
    expect(created.body).toMatchObject({ error: 'insufficient_storage', path: 'memory', cause: 'ENOSPC' })
    expect(listed.status).toBe(200)
    expect((listed.body as { campaign_name: string }[]).map((c) => c.campaign_name)).toEqual(['kept'])
    expect(shown.status).toBe(400)
    expect(shown.body.error).toBe('invalid_campaign_id')
  })
})
