/**
 * Owner of every sql.js call. Reads with `query`/`get`, writes with `run` inside `tx`.
 * Each committed outermost transaction hands its write statements to `onCommit`, which the
 * persister appends to the journal: the journal is a redo log of SQL with bound parameters, so
 * writes must be deterministic (time and randomness come in as parameters, never from SQL).
 */
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js'
import type { ApiError } from '../contract/errors'

export type Param = string | number | null
export interface Statement {
  sql: string
  params: Param[]
}
export type Row = Record<string, string | number | null>

let sqlJs: Promise<SqlJsStatic> | null = null

/** Loads the sql.js WebAssembly module once per process. */
export function loadSqlJs(wasmPath?: string): Promise<SqlJsStatic> {
  sqlJs ??= initSqlJs({
    ...(wasmPath ? { locateFile: () => wasmPath } : {}),
    useOldExtensionFunctions: false,
  } as Parameters<typeof initSqlJs>[0])
  return sqlJs
}

function checkParams(sql: string, params: readonly Param[]): void {
  for (const v of params) {
    if (v !== null && typeof v !== 'string' && (typeof v !== 'number' || !Number.isFinite(v)))
      throw new TypeError(`bad SQL parameter ${String(v)} (${typeof v}) for: ${sql.slice(0, 80)}`)
  }
}

const SET_META = 'INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'

/** Free pages (4 KiB each) from which an export compacts the database: 4 MiB. */
export const COMPACT_FREE_PAGES = 1024

export class Db {
  private depth = 0
  private written: Statement[] = []
  /** Incremented on every committed write transaction; caches key on it. */
  version = 0
  /** Called with the writes of each committed outermost transaction. */
  onCommit: (writes: Statement[]) => void = () => undefined
  /**
   * Set while the storage cannot take writes (the persister: a write failed, or the start found no
   * room): every transaction is refused with `error` before it changes anything. `atOpen`: since the start.
   */
  refused: { error: ApiError; atOpen: boolean } | null = null
  /** Called when a transaction is refused (the persister then tries whether the disk takes writes again). */
  onRefused: () => void = () => undefined

  constructor(private db: Database) {
    this.afterOpen()
  }

  static async open(bytes: Uint8Array | null, wasmPath?: string): Promise<Db> {
    const SQL = await loadSqlJs(wasmPath)
    return new Db(bytes ? new SQL.Database(bytes) : new SQL.Database())
  }

  /** Connection setup. Runs again after every export: older sql.js reopened the connection there. */
  private afterOpen(): void {
    this.db.run('PRAGMA foreign_keys = ON')
    this.db.create_function('ulower', (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s) as string)
  }

  /** Rows of a SELECT as objects. */
  query<T extends object = Row>(sql: string, params: readonly Param[] = []): T[] {
    checkParams(sql, params)
    const stmt = this.db.prepare(sql)
    try {
      stmt.bind(params as Param[])
      const cols = stmt.getColumnNames()
      const out: T[] = []
      while (stmt.step()) {
        const values = stmt.get()
        const row: Record<string, unknown> = {}
        for (let i = 0; i < cols.length; i++) row[cols[i] as string] = values[i]
        out.push(row as T)
      }
      return out
    } finally {
      stmt.free()
    }
  }

  /** The first row of a SELECT, or undefined. */
  get<T extends object = Row>(sql: string, params: readonly Param[] = []): T | undefined {
    return this.query<T>(sql, params)[0]
  }

  /** The first column of the first row. */
  scalar<T extends string | number | null>(sql: string, params: readonly Param[] = []): T | undefined {
    checkParams(sql, params)
    const res = this.db.exec(sql, params as Param[])
    return res[0]?.values[0]?.[0] as T | undefined
  }

  /** A write statement; must run inside `tx`. Returns the changed row count and last insert id. */
  run(sql: string, params: readonly Param[] = []): { changes: number; lastId: number } {
    if (this.depth === 0) throw new Error('Db.run outside a transaction')
    checkParams(sql, params)
    // Without parameters sql.js runs every statement of the text, as replay() does.
    if (params.length > 0) this.db.run(sql, params as Param[])
    else this.db.exec(sql)
    this.written.push({ sql, params: [...params] })
    const changes = this.db.getRowsModified()
    const lastId = Number(this.db.exec('SELECT last_insert_rowid()')[0]?.values[0]?.[0] ?? 0)
    return { changes, lastId }
  }

