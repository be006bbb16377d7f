/**
 * The server that import-crash.test.ts kills: `node --import tsx
 * test/engine/measure/import-crash-child.ts <dataDir>` opens an engine on the data directory
 * (database and event log) behind its HTTP door on 127.0.0.1, port 0, as `admonitor serve` does,
 * and prints `READY <port>`. It never stops on its own: the parent SIGKILLs it.
 */
import { join } from 'node:path'
import { createEngine } from '../../../engine/index'
import { FileEventLog } from '../../../engine/measure/event-log'
import { startHttpDoor } from '../../../engine/server/http'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT } from '../../helpers/make-engine'
import { say } from '../../helpers/say'

const [dir] = process.argv.slice(2)
if (!dir) throw new Error('usage: import-crash-child.ts <dataDir>')

async function main(): Promise<void> {
  const engine = await createEngine({ storage: fileStorage(dir!), eventLog: new FileEventLog(join(dir!, 'events')), account: ACCOUNT, log: { error: () => undefined, info: () => undefined } })
  const door = await startHttpDoor(engine, { port: 0 })
  say(`READY ${door.port}`)
}

main().catch((err: Error) => {
  say(`FATAL ${err.stack ?? err.message}`)
  process.exit(2)
})
