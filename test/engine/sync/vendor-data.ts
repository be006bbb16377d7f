/**
 * The records of the vendor stand-in (vendor-remote.ts) and its CMS endpoints, written from
 * shared/spec/vendor-notes.md and interface.md, not from this engine: ids are the vendor's own
 * (advertiser 1 is NASA, agency 1 AgencyX, brand 1 "xxxx": §10), strings where the examples write
 * strings and integers where they write integers (publisher_id of show_spot, keywordId, panel_type,
 * linked_tvcaids), region ids of 24 digits (§5.7), play_detect "true", ear "无", total_net "是".
 */

export class VendorError extends Error {
  constructor(readonly error: string, readonly description: string, readonly errorCode: number, readonly status = 400) {
    super(description)
  }
}

export type Q = Record<string, string>
type Rec = Record<string, unknown>

export interface Spot {
  spot_id: number
  publisher_id: number
  f: Q
  keywords: { id: number; name: string; landing: string }[]
  plan: Map<string, [number, number]>
}
export interface Campaign {
  campaign_id: number
  f: Q
  tvcaids: number[]
  spots: Spot[]
  targets: { target_id: number; target_name: string; tag_id: string }[]
}

/** Base 62, alphabet 0-9A-Za-z (vendor-notes §7.3: 40 is "e"). */
export function base62(n: number): string {
  const a = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
  let s = ''
  do {
    s = a[n % 62] + s
    n = Math.floor(n / 62)
  } while (n > 0)
  return s
}

const bad = (what: string) => new VendorError('invalid_request', what, 1001)

export class VendorData {
  advertisers: [string, string][] = [['1', 'NASA'], ['2', 'Procter & Gamble'], ['5', '宝洁 Procter & Gamble'], ['6', '联合利华 Unilever']]
  brands: [string, string, string][] = [['1', 'xxxx', '1'], ['11', '飘柔 Rejoice', '5'], ['12', '海飞丝 Head & Shoulders', '5'], ['13', '海飞丝 Head & Shoulders', '2'], ['14', '多芬 Dove', '6']]
  agencies: [string, string][] = [['1', 'AgencyX'], ['3', '电通 Dentsu'], ['7', '群邑 GroupM'], ['8', '哈瓦斯 Havas'], ['9', '哈瓦斯 Havas']]
  names: Record<string, string[]> = {
    product: ['xxxx', 'Milk 250ml', 'Shampoo 400ml', 'Cola 330ml', 'Phone X'],
    programs: ['奔跑吧', '歌手', '国家宝藏'],
    plmttype: ['富媒体Banner', '常规Banner', '其它'],
    extensiontype: ['品牌形象活动-品牌形象', '促销活动-新品上市'],
  }
  campaigns: Campaign[] = []
  publishers: [number, string][] = [[2, 'Google'], [3, 'Twitter']]
  private next = 123

  constructor(readonly today: () => string) {}

  private newId(): number {
    return this.next++
  }

  campaign(id: string | undefined): Campaign {
    const c = this.campaigns.find((x) => String(x.campaign_id) === (id ?? '').trim())
    if (!c) throw new VendorError('invalid_campaign_id', "The 'campaign_id' cannot be found.", 2001)
    return c
  }

  /** A campaign as campaigns/show answers it (§3.1). */
  show(c: Campaign, q: Q): Rec {
    const name = (list: [string, string][], id: string | undefined) => list.find(([i]) => i === id)?.[1] ?? ''
    const out: Rec = {
      campaign_id: String(c.campaign_id), campaign_type: 'admonitor', campaign_name: c.f.campaign_name, start_date: c.f.start_date, end_date: c.f.end_date,
      description: c.f.description ?? '', agency_name: name(this.agencies, c.f.agency_id), advertiser_name: name(this.advertisers, c.f.advertiser_id),
      brand_name: this.brands.find(([i]) => i === c.f.brand_id)?.[1] ?? '', creator_name: 'john', slot_type: c.f.slot_type ?? 'display', calculation_type: c.f.calculation_type ?? '1.0',
      linked_panels: ['china-123'], linked_siteids: c.f.linked_siteids ?? '', linked_iplib: 'IPlib-Region-0000-top100-20120428105600',
    }
    if (q.pmo_info === '1') Object.assign(out, { panel_type: c.f.panel_type === 'pmo' ? 1 : 0, linked_tvcaids: c.tvcaids })
    if (q.dm_info === '1') Object.assign(out, { order_id: c.f.orderid ?? '', scheduling_code: c.f.schedulingCode ?? '', extensiontype: c.f.extensiontype ?? '', play_detect: c.f.play_detect === '1' ? 'true' : 'false', ear: '无', total_net: '是', freq_capping: c.f.freq_capping ?? '50' })
    return out
  }

