/**
 * Reads and writes of the panel person tables (schema v2). Writes pass the rows as one JSON text
 * per table and chunk, expanded by SQLite's json_each: a 500,000-person import is a few
 * statements, and the journal (a redo log of statements, docs/storage.md) holds each value once.
 * Every write bumps the panel's version in `meta`, which the panel cache compares.
 */
import type { Db, Param } from '../../storage/db'
import type { PersonRecord } from './person'

const CHUNK = 25_000
const versionKey = (panelId: string) => `panel_version:${panelId}`

/** The panel's version: bumped by every write to its persons ('0' before the first). */
export function panelVersion(db: Db, panelId: string): string {
  return db.meta(versionKey(panelId)) ?? '0'
}

/** Marks the panel's persons as changed; call inside the transaction that changes them. */
export function bumpPanelVersion(db: Db, panelId: string): void {
  db.run("INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1", [versionKey(panelId)])
}

const emptiedKey = (panelId: string) => `panel_emptied:${panelId}`

/** Whether the user emptied the panel (an import with replace of an empty file): it then has no synthetic population. */
export function panelEmptied(db: Db, panelId: string): boolean {
  return db.meta(emptiedKey(panelId)) !== undefined
}

/** Records that a write left the panel emptied by the user, or not; call inside the transaction of the write. */
export function setPanelEmptied(db: Db, panelId: string, emptied: boolean): void {
  if (emptied) db.run("INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO NOTHING", [emptiedKey(panelId)])
  else db.run('DELETE FROM meta WHERE key = ?', [emptiedKey(panelId)])
}

/** Deletes every person of the panel (with their tags and devices). */
export function deleteAllPersons(db: Db, panelId: string): void {
  for (const table of ['panel_devices', 'panel_person_tags', 'panel_persons']) db.run(`DELETE FROM ${table} WHERE panel_id = ?`, [panelId])
}

/**
 * Inserts persons, replacing any with the same person_id (their tags and devices too).
 * Must run inside a transaction; the caller has checked every value and device uniqueness.
 */
export function upsertPersons(db: Db, panelId: string, persons: readonly PersonRecord[], replaceExisting = true): void {
  for (let at = 0; at < persons.length; at += CHUNK) {
    const chunk = persons.slice(at, at + CHUNK)
    if (replaceExisting) {
      // Deleting the person rows cascades to their tags and devices (schema v2 foreign keys).
      db.run('DELETE FROM panel_persons WHERE panel_id = ?1 AND person_id IN (SELECT value FROM json_each(?2))', [panelId, JSON.stringify(chunk.map((p) => p.person_id))])
    }
    db.run(
      'INSERT INTO panel_persons(panel_id, person_id, weight, home_region) SELECT ?1, value->>0, value->>1, value->>2 FROM json_each(?2)',
      [panelId, JSON.stringify(chunk.map((p) => [p.person_id, p.weight, p.home_region]))],
    )
    const tagged = chunk.filter((p) => p.tags.length > 0)
    if (tagged.length > 0) {
      db.run(
        'INSERT INTO panel_person_tags(panel_id, person_id, tag_id) SELECT ?1, p.value->>0, t.value FROM json_each(?2) p, json_each(p.value, \'$[1]\') t',
        [panelId, JSON.stringify(tagged.map((p) => [p.person_id, p.tags]))],
      )
    }
    const withDevices = chunk.filter((p) => p.devices.length > 0)
    if (withDevices.length > 0) {
      db.run(
        'INSERT INTO panel_devices(panel_id, person_id, device, platform) SELECT ?1, p.value->>0, d.value->>0, d.value->>1 FROM json_each(?2) p, json_each(p.value, \'$[1]\') d',
        [panelId, JSON.stringify(withDevices.map((p) => [p.person_id, p.devices.map((d) => [d.device, d.platform])]))],
      )
    }
  }
}

/** device -> person_id of every device of the panel. */
export function deviceOwners(db: Db, panelId: string): Map<string, string> {
  const owners = new Map<string, string>()
  const text = db.scalar<string>("SELECT group_concat(device || ' ' || person_id, ' ') FROM panel_devices WHERE panel_id = ?", [panelId]) ?? ''
  for (const w = new Words(text); !w.done; ) owners.set(w.next(), w.next())
  return owners
}

