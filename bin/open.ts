/** Opening the engine on a data directory, for every command of the command line. */
import { join, resolve } from 'node:path'
import { createEngine, type Engine } from '../engine/index'
import { FileEventLog } from '../engine/measure/event-log'
import { DEFAULT_PORT } from '../engine/server/http'
import { defaultDataDir } from '../engine/server/paths'
import { fileStorage, holdsDatabase } from '../engine/storage/adapters/file'
import { DataDirInUseError } from '../engine/storage/lock'
import { keyFileCipher } from '../engine/sync/secrets'

export function fail(message: string): never {
  console.error(`admonitor: ${message}`)
  process.exit(2)
}

export interface OpenOptions {
  dataDir?: string | undefined
  timeZone?: string | undefined
  /**
   * The server's address for the first-run secrets, printed at once (SERVE_URL: a command that
   * serves nothing); serve leaves it out and prints them with the address it listens on.
   */
  firstRunUrl?: string | undefined
  /**
   * A command that works on existing data (rebuild): a directory without a database is refused
   * rather than created, naming the command (a mistyped --data-dir made a new account and
   * "rebuilt from 0 raw events").
   */
  existing?: string | undefined
  /** Resolve before the event log is read (serve: it listens meanwhile; engine.ready says when it is read). */
  openInBackground?: boolean
  /** What to do when a server holds the directory, if not what the data commands are told (SERVER_DOES_IT). */
  inUse?: string
}

/** What to do when a server holds the directory: its API does what the data commands do. */
const SERVER_DOES_IT = 'When it is a server (admonitor serve, the desktop app), its API does the same: POST /local/v1/events/import, /local/v1/simulate/run, /local/v1/measurement/rebuild (README, "The API surface").'

export { DEFAULT_PORT }
/**
 * The server's address in the first-run message of a command that serves nothing: a name for the
 * address `serve` prints as it starts, which its --port (or the desktop app's port) decides.
 */
export const SERVE_URL = 'ADDRESS'

/**
 * The engine on the data directory; a clear message and exit 2 when it cannot be opened. Any
 * command may be the first on a directory: the account's secrets are printed by whichever it is
 * (they are shown once, and only `serve` printed them: a directory first opened by `demo` or
 * `import` had secrets nobody saw).
 */
export async function openEngine(o: OpenOptions): Promise<{ engine: Engine; dataDir: string }> {
  if (o.dataDir !== undefined && o.dataDir.trim() === '') fail('--data-dir is empty; name a directory (or leave the option out for the default one)')
  const dataDir = resolve(o.dataDir ?? defaultDataDir())
  if (o.existing && !(await holdsDatabase(dataDir))) fail(`${o.existing}: ${dataDir} holds no data (no database there): check --data-dir`)
  const env = process.env
  const engine = await createEngine({
    storage: fileStorage(dataDir),
    eventLog: new FileEventLog(join(dataDir, 'events')),
    ...(o.timeZone ? { timeZone: o.timeZone } : {}),
    ...(o.openInBackground ? { openInBackground: true } : {}),
    // remote profiles' secrets: AES-256-GCM with this key file (default: the data directory's own, engine/sync/setup.ts)
    ...(env.ADMONITOR_KEY_FILE ? { secretCipher: keyFileCipher(resolve(env.ADMONITOR_KEY_FILE)) } : {}),
    account: { username: env.ADMONITOR_USERNAME, password: env.ADMONITOR_PASSWORD, client_id: env.ADMONITOR_CLIENT_ID, client_secret: env.ADMONITOR_CLIENT_SECRET },
  }).catch((err: unknown) => fail(err instanceof DataDirInUseError ? `${err.message} ${o.inUse ?? SERVER_DOES_IT}` : `cannot open ${dataDir}: ${(err as Error).message}`))
  if (o.firstRunUrl !== undefined) printFirstRun(engine, o.firstRunUrl)
  return { engine, dataDir }
}

/** Prints the first-run account once (secrets only when they were generated, not preset). */
export function printFirstRun(engine: Engine, url: string): void {
  const a = engine.firstRun
  if (!a) return
  const env = process.env
  console.log('\nFirst run: created the local account and API client. Keep these; they are not shown again.')
  console.log(`  username:      ${a.username}`)
  if (!env.ADMONITOR_PASSWORD) console.log(`  password:      ${a.password}`)
  console.log(`  client_id:     ${a.client_id}`)
  if (!env.ADMONITOR_CLIENT_SECRET) console.log(`  client_secret: ${a.client_secret}`)
  if (url === SERVE_URL) console.log(`\n  A token, once a server runs on this data directory (ADDRESS: the one npm run serve prints, http://127.0.0.1:${DEFAULT_PORT} by default):`)
  console.log(`${url === SERVE_URL ? '' : '\n'}  curl -d grant_type=password -d username=${a.username} -d password=... -d client_id=${a.client_id} -d client_secret=... ${url}/oauth/token\n`)
}