  /** A spot as list_spots answers it (§3.6): publisher_id a string here, keywordId an integer. */
  spotRow(c: Campaign, s: Spot, q: Q): Rec {
    const k = `k=${c.campaign_id}&p=${base62(s.spot_id)}`
    const out: Rec = {
      spot_id: String(s.spot_id), spot_id_str: base62(s.spot_id), publisher_id: String(s.publisher_id), channel_name: s.f.channel_name, placement_name: s.f.placement_name,
      report_metrics: s.f.report_metrics ?? 'impression+click', GUID: s.f.guid ?? '', CAGUID: s.f.caguid ?? '', adposition_type: s.f.adposition_type ?? '', vending_model: s.f.vending_model ?? '',
      market: s.f.market ?? '', customize: s.f.customize ?? '', description: s.f.description ?? '', landing_page: s.f.landing_page ?? '',
      tracking_tags: { impression_url: `http://g.cn.miaozhen.com/x/${k}&o=`, click_url: `http://e.cn.miaozhen.com/r/${k}&o=${encodeURIComponent(s.f.landing_page ?? '')}` },
      keyword: s.keywords.map((w) => ({ deletedTime: '', isDeleted: '', keyword: w.name, keywordId: w.id, landingPage: w.landing, spid: 0, tracking_tags: [{ impression_url: `http://g.cn.miaozhen.com/x/${k}&o=` }, { click_url: `http://e.cn.miaozhen.com/r/${k}&af=${w.id}&o=` }] })),
    }
    if (q.show_extInfo === '1') out.budgetInput = s.f.budgetInput ?? ''
    if (q.show_plan === '1') out.spot_plan = [...s.plan.entries()].sort().map(([date, [imp, clk]]) => ({ date, est_impression: imp, est_click: clk }))
    return out
  }

