/**
 * Every IPv4 range of the ip2region package's database, in address order, with its place and ISP
 * as RegionLocator reads them. For whole-database work (coverage figures, drawing addresses per
 * city or per ISP in the simulator), not for the hit path: RegionLocator looks single addresses up.
 *
 * The file is ip2region's ".db" format: an 8-byte super block (little-endian offsets of the
 * first and the last index block), then index blocks of 12 bytes each (start address, end
 * address, data pointer: length in the top byte, offset in the low 24 bits), consecutive and
 * sorted; a data record is a 4-byte city id and the region text `国家|区域|省份|城市|ISP`, with
 * `0` for an unknown part (`中国|0|广东省|深圳市|电信`).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** Receives one range: addresses as unsigned 32-bit numbers, both ends included; '' for unknown parts. */
export type Ipv4RangeVisitor = (start: number, end: number, country: string, province: string, city: string, isp: string) => void

const INDEX_BLOCK = 12

let database: Buffer | undefined

/** The ip2region IPv4 database, read once (8.7 MB) from the installed package. */
function ipv4Database(): Buffer {
  if (database === undefined) {
    const require = createRequire(import.meta.url)
    // the package's main is dist/lib/index.js; its data folder sits two levels above
    const main = require.resolve('ip2region')
    database = readFileSync(join(dirname(main), '..', '..', 'data', 'ip2region.db'))
  }
  return database
}

/** One region text split as ip2region's own parser does: country, province, city, ISP. */
type RegionParts = readonly [string, string, string, string]

function regionParts(db: Buffer, pointer: number): RegionParts {
  const length = pointer >>> 24
  const offset = pointer & 0x00ffffff
  const fields = db.toString('utf8', offset + 4, offset + length).split('|')
  const part = (i: number): string => {
    const f = fields[i] ?? ''
    return f === '0' ? '' : f
  }
  return [part(0), part(2), part(3), part(4)]
}

/**
 * Calls `visit` for every range of the IPv4 database, in address order. The ranges cover
 * 0.0.0.0 to 255.255.255.255 without gap or overlap. Texts are parsed once per distinct record.
 * With `from` and `count`, only the ranges numbered from..from+count-1 in that order (work done
 * in slices). Returns the number of ranges of the database.
 */
export function eachIpv4Range(visit: Ipv4RangeVisitor, from = 0, count = Infinity): number {
  const db = ipv4Database()
  const first = db.readUInt32LE(0)
  const last = Math.min(db.readUInt32LE(4), first + (from + count - 1) * INDEX_BLOCK)
  // many ranges share one record (every 电信 range of a city): parse each record once
  const parsed = new Map<number, RegionParts>()
  for (let at = first + from * INDEX_BLOCK; at <= last; at += INDEX_BLOCK) {
    const start = db.readUInt32LE(at)
    const end = db.readUInt32LE(at + 4)
    const pointer = db.readUInt32LE(at + 8)
    let parts = parsed.get(pointer)
    if (parts === undefined) {
      parts = regionParts(db, pointer)
      parsed.set(pointer, parts)
    }
    visit(start, end, parts[0], parts[1], parts[2], parts[3])
  }
  return (db.readUInt32LE(4) - first) / INDEX_BLOCK + 1
}

/** `1.2.3.4` -> 16909060; NaN when the text is not a dotted IPv4 address (one pass, no allocation). */
export function ipv4ToNumber(address: string): number {
  let n = 0
  let part = 0
  let digits = 0
  let dots = 0
  for (let i = 0; i < address.length; i++) {
    const c = address.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      part = part * 10 + (c - 48)
      if (++digits > 3 || part > 255) return NaN
    } else if (c === 46 && digits > 0 && dots < 3) {
      n = n * 256 + part
      part = 0
      digits = 0
      dots++
    } else return NaN
  }
  return dots === 3 && digits > 0 ? n * 256 + part : NaN
}

/** 16909060 -> `1.2.3.4` (the number is taken as unsigned 32-bit). */
export function ipv4FromNumber(n: number): string {
  const u = n >>> 0
  return `${u >>> 24}.${(u >>> 16) & 255}.${(u >>> 8) & 255}.${u & 255}`
}
