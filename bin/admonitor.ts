/**
 * Command line: `admonitor serve` runs the engine and its HTTP door (and the web interface when
 * it is built) under plain Node, without Electron; other commands work on the data directory.
 */
import '../scripts/node-check.mjs'  // first: an unsupported Node.js stops here, with the fix
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startHttpDoor } from '../engine/server/http'
import { servingV8 } from '../engine/server/v8-flags'
import { defaultDataDir } from '../engine/server/paths'
import { accountCommand, demoCommand, importCommand, rebuildCommand, simulateCommand } from './commands'
import { DEFAULT_PORT, fail, openEngine, printFirstRun } from './open'
import { SYNC_HELP, syncCommand } from './sync'


const HELP = `Usage: npm run serve -- [options]          the server (default command)
       npx tsx bin/admonitor.ts <command> [options]

Commands:
  serve                run the engine, its HTTP API and the web interface (default)
  import FILE [--format ndjson|csv] [--workers N]
                       import an event log, NDJSON or CSV (docs/import.md); N threads parse
                       a file of 64 MiB or more (default one fewer than the cores, 1 to 4;
                       0: all on one thread)
  simulate --campaign N [--from D] [--to D] [--seed N] [--scale X] [--append]
                       simulated traffic from the campaign's plans (docs/simulator.md);
                       days that already have events need --append
  rebuild              derive every figure again from the raw event log (of a data directory
                       that holds data: a directory without a database is refused)
  demo                 a demo campaign with two weeks of traffic (docs/demo.md)
  account rotate --what password|client_secret|both
                       new random secrets for the local account, printed once: the way back in
                       when the password is lost (the HTTP API asks the current one to rotate)
${SYNC_HELP}
Every command takes --data-dir and --time-zone; the data directory is locked while one runs.

Options of serve:
  --data-dir DIR       data directory (default ${defaultDataDir()}; env ADMONITOR_DATA_DIR)
  --port N             port to listen on (default ${DEFAULT_PORT}; 0 picks a free port)
  --host ADDR          address to bind (default 127.0.0.1)
  --allowed-host NAME  another Host header to accept, e.g. a LAN name (repeatable)
  --public-url URL     base URL written into tracking tags (default: the server's own URL)
  --time-zone ZONE     IANA time zone of dates, days and hours, and campaign status (default: the
                       data directory's, kept from the last time one was given; else Asia/Shanghai)
  --demo               create the demo data first when no campaign of the data directory has
                       measured events yet (docs/demo.md)
  --help               this text

The web interface is served at / from out/renderer (npm run serve builds it when it is missing
or older than its sources), or from ADMONITOR_UI_DIR.

First run: an account and an API client are created and their secrets printed once, unless
ADMONITOR_USERNAME, ADMONITOR_PASSWORD, ADMONITOR_CLIENT_ID and ADMONITOR_CLIENT_SECRET preset them.`

/**
 * The Host of `--public-url` (with its port when it has one), accepted as this server's own: a
 * proxy in front forwards it, without being named with --allowed-host too.
 */
function publicHost(url: string | undefined): string[] {
  if (url === undefined) return []
  let parsed: URL | null = null
  try {
    parsed = new URL(url)
  } catch {
    parsed = null
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.host === '') fail(`--public-url must be an http or https URL such as https://ads.example.com, got '${url}'`)
  return [parsed!.host]
}

