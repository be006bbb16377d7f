/**
 * The panel person tables (schema v2): persons, their tags and devices. Writes pass the rows as
 * one JSON text per table and chunk, expanded by SQLite's json_each: a 500,000-person import is a
 * few statements, and the journal (a redo log of statements, docs/storage.md) holds each value
 * once. Reads hand out one aggregated text per table and page: sql.js pays dearly per row.
 */
import type { Db, Param } from '../db'

/** A person as written: its tags and devices with it. */
export interface PersonToWrite {
  person_id: string
  weight: number
  home_region: string
  tags: readonly string[]
  devices: readonly { device: string; platform: string }[]
}

const CHUNK = 25_000

/** Adds one to a counter in `meta` (from 1 when absent). */
export const bumpMetaCounter = (db: Db, key: string): void =>
  void db.run("INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1", [key])

/** Sets a flag in `meta` ('1'), or removes it. */
export function setMetaFlag(db: Db, key: string, on: boolean): void {
  if (on) db.run("INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO NOTHING", [key])
  else db.run('DELETE FROM meta WHERE key = ?', [key])
}

/** Deletes every person of the panel (with their tags and devices). */
export function deleteAllPersons(db: Db, panelId: string): void {
  for (const table of ['panel_devices', 'panel_person_tags', 'panel_persons']) db.run(`DELETE FROM ${table} WHERE panel_id = ?`, [panelId])
}

/**
 * Inserts persons, replacing any with the same person_id (their tags and devices too).
 * Must run inside a transaction; the caller has checked every value and device uniqueness.
 */
export function upsertPersons(db: Db, panelId: string, persons: readonly PersonToWrite[], replaceExisting = true): void {
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

/** `device person_id` pairs of every device of the panel, as one text of words joined by spaces. */
export const deviceOwnersText = (db: Db, panelId: string): string =>
  db.scalar<string>("SELECT group_concat(device || ' ' || person_id, ' ') FROM panel_devices WHERE panel_id = ?", [panelId]) ?? ''

/** Number of persons of the panel. */
export const countPersons = (db: Db, panelId: string): number => Number(db.scalar<number>('SELECT COUNT(*) FROM panel_persons WHERE panel_id = ?', [panelId]) ?? 0)

/** One page of a panel's persons as texts of words joined by spaces, each in person_id order. */
export interface RawPage {
  /** `person_id weight home_region` triples (weights in 17 digits: exact). */
  persons: string
  /** `person_id tag_id` pairs. */
  tags: string
  /** `person_id platform device` triples. */
  devices: string
}

/** The persons with person_id in (after, upTo]; all of a panel when undefined. */
export type PersonRange = { after: string; upTo: string } | undefined

/** One aggregated text of a table's rows of the panel's persons in `range`. */
function pageText(db: Db, panelId: string, range: PersonRange, select: string, table: string): string {
  const [where, params]: [string, Param[]] = range === undefined ? ['panel_id = ?1', [panelId]] : ['panel_id = ?1 AND person_id > ?2 AND person_id <= ?3', [panelId, range.after, range.upTo]]
  return db.scalar<string>(`SELECT group_concat(${select}, ' ') FROM ${table} WHERE ${where}`, params) ?? ''
}

/** RawPage.persons of the persons in `range`. */
export const personsText = (db: Db, panelId: string, range?: PersonRange): string => pageText(db, panelId, range, "person_id || ' ' || weight || ' ' || home_region", 'panel_persons')
/** RawPage.tags of the persons in `range`. */
export const tagsText = (db: Db, panelId: string, range?: PersonRange): string => pageText(db, panelId, range, "person_id || ' ' || tag_id", 'panel_person_tags')
/** `person_id platform` pairs of the devices of the persons in `range`. */
export const platformsText = (db: Db, panelId: string, range?: PersonRange): string => pageText(db, panelId, range, "person_id || ' ' || platform", 'panel_devices')
/** RawPage.devices of the persons in `range`. */
export const devicesText = (db: Db, panelId: string, range?: PersonRange): string => pageText(db, panelId, range, "person_id || ' ' || platform || ' ' || device", 'panel_devices')

/** The persons of a panel with person_id in (after, upTo] (all of them without a range), as a RawPage. */
export function rawPage(db: Db, panelId: string, range?: PersonRange): RawPage {
  return { persons: personsText(db, panelId, range), tags: tagsText(db, panelId, range), devices: devicesText(db, panelId, range) }
}

/** The last person_id of the next `size` persons after `after` (in person_id order), or undefined when none is left. */
export function lastPersonIdOfPage(db: Db, panelId: string, after: string, size: number): string | undefined {
  return db.scalar<string>(`SELECT max(person_id) FROM (SELECT person_id FROM panel_persons WHERE panel_id = ?1 AND person_id > ?2 ORDER BY person_id LIMIT ${size})`, [panelId, after]) ?? undefined
}
