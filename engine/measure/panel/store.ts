/**
 * The panel person tables as the measurement reads them (their SQL: storage/repos/panel-persons.ts).
 * Every write bumps the panel's version in `meta`, which the panel cache compares.
 */
import type { Db } from '../../storage/db'
import { bumpMetaCounter, countPersons, deviceOwnersText, lastPersonIdOfPage, rawPage, setMetaFlag, type PersonRange, type RawPage } from '../../storage/repos/panel-persons'
import type { PersonRecord } from './person'

export { countPersons, deleteAllPersons, devicesText, personsText, platformsText, tagsText, upsertPersons, type PersonRange, type RawPage } from '../../storage/repos/panel-persons'

const versionKey = (panelId: string) => `panel_version:${panelId}`

/** The panel's version: bumped by every write to its persons ('0' before the first). */
export function panelVersion(db: Db, panelId: string): string {
  return db.meta(versionKey(panelId)) ?? '0'
}

/** Marks the panel's persons as changed; call inside the transaction that changes them. */
export function bumpPanelVersion(db: Db, panelId: string): void {
  bumpMetaCounter(db, versionKey(panelId))
}

const emptiedKey = (panelId: string) => `panel_emptied:${panelId}`

/** Whether the user emptied the panel (an import with replace of an empty file): it then has no synthetic population. */
export function panelEmptied(db: Db, panelId: string): boolean {
  return db.meta(emptiedKey(panelId)) !== undefined
}

/** Records that a write left the panel emptied by the user, or not; call inside the transaction of the write. */
export function setPanelEmptied(db: Db, panelId: string, emptied: boolean): void {
  setMetaFlag(db, emptiedKey(panelId), emptied)
}

/** device -> person_id of every device of the panel. */
export function deviceOwners(db: Db, panelId: string): Map<string, string> {
  const owners = new Map<string, string>()
  for (const w = new Words(deviceOwnersText(db, panelId)); !w.done; ) owners.set(w.next(), w.next())
  return owners
}

const PAGE = 20_000

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
  for (const range of pageRanges(db, panelId, PAGE)) visit(rawPage(db, panelId, range))
}

/** The person ranges of the panel's pages of `size` persons, in person_id order, found as they are asked for (one, undefined: all persons). */
export function* pageRanges(db: Db, panelId: string, size: number): Generator<PersonRange, void> {
  const count = countPersons(db, panelId)
  if (count === 0) return
  if (count <= size) return yield undefined
  for (let after = ''; ; ) {
    const last = lastPersonIdOfPage(db, panelId, after, size)
    if (last === undefined) return
    yield { after, upTo: last }
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