/** The web interface's build, out/renderer: this file runs from bin/ (tsx) or bundled from out/server/. */
function builtUi(): string {
  const here = dirname(fileURLToPath(import.meta.url))
  const out = basename(here) === 'server' && basename(dirname(here)) === 'out' ? dirname(here) : join(here, '..', 'out')
  return join(out, 'renderer')
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' }, port: { type: 'string' }, host: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true }, 'public-url': { type: 'string' },
      'time-zone': { type: 'string' }, demo: { type: 'boolean' }, help: { type: 'boolean' },
    },
  })
  if (values.help) return void console.log(HELP)
  // (digits only: '' is no port, and 0x1F90 is not written for 8080)
  const port = values.port === undefined ? DEFAULT_PORT : /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0..65535, got '${values.port}'`)
  // Anything but loopback puts the API on the network: said, and named, before it is done
  // (--host 0.0.0.0 without --allowed-host would answer any client that sends a loopback Host).
  const host = values.host ?? '127.0.0.1'
  if (!/^(127\.\d+\.\d+\.\d+|::1|localhost)$/i.test(host) && !values['allowed-host']?.length) {
    fail(`--host ${host} makes the API reachable from the network; name the Host clients will use with --allowed-host (e.g. --allowed-host 192.168.1.20:${port || DEFAULT_PORT}), and keep the account's secrets safe`)
  }
  const ownHosts = publicHost(values['public-url'])
  servingV8()
  // (it listens while the recorded events are read: requests that need them wait, the others are answered)
  const { engine, dataDir } = await openEngine({ dataDir: values['data-dir'], timeZone: values['time-zone'], openInBackground: true })
  // ADMONITOR_UI_DIR: another renderer build (the end-to-end tests build into a temp folder).
  const staticDir = process.env.ADMONITOR_UI_DIR || builtUi()
  const door = await startHttpDoor(engine, {
    host: values.host ?? '127.0.0.1', port, allowedHosts: [...(values['allowed-host'] ?? []), ...ownHosts],
    ...(existsSync(join(staticDir, 'index.html')) ? { staticDir } : {}),
  }).catch(async (err: Error) => {
    await engine.close()
    return fail(`cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${err.message}`)
  })
  engine.settings.publicUrl = values['public-url'] ?? door.url
  console.log(`AdMonitor Desk is serving ${door.url}  (data: ${dataDir})`)
  console.log(`  API description: ${door.url}/openapi.json`)
  if (engine.replayed > 0) console.log(`  recovered ${engine.replayed} journaled write(s) since the last snapshot`)
  printFirstRun(engine, door.url)
  // (set before the events are read: a stop meanwhile saves and closes as any other)
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) process.exit(1)
    stopping = true
    console.log(`\n${signal}: saving and stopping...`)
    try {
      await door.close()
    } finally {
      // (the engine is closed even when the door fails to: its close saves and releases the lock)
      await engine.close().catch((err: Error) => fail(`could not save on stopping: ${err.message}`))
    }
    console.log('stopped.')
    process.exit(0)
  }
  const stopOn = (signal: string) => stop(signal).catch((err: Error) => fail(`${signal}: ${err.message}`))
  process.on('SIGINT', () => void stopOn('SIGINT'))
  process.on('SIGTERM', () => void stopOn('SIGTERM'))
  // (a large log takes seconds: said first, so that a wait for the reports is explained)
  const reading = setTimeout(() => console.log('  reading the recorded events (reports and tracking hits wait for them)...'), 500)
  const read = await engine.ready.catch(async (err: Error) => {
    clearTimeout(reading)
    if (stopping) return { ms: 0 }
    await door.close()
    await engine.close()
    return fail(`cannot read the recorded events in ${dataDir}: ${err.message}`)
  })
  clearTimeout(reading)
  if (stopping) return
  if (engine.measure.loaded > 0) console.log(`  ${engine.measure.loaded} recorded event(s) loaded in ${(read.ms / 1000).toFixed(1)} s`)
  if (values.demo && engine.measure.columns.campaigns.size === 0) {
    console.log('  creating the demo data (a campaign with two weeks of traffic)...')
    const d = await engine.loadDemo()
    console.log(`  demo campaign ${d.campaign_id}: ${d.hits} simulated hits (${d.message})`)
  }
}

async function main(): Promise<void> {
  const [command = 'serve', ...rest] = process.argv.slice(2)
  try {
    await run(command, rest)
  } catch (err) {
    // node:util parseArgs: an unknown option, a stray argument, a value that looks like an option
    const e = err as NodeJS.ErrnoException
    if (e.code?.startsWith('ERR_PARSE_ARGS')) {
      const hint = e.message.includes('ambiguous') ? 'a value beginning with - is written --option=-1' : 'admonitor --help lists the commands and their options'
      fail(`${command}: ${e.message.split('\n')[0]} (${hint})`)
    }
    fail(`${command}: ${e.message}`)
  }
}

async function run(command: string, rest: string[]): Promise<void> {
  // every command's --help is the one help text (sync has its own)
  if (command !== 'sync' && (rest.includes('--help') || rest.includes('-h'))) return void console.log(HELP)
  if (command === 'serve') return serve(rest)
  if (command === 'import') return importCommand(rest)
  if (command === 'simulate') return simulateCommand(rest)
  if (command === 'rebuild') return rebuildCommand(rest)
  if (command === 'demo') return demoCommand(rest)
  if (command === 'account') return accountCommand(rest)
  if (command === 'sync') return syncCommand(rest)
  if (command.startsWith('-')) return serve([command, ...rest])
  if (command === 'help') return void console.log(HELP)
  fail(`unknown command '${command}'\n\n${HELP}`)
}

void main()
