import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../../engine/index'
import { Db, loadSqlJs } from '../../../engine/storage/db'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { memory, type MemoryStorage } from '../../../engine/storage/adapters/memory'
import { migrate, NewerSchemaError, SCHEMA_VERSION } from '../../../engine/storage/migrations'
import { CAMPAIGN_SELECT } from '../../../engine/storage/repos/campaigns'
import { Persister } from '../../../engine/storage/persister'
import type { StoragePort } from '../../../engine/storage/port'
import { ACCOUNT, FakeClock, seededRandom } from '../../helpers/make-engine'

const quiet = { error: () => undefined, info: () => undefined }
const engines: Engine[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close().catch(() => undefined)
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

async function start(storage: StoragePort): Promise<Engine> {
  const e = await createEngine({ storage, clock: new FakeClock('2025-01-10'), random: seededRandom(), account: ACCOUNT, log: quiet })
  engines.push(e)
  return e
}

async function userVersion(image: Uint8Array | null): Promise<number> {
  const db = await Db.open(image)
  try {
    return Number(db.scalar<number>('PRAGMA user_version'))
  } finally {
    db.close()
  }
}

/** Rewrites the stored snapshot with sql.js directly, as another program version would have. */
async function tamper(storage: MemoryStorage, sql: string): Promise<void> {
  const SQL = await loadSqlJs()
  const raw = new SQL.Database(storage.snapshot!)
  raw.exec(sql)
  storage.snapshot = raw.export()
  raw.close()
}

/** A database at user_version 0 that already holds a table of someone's data. */
async function legacyDatabase(storage: StoragePort, table = 'legacy_notes'): Promise<Persister> {
  const p = await Persister.open(storage)
  p.db.tx(() => p.db.execScript(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, note TEXT); INSERT INTO ${table}(note) VALUES ('keep me')`))
  await p.durable()
  return p
}

describe('migrations', () => {
  it('brings a fresh database to SCHEMA_VERSION when an engine opens empty storage', async () => {
    const storage = memory()
    const e = await start(storage)
    expect(e.schemaVersionFound).toBe(0)
    expect(await userVersion(storage.snapshot)).toBe(SCHEMA_VERSION)
    expect(storage.backups.size).toBe(0) // nothing to keep from an empty database
  })

  it('finds SCHEMA_VERSION and takes no backup when it reopens a current database', async () => {
    const storage = memory()
    await (await start(storage)).close()
    const e = await start(storage)
    expect(e.schemaVersionFound).toBe(SCHEMA_VERSION)
    expect(storage.backups.size).toBe(0)
  })

  it('refuses with NewerSchemaError and changes nothing when the database is newer than the program', async () => {
    const storage = memory()
    await (await start(storage)).close()
    await tamper(storage, 'PRAGMA user_version = 99')
    const before = Uint8Array.from(storage.snapshot!)
    const saves = storage.saves
    await expect(start(storage)).rejects.toBeInstanceOf(NewerSchemaError)
    await expect(start(storage)).rejects.toThrow(/schema version 99/)
    expect(storage.snapshot).toEqual(before)
    expect(storage.saves).toBe(saves)
    expect(storage.backups.size).toBe(0)
  })

  it('refuses with NewerSchemaError again when the same process retries a newer data directory', async () => {
    // The refused attempt must not keep the directory locked for the rest of the process.
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-mig-'))
    dirs.push(dir)
    const storage = memory()
    await (await start(storage)).close()
    await tamper(storage, 'PRAGMA user_version = 99')
    await writeFile(join(dir, 'admonitor.db'), storage.snapshot!)
    await expect(start(fileStorage(dir))).rejects.toBeInstanceOf(NewerSchemaError)
    await expect(start(fileStorage(dir))).rejects.toBeInstanceOf(NewerSchemaError)
  })

  it('reads the minisites linked to each listed campaign through an index, not a scan per row', async () => {
    const storage = memory()
    await (await start(storage)).close()
    const db = await Db.open(storage.snapshot)
    const plan = db.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${CAMPAIGN_SELECT}`, ['2025-01-10']).map((r) => r.detail).join('\n')
    db.close()
    expect(plan).toMatch(/minisite_campaigns USING COVERING INDEX minisite_campaigns_campaign \(campaign_id=\?\)/)
  })

  it('backs up the old image first when it migrates a version-0 database that holds data', async () => {
    const storage = memory()
    const p = await legacyDatabase(storage)
    const found = await migrate(p, '2025-01-10T04-00-00-000Z')
    expect(found).toBe(0)
    expect(p.db.scalar<number>('PRAGMA user_version')).toBe(SCHEMA_VERSION)
    expect([...storage.backups.keys()]).toHaveLength(1)
    const old = await Db.open([...storage.backups.values()][0]!)
    expect(old.scalar<number>('PRAGMA user_version')).toBe(0)
    expect(old.query('SELECT note FROM legacy_notes')).toEqual([{ note: 'keep me' }])
    expect(old.scalar<number>("SELECT count(*) FROM sqlite_master WHERE name = 'campaigns'")).toBe(0)
    old.close()
  })

  it('writes the backup under backups/ in the data directory when the storage is a directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-mig-'))
    dirs.push(dir)
    const p = await legacyDatabase(fileStorage(dir))
    await migrate(p, 'stamp')
    await p.close()
    expect(await readdir(join(dir, 'backups'))).toEqual(['admonitor.v0.stamp.db'])
  })

  it('keeps the data and migrates it when an engine opens a version-0 database that holds data', async () => {
    const storage = memory()
    await legacyDatabase(storage) // left without a close: its writes are in the journal only
    const e = await start(storage)
    expect(e.schemaVersionFound).toBe(0)
    const db = await Db.open(storage.snapshot)
    expect(db.scalar<number>('PRAGMA user_version')).toBe(SCHEMA_VERSION)
    expect(db.query('SELECT note FROM legacy_notes')).toEqual([{ note: 'keep me' }])
    db.close()
  })

  it('rolls the whole migration back and leaves the database at its version when a migration fails', async () => {
    const storage = memory()
    const p = await legacyDatabase(storage, 'campaigns') // collides with the schema's own table
    await expect(migrate(p, 'stamp')).rejects.toThrow(/campaigns/)
    expect(p.db.scalar<number>('PRAGMA user_version')).toBe(0)
    expect(p.db.scalar<number>("SELECT count(*) FROM sqlite_master WHERE name = 'meta'")).toBe(0)
    expect(p.db.query('SELECT note FROM campaigns')).toEqual([{ note: 'keep me' }])
    await p.durable()
    // Nothing of the failed migration reached the journal either.
    const again = await Persister.open(storage)
    expect(again.db.scalar<number>('PRAGMA user_version')).toBe(0)
    expect(again.db.scalar<number>("SELECT count(*) FROM sqlite_master WHERE name = 'meta'")).toBe(0)
  })
})
