/**
 * What a full disk costs (docs/storage.md, "Known limits"): the first refused write (it reads the
 * data directory again), the refusals after it, a sign-in and a read on the full disk, and the first
 * write once there is room. Not a test (no timings in tests): run by hand, as root (it mounts a
 * 128 MiB tmpfs): `npx tsx test/engine/storage/refusal-cost.mts [campaigns=3000]`. The data
 * directory holds a snapshot of `campaigns` campaigns and a journal of as many more.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine } from '../../../engine/index'
import { fileStorage } from '../../../engine/storage/adapters/file'

const ACCOUNT = { username: 'u', password: 'pw-for-tests', client_id: 'c', client_secret: 'secret-for-tests' }
const n = Number(process.argv[2] ?? 3000)
const mnt = mkdtempSync(join(tmpdir(), 'admonitor-refusal-'))
execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', mnt])
try {
  const dir = join(mnt, 'data')
  const engine = await createEngine({ storage: fileStorage(dir), account: ACCOUNT, idleCheckpointMs: 3_600_000, checkpointBytes: 1 << 30, log: { error: () => undefined, info: () => undefined } })
  const post = (path: string, o: Record<string, string>) =>
    engine.handle({ method: 'POST', path, query: {}, body: new URLSearchParams(o).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  const token = (JSON.parse((await post('/oauth/token', { grant_type: 'password', ...ACCOUNT })).body) as { access_token: string }).access_token
  const create = (name: string) => post('/cms/v1/campaigns/create', { access_token: token, campaign_name: name, start_date: '2099-01-01', end_date: '2099-12-31' })
  for (let i = 0; i < n; i++) await create(`c${i}`)
  await engine.flush()
  for (let i = n; i < 2 * n; i++) await create(`c${i}`)
  const sizes = execFileSync('sh', ['-c', `wc -c ${dir}/admonitor.db; cat ${dir}/journal-*.log | wc -c`]).toString().trim().replace(/\s+/g, ' ')
  console.log(`snapshot and journal bytes: ${sizes}`)
  const s = statfsSync(mnt)
  writeFileSync(join(mnt, 'filler'), Buffer.alloc(Number(s.bavail * s.bsize)))
  const time = async (label: string, f: () => Promise<{ status: number }>) => {
    const t = performance.now()
    const r = await f()
    console.log(`${label}: ${r.status} in ${(performance.now() - t).toFixed(1)} ms`)
  }
  // (the first creates may still fit in the journal's last page)
  for (let k = 0; k < 4; k++) await time(`create ${k} on the full disk`, () => create(`full${k}`))
  await time('sign-in on the full disk', () => post('/oauth/token', { grant_type: 'password', ...ACCOUNT }))
  await time('list on the full disk', () => engine.handle({ method: 'GET', path: '/cms/v1/campaigns/list', query: { access_token: token, limit: '0,50' } }))
  rmSync(join(mnt, 'filler'))
  await time('create with room again', () => create('after'))
  await engine.close()
} finally {
  execFileSync('umount', ['-l', mnt])
  rmSync(mnt, { recursive: true, force: true })
}
