/** Small report fixtures for the pure tests of the reports screen. */
import type { ListSpot, Panel } from '../../../engine/contract/models'
import type { ReportItem } from '../../../engine/contract/models-reports'
import { makeNames } from '../../../renderer/src/reports/names'
import type { RequestEnv } from '../../../renderer/src/reports/params'

export const GLOBAL = '000000000000000000000000'
export const MAINLAND = '000000000000000000000008'
export const BEIJING = '000000000000001156110000'
export const SHANGHAI = '000000000000001156310000'

/** `t` stand-in: the key, with its named values appended. */
export const t = (key: string, named?: Record<string, unknown>): string => (named ? `${key}${JSON.stringify(named)}` : key)

export const env: RequestEnv = { campaignId: '7', date: '2026-03-05', today: '2026-03-06', minisiteId: '3' }

export function item(attributes: ReportItem['attributes'], metrics: ReportItem['metrics']): ReportItem {
  return { attributes, metrics }
}

export function spot(id: string, publisher: string, plan: [string, number, number][], keywords: [number, string][] = []): ListSpot {
  return {
    spot_id: id, spot_id_str: id, publisher_id: publisher, publisher_name: `Pub ${publisher}`, channel_name: 'c', placement_name: `Spot ${id}`,
    placement_type: 'display', report_metrics: 'impression+click', GUID: '', CAGUID: '', adposition_type: '', vending_model: '', market: '',
    customize: '', description: '', landing_page: '', tracking_tags: { impression_url: '', click_url: '' },
    keyword: keywords.map(([k, name]) => ({ deletedTime: '', isDeleted: '', keyword: name, keywordId: k, landingPage: '', spid: Number(id), tracking_tags: [] })),
    spot_plan: plan.map(([date, est_impression, est_click]) => ({ date, est_impression, est_click })),
  }
}

export const panel: Panel = {
  panel_id: 'p1', panel_name: 'Panel one', platform: 'pc',
  type_list: [{ type_id: 'gender', type_name: 'Gender' }, { type_id: 'age', type_name: 'Age' }],
  tag_list: [
    { type_id: 'gender', tag_id: 'male', tag_name: 'Male' }, { type_id: 'gender', tag_id: 'female', tag_name: 'Female' },
    { type_id: 'age', tag_id: '18-24Y', tag_name: '18-24' },
  ],
}

export const names = makeNames({
  campaignId: '7', campaignName: 'Spring',
  spots: [spot('1', '10', []), spot('2', '11', [], [[5, 'shampoo']])],
  targets: [{ target_id: '4', target_name: 'Women', panel_id: 'p1' }],
  regions: [
    { region_id: GLOBAL, region_name: 'Global', parent_id: '', level: 0 },
    { region_id: MAINLAND, region_name: 'Mainland', parent_id: GLOBAL, level: 0 },
    { region_id: BEIJING, region_name: 'Beijing', parent_id: MAINLAND, level: 1 },
    { region_id: SHANGHAI, region_name: 'Shanghai', parent_id: MAINLAND, level: 1 },
  ],
  panel,
  minisite: { minisite_id: '3', minisite_name: 'Site', campaign_ids: ['7'], events: [{ event_id: '1', event_name: 'home' }, { event_id: '2', event_name: 'buy' }], event_url: '' },
})
