/**
 * The process that crash.test.ts kills. Usage:
 *   node --import tsx test/engine/storage/crash-child.ts <dataDir> <mode> <tag> <seed>
 * It opens an engine on the data directory, logs in, prints `READY <pid>`, then creates
 * campaigns named `<tag>-<n>` through engine.handle() and prints `ACK <name> <id>` after
 * each response has arrived (never before). It never exits on its own in mode `write`: the
 * parent ends it with SIGKILL.
 * Mode `kill-in-save`: after `<seed>` acknowledged campaigns it asks for a checkpoint and
 * SIGKILLs itself half-way through writing the snapshot's temp file.
 */
import { open, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine } from '../../../engine/index'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'
import { say } from '../../helpers/say'

const [dir, mode = 'write', tag = 'c', seedArg = '1'] = process.argv.slice(2)
if (!dir) throw new Error('usage: crash-child.ts <dataDir> <mode> <tag> <seed>')
const seed = Number(seedArg)

const form = (o: Record<string, string>) => new URLSearchParams(o).toString()
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }


type WriteFile = (this: { write(b: Uint8Array): Promise<unknown>; sync(): Promise<void> }, data: unknown, options?: unknown) => Promise<void>

/** From now on, the first large FileHandle.writeFile (a snapshot temp file) writes half its bytes, fsyncs, and the process dies. */
async function armKillInSnapshotWrite(): Promise<void> {
  const probePath = join(tmpdir(), `admonitor-probe-${process.pid}`)
  const probe = await open(probePath, 'w')
  const proto = Object.getPrototypeOf(probe) as { writeFile: WriteFile }
  await probe.close()
  await unlink(probePath)
  const real = proto.writeFile
  proto.writeFile = async function (data, options) {
    if (data instanceof Uint8Array && data.length > 4096) {
      await this.write(data.subarray(0, Math.floor(data.length / 2)))
      await this.sync()
      say(`DYING-IN-SAVE ${data.length}`)
      process.kill(process.pid, 'SIGKILL')
      await new Promise(() => undefined)
    }
    return real.call(this, data, options)
  }
}

async function main(): Promise<void> {
  const engine = await createEngine({
    storage: fileStorage(dir!),
    account: ACCOUNT,
    checkpointBytes: 64 * 1024,
    idleCheckpointMs: 40,
    log: { error: (m, c) => say(`LOG-ERROR ${m} ${String(c)}`), info: () => undefined },
  })
  const login = await engine.handle({ method: 'POST', path: '/oauth/token', query: {}, body: form({ grant_type: 'password', ...ACCOUNT }), headers: FORM })
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.body}`)
  const token = (JSON.parse(login.body) as { access_token: string }).access_token
  say(`READY ${process.pid} replayed=${engine.replayed}`)

  const rnd = prng(seed)
  let n = 0
  let acked = 0
  const createOne = async (): Promise<void> => {
    const name = `${tag}-${n++}`
    const res = await engine.handle({
      method: 'POST',
      path: '/cms/v1/campaigns/create',
      query: {},
      body: form({ access_token: token, campaign_name: name, start_date: '2099-01-01', end_date: '2099-12-31' }),
      headers: FORM,
    })
    if (res.status !== 200) {
      say(`ERR ${name} ${res.status} ${res.body}`)
      process.exit(3)
    }
    say(`ACK ${name} ${(JSON.parse(res.body) as { campaign_id: string }).campaign_id}`)
    acked++
  }

  if (mode === 'kill-in-save') {
    for (let i = 0; i < seed; i++) await createOne()
    await armKillInSnapshotWrite()
    await engine.flush()
    say('ERR the snapshot write was not interrupted')
    process.exit(4)
  }

  // Several writers at once, so that group commit and checkpoints interleave with requests;
  // now and then a pause longer than the idle interval, so that idle checkpoints happen too.
  const writer = async (): Promise<void> => {
    for (;;) {
      await createOne()
      if (rnd() < 0.01) await new Promise((r) => setTimeout(r, 60))
    }
  }
  await Promise.all([writer(), writer(), writer(), writer()])
  say(`ERR writers stopped after ${acked}`)
}

main().catch((err: unknown) => {
  say(`ERR ${err instanceof Error ? err.stack ?? err.message : String(err)}`)
  process.exit(2)
})
