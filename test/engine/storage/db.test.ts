import { beforeEach, describe, expect, it } from 'vitest'
import { Db, type Param, type Statement } from '../../../engine/storage/db'

/** A Db with a small schema and a recorder of what onCommit received. */
async function openDb(): Promise<{ db: Db; commits: Statement[][] }> {
  const db = await Db.open(null)
  db.tx(() => {
    db.execScript(`
      CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id));
    `)
  })
  const commits: Statement[][] = []
  db.onCommit = (writes) => commits.push(writes)
  return { db, commits }
}

const names = (db: Db) => db.query<{ name: string }>('SELECT name FROM parent ORDER BY id').map((r) => r.name)

/** Values that the Param type forbids, smuggled past the compiler as a caller without types would. */
const badParams: [string, unknown][] = [
  ['boolean', true],
  ['undefined', undefined],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['object', { a: 1 }],
  ['array', [1]],
  ['bigint', 1n],
  ['Uint8Array', new Uint8Array([1])],
]

describe('Db', () => {
  let db: Db
  let commits: Statement[][]
  beforeEach(async () => {
    ;({ db, commits } = await openDb())
  })

  describe('reads', () => {
    beforeEach(() => {
      db.tx(() => {
        db.run('INSERT INTO parent(id, name) VALUES (?, ?)', [1, 'a'])
        db.run('INSERT INTO parent(id, name) VALUES (?, ?)', [2, 'b'])
      })
    })

    it('returns every row as an object keyed by column when query() selects', () => {
      expect(db.query('SELECT id, name FROM parent ORDER BY id')).toEqual([
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ])
      expect(db.query('SELECT id FROM parent WHERE name = ?', ['b'])).toEqual([{ id: 2 }])
      expect(db.query('SELECT id FROM parent WHERE name = ?', ['zz'])).toEqual([])
    })

    it('returns the first row or undefined when get() selects', () => {
      expect(db.get('SELECT name FROM parent ORDER BY id DESC')).toEqual({ name: 'b' })
      expect(db.get('SELECT name FROM parent WHERE id = ?', [99])).toBeUndefined()
    })

    it('returns the first column of the first row or undefined when scalar() selects', () => {
      expect(db.scalar<number>('SELECT count(*) FROM parent')).toBe(2)
      expect(db.scalar<string>('SELECT name FROM parent WHERE id = ?', [1])).toBe('a')
      expect(db.scalar('SELECT name FROM parent WHERE id = ?', [99])).toBeUndefined()
      expect(db.scalar('SELECT NULL')).toBeNull()
    })

    it('binds null parameters when a query passes null', () => {
      expect(db.scalar<number>('SELECT ? IS NULL', [null])).toBe(1)
    })
  })

  describe('run and tx', () => {
    it('throws and writes nothing when run() is called outside a transaction', () => {
      expect(() => db.run('INSERT INTO parent(name) VALUES (?)', ['x'])).toThrow(/outside a transaction/)
      expect(() => db.execScript('INSERT INTO parent(name) VALUES (1)')).toThrow(/outside a transaction/)
      expect(names(db)).toEqual([])
      expect(commits).toEqual([])
    })

    it('returns changes and the last insert id when run() writes', () => {
      const a = db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['a']))
      expect(a).toEqual({ changes: 1, lastId: 1 })
      db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['b']))
      const upd = db.tx(() => db.run('UPDATE parent SET name = name || ?', ['!']))
      expect(upd.changes).toBe(2)
    })

    it('returns the callback value when tx() commits', () => {
      expect(db.tx(() => 42)).toBe(42)
    })

    it('nests with SAVEPOINTs when tx() is called inside tx()', () => {
      const seen: string[] = []
      db.tx(() => {
        db.run('INSERT INTO parent(name) VALUES (?)', ['outer'])
        db.tx(() => {
          db.run('INSERT INTO parent(name) VALUES (?)', ['inner'])
          db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['innermost']))
          seen.push(...names(db))
        })
      })
      expect(seen).toEqual(['outer', 'inner', 'innermost'])
      expect(names(db)).toEqual(['outer', 'inner', 'innermost'])
    })

    it('keeps the outer writes when an inner transaction rolls back', () => {
      db.tx(() => {
        db.run('INSERT INTO parent(name) VALUES (?)', ['outer-1'])
        expect(() =>
          db.tx(() => {
            db.run('INSERT INTO parent(name) VALUES (?)', ['inner'])
            throw new Error('inner fails')
          }),
        ).toThrow('inner fails')
        db.run('INSERT INTO parent(name) VALUES (?)', ['outer-2'])
      })
      expect(names(db)).toEqual(['outer-1', 'outer-2'])
      expect(commits).toHaveLength(1)
      expect(commits[0]!.map((w) => w.params)).toEqual([['outer-1'], ['outer-2']])
    })

    it('keeps the outer writes when a failing statement inside an inner transaction rolls it back', () => {
      db.tx(() => {
        db.run('INSERT INTO parent(name) VALUES (?)', ['dup'])
        expect(() => db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['dup']))).toThrow(/UNIQUE/)
      })
      expect(names(db)).toEqual(['dup'])
      expect(commits).toEqual([[{ sql: 'INSERT INTO parent(name) VALUES (?)', params: ['dup'] }]])
    })

    it('discards every write and reports nothing to onCommit when the outer transaction rolls back', () => {
      const before = db.version
      expect(() =>
        db.tx(() => {
          db.run('INSERT INTO parent(name) VALUES (?)', ['a'])
          db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['b']))
          throw new Error('outer fails')
        }),
      ).toThrow('outer fails')
      expect(names(db)).toEqual([])
      expect(commits).toEqual([])
      expect(db.version).toBe(before)
      // The next transaction starts from a clean slate: the discarded writes are not carried over.
      db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['c']))
      expect(commits).toEqual([[{ sql: 'INSERT INTO parent(name) VALUES (?)', params: ['c'] }]])
    })

    it('refuses and rolls back when a tx callback returns a Promise', () => {
      expect(() =>
        db.tx(() => {
          db.run('INSERT INTO parent(name) VALUES (?)', ['a'])
          return Promise.resolve(1)
        }),
      ).toThrow(/synchronous/)
      expect(names(db)).toEqual([])
      expect(commits).toEqual([])
      // The connection is still usable afterwards.
      db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['b']))
      expect(names(db)).toEqual(['b'])
    })

    it('keeps the outer transaction usable when a nested tx callback returns a Promise', () => {
      db.tx(() => {
        db.run('INSERT INTO parent(name) VALUES (?)', ['outer'])
        expect(() => db.tx(() => Promise.resolve())).toThrow(/synchronous/)
      })
      expect(names(db)).toEqual(['outer'])
    })

    it('enforces foreign keys when a write breaks one', () => {
      expect(() => db.tx(() => db.run('INSERT INTO child(parent_id) VALUES (?)', [404]))).toThrow(/FOREIGN KEY/)
      expect(db.scalar<number>('SELECT count(*) FROM child')).toBe(0)
    })

    it('rolls back, reports the COMMIT error and stays usable when COMMIT itself fails', () => {
      // A deferred foreign key is checked at COMMIT: the statement succeeds, the COMMIT fails.
      db.tx(() => db.execScript('CREATE TABLE late (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)'))
      const before = commits.length
      expect(() => db.tx(() => db.run('INSERT INTO late(parent_id) VALUES (?)', [404]))).toThrow(/FOREIGN KEY/)
      expect(db.scalar<number>('SELECT count(*) FROM late')).toBe(0)
      expect(commits).toHaveLength(before)
      // The Db must not be wedged: later transactions and export() still work.
      db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['after']))
      expect(names(db)).toEqual(['after'])
      expect(db.export().byteLength).toBeGreaterThan(0)
    })
  })

  describe('parameter checks', () => {
    for (const [label, value] of badParams) {
      it(`rejects a ${label} parameter when reading or writing`, () => {
        const params = [value] as unknown as Param[]
        expect(() => db.query('SELECT ?', params)).toThrow(TypeError)
        expect(() => db.get('SELECT ?', params)).toThrow(TypeError)
        expect(() => db.scalar('SELECT ?', params)).toThrow(TypeError)
        expect(() => db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', params))).toThrow(TypeError)
        expect(names(db)).toEqual([])
        expect(commits).toEqual([])
      })
    }

    it('names the offending value and the statement when it rejects a parameter', () => {
      expect(() => db.query('SELECT ? AS flag', [false] as unknown as Param[])).toThrow(/false \(boolean\).*SELECT \? AS flag/)
    })

    it('accepts strings, finite numbers and null when parameters are well typed', () => {
      expect(db.query('SELECT ? AS s, ? AS i, ? AS f, ? AS n', ['x', -7, 1.5, null])).toEqual([{ s: 'x', i: -7, f: 1.5, n: null }])
    })
  })

  describe('onCommit and version', () => {
    it('receives exactly the write statements when an outermost transaction commits', () => {
      db.tx(() => {
        db.query('SELECT * FROM parent')
        db.run('INSERT INTO parent(id, name) VALUES (?, ?)', [1, 'a'])
        db.tx(() => db.run('INSERT INTO child(parent_id) VALUES (?)', [1]))
        db.scalar('SELECT count(*) FROM child')
      })
      db.tx(() => db.run('UPDATE parent SET name = ? WHERE id = ?', ['b', 1]))
      expect(commits).toEqual([
        [
          { sql: 'INSERT INTO parent(id, name) VALUES (?, ?)', params: [1, 'a'] },
          { sql: 'INSERT INTO child(parent_id) VALUES (?)', params: [1] },
        ],
        [{ sql: 'UPDATE parent SET name = ? WHERE id = ?', params: ['b', 1] }],
      ])
    })

    it('does not call onCommit when only an inner transaction has committed', () => {
      db.tx(() => {
        db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['a']))
        expect(commits).toEqual([])
      })
      expect(commits).toHaveLength(1)
    })

    it('journals a copy of the parameters when the caller mutates its array afterwards', () => {
      const params: Param[] = ['a']
      db.tx(() => {
        db.run('INSERT INTO parent(name) VALUES (?)', params)
        params[0] = 'mutated'
      })
      expect(commits[0]![0]!.params).toEqual(['a'])
    })

    it('does not call onCommit when a transaction only reads', () => {
      db.tx(() => db.query('SELECT * FROM parent'))
      expect(commits).toEqual([])
    })

    it('increments version once when a write transaction commits, and not when it only reads or rolls back', () => {
      const v0 = db.version
      db.tx(() => {
        db.run('INSERT INTO parent(name) VALUES (?)', ['a'])
        db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['b']))
        db.run('INSERT INTO parent(name) VALUES (?)', ['c'])
      })
      expect(db.version).toBe(v0 + 1)
      db.tx(() => db.query('SELECT * FROM parent'))
      expect(db.version).toBe(v0 + 1)
      expect(() =>
        db.tx(() => {
          db.run('INSERT INTO parent(name) VALUES (?)', ['d'])
          throw new Error('no')
        }),
      ).toThrow('no')
      expect(db.version).toBe(v0 + 1)
      db.tx(() => db.run('DELETE FROM parent WHERE name = ?', ['a']))
      expect(db.version).toBe(v0 + 2)
    })
  })

  describe('ulower', () => {
    const cases: [string, string][] = [
      ['ÄÖÜ', 'äöü'],
      ['ÉCOLE', 'école'],
      ['ПРИВЕТ', 'привет'],
      ['ΑΘΗΝΑ', 'αθηνα'],
      ['ΟΔΟΣ', 'οδος'.replace(/σ$/, 'ς')], // JS applies the final-sigma rule
      ['İSTANBUL', 'İSTANBUL'.toLowerCase()], // i + U+0307 COMBINING DOT ABOVE, as JS gives it
      ['ＡＢＣ', 'ａｂｃ'], // full-width Latin
      ['中文 ABC', '中文 abc'],
    ]
    for (const [input, expected] of cases) {
      it(`lowers ${input} like String.prototype.toLowerCase when the text is not ASCII`, () => {
        expect(db.scalar<string>('SELECT ulower(?)', [input])).toBe(expected)
      })
    }

    it('differs from the built-in ASCII-only lower() when the text has non-ASCII capitals', () => {
      expect(db.scalar<string>('SELECT lower(?)', ['ÄÖÜ'])).toBe('ÄÖÜ')
      expect(db.scalar<string>('SELECT ulower(?)', ['ÄÖÜ'])).toBe('äöü')
    })

    it('passes null and numbers through when the argument is not text', () => {
      expect(db.scalar('SELECT ulower(NULL)')).toBeNull()
      expect(db.scalar('SELECT ulower(12)')).toBe(12)
    })

    it('matches case-insensitively in a LIKE pattern when both sides are lowered', () => {
      db.tx(() => {
        for (const n of ['Ärger', 'ärgerlich', 'Москва', 'Arger']) db.run('INSERT INTO parent(name) VALUES (?)', [n])
      })
      const like = (p: string) => db.query<{ name: string }>('SELECT name FROM parent WHERE ulower(name) LIKE ulower(?) ORDER BY id', [p]).map((r) => r.name)
      expect(like('ÄRGER%')).toEqual(['Ärger', 'ärgerlich'])
      expect(like('%МОСКВА%')).toEqual(['Москва'])
    })
  })

  describe('export', () => {
    it('returns a database image another Db can open when export() is called', async () => {
      db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['kept']))
      const copy = await Db.open(db.export())
      expect(names(copy)).toEqual(['kept'])
      copy.close()
    })

    it('compacts a database whose pages are mostly free before exporting it, keeping its rows and ids', async () => {
      db.tx(() => { for (let i = 0; i < 40_000; i++) db.run('INSERT INTO parent(name) VALUES (?)', [`row ${i} ${'x'.repeat(200)}`]) })
      const full = db.export().byteLength
      db.tx(() => db.run('DELETE FROM parent WHERE id > 10'))
      const kept = db.query<{ id: number; name: string }>('SELECT id, name FROM parent ORDER BY id')
      const image = db.export()
      // (an image keeping every freed page would be as large as before the delete)
      expect(image.byteLength).toBeLessThan(full / 10)
      const copy = await Db.open(image)
      expect(copy.query<{ id: number; name: string }>('SELECT id, name FROM parent ORDER BY id')).toEqual(kept)
      copy.close()
      expect(db.scalar<number>('PRAGMA foreign_keys')).toBe(1)
    })

    it('keeps foreign keys ON and ulower registered when the connection is used after export()', () => {
      db.export()
      db.export()
      expect(db.scalar<number>('PRAGMA foreign_keys')).toBe(1)
      expect(() => db.tx(() => db.run('INSERT INTO child(parent_id) VALUES (?)', [404]))).toThrow(/FOREIGN KEY/)
      expect(db.scalar<string>('SELECT ulower(?)', ['ÄÖÜ'])).toBe('äöü')
      db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['after']))
      expect(names(db)).toEqual(['after'])
      expect(commits).toHaveLength(1)
    })

    it('turns foreign keys ON when a Db opens an exported image', async () => {
      const copy = await Db.open(db.export())
      expect(copy.scalar<number>('PRAGMA foreign_keys')).toBe(1)
      expect(copy.scalar<string>('SELECT ulower(?)', ['Ё'])).toBe('ё')
      copy.close()
    })

    it('refuses to export when a transaction is open', () => {
      db.tx(() => {
        db.run('INSERT INTO parent(name) VALUES (?)', ['a'])
        expect(() => db.export()).toThrow(/inside a transaction/)
      })
      expect(names(db)).toEqual(['a'])
    })
  })

  describe('replay', () => {
    it('rebuilds the same rows in a fresh Db when it replays what onCommit received', async () => {
      const fresh = await Db.open(null)
      const setup: Statement[][] = []
      fresh.onCommit = (w) => setup.push(w)
      db.tx(() => {
        db.run('INSERT INTO parent(id, name) VALUES (?, ?)', [1, 'Ünïcödé ✓ 中文'])
        db.run('INSERT INTO child(parent_id) VALUES (?)', [1])
      })
      db.tx(() => db.run('UPDATE parent SET name = ulower(name) WHERE id = ?', [1]))
      // Schema as one parameterless multi-statement script, as migrations journal it.
      const script: Statement = {
        sql: `CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
              CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id));`,
        params: [],
      }
      fresh.replay([script, ...commits.flat()])
      expect(fresh.query('SELECT * FROM parent')).toEqual(db.query('SELECT * FROM parent'))
      expect(fresh.query('SELECT * FROM child')).toEqual(db.query('SELECT * FROM child'))
      expect(setup).toEqual([]) // replayed writes are not journaled again
      fresh.close()
    })

    it('bumps version once when it replays a record of several statements', () => {
      const v0 = db.version
      db.replay([{ sql: 'INSERT INTO parent(name) VALUES (?)', params: ['a'] }, { sql: 'INSERT INTO parent(name) VALUES (?)', params: ['b'] }])
      expect(db.version).toBe(v0 + 1)
      expect(names(db)).toEqual(['a', 'b'])
    })

    it('applies nothing and throws when one statement of a record fails', () => {
      expect(() =>
        db.replay([
          { sql: 'INSERT INTO parent(name) VALUES (?)', params: ['a'] },
          { sql: 'INSERT INTO parent(name) VALUES (?)', params: ['a'] },
        ]),
      ).toThrow(/UNIQUE/)
      expect(names(db)).toEqual([])
      // Not left inside a transaction.
      db.tx(() => db.run('INSERT INTO parent(name) VALUES (?)', ['b']))
      expect(names(db)).toEqual(['b'])
    })

    it('replays a parameterless run() to the same rows it wrote live when the SQL holds two statements', async () => {
      // run() prepares one statement; replay() execs parameterless SQL as a script. They must agree,
      // or run() must refuse SQL it would only partly execute.
      let refused = false
      try {
        db.tx(() => db.run("INSERT INTO parent(name) VALUES ('one'); INSERT INTO parent(name) VALUES ('two')"))
      } catch {
        refused = true
      }
      const live = names(db)
      const fresh = await Db.open(null)
      fresh.replay([
        { sql: 'CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)', params: [] },
        ...commits.flat(),
      ])
      expect(names(fresh)).toEqual(live)
      expect(refused || live.length > 0).toBe(true)
      fresh.close()
    })
  })
})