  /** The service's date rules (§3.7, §3.12, interface §4.3): dates together, none before today, end not before start. */
  checkDates(f: Q, required: boolean): void {
    const [s, e] = [f.start_date, f.end_date]
    if (s === undefined && e === undefined && !required) return
    if (s === undefined || e === undefined) throw bad("The 'start_date' and 'end_date' should be sent together.")
    for (const [k, v] of [['start_date', s], ['end_date', e]] as const) if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) throw bad(`The '${k}' is not a date.`)
    if (s < this.today()) throw bad("The 'start_date' should not be earlier than today.")
    if (e < s) throw bad("The 'end_date' should not be earlier than 'start_date'.")
  }

  /** advertiser_id, brand_id (within its advertiser) and agency_id must name records of the account. */
  checkRefs(f: Q): void {
    if (f.advertiser_id !== undefined && !this.advertisers.some(([i]) => i === f.advertiser_id)) throw bad("The 'advertiser_id' cannot be found.")
    if (f.agency_id !== undefined && !this.agencies.some(([i]) => i === f.agency_id)) throw bad("The 'agency_id' cannot be found.")
    if (f.brand_id !== undefined) {
      if (f.advertiser_id === undefined) throw bad("The 'advertiser_id' is required with 'brand_id'.")
      if (!this.brands.some(([i, , a]) => i === f.brand_id && a === f.advertiser_id)) throw bad("The 'brand_id' does not belong to the 'advertiser_id'.")
    }
  }

  create(f: Q, duplicate: 'invalid_campaign_name' | 'invalid_request'): Rec {
    if ((f.campaign_name ?? '').trim() === '') throw new VendorError('invalid_campaign_name', "The 'campaign_name' should not be empty.", 2002)
    if (this.campaigns.some((c) => c.f.campaign_name === f.campaign_name)) throw new VendorError(duplicate, "The 'campaign_name' has been existed.", 2003)
    this.checkDates(f, true)
    this.checkRefs(f)
    const tvcaids = f.linked_tvcaids ? (JSON.parse(f.linked_tvcaids.startsWith('[') ? f.linked_tvcaids : `[${f.linked_tvcaids}]`) as number[]) : []
    const c: Campaign = { campaign_id: this.newId(), f: { ...f }, tvcaids, spots: [], targets: [] }
    this.campaigns.push(c)
    return { campaign_id: String(c.campaign_id) }
  }

  update(f: Q): Rec {
    const c = this.campaign(f.campaign_id)
    this.checkDates(f, false)
    // interface.md §4.3: brand_id requires advertiser_id, in an update too
    this.checkRefs(f)
    const { campaign_id: _id, access_token: _t, ...rest } = f
    // a name taken by another campaign gets a number appended (§3.12)
    if (rest.campaign_name !== undefined && this.campaigns.some((x) => x !== c && x.f.campaign_name === rest.campaign_name)) rest.campaign_name = `${rest.campaign_name}1`
    Object.assign(c.f, rest)
    if (rest.linked_tvcaids !== undefined) c.tvcaids = JSON.parse(rest.linked_tvcaids.startsWith('[') ? rest.linked_tvcaids : `[${rest.linked_tvcaids}]`) as number[]
    return { campaign_id: String(c.campaign_id) }
  }

  private publisher(name: string): number {
    const p = this.publishers.find(([, n]) => n === name)
    if (p) return p[0]
    const id = this.newId()
    this.publishers.push([id, name])
    return id
  }

  private keywordAnswer(w: Spot['keywords'][number]): Rec {
    return { keyword_id: w.id, keyword_name: w.name, landing_page: w.landing }
  }

  createSpot(f: Q): Rec {
    const c = this.campaign(f.campaign_id)
    if ((f.placement_name ?? '').trim() === '') throw new VendorError('invalid_placement_name', "The 'placement_name' should not be empty.", 2004)
    for (const k of ['publisher_name', 'channel_name']) if ((f[k] ?? '').trim() === '') throw bad(`The '${k}' should not be empty.`)
    const { campaign_id: _c, access_token: _t, keyword, ...rest } = f
    const s: Spot = { spot_id: this.newId(), publisher_id: this.publisher(f.publisher_name!), f: rest, keywords: [], plan: new Map() }
    for (const e of (keyword ?? '').split('>').filter((x) => x !== '')) s.keywords.push({ id: 4018000 + this.newId(), name: e.split('^')[0]!, landing: e.split('^')[1] ?? '' })
    c.spots.push(s)
    return { campaign_id: String(c.campaign_id), spot_id: String(s.spot_id), spot_id_str: base62(s.spot_id), publisher_id: String(s.publisher_id), ...(s.keywords.length ? { keyword: s.keywords.map((w) => this.keywordAnswer(w)) } : {}) }
  }

  updateSpot(f: Q): Rec {
    const c = this.campaign(f.campaign_id)
    const s = c.spots.find((x) => String(x.spot_id) === f.spot_id)
    if (!s) throw new VendorError('invalid_spot_id', "The 'spot_id' cannot be found.", 2005)
    if (f.add_slot !== undefined && f.update_slot !== undefined) throw bad("The 'add_slot' and 'update_slot' cannot appear together.")
    const added: Spot['keywords'] = []
    for (const e of (f.add_keyword ?? '').split('>').filter((x) => x !== '')) {
      const [name = '', landing = ''] = e.split('^')
      if (s.keywords.some((w) => w.name === name)) throw bad(`The keyword '${name}' has been existed.`)
      added.push({ id: 4018000 + this.newId(), name, landing })
    }
    const dates = (v: string | undefined) => (v ?? '').split(',').filter((d) => d !== '')
    const est = (k: string, n: number) => {
      const list = dates(f[k]).map(Number)
      if (list.length !== n) throw bad(`The '${k}' should match the dates.`)
      return list
    }
    const days = dates(f.add_slot ?? f.update_slot)
    const [imp, clk] = days.length > 0 ? [est('est_impression', days.length), est('est_click', days.length)] : [[], []]
    for (const d of days) {
      if (d < c.f.start_date! || d > c.f.end_date!) throw bad(`The slot ${d} is outside the campaign's dates.`)
      if (f.add_slot !== undefined && s.plan.has(d)) throw bad(`The slot ${d} has been existed.`)
      if (f.update_slot !== undefined && !s.plan.has(d)) throw bad(`The slot ${d} cannot be found.`)
    }
    for (const d of dates(f.delete_slot)) if (!s.plan.has(d)) throw bad(`The slot ${d} cannot be found.`)
    days.forEach((d, i) => s.plan.set(d, [imp[i]!, clk[i]!]))
    for (const d of dates(f.delete_slot)) s.plan.delete(d)
    s.keywords.push(...added)
    const { campaign_id: _c, spot_id: _s, access_token: _t, add_keyword: _a, update_keyword: _u, add_slot: _x, update_slot: _y, delete_slot: _z, est_impression: _i, est_click: _k, ...rest } = f
    Object.assign(s.f, rest)
    if (rest.publisher_name !== undefined) s.publisher_id = this.publisher(rest.publisher_name)
    return { campaign_id: String(c.campaign_id), spot_id: String(s.spot_id), spot_id_str: base62(s.spot_id), ...(added.length ? { add_keyword: added.map((w) => this.keywordAnswer(w)) } : {}) }
  }

  publishTarget(f: Q): Rec {
    const c = this.campaign(f.campaign_id)
    if ((f.target_name ?? '').trim() === '' || (f.tag_id ?? '').trim() === '') throw bad("The 'target_name' and 'tag_id' are required.")
    // the vendor's own error value for a name taken (§3.10)
    if (c.targets.some((t) => t.target_name === f.target_name)) throw new VendorError('is wrong.', "The 'target_name' has been existed in this campaign.", 2006)
    const t = { target_id: this.newId(), target_name: f.target_name!, tag_id: f.tag_id! }
    c.targets.push(t)
    return { target_id: String(t.target_id), target_name: t.target_name, panel_id: 'china-123' }
  }
}
