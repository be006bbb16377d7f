// docs/demo.md: the demo's plans match its traffic, it holds every kind of client, and its minisite visits follow their clicks
import { beforeAll, describe, expect, it } from 'vitest'
import { minisiteHits } from '../../engine/demo'
import { IVT, KIND, flagIvt, type Hit } from '../../engine/measure/types'
import { Db } from '../../engine/storage/db'
import { makeEngine, type TestEngine } from '../helpers/make-engine'

const TODAY = '2025-01-10'

describe('loadDemo', () => {
  let t: TestEngine
  let cid: number
  let minisite: number
  let db: Db
  let message: string
  beforeAll(async () => {
    t = await makeEngine({ today: TODAY })
    const r = await t.engine.loadDemo()
    message = r.message
    cid = Number(r.campaign_id)
    minisite = Number(r.minisite_id)
    await t.engine.flush()
    db = await Db.open(t.storage.snapshot)
  }, 120_000)

  it('delivers its plan on every past day, and plans days that differ (weekends, ±6%)', () => {
    const part = t.engine.measure.columns.campaign(cid)!
    const delivered = new Map<string, number>()
    for (let i = 0; i < part.n; i++) {
      if (part.kind[i] !== KIND.impression) continue
      const key = `${part.spot[i]}|${part.day[i]}`
      delivered.set(key, (delivered.get(key) ?? 0) + 1)
    }
    const today = Date.parse(`${TODAY}T00:00:00Z`) / 86_400_000
    const rows = db.query<{ spot_id: number; date: string; est_impression: number }>(
      'SELECT p.spot_id, p.date, p.est_impression FROM spot_plan p JOIN spots s ON s.spot_id = p.spot_id WHERE s.campaign_id = ? ORDER BY p.spot_id, p.date', [cid])
    const past = rows.filter((r) => Date.parse(`${r.date}T00:00:00Z`) / 86_400_000 < today)
    expect(past).toHaveLength(6 * 14)
    for (const r of past) expect(delivered.get(`${r.spot_id}|${Date.parse(`${r.date}T00:00:00Z`) / 86_400_000}`), `${r.spot_id} ${r.date}`).toBe(r.est_impression)
    const first = rows.filter((r) => r.spot_id === rows[0]!.spot_id).map((r) => r.est_impression)
    expect(Math.max(...first) / Math.min(...first)).toBeGreaterThan(1.12)
    expect(Math.max(...first) / Math.min(...first)).toBeLessThan(1.35)
  })

  it('holds cookie, address and device identities, invalid hits of both classes, and says what it made', () => {
    const part = t.engine.measure.columns.campaign(cid)!
    const ids = t.engine.measure.identities
    const namespaces = new Map<string, number>()
    const ivt = [0, 0, 0, 0]
    for (let i = 0; i < part.n; i++) {
      const text = ids.text(part.identity[i]!)
      const ns = text.slice(0, text.indexOf(':'))
      namespaces.set(ns, (namespaces.get(ns) ?? 0) + 1)
      ivt[flagIvt(part.flags[i]!)]!++
    }
    for (const ns of ['amid', 'ipua', 'idfa', 'caid', 'oaid', 'androidid']) expect(namespaces.get(ns), ns).toBeGreaterThan(1000)
    expect(ivt[IVT.bot]! / part.n).toBeGreaterThan(0.005)
    expect(ivt[IVT.datacenter]! / part.n).toBeGreaterThan(0.005)
    expect(message).toMatch(/clients: [1-9][\d]* browsers keeping the cookie, [1-9]\d* refusing it .* [1-9]\d* apps .* [1-9]\d* reported server to server, [1-9]\d* declared bots; [1-9]\d* addresses shared .*; [1-9]\d* prefetches/)
  })

  it('stamps minisite visits no earlier than their click hour and not after now, with a funnel of a few % to checkout', () => {
    const clicks = t.engine.measure.columns.campaign(cid)!
    // by device: a view is its clicker's, whichever of the device's linked ids it was kept under
    const device = (id: number) => t.engine.measure.identities.rootOf(id)
    const firstClick = new Map<number, number>()
    for (let i = 0; i < clicks.n; i++) {
      if (clicks.kind[i] !== KIND.click) continue
      const at = clicks.day[i]! * 24 + clicks.hour[i]!
      firstClick.set(device(clicks.identity[i]!), Math.min(firstClick.get(device(clicks.identity[i]!)) ?? Infinity, at))
    }
    const part = t.engine.measure.columns.minisites.get(minisite)!
    const byEvent = [0, 0, 0, 0]
    const nowHour = (Date.parse(`${TODAY}T00:00:00Z`) / 86_400_000) * 24 + 12
    for (let i = 0; i < part.n; i++) {
      byEvent[part.event[i]!]!++
      const at = part.day[i]! * 24 + part.hour[i]!
      expect(at).toBeGreaterThan(firstClick.get(device(part.identity[i]!))!)
      expect(at).toBeLessThan(nowHour)
    }
    expect(byEvent[1]).toBeGreaterThan(1000)
    expect(byEvent[2]! / byEvent[1]!).toBeCloseTo(0.4, 1)
    expect(byEvent[3]! / byEvent[1]!).toBeGreaterThan(0.01)
    expect(byEvent[3]! / byEvent[1]!).toBeLessThan(0.06)
  })
})

describe('minisiteHits', () => {
  it('stamps each view after its click and leaves out views at or after now', () => {
    const now = Date.parse('2025-01-10T12:00:00+08:00')
    const clicks: Hit[] = []
    for (let i = 0; i < 2000; i++) {
      clicks.push({ kind: KIND.click, ts: now - 3_600_000 * (i % 30) - 1000, campaign: 1, spot: 1, keyword: 0, identity: `amid:${i}`, platform: 1, sdk: 0, region: 0, ivt: IVT.valid })
    }
    const views = minisiteHits(7, 1, clicks, now)
    const clickOf = new Map(clicks.map((c) => [c.identity, c.ts]))
    expect(views.length).toBeGreaterThan(1000)
    for (const v of views) {
      expect(v.ts).toBeGreaterThan(clickOf.get(v.identity)!)
      expect(v.ts).toBeLessThan(now)
    }
    // the clicks a second before now have no view yet
    expect(views.filter((v) => clickOf.get(v.identity) === now - 1000)).toEqual([])
  })
})
