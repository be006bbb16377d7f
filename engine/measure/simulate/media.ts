/**
 * What a spot says of its media that shapes its traffic: the share of its impressions on phones
 * (publisher, channel, placement, format), which device ids its apps fill, and its frequency
 * capping (spec §8.2, vendor-notes §8.2).
 */
import { SPOT_CAP } from '../../contract/params'
import { FILL } from './clients'
import * as d from './distributions'
import { unit } from './hash'

/** The fields of a spot that name its media and format. */
export interface MediaFields {
  publisher_name: string
  channel_name: string
  placement_name: string
  placement_type: string
  adposition_type: string
}

/** What a spot says of its media, in one text: publisher, channel, placement, format, placement type. */
export function mediaText(s: MediaFields): string {
  return `${s.publisher_name} ${s.channel_name} ${s.placement_name} ${s.adposition_type} ${s.placement_type}`
}

/** Share of the spot's impressions made on mobile devices (docs/simulator.md, "Devices"). */
export function mobileShareOf(s: MediaFields): number {
  if (d.MOBILE_ONLY_PLACEMENTS.includes(s.placement_type)) return 1
  const text = mediaText(s)
  for (const [pattern, share] of d.MEDIA_MOBILE_SHARE) if (pattern.test(text)) return share
  return d.MOBILE_SHARE
}

/** How often one identity may see an ad in one period: a day, a week, a month or the whole run. */
export interface Cap {
  limit: number
  period: 'D' | 'W' | 'M' | ''
  /** 'S': each spot on its own; 'M': the spots of one publisher together. */
  scope: 'S' | 'M'
}

/**
 * A spot's freq_capping (`S3+D`, `M5-W`; `S0+` none) as a cap, or null. The spec leaves `+` and
 * `-` unexplained: both are read as "at most n" (the example S1+D: once a day per spot).
 */
export function parseSpotCap(text: string): Cap | null {
  const m = SPOT_CAP.exec(text)
  if (!m || Number(m[2]) === 0) return null
  return { scope: m[1] as Cap['scope'], limit: Number(m[2]), period: m[4] as Cap['period'] }
}

/** The period a day (days since 1970-01-01) falls in: itself, its Monday week, its month, or 0. */
export function periodOf(period: Cap['period'], day: number): number {
  if (period === 'D') return day
  if (period === 'W') return Math.floor((day + 3) / 7) // 1970-01-05 was a Monday
  if (period === 'M') {
    const date = new Date(day * 86_400_000)
    return date.getUTCFullYear() * 12 + date.getUTCMonth()
  }
  return 0
}

/** Which of a device's ids the spot's apps fill (clients.ts FILL), drawn per spot from the simulation key. */
export function fillOf(key: number, spotId: number): number {
  const u = unit(key ^ 0x2545f491, spotId, 0)
  return u < d.ID_FILL_BOTH ? FILL.both : u < d.ID_FILL_BOTH + d.ID_FILL_FIRST ? FILL.first : FILL.second
}
