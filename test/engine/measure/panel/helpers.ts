/** A migrated in-memory database and small builders of panel persons for the panel tests. */
import { Db } from '../../../../engine/storage/db'
import { migrations } from '../../../../engine/storage/migrations'
import type { PersonRecord } from '../../../../engine/measure/panel/person'

/** A database at the current schema with the reference data (the demo panels and the regions). */
export async function panelDb(): Promise<Db> {
  const db = await Db.open(null)
  db.tx(() => {
    for (const m of migrations) m.up(db)
  })
  return db
}

export const REGION = {
  global: '000000000000000000000000',
  mainland: '000000000000000000000008',
  guangdong: '000000000000001156440000',
  shenzhen: '000000000000001156440300',
  guangzhou: '000000000000001156440100',
  beijing: '000000000000001156110100',
  hongkong: '000000000000001156810000',
} as const

/** A 32-hex-digit amid cookie value derived from a number. */
export const amid = (n: number): string => `amid:${n.toString(16).padStart(32, '0')}`
/** An IDFA identity derived from a number. */
export const idfa = (n: number): string => `idfa:${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`

/** A valid person; `over` replaces members. */
export function person(id: string, over: Partial<PersonRecord> = {}): PersonRecord {
  return { person_id: id, weight: 1000, home_region: REGION.shenzhen, tags: ['male', '25-29Y'], devices: [], ...over }
}

/** NDJSON text of persons (or of raw lines given as strings). */
export function ndjson(lines: readonly (PersonRecord | string)[]): string {
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n'
}
