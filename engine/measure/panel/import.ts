/**
 * Import of panel persons from NDJSON or CSV (docs/panel.md). Each line is checked on its own: a
 * bad line is reported with its number and reason and never costs the good ones. All good lines
 * are written in one transaction; `replace` deletes the panel's persons first, in the same one.
 */
import { badRequest } from '../../contract/errors'
import type { Problem } from '../../contract/problems'
import type { Db } from '../../storage/db'
import { checkPerson, panelRules } from './check'
import { parseCsvHeader, parseCsvLine, parseNdjsonLine, type CsvLayout, type ImportFormat } from './parse'
import { LineError, lineError, type PersonRecord } from './person'
import { bumpPanelVersion, countPersons, deleteAllPersons, deviceOwners, setPanelEmptied, upsertPersons } from './store'

/** replace: the panel's persons are deleted first; merge: upsert by person_id. */
export type ImportMode = 'replace' | 'merge'

/** A refused line and why. */
export interface ImportError {
  /** 1-based line number in the file. */
  line: number
  error: string
  /** The reason's problem key and arguments, answered to a client that asks (docs/errors.md, "Problem keys"). */
  error_problem?: Problem
}

/** What an import did. */
export interface ImportReport {
  imported: number
  /** Every rejected line is counted; at most MAX_LISTED_ERRORS are listed. */
  rejected: number
  errors: ImportError[]
  /** Persons of the panel after the import. */
  persons: number
}

/** Most persons one import takes. */
export const MAX_IMPORT_PERSONS = 500_000
/** Most refused lines an answer lists (all are counted). */
export const MAX_LISTED_ERRORS = 1000
const MAX_ERROR_LENGTH = 300

interface Accepted {
  line: number
  person: PersonRecord
}

/** The non-blank lines of the file with their numbers; a UTF-8 byte order mark is dropped. */
function lines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = []
  const all = text.replace(/^\uFEFF/, '').split('\n')
  for (let i = 0; i < all.length; i++) {
    const t = all[i]!.replace(/\r$/, '')
    if (t.trim() !== '') out.push({ line: i + 1, text: t })
  }
  return out
}

class Collector {
  readonly errors: ImportError[] = []
  rejected = 0
  reject(line: number, error: string, problem: Problem | null): void {
    this.rejected++
    // Messages quote the file; a line of megabytes must not make a reply of gigabytes.
    if (this.errors.length < MAX_LISTED_ERRORS) this.errors.push({ line, error: error.length > MAX_ERROR_LENGTH ? `${error.slice(0, MAX_ERROR_LENGTH)}…` : error, ...(problem ? { error_problem: problem } : {}) })
  }
}

/** Parses and checks every line; duplicates of a person or a device within the file lose to the first. */
function readFile(db: Db, panelId: string, text: string, format: ImportFormat, out: Collector): Accepted[] {
  const rows = lines(text)
  let layout: CsvLayout | null = null
  if (format === 'csv') {
    const header = rows.shift()
    if (!header) throw badRequest('panel.emptyCsv', { param: 'body', header: 'person_id,weight,home_region,tags,devices' })
    try {
      layout = parseCsvHeader(header.text)
    } catch (err) {
      if (err instanceof LineError && err.problem) throw badRequest('panel.notCsv', { param: 'body', reason: err.problem })
      throw err
    }
  }
  if (rows.length > MAX_IMPORT_PERSONS) throw badRequest('panel.tooManyPersons', { param: 'body', persons: rows.length, max: MAX_IMPORT_PERSONS })
  const rules = panelRules(db, panelId)
  const personLine = new Map<string, number>()
  const deviceLine = new Map<string, number>()
  const accepted: Accepted[] = []
  for (const row of rows) {
    try {
      const person = checkPerson(layout ? parseCsvLine(row.text, layout) : parseNdjsonLine(row.text), rules)
      const first = personLine.get(person.person_id)
      if (first !== undefined) throw lineError('panelLine.personTwice', { person: person.person_id, line: first })
      for (const d of person.devices) {
        const other = deviceLine.get(d.device)
        if (other !== undefined) throw lineError('panelLine.deviceLine', { device: d.device, line: other })
      }
      personLine.set(person.person_id, row.line)
      for (const d of person.devices) deviceLine.set(d.device, row.line)
      accepted.push({ line: row.line, person })
    } catch (err) {
      if (!(err instanceof LineError)) throw err
      out.reject(row.line, err.message, err.problem)
    }
  }
  return accepted
}

/**
 * Merge: a device may not move away from a person the file does not replace. Rejecting a line
 * keeps that person's stored devices, which can make another line conflict: repeat until stable.
 */
function dropDeviceConflicts(db: Db, panelId: string, accepted: Accepted[], out: Collector): Accepted[] {
  const owners = deviceOwners(db, panelId)
  if (owners.size === 0) return accepted
  const byId = new Map(accepted.map((a) => [a.person.person_id, a]))
  for (let changed = true; changed; ) {
    changed = false
    for (const [id, a] of byId) {
      const taken = a.person.devices.find((d) => {
        const owner = owners.get(d.device)
        return owner !== undefined && owner !== id && !byId.has(owner)
      })
      if (!taken) continue
      const owned = lineError('panelLine.deviceOwner', { device: taken.device, person: `${owners.get(taken.device)}`, panel: panelId })
      out.reject(a.line, owned.message, owned.problem)
      byId.delete(id)
      changed = true
    }
  }
  return accepted.filter((a) => byId.has(a.person.person_id))
}

/**
 * Imports a file of persons into a panel. A file whose every line is bad changes nothing
 * (even in replace mode); an empty file in replace mode empties the panel, and marks it emptied
 * (synthetic.ts); any import that writes persons clears the mark.
 */
export function importPersons(db: Db, panelId: string, text: string, format: ImportFormat, mode: ImportMode): ImportReport {
  const out = new Collector()
  let accepted = readFile(db, panelId, text, format, out)
  if (mode === 'merge') accepted = dropDeviceConflicts(db, panelId, accepted, out)
  const write = accepted.length > 0 || (mode === 'replace' && out.rejected === 0)
  if (write) {
    db.tx(() => {
      if (mode === 'replace') deleteAllPersons(db, panelId)
      upsertPersons(db, panelId, accepted.map((a) => a.person), mode === 'merge')
      // a replace by an empty file empties the panel on purpose: no synthetic population stands in
      setPanelEmptied(db, panelId, mode === 'replace' && accepted.length === 0)
      bumpPanelVersion(db, panelId)
    })
  }
  out.errors.sort((a, b) => a.line - b.line)
  return { imported: accepted.length, rejected: out.rejected, errors: out.errors, persons: countPersons(db, panelId) }
}
