// spec §4.2 (read) and §4.3 (write); vendor-notes §3 for dm_info on spots and the batch endpoint
import { get, post } from './endpoint'
import { E } from './errors'
import * as m from './models'
import { p } from './params'
import { arr } from './schema'
import * as v from './vocabulary'

const DEFAULT_LIMIT = { m: 0, n: 500, offset: 0, count: 500 }
const limit = () => p.limit('offset').default(DEFAULT_LIMIT, 'M,N: start row M (from 0), at most N rows')
const campaignId = () => p.id().required('campaign id')
const customerFields = Object.fromEntries(m.CUSTOMER_FIELDS.map((k) => [k, p.text(255).optional('customer-defined field')])) as {
  [K in (typeof m.CUSTOMER_FIELDS)[number]]: ReturnType<ReturnType<typeof p.text>['optional']>
}

/** Spot fields that create_spot and update_spot share (spec §4.3). */
const spotFields = {
  placement_type: p.oneOf(v.PLACEMENT_TYPES).optional('display (default), video, text, others, QR-Code, search'),
  program_purchasing_type: p.mapped(v.PROGRAM_PURCHASING).optional('通投 (bulk), 按频道采买 (by_channel), 按剧目采买 (by_program)'),
  program: p.text(1000).optional('program names separated by , (from programs/list)'),
  market: p.text(255).optional('region targeting'),
  vending_model: p.vendingModel().optional(),
  adposition_type: p.text(100).optional('a name from plmttype/list'),
  landing_page: p.urlOrEmpty().optional(),
  dangerous_source_filtration: p.flag01().optional('default 0 for keyword spots, 1 for others'),
  report_metrics: p.plusEnum(v.REPORT_METRICS).optional('impression, click or impression+click (default)'),
  caguid: p.text(255).optional('customer campaign id (CAGUID)'),
  guid: p.text(255).optional('customer spot id (GUID)'),
  customize: p.text(1000).optional('custom column'),
  description: p.text(2000).optional(),
  other_impr_tracking_tag: p.tag().optional('other party impression code, http:// or https://'),
  shop_id: p.text(255).optional(),
  ...customerFields,
}

const createSpotBase = {
  campaign_id: campaignId(),
  publisher_name: p.name(100).required(),
  channel_name: p.name(100).required(),
  placement_name: p.name(255, E.invalidPlacementName).required(),
  keyword: p.keywords().optional('keyword_name^landing_page joined by >'),
  tracking_timing: p.text(20).optional('video position at which the impression is sent; default 1s for video spots'),
  linked_siteid: p.int(1, 2 ** 31 - 1).optional('analytics site id'),
  referrer_url: p.urlOrEmpty().optional(),
  budgetInput: p.amount().optional('budget entry'),
  ...spotFields,
}

const planFields = {
  slot_begin: p.date().optional('plan start'),
  slot_duration: p.int(1, 3660).optional('plan length in days'),
  est_impression: p.int(0, 2 ** 40).optional('estimated total impressions, spread evenly over the plan days'),
  est_click: p.int(0, 2 ** 40).optional('estimated total clicks, spread evenly over the plan days'),
}

const { campaign_id: _omit, ...withPlanItem } = { ...createSpotBase, ...planFields }

/** One element of batch_create_spot_with_plan's `spots` (vendor-notes §3.9). */
export const BATCH_ITEM = {
  ...withPlanItem,
  freq_capping: p.spotFreqCapping().optional('S0+ (no capping) by default'),
  add_slot: p.dateList().optional('plan dates; excludes slot_begin/slot_duration/est_impression/est_click'),
  est_impression_day: p.intList().optional('per-date estimated impressions matching add_slot'),
  est_click_day: p.intList().optional('per-date estimated clicks matching add_slot'),
}
export const BATCH_MAX_SPOTS = 3000

const flag = (what: string) => p.flag01().default(false, what)