/** Number of persons of the panel. */
export function countPersons(db: Db, panelId: string): number {
  return Number(db.scalar<number>('SELECT COUNT(*) FROM panel_persons WHERE panel_id = ?', [panelId]) ?? 0)
}

const PAGE = 20_000

/** One page of a panel's persons as the database hands it out: texts of words joined by spaces. */
export interface RawPage {
  /** `person_id weight home_region` triples in person_id order (weights in 17 digits: exact). */
  persons: string
  /** `person_id tag_id` pairs in person_id order. */
  tags: string
  /** `person_id platform device` triples in person_id order. */
  devices: string
}

/** Reads the words of a text joined by single spaces, without splitting it into an array. */
export class Words {
  private at = 0
  private cursor = 0
  constructor(private readonly text: string) {}

  get done(): boolean {
    return this.at >= this.text.length
  }

  next(): string {
    let end = this.text.indexOf(' ', this.at)
    if (end < 0) end = this.text.length
    const w = this.text.slice(this.at, end)
    this.at = end + 1
    return w
  }

  /**
   * The index in `ids` of the next word, moving past it. The words are expected in the order of
   * `ids` from `from` on (a cursor tries the next few); anything else is looked up. -1: unknown.
   */
  indexIn(ids: readonly string[], from: number, lookup: () => ReadonlyMap<string, number>): number {
    for (let k = Math.max(from, this.cursor); k < ids.length && k < Math.max(from, this.cursor) + 8; k++) {
      if (this.skip(ids[k]!)) return (this.cursor = k)
    }
    const i = lookup().get(this.next()) ?? -1
    if (i >= 0) this.cursor = i
    return i
  }

  /** Moves past the next word when it is `w`; false (and stays) otherwise. */
  skip(w: string): boolean {
    const end = this.at + w.length
    if (!this.text.startsWith(w, this.at) || (end < this.text.length && this.text.charCodeAt(end) !== 32)) return false
    this.at = end + 1
    return true
  }
}

/**
 * Every person of the panel, in person_id order, a page at a time. Each table is read as one
 * aggregated text per page: sql.js pays dearly per row, and this is the panel cache's load path.
 * Person ids, weights, region ids, tag ids and devices hold no spaces (check.ts).
 */
export function eachRawPage(db: Db, panelId: string, visit: (page: RawPage) => void): void {
  const read = (where: string, params: Param[]) => {
    const text = (select: string, table: string) => db.scalar<string>(`SELECT group_concat(${select}, ' ') FROM ${table} WHERE ${where}`, params) ?? ''
    visit({
      persons: text("person_id || ' ' || weight || ' ' || home_region", 'panel_persons'),
      tags: text("person_id || ' ' || tag_id", 'panel_person_tags'),
      devices: text("person_id || ' ' || platform || ' ' || device", 'panel_devices'),
    })
  }
  const count = countPersons(db, panelId)
  if (count === 0) return
  if (count <= PAGE) return read('panel_id = ?1', [panelId])
  for (let after = ''; ; ) {
    const last = db.scalar<string>(`SELECT max(person_id) FROM (SELECT person_id FROM panel_persons WHERE panel_id = ?1 AND person_id > ?2 ORDER BY person_id LIMIT ${PAGE})`, [panelId, after])
    if (last === null || last === undefined) return
    read('panel_id = ?1 AND person_id > ?2 AND person_id <= ?3', [panelId, after, last])
    after = last
  }
}

/** Every person of the panel in person_id order, as records (tags in tag_id order, devices in device order). */
export function eachPersonPage(db: Db, panelId: string, visit: (page: PersonRecord[]) => void): void {
  eachRawPage(db, panelId, (raw) => {
    const page: PersonRecord[] = []
    for (const w = new Words(raw.persons); !w.done; ) page.push({ person_id: w.next(), weight: Number(w.next()), home_region: w.next(), tags: [], devices: [] })
    const byId = new Map(page.map((p) => [p.person_id, p]))
    for (const w = new Words(raw.tags); !w.done; ) {
      const p = byId.get(w.next())
      const tag = w.next()
      p?.tags.push(tag)
    }
    for (const w = new Words(raw.devices); !w.done; ) {
      const p = byId.get(w.next())
      const platform = w.next() as 'pc' | 'mb'
      p?.devices.push({ platform, device: w.next() })
    }
    visit(page)
  })
}
