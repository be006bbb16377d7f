/**
 * Reference lists for pickers (spec §4.5), fetched once and kept: advertisers, brands per
 * advertiser (each with its parent advertiser_id), agencies, panels per platform, and the named
 * lists (extension types, products, programs, placement types). Panels follow the interface
 * language (`lang`); the other lists have one name in every language. Also the engine's today,
 * which date pickers and the campaign status need.
 */
import { acceptHMRUpdate, defineStore } from 'pinia'
import type { ResultOf } from '../../../../engine/contract/endpoints'
import { api } from '../../api'
import { localDay } from '../../campaign/dates'
import { StoreId } from '../ids'
import { usePrefsStore } from '../prefs'
import { PAGE_LIMIT, ROWS_LIMIT, cacheKey } from './shared'

export type AdvertiserRow = ResultOf<'advertisers.list'>[number]
export type BrandRow = ResultOf<'brands.list'>[number]
export type AgencyRow = ResultOf<'agencies.list'>[number]
export type PanelRow = ResultOf<'panels.list'>[number]
export type NamedRow = ResultOf<'extensiontype.list'>[number]

/** How long the engine's today is trusted before it is asked again. */
const TODAY_TTL_MS = 5 * 60_000

export const useReferenceStore = defineStore(StoreId.Reference, () => {
  const prefs = usePrefsStore()
  const cache = new Map<string, Promise<unknown>>()
  let todayCache: { at: number; value: Promise<string> } | null = null

  /** One request per key; a failed one is forgotten so that the next call tries again. */
  function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = cache.get(key) as Promise<T> | undefined
    if (hit) return hit
    const p = load().catch((e: unknown) => {
      cache.delete(key)
      throw e
    })
    cache.set(key, p)
    return p
  }

  /** Advertisers, by name. */
  const advertisers = (): Promise<AdvertiserRow[]> =>
    cached(cacheKey('advertisers', null), () => api.call('advertisers.list', { limit: ROWS_LIMIT, order_asc: 'advertiser_name' }))

  /** Brands of one advertiser (brands.list requires the parent), by name. */
  const brandsOf = (advertiserId: string): Promise<BrandRow[]> =>
    cached(cacheKey('brands', null, advertiserId), () => api.call('brands.list', { advertiser_id: advertiserId, limit: ROWS_LIMIT, order_asc: 'brand_name' }))

  /** Agencies, by name. */
  const agencies = (): Promise<AgencyRow[]> =>
    cached(cacheKey('agencies', null), () => api.call('agencies.list', { limit: ROWS_LIMIT, order_asc: 'agency_name' }))

  /** Panels of a platform, with tag type and tag names in the interface language. */
  const panels = (platform: 'pc' | 'pm' | 'pmo'): Promise<PanelRow[]> =>
    cached(cacheKey('panels', prefs.lang, platform), () => api.call('panels.list', { platform, lang: prefs.lang, limit: ROWS_LIMIT }))

  /** Extension (promotion) types, level1-level2. */
  const extensionTypes = (): Promise<NamedRow[]> => cached(cacheKey('extensiontype', null), () => api.call('extensiontype.list', { limit: PAGE_LIMIT }))
  /** Product names (the third part of wares). */
  const products = (): Promise<NamedRow[]> => cached(cacheKey('product', null), () => api.call('product.list', { limit: PAGE_LIMIT }))
  /** Program names (spots' `program`). */
  const programs = (): Promise<NamedRow[]> => cached(cacheKey('programs', null), () => api.call('programs.list', { limit: PAGE_LIMIT }))
  /** Placement (ad position) types (spots' `adposition_type`). */
  const placementTypes = (): Promise<NamedRow[]> => cached(cacheKey('plmttype', null), () => api.call('plmttype.list', { limit: PAGE_LIMIT }))

  /** The engine's today (its time zone decides "not earlier than today"); this computer's date if it cannot be asked. */
  function today(): Promise<string> {
    const now = Date.now()
    if (todayCache && now - todayCache.at < TODAY_TTL_MS) return todayCache.value
    const value = api.call('local.status').then((s) => s.today, () => localDay())
    todayCache = { at: now, value }
    return value
  }

  /** Forgets every cached list (after a sync or an import changed them). */
  function invalidate(): void {
    cache.clear()
    todayCache = null
  }

  return { advertisers, brandsOf, agencies, panels, extensionTypes, products, programs, placementTypes, today, invalidate }
})

if (import.meta.hot) import.meta.hot.accept(acceptHMRUpdate(useReferenceStore, import.meta.hot))