export const cmsEndpoints = {
  'campaigns.show': get('/cms/v1/campaigns/show', 'cms', { campaign_id: campaignId(), pmo_info: flag('1 adds panel_type, linked_tvcaids'), dm_info: flag('1 adds order and delivery members') }, m.Campaign, {
    summary: 'One campaign', spec: 'interface §4.2', cache: true, aliases: ['/admonitor/v1/campaigns/show'],
  }),
  'campaigns.show_spot': get('/cms/v1/campaigns/show_spot', 'cms', {
    campaign_id: campaignId(),
    spot_id_str: p.spotIdStr().required('base-62 spot id'),
    keyword: p.onOff().default(false, 'on shows keywords'),
    show_filtration_status: flag('1 shows dangerous_source_filtration'),
    show_extInfo: flag('1 shows budgetInput'),
    dm_info: flag('accepted for compatibility; show_spot always carries the extra members'),
  }, m.Spot, { summary: 'One spot', spec: 'interface §4.2', cache: true }),
  'campaigns.list': get('/cms/v1/campaigns/list', 'cms', {
    campaign_id: p.idList().optional('ID1,ID2,...'),
    campaign_type: p.keyList().optional('TP1,TP2,...'),
    campaign_name: p.pattern().optional('PATTERN'),
    advertiser_name: p.pattern().optional('PATTERN'),
    agency_name: p.pattern().optional('PATTERN'),
    brand_name: p.pattern().optional('PATTERN'),
    creator_name: p.pattern().optional('PATTERN'),
    status: p.intIn(v.CAMPAIGN_STATUS).optional('1 not started, 2 in progress, 3 ended'),
    calculation_type: p.oneOf(v.LIST_CALCULATION_TYPES).optional('filter; absent means every version'),
    pmo_info: flag('as for show'),
    dm_info: flag('as for show'),
    limit: limit(),
    order_asc: p.order(v.CAMPAIGN_ORDER).optional(),
    order_desc: p.order(v.CAMPAIGN_ORDER).optional(),
  }, arr(m.Campaign), { summary: 'Campaigns', spec: 'interface §4.2', cache: true }),
  'campaigns.list_targets': get('/cms/v1/campaigns/list_targets', 'cms', {
    campaign_id: campaignId(),
    panel_id: p.keyList().optional(),
    target_id: p.idList().optional(),
    show_tag: flag('1 returns tag_id'),
    limit: limit(),
    order_asc: p.order(['panel_id', 'target_id']).optional(),
    order_desc: p.order(['panel_id', 'target_id']).optional(),
  }, arr(m.Target), { summary: 'Target audiences of a campaign', spec: 'interface §4.2', cache: true }),
  'campaigns.list_publishers': get('/cms/v1/campaigns/list_publishers', 'cms', {
    campaign_id: campaignId(),
    publisher_id: p.idList().optional(),
    limit: limit(),
    order_asc: p.order(['publisher_id']).optional(),
    order_desc: p.order(['publisher_id']).optional(),
  }, arr(m.Publisher), { summary: 'Publishers with spots in a campaign', spec: 'interface §4.2', cache: true }),
  'campaigns.list_spots': get('/cms/v1/campaigns/list_spots', 'cms', {
    campaign_id: campaignId(),
    publisher_id: p.idList().optional(),
    spot_id: p.idList().optional(),
    show_plan: flag('1 adds spot_plan'),
    show_filtration_status: flag('1 adds dangerous_source_filtration'),
    from_date: p.date().optional('first plan day shown; default the plan start'),
    to_date: p.date().optional('last plan day shown; default the plan end'),
    code_type: p.codeTypes().optional('monitoring-code options'),
    landingpage: p.oneOf(['utm']).optional('utm: landing_page with utm parameters'),
    limit: limit(),
    order_asc: p.order(['spot_id', 'publisher_id']).optional(),
    order_desc: p.order(['spot_id', 'publisher_id']).optional(),
    show_extInfo: flag('1 adds budgetInput'),
    dm_info: flag('1 adds program_purchasing_type, program, shop_id'),
  }, arr(m.ListSpot), { summary: 'Spots of a campaign with monitoring code', spec: 'interface §4.2', cache: true }),
  'campaigns.create': post('/cms/v1/campaigns/create', 'cms', {
    campaign_name: p.name(255, E.invalidCampaignName).required(),
    start_date: p.date().required('not earlier than today'),
    end_date: p.date().required('not earlier than start_date'),
    campaign_type: p.oneOf(['admonitor']).optional('system default admonitor'),
    platform: p.oneOf(v.CREATE_PLATFORMS).default('pc'),
    calculation_type: p.oneOf(v.CREATE_CALCULATION_TYPES).default('1.0'),
    orderid: p.text(100).optional('service order id'),
    schedulingCode: p.text(100).optional(),
    frequency_limit: p.int(1, 80).default(10, 'maximum reach frequency'),
    advertiser_id: p.id().optional(),
    brand_id: p.id().optional('requires advertiser_id, its parent'),
    agency_id: p.id().optional(),
    panel_id: p.key().optional('default: the latest panel of the platform'),
    ear: p.mapped(v.EAR_VALUES).default(v.EAR_NONE, '无 (none, default) or EAR阿里妈妈; immutable'),
    wares: p.text(300).optional('advertiser|brand name|product name'),
    linked_siteids: p.text(1000).optional('analytics site ids separated by ;'),
    ad_campaign_type: p.plusEnum(v.AD_CAMPAIGN_TYPES).optional(),
    slot_type: p.plusEnum(v.SLOT_TYPES).default('display'),
    freq_capping: p.int(1, 50).optional(),
    description: p.text(2000).optional(),
    panel_type: p.oneOf(v.PANEL_TYPES).default('pm', 'immutable'),
    linked_tvcaids: p.intArray().optional(),
    extensiontype: p.text(200).optional('a name from extensiontype/list'),
    play_detect: p.flag01().default(false),
  }, m.CampaignIdResult, { summary: 'Create a campaign', spec: 'interface §4.3' }),
  'campaigns.create_spot': post('/cms/v1/campaigns/create_spot', 'cms', {
    ...createSpotBase,
    freq_capping: p.spotFreqCapping().optional('S0+ (no capping) by default'),
  }, m.SpotResult, { summary: 'Create a spot', spec: 'interface §4.3' }),
  'campaigns.create_spot_with_plan': post('/cms/v1/campaigns/create_spot_with_plan', 'cms', { ...createSpotBase, ...planFields }, m.SpotResult, {
    summary: 'Create a spot with a daily plan', spec: 'interface §4.3',
  }),
  'campaigns.batch_create_spot_with_plan': post('/cms/v1/campaigns/batch_create_spot_with_plan', 'cms', {}, m.BatchResult, {
    summary: `Create up to ${BATCH_MAX_SPOTS} spots with plans, all or nothing (JSON body {campaign_id, spots:[...]})`,
    spec: 'vendor-notes §3.9', body: 'json', item: BATCH_ITEM,
  }),
  'campaigns.publish_target': post('/cms/v1/campaigns/publish_target', 'cms', {
    campaign_id: campaignId(),
    target_name: p.name(100).required('unique inside the campaign'),
    tag_id: p.tagExpression().required('tag ids joined by , in groups joined by &'),
  }, m.Target, { summary: 'Publish a target audience', spec: 'interface §4.3' }),
  'campaigns.delete': post('/cms/v1/campaigns/delete', 'cms', { campaign_id: campaignId() }, m.CampaignIdResult, {
    summary: 'Delete a campaign with its spots and targets', spec: 'interface §4.3',
  }),
  'campaigns.delete_spot': post('/cms/v1/campaigns/delete_spot', 'cms', { campaign_id: campaignId(), spot_id: p.id().required() }, m.DeleteSpotResult, {
    summary: 'Delete a spot', spec: 'interface §4.3',
  }),
  'campaigns.update': post('/cms/v1/campaigns/update', 'cms', {
    campaign_id: campaignId(),
    campaign_type: p.oneOf(['admonitor']).optional(),
    campaign_name: p.name(255, E.invalidCampaignName).optional('a duplicate gets a number appended'),
    start_date: p.date().optional('sent together with end_date'),
    end_date: p.date().optional('sent together with start_date'),
    advertiser_id: p.id().optional(),
    agency_id: p.id().optional(),
    brand_id: p.id().optional('requires advertiser_id, its parent'),
    wares: p.text(300).optional(),
    linked_siteids: p.text(1000).optional(),
    slot_type: p.plusEnum(v.SLOT_TYPES).optional(),
    description: p.text(2000).optional(),
    linked_tvcaids: p.intArray().optional(),
    extensiontype: p.text(200).optional(),
    play_detect: p.flag01().optional(),
  }, m.CampaignIdResult, { summary: 'Update a campaign', spec: 'interface §4.3' }),
  'campaigns.update_spot': post('/cms/v1/campaigns/update_spot', 'cms', {
    campaign_id: campaignId(),
    spot_id: p.id().required(),
    publisher_name: p.name(100).optional(),
    channel_name: p.name(100).optional(),
    placement_name: p.name(255, E.invalidPlacementName).optional(),
    ...spotFields,
    add_keyword: p.keywords().optional('keyword_name^landing_page joined by >'),
    update_keyword: p.keywordUpdates().optional('keyword_id^keyword_name^landing_page joined by >'),
    add_slot: p.dateList().optional(),
    delete_slot: p.dateList().optional('the estimates of those dates are deleted too'),
    update_slot: p.dateList().optional('not together with add_slot'),
    est_impression: p.intList().optional('integers matching add_slot or update_slot'),
    est_click: p.intList().optional('integers matching add_slot or update_slot'),
  }, m.UpdateSpotResult, { summary: 'Update a spot, its keywords and its plan', spec: 'interface §4.3' }),
} as const
