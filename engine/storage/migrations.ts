/**
 * Versioned schema migrations (PRAGMA user_version). Before migrating a database that already
 * holds data, its image is kept under backups/. A database newer than this program is refused.
 */
import type { Db } from './db'
import type { Persister } from './persister'
import { SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V6 } from './schema'
import { SCHEMA_V4, SCHEMA_V5, SCHEMA_V7 } from './schema-sync'
import { seedReference } from '../reference/seed'

export interface Migration {
  version: number
  name: string
  up(db: Db): void
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema and reference data',
    up: (db) => {
      db.execScript(SCHEMA_V1)
      seedReference(db)
    },
  },
  { version: 2, name: 'panel persons, tags and devices', up: (db) => db.execScript(SCHEMA_V2) },
  { version: 3, name: 'minisites and their events', up: (db) => db.execScript(SCHEMA_V3) },
  { version: 4, name: 'remote profiles, pulled records and pulls', up: (db) => db.execScript(SCHEMA_V4) },
  { version: 5, name: 'sync outbox, id map, pushes and server modes', up: (db) => db.execScript(SCHEMA_V5) },
  { version: 6, name: 'index of the minisites linked to each campaign', up: (db) => db.execScript(SCHEMA_V6) },
  { version: 7, name: 'the problem of each message a pull, a push and the outbox store', up: (db) => db.execScript(SCHEMA_V7) },
]

export const SCHEMA_VERSION = migrations[migrations.length - 1]!.version

export class NewerSchemaError extends Error {
  constructor(found: number) {
    super(`The data directory holds schema version ${found}, newer than this program's ${SCHEMA_VERSION}. Upgrade AdMonitor Desk.`)
    this.name = 'NewerSchemaError'
  }
}

/** Brings the database to SCHEMA_VERSION; returns the version it found. */
export async function migrate(persister: Persister, stamp: string): Promise<number> {
  const db = persister.db
  const from = Number(db.scalar<number>('PRAGMA user_version') ?? 0)
  if (from > SCHEMA_VERSION) throw new NewerSchemaError(from)
  if (from === SCHEMA_VERSION) return from
  const holdsData = Number(db.scalar<number>('SELECT COUNT(*) FROM sqlite_master') ?? 0) > 0
  if (from > 0 || holdsData) await persister.backup(`admonitor.v${from}.${stamp}.db`)
  for (const m of migrations) {
    if (m.version <= from) continue
    db.tx(() => {
      m.up(db)
      db.run(`PRAGMA user_version = ${m.version}`)
    })
  }
  await persister.checkpoint()
  return from
}
