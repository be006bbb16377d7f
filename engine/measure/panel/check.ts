/**
 * The value checks of an imported person (docs/panel.md): an id of the allowed form, a positive
 * weight, a known home region, tags of the panel with at most one per tag type, and well-formed
 * devices of platform pc or mb. Checks across persons (duplicates) are in import.ts.
 */
import type { Db } from '../../storage/db'
import type { Candidate } from './parse'
import { LineError, MAX_DEVICES, MAX_WEIGHT, PERSON_ID_RE, deviceIdentity, type PersonRecord } from './person'

/** What a person is checked against: the panel's tags and the region table. */
export interface PanelRules {
  panelId: string
  /** tag_id -> type_id of the panel's tags. */
  tagType: ReadonlyMap<string, string>
  /** tag_id -> position in panel order (tags are stored and exported in this order). */
  tagOrder: ReadonlyMap<string, number>
  regions: ReadonlySet<string>
}

/** The rules of a panel, read from the reference tables. */
export function panelRules(db: Db, panelId: string): PanelRules {
  const tags = db.query<{ tag_id: string; type_id: string }>('SELECT tag_id, type_id FROM panel_tags WHERE panel_id = ? ORDER BY ord, tag_id', [panelId])
  const regions = db.query<{ region_id: string }>('SELECT region_id FROM regions')
  return {
    panelId,
    tagType: new Map(tags.map((t) => [t.tag_id, t.type_id])),
    tagOrder: new Map(tags.map((t, i) => [t.tag_id, i])),
    regions: new Set(regions.map((r) => r.region_id)),
  }
}

function checkTags(tags: readonly string[], rules: PanelRules): string[] {
  const typeOf = new Map<string, string>()
  for (const tag of tags) {
    const type = rules.tagType.get(tag)
    if (type === undefined) throw new LineError(`the tag '${tag.slice(0, 64)}' is not a tag of panel ${rules.panelId}`)
    const other = typeOf.get(type)
    if (other === tag) throw new LineError(`names the tag '${tag}' twice`)
    if (other !== undefined) throw new LineError(`has two tags of the type ${type} ('${other}' and '${tag}'); a person has at most one tag of each type`)
    typeOf.set(type, tag)
  }
  return [...tags].sort((a, b) => rules.tagOrder.get(a)! - rules.tagOrder.get(b)!)
}

function checkDevices(devices: Candidate['devices']): PersonRecord['devices'] {
  if (devices.length > MAX_DEVICES) throw new LineError(`has ${devices.length} devices; at most ${MAX_DEVICES}`)
  const seen = new Set<string>()
  return devices.map(({ device, platform }) => {
    if (platform !== 'pc' && platform !== 'mb') throw new LineError(`the device '${device.slice(0, 80)}' has the platform '${platform.slice(0, 20)}'; write pc or mb`)
    const id = deviceIdentity(device, platform)
    if (seen.has(id)) throw new LineError(`names the device '${id}' twice`)
    seen.add(id)
    return { device: id, platform }
  })
}

/** A candidate checked against the panel; throws a LineError saying what is wrong. */
export function checkPerson(c: Candidate, rules: PanelRules): PersonRecord {
  if (!PERSON_ID_RE.test(c.person_id)) throw new LineError(`'person_id' must be 1-64 ASCII letters, digits or _ . : @ -, got '${c.person_id.slice(0, 80)}'`)
  if (!Number.isFinite(c.weight) || c.weight <= 0 || c.weight > MAX_WEIGHT) throw new LineError(`'weight' must be a number above 0 and at most ${MAX_WEIGHT}, got ${c.weight}`)
  if (!rules.regions.has(c.home_region)) throw new LineError(`'home_region' ${c.home_region.slice(0, 40)} is not a region id (see /cms/v1/regions/list)`)
  return { person_id: c.person_id, weight: c.weight, home_region: c.home_region, tags: checkTags(c.tags, rules), devices: checkDevices(c.devices) }
}
