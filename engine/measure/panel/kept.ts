/**
 * Kept panels (docs/measurement.md, "Kept panels at a start"): what basic/show reads of a stored
 * panel (its size, weights in units, home regions and device platforms) written beside the event
 * log at close (`events/panels.bin`), so that a start's first report takes it from there instead
 * of reading the panel's persons from the database (about 60 ms for the bench's 20,000 persons on
 * a cold sql.js). The rest of the index (person ids, tags, device map) is read from the database
 * at its first use, as loadPanel reads it.
 *
 * A kept panel is used only when the panel's version in the database (bumped by every write to its
 * persons, store.ts) is the one it was written with, the database carries the file's token (meta
 * `panels_kept`, random, set by the write after the file is in place), and the region table is the
 * same. The token ties the file to the database as that close left it: another directory's database,
 * or this one's put back from a copy (its panel versions counted again from an older number, so a
 * later import reaches a version the file holds with other persons), does not carry it. A file that is cut short, of another version, or whose index or arrays do
 * not match their CRC-32 is not used: the panel is read from the database.
 *
 * Layout: `AMPANELS`, version u32, index length u32, index CRC-32 u32; the index (JSON: per panel
 * its id, version, database, region table key, size, unit, offset and CRC-32); then each panel's units
 * (f64), home regions (u16) and platforms (u8).
 */
import { crc32 } from 'node:zlib'
import type { Db } from '../../storage/db'
import type { Random } from '../../random'
import type { EventLog } from '../event-log'
import { fileBesideLog, type KeptFile } from '../kept-file'
import { loadPanel, readAtFirstUse } from './load'
import type { RegionRow } from './regions'
import { panelVersion } from './store'
import type { PanelIndex } from './types'

const MAGIC = Buffer.from('AMPANELS')
const VERSION = 1
const HEADER = 20
/** Persons kept at most, over every panel (11 bytes a person): the panels loaded last first. */
export const MAX_KEPT_PERSONS = 2_000_000

interface Entry {
  panelId: string
  version: string
  /** The file's token (meta `panels_kept` of the database it was written for). */
  db: string
  regions: number
  size: number
  unit: number
  at: number
  crc: number
}

/** A loaded panel as the panel cache holds it: the version and regions it was read with. */
export interface LoadedPanel {
  index: PanelIndex
  version: string
  regions: readonly RegionRow[]
}

/** The part of PanelIndex that is read from the database at its first use in a kept panel. */
const READ_LATER = ['personIds', 'tags', 'tagBytes', 'tagIds', 'tagTypes', 'personOfDevice'] as const

/** The region table as a number: a kept panel's home regions are indices into it. */
const regionsKey = (regions: readonly RegionRow[]): number => crc32(regions.map((r) => r.region_id).join(' '))

/** The meta key of the token of the kept panels the database goes with. */
const TOKEN = 'panels_kept'

const bytesOf = (size: number): number => size * 11

/** The kept panels of an event log's directory (or beside an in-memory log). */
export class KeptPanels {
  private index: Map<string, Entry> | null = null
  /** The index's bytes: the arrays start after them. */
  private indexLength = 0

  constructor(private readonly file: KeptFile) {}

  static of(log: EventLog): KeptPanels {
    return new KeptPanels(fileBesideLog(log, 'panels.bin'))
  }

  /** The panel as kept, when it is the one the database holds now (`version`), else null. */
  restore(db: Db, panelId: string, regions: readonly RegionRow[], version: string): PanelIndex | null {
    const e = this.entries().get(panelId)
    if (!e || e.version !== version || e.regions !== regionsKey(regions) || e.db !== db.meta(TOKEN)) return null
    const bytes = this.file.read(HEADER + this.indexLength + e.at, bytesOf(e.size))
    if (!bytes || crc32(bytes) !== e.crc) return null
    // (the bytes are in an ArrayBuffer of their own: the units at its start are aligned)
    const buf = bytes.buffer
    const index: Partial<PanelIndex> = {
      panelId, size: e.size, unit: e.unit,
      units: new Float64Array(buf, 0, e.size),
      homeRegion: new Uint16Array(buf.slice(8 * e.size, 10 * e.size)),
      platforms: new Uint8Array(buf, 10 * e.size, e.size),
    }
    let whole: PanelIndex | null = null
    const read = (): PanelIndex => {
      if (!whole) {
        if (panelVersion(db, panelId) !== version) throw new Error(`panel ${panelId} changed after it was taken as kept: a report reads it anew (PanelCache.get)`)
        whole = loadPanel(db, panelId, regions)
      }
      return whole
    }
    for (const key of READ_LATER) readAtFirstUse(index, key, () => read()[key])
    return index as PanelIndex
  }

  /**
   * Writes `panels` of `db` (stored ones, the first ones first within MAX_KEPT_PERSONS) as the file
   * with a new token, then gives the database the token (a crash between leaves them unpaired: the
   * file is not used).
   */
  async write(db: Db, panels: readonly LoadedPanel[], random: Random): Promise<void> {
    const token = Buffer.from(random.bytes(8)).toString('hex')
    const entries: Entry[] = []
    const body: Uint8Array[] = []
    let at = 0
    let persons = 0
    for (const { index, version, regions } of panels) {
      if (index.synthetic || index.size === 0 || persons + index.size > MAX_KEPT_PERSONS) continue
      persons += index.size
      const bytes = new Uint8Array(bytesOf(index.size))
      bytes.set(new Uint8Array(index.units.buffer, index.units.byteOffset, 8 * index.size), 0)
      bytes.set(new Uint8Array(index.homeRegion.buffer, index.homeRegion.byteOffset, 2 * index.size), 8 * index.size)
      bytes.set(index.platforms.subarray(0, index.size), 10 * index.size)
      entries.push({ panelId: index.panelId, version, db: token, regions: regionsKey(regions), size: index.size, unit: index.unit, at, crc: crc32(bytes) })
      body.push(bytes)
      at += bytes.length
    }
    const indexBytes = Buffer.from(JSON.stringify(entries))
    const head = Buffer.alloc(HEADER)
    MAGIC.copy(head, 0)
    head.writeUInt32LE(VERSION, 8)
    head.writeUInt32LE(indexBytes.length, 12)
    head.writeUInt32LE(crc32(indexBytes), 16)
    await this.file.write([head, indexBytes, ...body])
    db.tx(() => db.setMeta(TOKEN, token))
    this.index = new Map(entries.map((e) => [e.panelId, e]))
    this.indexLength = indexBytes.length
  }

  /** The file's index (read once; empty when the file is missing or not usable). */
  private entries(): Map<string, Entry> {
    if (this.index) return this.index
    this.index = new Map()
    const head = this.file.read(0, HEADER)
    if (!head) return this.index
    const h = Buffer.from(head.buffer, head.byteOffset, head.length)
    if (!h.subarray(0, 8).equals(MAGIC) || h.readUInt32LE(8) !== VERSION) return this.index
    const length = h.readUInt32LE(12)
    const bytes = this.file.read(HEADER, length)
    if (!bytes || crc32(bytes) !== h.readUInt32LE(16)) return this.index
    try {
      const entries = JSON.parse(Buffer.from(bytes).toString('utf8')) as Entry[]
      this.index = new Map(entries.map((e) => [e.panelId, e]))
      this.indexLength = length
    } catch {
      // (an index that is not JSON: its CRC matched a file written otherwise; not used)
    }
    return this.index
  }
}
