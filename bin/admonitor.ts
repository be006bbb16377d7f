/**
 * Command line: `admonitor serve` runs the engine and its HTTP door (and the web interface when
 * it is built) under plain Node, without Electron. See `admonitor help`.
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createEngine } from '../engine/index'
import { startHttpDoor } from '../engine/server/http'
import { defaultDataDir } from '../engine/server/paths'
import { fileStorage } from '../engine/storage/adapters/file'
import { DataDirInUseError } from '../engine/storage/lock'
import { FileEventLog } from '../engine/measure/event-log'

export const DEFAULT_PORT = 8366

const HELP = `Usage: npm run serve -- [options]

  --data-dir DIR       data directory (default ${defaultDataDir()}; env ADMONITOR_DATA_DIR)
  --port N             port to listen on (default ${DEFAULT_PORT}; 0 picks a free port)
  --host ADDR          address to bind (default 127.0.0.1)
  --allowed-host NAME  another Host header to accept, e.g. a LAN name (repeatable)
  --public-url URL     base URL written into tracking tags (default: the server's own URL)
  --time-zone ZONE     IANA time zone of dates and campaign status (default Asia/Shanghai)
  --help               this text

First run: an account and an API client are created and their secrets printed once, unless
ADMONITOR_USERNAME, ADMONITOR_PASSWORD, ADMONITOR_CLIENT_ID and ADMONITOR_CLIENT_SECRET preset them.`

function fail(message: string): never {
  console.error(`admonitor: ${message}`)
  process.exit(2)
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' }, port: { type: 'string' }, host: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true }, 'public-url': { type: 'string' },
      'time-zone': { type: 'string' }, help: { type: 'boolean' },
    },
  })
  if (values.help) return void console.log(HELP)
  const port = Number(values.port ?? DEFAULT_PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0..65535, got ${values.port}`)
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir())
  const env = process.env
  const engine = await createEngine({
    storage: fileStorage(dataDir),
    eventLog: new FileEventLog(join(dataDir, 'events')),
    ...(values['time-zone'] ? { timeZone: values['time-zone'] } : {}),
    account: { username: env.ADMONITOR_USERNAME, password: env.ADMONITOR_PASSWORD, client_id: env.ADMONITOR_CLIENT_ID, client_secret: env.ADMONITOR_CLIENT_SECRET },
  }).catch((err: unknown) => fail(err instanceof DataDirInUseError ? err.message : `cannot open ${dataDir}: ${(err as Error).message}`))
  const here = dirname(fileURLToPath(import.meta.url))
  const staticDir = join(here, '..', 'out', 'renderer')
  const door = await startHttpDoor(engine, {
    host: values.host ?? '127.0.0.1', port, allowedHosts: values['allowed-host'] ?? [],
    ...(existsSync(join(staticDir, 'index.html')) ? { staticDir } : {}),
  }).catch(async (err: Error) => {
    await engine.close()
    return fail(`cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${err.message}`)
  })
  engine.settings.publicUrl = values['public-url'] ?? door.url
  console.log(`AdMonitor Desk is serving ${door.url}  (data: ${dataDir})`)
  console.log(`  API description: ${door.url}/openapi.json`)
  if (engine.replayed > 0) console.log(`  recovered ${engine.replayed} journaled write(s) since the last snapshot`)
  if (engine.measure.loaded > 0) console.log(`  ${engine.measure.loaded} recorded event(s) loaded`)
  if (engine.firstRun) {
    const a = engine.firstRun
    const preset = Boolean(env.ADMONITOR_PASSWORD)
    console.log('\nFirst run: created the local account and API client. Keep these; they are not shown again.')
    console.log(`  username:      ${a.username}`)
    if (!preset) console.log(`  password:      ${a.password}`)
    console.log(`  client_id:     ${a.client_id}`)
    if (!env.ADMONITOR_CLIENT_SECRET) console.log(`  client_secret: ${a.client_secret}`)
    console.log(`\n  curl -d grant_type=password -d username=${a.username} -d password=... -d client_id=${a.client_id} -d client_secret=... ${door.url}/oauth/token\n`)
  }
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) process.exit(1)
    stopping = true
    console.log(`\n${signal}: saving and stopping...`)
    await door.close()
    await engine.close()
    console.log('stopped.')
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

async function main(): Promise<void> {
  const [command = 'serve', ...rest] = process.argv.slice(2)
  if (command === 'serve') return serve(rest)
  if (command.startsWith('-')) return serve([command, ...rest])
  if (command === 'help') return void console.log(HELP)
  fail(`unknown command '${command}'\n\n${HELP}`)
}

void main()
