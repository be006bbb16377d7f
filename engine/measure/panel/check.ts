/**
 * The value checks of an imported person (docs/panel.md): an id of the allowed form, a positive
 * weight, a known home region, tags of the panel with at most one per tag type, and well-formed
 * devices of platform pc or mb. Checks across persons (duplicates) are in import.ts.
 */
import type { Db } from '../../storage/db'
import { panelTagTypes } from '../../storage/repos/panels'
import { allRegionIds } from '../../storage/repos/reference'
import type { Candidate } from './parse'
import { MAX_DEVICES, MAX_WEIGHT, PERSON_ID_RE, deviceIdentity, lineError, type PersonRecord } from './person'

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
  const tags = panelTagTypes(db, panelId, true)
  const regions = allRegionIds(db)
  return {
    panelId,
    tagType: new Map(tags.map((t) => [t.tag_id, t.type_id])),
    tagOrder: new Map(tags.map((t, i) => [t.tag_id, i])),
    regions: new Set(regions),
  }
}

function checkTags(tags: readonly string[], rules: PanelRules): string[] {
  const typeOf = new Map<string, string>()
  for (const tag of tags) {
    const type = rules.tagType.get(tag)
    if (type === undefined) throw lineError('panelLine.tagOfPanel', { tag: tag.slice(0, 64), panel: rules.panelId })
    const other = typeOf.get(type)
    if (other === tag) throw lineError('panelLine.tagTwice', { tag })
    if (other !== undefined) throw lineError('panelLine.tagType', { type, first: other, second: tag })
    typeOf.set(type, tag)
  }
  return [...tags].sort((a, b) => rules.tagOrder.get(a)! - rules.tagOrder.get(b)!)
}

function checkDevices(devices: Candidate['devices']): PersonRecord['devices'] {
  if (devices.length > MAX_DEVICES) throw lineError('panelLine.deviceCount', { n: devices.length, max: MAX_DEVICES })
  const seen = new Set<string>()
  return devices.map(({ device, platform }) => {
    if (platform !== 'pc' && platform !== 'mb') throw lineError('panelLine.platform', { device: device.slice(0, 80), platform: platform.slice(0, 20) })
    const id = deviceIdentity(device, platform)
    if (seen.has(id)) throw lineError('panelLine.deviceTwice', { device: id })
    seen.add(id)
    return { device: id, platform }
  })
}

/** A candidate checked against the panel; throws a LineError saying what is wrong. */
export function checkPerson(c: Candidate, rules: PanelRules): PersonRecord {
  if (!PERSON_ID_RE.test(c.person_id)) throw lineError('panelLine.personId', { got: c.person_id.slice(0, 80) })
  if (!Number.isFinite(c.weight) || c.weight <= 0 || c.weight > MAX_WEIGHT) throw lineError('panelLine.weightRange', { max: MAX_WEIGHT, got: c.weight })
  if (!rules.regions.has(c.home_region)) throw lineError('panelLine.region', { got: c.home_region.slice(0, 40), list: '/cms/v1/regions/list' })
  return { person_id: c.person_id, weight: c.weight, home_region: c.home_region, tags: checkTags(c.tags, rules), devices: checkDevices(c.devices) }
}
