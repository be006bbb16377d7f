/**
 * Child process: the engine behind its real HTTP door on 127.0.0.1 (port 0), run bundled as
 * `npm run serve` runs the server (bench/children.ts builds out/bench/server-engine.mjs):
 *   node out/bench/server-engine.mjs DATA_DIR seed   seeds an empty data directory first, then listens
 *   node out/bench/server-engine.mjs DATA_DIR open   opens what is there (startup measurement)
 * A third argument `events` also opens the data directory's raw event log (DATA_DIR/events, as
 * `admonitor serve` and `admonitor import` do); without it events stay in memory.
 * Talks to the driver over the IPC channel (bench/protocol.ts).
 */
import { join } from 'node:path'
import { createEngine } from '../engine/index'
import { FileEventLog } from '../engine/measure/event-log'
import { startHttpDoor } from '../engine/server/http'
import { fileStorage } from '../engine/storage/adapters/file'
import type { SeedInfo, ServerCommand, ServerMessage, StartMarks } from './protocol'
import { hotFunctions, startProfile, stopProfile } from './profile'
import { BENCH_ACCOUNT, seed } from './seed'

// (the bundle evaluates every module it holds before this line)
const imported = performance.now()
/**
 * Idle-checkpoint delay while seeding. The persister checkpoints this long after the last write
 * even when flush() has just done so, so the seed server waits it out before listening: no
 * snapshot export may run during a measured row. Reads do not write, so it never fires again.
 */
const SEED_IDLE_MS = 1_000

function send(m: ServerMessage): void {
  process.send?.(m)
}

async function main(): Promise<void> {
  const [dataDir, mode, events] = process.argv.slice(2)
  if (!dataDir || (mode !== 'seed' && mode !== 'open') || (events !== undefined && events !== 'events')) throw new Error('usage: server-engine.ts DATA_DIR seed|open [events]')
  const engine = await createEngine({
    storage: fileStorage(dataDir),
    ...(events ? { eventLog: new FileEventLog(join(dataDir, 'events')) } : {}),
    account: BENCH_ACCOUNT,
    ...(mode === 'seed' ? { idleCheckpointMs: SEED_IDLE_MS } : {}),
    log: { error: (m, c) => console.error(`[engine] ${m}`, c ?? ''), info: () => undefined },
  })
  const engineOpen = performance.now()
  let info: SeedInfo | undefined
  let seeded: number | undefined
  if (mode === 'seed') {
    info = await seed(engine)
    // A snapshot now, so that the startup runs open a snapshot as after a normal quit.
    await engine.flush()
    await new Promise((resolve) => setTimeout(resolve, SEED_IDLE_MS + 500))
    seeded = performance.now()
  }
  let answered = false
  const onRequest = (e: { status: number; ms: number }) => {
    if (!answered) send({ type: 'first-answer', at: performance.now(), ms: e.ms, status: e.status })
    answered = true
  }
  const door = await startHttpDoor(engine, { port: 0, onRequest })
  const marks: StartMarks = { imported, engineOpen, ...(seeded === undefined ? {} : { seeded }), listening: performance.now() }
  process.on('message', (cmd: ServerCommand) => {
    if (cmd.type === 'stats') {
      const m = process.memoryUsage()
      const c = process.cpuUsage()
      send({ type: 'stats', rss: m.rss, heapUsed: m.heapUsed, external: m.external, cpuMs: (c.user + c.system) / 1000 })
    } else if (cmd.type === 'profile-start') {
      void startProfile()
    } else if (cmd.type === 'profile-stop') {
      void stopProfile(cmd.file).then((profile) => send({ type: 'profiled', file: cmd.file, hot: hotFunctions(profile) }))
    } else if (cmd.type === 'stop') {
      void door.close().then(() => engine.close()).then(() => {
        send({ type: 'stopped' })
        process.disconnect?.()
      })
    }
  })
  send({ type: 'ready', port: door.port, marks, ...(info ? { seed: info } : {}) })
}

main().catch((err: unknown) => {
  console.error('[bench server-engine]', err)
  process.exit(1)
})
