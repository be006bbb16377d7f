/**
 * Closed vocabularies of the spec and the vendor notes: enumerations, monitoring-code options
 * and their macro sets. Data only; the renderer offers exactly these, the engine accepts exactly these.
 */

export const SLOT_TYPES = ['display', 'search', 'display+search'] as const
export const PANEL_TYPES = ['pm', 'pmo'] as const
export const CREATE_PLATFORMS = ['pc', 'pm'] as const
/** calculation_type accepted by create (spec §4.3). */
export const CREATE_CALCULATION_TYPES = ['1.0', '3.0', '3.1'] as const
/** calculation_type accepted by the list filter: the spec's 1.0, 2.0, 2.1 and the create values. */
export const LIST_CALCULATION_TYPES = ['1.0', '2.0', '2.1', '3.0', '3.1'] as const
export const AD_CAMPAIGN_TYPES = ['imedia', 'ivideo', 'ivideo+imedia', 'other', 'cross'] as const
export const PLACEMENT_TYPES = ['display', 'video', 'text', 'others', 'QR-Code', 'search'] as const
export const REPORT_METRICS = ['impression', 'click', 'impression+click'] as const
export const CAMPAIGN_STATUS = [1, 2, 3] as const

/** The ear value (vendor-notes §8.4): the none-marker or the one ear-type value; English aliases accepted. */
export const EAR_NONE = '无'
export const EAR_ALIMAMA = 'EAR阿里妈妈'
export const EAR_VALUES: Readonly<Record<string, string>> = { [EAR_NONE]: EAR_NONE, none: EAR_NONE, [EAR_ALIMAMA]: EAR_ALIMAMA, alimama: EAR_ALIMAMA }

/** program_purchasing_type (vendor-notes §8.4), with English aliases. */
export const PROGRAM_PURCHASING: Readonly<Record<string, string>> = {
  通投: '通投', bulk: '通投',
  按频道采买: '按频道采买', by_channel: '按频道采买',
  按剧目采买: '按剧目采买', by_program: '按剧目采买',
}

/** Level-1 values of vending_model (level1-level2); level 2 is free text. */
export const VENDING_MODEL_LEVEL1 = ['常规购买', '程序化购买'] as const

/** Channel name of keyword (search bidding) spots; the spec writes "Bidding", the vendor "Bidding word". */
export const BIDDING_CHANNELS = ['Bidding', 'Bidding word'] as const

/** Orderable fields per list (spec §4.2, §4.5). */
export const CAMPAIGN_ORDER = ['campaign_id', 'campaign_name', 'advertiser_name', 'agency_name', 'brand_name', 'creator_name', 'status'] as const

/**
 * Monitoring-code options of list_spots `code_type` (spec §4.2, vendor-notes §7.2) and what each
 * adds to the tags. `source` says whether the parameters were observed in vendor codes or are
 * this engine's choice for an option whose effect the vendor does not show (docs/tracking.md).
 */
export interface CodeTypeDef {
  readonly params: string
  readonly clickOnly?: boolean
  readonly source: 'vendor' | 'engine'
  readonly meaning: string
}

export const CODE_TYPES = {
  mma: { source: 'vendor', meaning: 'MMA device-id macros', params: 'mo=__OS__&m0=__OPENUDID__&m0a=__DUID__&m1=__ANDROIDID1__&m1a=__ANDROIDID__&m2=__IMEI__&m4=__AAID__&m5=__IDFA__&m6=__MAC1__&m6a=__MAC__&m11=__OAID__&m14=__CAID__&m5a=__IDFV__&m5b=__IDFA1__&m11a=__OAID1__&m14a=__CAID1__&mn=__ANAME__' },
  https: { source: 'vendor', meaning: 'https scheme and pro=s', params: 'pro=s' },
  na: { source: 'engine', meaning: 'Weibo user-id macro', params: 'na=__WBUID__' },
  snr: { source: 'engine', meaning: 'Sina-portal user-id macro', params: 'snr=__SINAUID__' },
  ls: { source: 'engine', meaning: 'latitude / longitude macros', params: 'lo=__LON__&la=__LAT__' },
  viewable: { source: 'vendor', meaning: 'viewable-impression macros', params: 'vx=__VIEWSEQ__&ve=__DISVID__&vg=__IFAUTO__&vd=__DETAIL__&vf=__GROUP__&va=1' },
  tr: { source: 'engine', meaning: 'extra custom information', params: 'ti=__TRACKINFO__' },
  nw: { source: 'engine', meaning: 'Weibo impression-id passback', params: 'nw=__WBIMPID__' },
  contr: { source: 'vendor', meaning: 'program (drama) fields', params: 'nd=__DRA__&np=__POS__&nn=__APP__&ng=__CTREF__&nvn=__VNAME__' },
  closedurl: { source: 'vendor', meaning: 'closed landing page: the click tag carries no o=, the redirect goes to the registered page', params: '', clickOnly: true },
  utm: { source: 'vendor', meaning: 'utm parameters appended to the landing page in the click tag', params: '', clickOnly: true },
  utm_auto: { source: 'vendor', meaning: 'utm parameters added at redirect time (ro=sm)', params: 'ro=sm', clickOnly: true },
  ks: { source: 'engine', meaning: 'Kuaishou fields ka..kg', params: 'ka=__KA__&kb=__KB__&kc=__KC__&kd=__KD__&ke=__KE__&kf=__KF__&kg=__KG__' },
  hmi: { source: 'engine', meaning: 'Youku household id', params: 'hm=__HOUSEHOLDID__' },
  txreferer: { source: 'engine', meaning: 'Tencent referer', params: 'txr=__TXREFERER__' },
  xt: { source: 'engine', meaning: 'Xingtu (Douyin creator platform) parameters', params: 'xtd=__DEMANDID__&xti=__ITEMID__' },
  creativeid: { source: 'engine', meaning: 'programmatic creative id', params: 'mc=__CREATIVEID__' },
  '?': { source: 'vendor', meaning: 'a ? after /x/ and /r/', params: '' },
  yahoo: { source: 'engine', meaning: 'Yahoo parameters (partner option)', params: 'yh=__YAHOOID__' },
  groupm: { source: 'engine', meaning: 'GroupM cookie mapping (partner option)', params: 'gm=__GMCOOKIE__' },
  jd: { source: 'engine', meaning: 'JD id (partner option)', params: 'jd=__JDID__' },
  douyin: { source: 'engine', meaning: 'DOU+ creative id (partner option)', params: 'dy=__DOUPLUSCID__' },
} as const satisfies Record<string, CodeTypeDef>

export type CodeType = keyof typeof CODE_TYPES
export const CODE_TYPE_NAMES = Object.keys(CODE_TYPES) as CodeType[]

/** Macros every tag carries (vendor-notes §7.1, current style). */
export const BASE_TAG_PARAMS = 'dx=__IPDX__&rt=2&ns=__IP__&ni=__IESID__&v=__LOC__&xa=__ADPLATFORM__&tr=__REQUESTID__'
