/**
 * A kill -9 during an import. A child serves the engine over HTTP on a real data
 * directory; the test sends it an event import and, meanwhile, tracking hits one after the other,
 * and SIGKILLs it part-way through the import. After the rounds the directory is reopened: every
 * acknowledged hit is there once; each import killed half-way kept its first lines, in file
 * order, and nothing else (docs/import.md, "After an interruption"), so that importing the lines
 * after them completes it; the raw log holds each client's hits in the order they were answered.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../engine/index'
import { FileEventLog } from '../../../engine/measure/event-log'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'

const here = dirname(fileURLToPath(import.meta.url))
const child = join(here, 'import-crash-child.ts')
const ROUNDS = 4
/** Lines of each round's import (about 14 MB): long enough to be killed in. */
const LINES = 100_000
const APP_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148'
const dirs: string[] = []

afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0')
/** The device id (an IDFA) of hit `n` of round `r`, and of line `i` of round `r`'s import. */
const hitId = (r: number, n: number) => `${hex(r + 1, 8)}-0000-4000-8000-${hex(n, 12)}`
const lineId = (r: number, i: number) => `${hex(r + 1, 8)}-1111-4000-8000-${hex(i, 12)}`

function start(dir: string): Promise<{ proc: ChildProcess; base: string }> {
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dir], { cwd: resolve(here, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    proc.on('exit', (code, signal) => fail(new Error(`the server ended before READY (${signal ?? code}): ${err}`)))
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      const [word, port] = line.split(' ')
      if (word === 'READY') done({ proc, base: `http://127.0.0.1:${port}` })
    })
  })
}

