/**
 * What a full disk costs the event log (docs/storage.md, "Known limits"): the reading of the state
 * an append the disk refuses starts (from the checkpoint, and from the log alone), and the probe
 * with the first hit once there is room. Not a test (no timings in tests): run by hand,
 * `npx tsx test/engine/measure/heal-cost.mts [events=1000000]`. The log is a FileEventLog in a
 * temp directory whose appends fail with ENOSPC while the script says the disk is full.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Columns } from '../../../engine/measure/columns'
import { FileEventLog } from '../../../engine/measure/event-log'
import { Identities } from '../../../engine/measure/identities'
import { HEAL_EVERY_MS, Ingest } from '../../../engine/measure/ingest'
import { IVT, KIND, PLATFORM, SDK, type Hit } from '../../../engine/measure/types'

const n = Number(process.argv[2] ?? 1_000_000)
const dir = await mkdtemp(join(tmpdir(), 'admonitor-heal-cost-'))
let full = false
const log = new (class extends FileEventLog {
  override async append(frame: Buffer): Promise<void> {
    if (full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    return super.append(frame)
  }
})(dir)
const clock = { now: 0 }
const ingest = new Ingest(log, new Columns(), new Identities(), () => 'Asia/Shanghai', undefined, undefined, undefined, () => clock.now)
const T0 = Date.parse('2025-01-10T04:00:00Z')
const hit = (i: number, identity = `idfa:${i % Math.max(1, n >> 2)}`): Hit =>
  ({ kind: KIND.impression, ts: T0 + i, campaign: 1 + (i % 5), spot: 10, keyword: 0, identity, platform: PLATFORM.mb, sdk: SDK.none, region: 0, ivt: IVT.valid })
try {
  await ingest.open()
  for (let at = 0; at < n; at += 20_000) await ingest.add(Array.from({ length: Math.min(20_000, n - at) }, (_, i) => hit(at + i)))
  for (const from of ['the checkpoint', 'the log alone']) {
    if (from === 'the checkpoint') await ingest.checkpoint()
    else await rm(join(dir, 'checkpoint.bin'))
    const heals: Promise<void>[] = []
    ingest.onReread = (h) => void heals.push(h)
    full = true
    const t0 = performance.now()
    await ingest.add([hit(0, `idfa:new-${from}`)]).catch(() => undefined)
    await Promise.all(heals)
    const read = performance.now() - t0
    full = false
    clock.now += HEAL_EVERY_MS
    const t1 = performance.now()
    await ingest.add([hit(0, `idfa:new-${from}`)])
    console.log(`${ingest.columns.events} events, read again from ${from}: ${read.toFixed(0)} ms; the probe and the first hit once there is room: ${(performance.now() - t1).toFixed(1)} ms`)
  }
} finally {
  await ingest.close()
  await rm(dir, { recursive: true, force: true })
}
