// docs/measurement.md "A full disk": after an append the disk refused, the ingest refuses hits at
// once, reads its state again from the log, and takes hits again once a probe append is taken.
import { describe, expect, it } from 'vitest'
import { Columns } from '../../../engine/measure/columns'
import { MemoryEventLog } from '../../../engine/measure/event-log'
import { Identities } from '../../../engine/measure/identities'
import { HEAL_EVERY_MS, Ingest } from '../../../engine/measure/ingest'
import { readFrames } from '../../../engine/measure/record'
import { IVT, KIND, PLATFORM, SDK, type Hit } from '../../../engine/measure/types'

const ZONE = 'Asia/Shanghai'
const T0 = Date.parse('2025-01-10T04:00:00Z')

/** An event log on a disk the test fills and empties: appends fail with ENOSPC while `full`. */
class FillingLog extends MemoryEventLog {
  full = false
  /** Appends tried, taken or not. */
  tries = 0

  override async append(frame: Buffer): Promise<void> {
    this.tries++
    if (this.full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    return super.append(frame)
  }
}

function hit(identity: string, over: Partial<Hit> = {}): Hit {
  return { kind: KIND.impression, ts: T0, campaign: 1, spot: 10, keyword: 0, identity, platform: PLATFORM.mb, sdk: SDK.none, region: 0, ivt: IVT.valid, ...over }
}

/** An ingest on `log` whose clock the test moves, and the readings of its state after a failure. */
async function opened(log: FillingLog): Promise<{ ingest: Ingest; clock: { now: number }; rereads: Promise<void>[] }> {
  const clock = { now: 1_000 }
  const ingest = new Ingest(log, new Columns(), new Identities(), () => ZONE, undefined, undefined, undefined, () => clock.now)
  const rereads: Promise<void>[] = []
  ingest.onReread = (r) => void rereads.push(r)
  await ingest.open()
  return { ingest, clock, rereads }
}

/** The identity texts and the events per identity text that a start reading `log` alone has. */
async function fromLog(log: MemoryEventLog): Promise<{ texts: string[]; events: string[] }> {
  const fresh = new Ingest(log, new Columns(), new Identities(), () => ZONE)
  await fresh.open(false)
  const p = fresh.columns.campaign(1)
  const events = p ? [...p.identity.subarray(0, p.n)].map((id) => fresh.identities.text(id)) : []
  return { texts: fresh.identities.textStore.all(), events }
}

describe('Ingest after an append the disk refused', () => {
  it('does refuse hits at once until the next try, then takes them once a probe is taken, the refused records gone', async () => {
    const log = new FillingLog()
    const { ingest, clock, rereads } = await opened(log)
    await ingest.add([hit('idfa:a')])
    log.full = true
    await expect(ingest.add([hit('idfa:b', { request: 'r1' })])).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(rereads).toHaveLength(1)
    await rereads[0]
    // the state holds what is durable: the refused hit's identity is gone
    expect(ingest.identities.get('idfa:b')).toBeUndefined()
    const tried = log.tries
    await expect(ingest.addOne(hit('idfa:a'))).rejects.toMatchObject({ code: 'ENOSPC' })
    clock.now += HEAL_EVERY_MS - 1
    await expect(ingest.add([hit('idfa:a')])).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(log.tries).toBe(tried) // (refused without a write)
    clock.now += 1
    await expect(ingest.add([hit('idfa:a')])).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(log.tries).toBe(tried + 1) // the probe, refused
    log.full = false
    await expect(ingest.add([hit('idfa:a')])).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(log.tries).toBe(tried + 1)
    clock.now += HEAL_EVERY_MS
    // taken: the refused hit's media request id counts as new, its identity is defined again
    expect(await ingest.add([hit('idfa:b', { request: 'r1' })])).toBe(0)
    expect(await ingest.addOne(hit('idfa:c'))).toMatchObject({ flags: expect.any(Number) })
    expect(await ingest.addOne(hit('idfa:b', { request: 'r1' }))).toMatchObject({ repeatOf: T0 })
    expect(ingest.columns.events).toBe(3)
    const read = await fromLog(log)
    expect(read).toEqual({ texts: ['', 'idfa:a', 'idfa:b', 'idfa:c'], events: ['idfa:a', 'idfa:b', 'idfa:c'] })
    expect(ingest.identities.textStore.all()).toEqual(read.texts)
  })

  it('does write a probe that a reader of the log takes as nothing', async () => {
    const log = new FillingLog()
    const { ingest, clock } = await opened(log)
    await ingest.add([hit('idfa:a')])
    const before = await fromLog(log)
    log.full = true
    await expect(ingest.add([hit('idfa:b')])).rejects.toThrow()
    log.full = false
    clock.now += HEAL_EVERY_MS
    await expect(ingest.add([])).resolves.toBe(0)
    const probe = log.frames.at(-1)!
    const links: [number, number][] = []
    readFrames(probe, { identity: () => links.push([-1, -1]), event: () => links.push([-1, -1]), request: () => links.push([-1, -1]), link: (a, b) => links.push([a, b]) })
    expect(links.length).toBeGreaterThan(0)
    expect(links.every(([a, b]) => a === 0 && b === 0)).toBe(true)
    expect(await fromLog(log)).toEqual(before)
  })

  it('does take the hits that come while a heal runs after it, in their order', async () => {
    const log = new FillingLog()
    const { ingest, clock } = await opened(log)
    log.full = true
    await expect(ingest.add([hit('idfa:a')])).rejects.toThrow()
    log.full = false
    clock.now += HEAL_EVERY_MS
    const first = ingest.addOne(hit('idfa:b'))
    const second = ingest.add([hit('idfa:c'), hit('idfa:d')], true)
    await Promise.all([first, second])
    expect((await fromLog(log)).events).toEqual(['idfa:b', 'idfa:c', 'idfa:d'])
  })

  it('does not save a checkpoint of a state read before the heal', async () => {
    const log = new FillingLog()
    const { ingest, clock, rereads } = await opened(log)
    await ingest.add([hit('idfa:a')])
    log.full = true
    const refused = ingest.add([hit('idfa:b')])
    // (asked while the refused hit is on its way: taken after its append failed)
    const during = ingest.checkpoint()
    await expect(refused).rejects.toThrow()
    expect(await during).toBe(false)
    await Promise.all(rereads)
    expect(await ingest.checkpoint()).toBe(false)
    expect(log.checkpoint).toBeNull()
    log.full = false
    clock.now += HEAL_EVERY_MS
    await ingest.add([hit('idfa:c')])
    expect(await ingest.checkpoint()).toBe(true)
  })

  it('does not heal a log that could not be read at open', async () => {
    const log = new FillingLog()
    const { ingest, clock } = await opened(log)
    const unreadable = new Error('unreadable')
    ingest.refuse(unreadable)
    clock.now += 10 * HEAL_EVERY_MS
    await expect(ingest.add([hit('idfa:a')])).rejects.toBe(unreadable)
    expect(log.tries).toBe(0)
  })
})