  /**
   * Runs `fn` in a transaction (SAVEPOINTs when nested). Commits when it returns, rolls back
   * when it throws. Synchronous on purpose: nothing else can interleave with a transaction.
   */
  tx<T>(fn: () => T): T {
    const name = `sp${this.depth}`
    const outer = this.depth === 0
    if (outer && this.refused) {
      this.onRefused()
      throw this.refused.error
    }
    const mark = this.written.length
    this.db.run(outer ? 'BEGIN' : `SAVEPOINT ${name}`)
    this.depth++
    let committed: Statement[] | null = null
    try {
      const out = fn()
      if (out instanceof Promise) throw new Error('Db.tx callback must be synchronous')
      if (outer) {
        this.db.run('COMMIT')
        committed = this.written
        this.written = []
      } else this.db.run(`RELEASE ${name}`)
      return out
    } catch (err) {
      this.written.length = mark
      try {
        this.db.run(outer ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`)
      } catch (rollbackErr) {
        // A failed COMMIT may already have ended the transaction; nothing is left to undo then.
        if (!/no transaction is active/.test(String(rollbackErr))) throw rollbackErr
      }
      throw err
    } finally {
      this.depth--
      // Journaling happens after a successful COMMIT only, outside the try: a commit stays a commit.
      if (committed && committed.length > 0) {
        this.version++
        this.onCommit(committed)
      }
    }
  }

  /** Re-applies journaled writes on open; they are not journaled again. */
  replay(writes: readonly Statement[]): void {
    this.db.run('BEGIN')
    try {
      for (const w of writes) {
        if (w.params.length > 0) this.db.run(w.sql, w.params as Param[])
        else this.db.exec(w.sql) // may hold several statements (migrations)
      }
      this.db.run('COMMIT')
    } catch (err) {
      this.db.run('ROLLBACK')
      throw err
    }
    this.version++
  }

  /**
   * Takes over the database of `other` (opened on what the disk holds), dropping this one's: what
   * memory held beyond the disk is gone. Bumps `version`, so nothing cached from before is used.
   */
  adopt(other: Db): void {
    if (this.depth > 0) throw new Error('Db.adopt inside a transaction')
    this.db.close()
    this.db = other.db
    this.version = Math.max(this.version, other.version) + 1
  }

  /** Raw multi-statement SQL for migrations (inside `tx`, journaled as one statement). */
  execScript(sql: string): void {
    if (this.depth === 0) throw new Error('Db.execScript outside a transaction')
    this.db.exec(sql)
    this.written.push({ sql, params: [] })
  }

  /** A row of the meta table (what the data directory keeps besides its records), or undefined. */
  meta(key: string): string | undefined {
    return this.scalar<string>('SELECT value FROM meta WHERE key = ?', [key])
  }

  /** Sets a row of the meta table; must run inside `tx`, as every write. */
  setMeta(key: string, value: string): void {
    this.run(SET_META, [key, value])
  }

  /** Sets a row of the meta table without journaling it (checkpoint bookkeeping only). */
  setMetaUnjournaled(key: string, value: string): void {
    this.db.run(SET_META, [key, value])
  }

  /**
   * A consistent image of the whole database. One whose pages are a quarter free or more (at least
   * COMPACT_FREE_PAGES) is compacted first (VACUUM): deleted records leave their pages free, and a
   * snapshot would write them all again. VACUUM keeps INTEGER PRIMARY KEY ids; the few tables with
   * implicit rowids keep their rows' order.
   */
  export(): Uint8Array {
    if (this.depth > 0) throw new Error('Db.export inside a transaction')
    const free = Number(this.scalar<number>('PRAGMA freelist_count') ?? 0)
    if (free >= COMPACT_FREE_PAGES && free * 4 >= Number(this.scalar<number>('PRAGMA page_count') ?? 0)) {
      try {
        this.db.run('VACUUM')
      } catch {
        // compacting is a saving of space only: the image is exported as it is (VACUUM refuses
        // while a statement is still running, for one)
      }
    }
    const bytes = this.db.export()
    this.afterOpen()
    return bytes
  }

  close(): void {
    this.db.close()
  }
}