async function form(base: string, path: string, f: Record<string, string>): Promise<Record<string, unknown>> {
  const r = await fetch(base + path, { method: 'POST', body: new URLSearchParams(f), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  return (await r.json()) as Record<string, unknown>
}

/** The import body of round `r`: LINES impressions, each of a device of its own. */
function importBody(r: number, campaign: string, spot: string, from = 0): string {
  const out: string[] = []
  for (let i = from; i < LINES; i++) out.push(JSON.stringify({ type: 'impression', ts: Date.UTC(2099, 0, 2) + i, campaign_id: campaign, spot_id: spot, identity: `idfa:${lineId(r, i)}` }))
  return `${out.join('\n')}\n`
}

interface Round {
  /** Hits answered (recorded), in the order of their answers. */
  acked: number[]
  /** Whether the import answered before the kill (whole). */
  whole: boolean
}

/**
 * One round: the import of round `r` and hits one after the other until the server is killed,
 * once the import job has processed `killAt` lines.
 */
async function round(dir: string, r: number, killAt: number, setup: { campaign: string; spot: string; tag: string } | null): Promise<{ round: Round; setup: { campaign: string; spot: string; tag: string } }> {
  const { proc, base } = await start(dir)
  const gone = new Promise<void>((done) => proc.on('exit', () => done()))
  const token = String((await form(base, '/oauth/token', { grant_type: 'password', ...ACCOUNT })).access_token)
  if (!setup) {
    const campaign = String((await form(base, '/cms/v1/campaigns/create', { access_token: token, campaign_name: 'import crash', start_date: '2099-01-01', end_date: '2099-12-31' })).campaign_id)
    const spot = String((await form(base, '/cms/v1/campaigns/create_spot', { access_token: token, campaign_id: campaign, publisher_name: 'P', channel_name: 'c', placement_name: 'p' })).spot_id)
    const listed = (await (await fetch(`${base}/cms/v1/campaigns/list_spots?campaign_id=${campaign}&code_type=mma&access_token=${token}`)).json()) as { tracking_tags: { impression_url: string } }[]
    setup = { campaign, spot, tag: new URL(listed[0]!.tracking_tags.impression_url).pathname }
  }
  const { campaign, spot, tag } = setup
  let killed = false
  const result: Round = { acked: [], whole: false }
  const imported = fetch(`${base}/local/v1/events/import?format=ndjson&wait=1&access_token=${token}`, { method: 'POST', body: importBody(r, campaign, spot), headers: { 'content-type': 'application/x-ndjson' } })
    .then(async (res) => (result.whole = !killed && res.status === 200 && ((await res.json()) as { state: string }).state === 'done'), () => undefined)
  const hits = (async () => {
    for (let n = 0; !killed; n++) {
      const res = await fetch(base + tag.replace('__IDFA__', hitId(r, n)), { headers: { 'user-agent': APP_AGENT } }).catch(() => null)
      if (!res || killed) return
      // recorded either way: the campaign's dates lie ahead, so its hits count in no report yet
      const said = res.headers.get('x-admonitor-counted') ?? ''
      expect([res.status, said === '1' || said.startsWith("0; outside the campaign's dates")], said).toEqual([200, true])
      result.acked.push(n)
    }
  })()
  for (;;) {
    const jobs = await fetch(`${base}/local/v1/jobs/list?access_token=${token}`).then((x) => x.json() as Promise<{ kind: string; processed: number }[]>, () => [])
    if ((jobs.find((j) => j.kind === 'import')?.processed ?? 0) >= killAt || result.whole) break
    await new Promise((done) => setTimeout(done, 5))
  }
  killed = true
  proc.kill('SIGKILL')
  await Promise.all([gone, hits, imported])
  return { round: result, setup }
}

describe('events.import under kill -9', () => {
  it('keeps every acknowledged hit once, in order, and of each killed import its first lines, which the rest completes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-import-crash-'))
    dirs.push(dir)
    const rnd = prng(25)
    const rounds: Round[] = []
    let setup: { campaign: string; spot: string; tag: string } | null = null
    for (let r = 0; r < ROUNDS; r++) {
      const done = await round(dir, r, Math.floor(LINES * (0.1 + 0.7 * rnd())), setup)
      setup = done.setup
      rounds.push(done.round)
    }
    expect(rounds.filter((x) => !x.whole).length, 'rounds killed during their import').toBeGreaterThanOrEqual(ROUNDS - 1)

    // the raw log, in its order: each event's identity text
    const texts = new Map<number, string>()
    const order: string[] = []
    await new FileEventLog(join(dir, 'events')).readAll({ identity: (r) => texts.set(r.id, r.text), event: (e) => order.push(texts.get(e.identity)!) })
    expect(new Set(order).size, 'an event recorded twice').toBe(order.length)
    const at = new Map(order.map((t, i) => [t, i]))
    const kept: number[] = []
    for (const [r, { acked, whole }] of rounds.entries()) {
      // every acknowledged hit is there, in the order of its answer
      const places = acked.map((n) => at.get(`idfa:${hitId(r, n)}`))
      expect(places.filter((p) => p === undefined).length, `round ${r}: acknowledged hits lost`).toBe(0)
      expect(places, `round ${r}: hits out of order`).toEqual([...places].sort((a, b) => a! - b!))
      // the import kept its first k lines, in file order, and no later one
      const lines = Array.from({ length: LINES }, (_, i) => at.get(`idfa:${lineId(r, i)}`))
      const k = lines.findIndex((p) => p === undefined)
      const n = k < 0 ? LINES : k
      expect(lines.slice(n).filter((p) => p !== undefined).length, `round ${r}: a line kept after a line lost`).toBe(0)
      expect(lines.slice(0, n), `round ${r}: lines out of file order`).toEqual([...lines.slice(0, n)].sort((a, b) => a! - b!))
      if (whole) expect(n).toBe(LINES)
      kept.push(n)
    }

    // reopened, the engine counts what the log holds; importing each file's lines after those kept completes it
    const engine = await createEngine({ storage: fileStorage(dir), eventLog: new FileEventLog(join(dir, 'events')), account: ACCOUNT, log: { error: () => undefined, info: () => undefined } })
    try {
      const { campaign, spot } = setup!
      expect(engine.measure.columns.campaign(Number(campaign))?.n).toBe(order.length)
      const login = await engine.handle({ method: 'POST', path: '/oauth/token', query: {}, body: new URLSearchParams({ grant_type: 'password', ...ACCOUNT }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      const token = JSON.parse(login.body).access_token as string
      for (const [r, n] of kept.entries()) {
        if (n === LINES) continue
        const res = await engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: token, format: 'ndjson' }, body: importBody(r, campaign, spot, n), headers: {} })
        expect(JSON.parse(res.body)).toMatchObject({ state: 'done', imported: LINES - n, rejected: 0 })
      }
      const hits = order.filter((t) => t.includes('-0000-4000-')).length
      expect(engine.measure.columns.campaign(Number(campaign))?.n).toBe(hits + ROUNDS * LINES)
    } finally {
      await engine.close()
    }
  }, 180_000)
})
