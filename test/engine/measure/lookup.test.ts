// Spot, keyword and minisite facts for tracking hits and imports, cached until the next database write
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TrackingLookup } from '../../../engine/measure/lookup'
import { MemoryStorage } from '../../../engine/storage/adapters/memory'
import type { Db } from '../../../engine/storage/db'
import { migrate } from '../../../engine/storage/migrations'
import { Persister } from '../../../engine/storage/persister'

const NOW = '2025-01-10T00:00:00Z'

function insertCampaign(db: Db, id: number, name: string): void {
  db.run(
    `INSERT INTO campaigns(campaign_id, campaign_type, campaign_name, start_date, end_date, creator_name, slot_type, platform, calculation_type,
      panel_id, panel_type, linked_iplib, ear, frequency_limit, created_at, updated_at)
     VALUES (?, 'normal', ?, '2025-01-01', '2025-12-31', 'tester', 'normal', 'pc', 'basic', 'china-pc-2025', 'pc', 'default', 'x', 0, ?, ?)`,
    [id, name, NOW, NOW],
  )
}

function insertSpot(db: Db, id: number, campaign: number, publisher: number, placementType: string, landing: string): void {
  db.run(
    `INSERT INTO spots(spot_id, campaign_id, publisher_id, channel_name, placement_name, placement_type, report_metrics, freq_capping,
      dangerous_source_filtration, landing_page, created_at, updated_at)
     VALUES (?, ?, ?, 'home', ?, ?, 'imp,clk', '0', 0, ?, ?, ?)`,
    [id, campaign, publisher, `placement ${id}`, placementType, landing, NOW, NOW],
  )
}

let persister: Persister
let db: Db

beforeEach(async () => {
  persister = await Persister.open(new MemoryStorage())
  await migrate(persister, 'x')
  db = persister.db
  db.tx(() => {
    db.run("INSERT INTO publishers(publisher_id, publisher_name) VALUES (1, '优酷'), (2, 'Sina')")
    insertCampaign(db, 1, '春节 campaign')
    insertCampaign(db, 2, 'Other')
    insertSpot(db, 40, 1, 1, 'banner', 'https://example.com/a')
    insertSpot(db, 41, 1, 2, 'video', '')
    insertSpot(db, 50, 2, 2, 'banner', 'https://example.com/b')
    db.run("INSERT INTO keywords(keyword_id, spot_id, keyword_name, landing_page) VALUES (7, 40, 'shoes', 'https://example.com/shoes'), (8, 40, '鞋', ''), (9, 50, 'bags', '')")
    db.run("INSERT INTO minisites(minisite_id, minisite_name, created_at) VALUES (3, 'site', ?), (4, 'empty site', ?)", [NOW, NOW])
    db.run("INSERT INTO minisite_events(minisite_id, event_id, event_name) VALUES (3, 1, 'view'), (3, 2, 'buy')")
    db.run('INSERT INTO minisite_campaigns(minisite_id, campaign_id) VALUES (3, 1), (3, 2)')
  })
})

afterEach(async () => {
  await persister.close()
})

describe('TrackingLookup.spot', () => {
  it('does answer the campaign, the tag facts and the keywords of a spot', () => {
    const info = new TrackingLookup(db).spot(40)!
    expect(info.campaign_id).toBe(1)
    expect(info.campaign).toEqual({ campaign_id: 1, campaign_name: '春节 campaign' })
    expect(info.spot).toEqual({ spot_id_str: 'e', publisher_name: '优酷', placement_type: 'banner', landing_page: 'https://example.com/a' })
    expect([...info.keywords.keys()].sort()).toEqual([7, 8])
    expect(info.keywords.get(7)).toEqual({ keyword_id: 7, keyword_name: 'shoes', landing_page: 'https://example.com/shoes' })
    expect(info.keywords.get(8)).toEqual({ keyword_id: 8, keyword_name: '鞋', landing_page: '' })
  })

  it('does answer a spot without keywords with an empty keyword map', () => {
    const info = new TrackingLookup(db).spot(41)!
    expect(info.spot).toMatchObject({ spot_id_str: 'f', publisher_name: 'Sina', placement_type: 'video', landing_page: '' })
    expect(info.keywords.size).toBe(0)
  })

  it('does answer null for a spot that does not exist', () => {
    expect(new TrackingLookup(db).spot(999)).toBeNull()
  })

  it('does not query again while the database is unchanged', () => {
    const lookup = new TrackingLookup(db)
    const get = vi.spyOn(db, 'get')
    const query = vi.spyOn(db, 'query')
    const first = lookup.spot(40)
    expect(lookup.spot(40)).toBe(first)
    expect(lookup.spot(999)).toBeNull()
    expect(lookup.spot(999)).toBeNull()
    expect(get).toHaveBeenCalledTimes(2) // spot 40 and spot 999, once each
    expect(query).toHaveBeenCalledTimes(3) // the two through get(), and the keywords of spot 40
  })

  it('does see a change after a committed write', () => {
    const lookup = new TrackingLookup(db)
    expect(lookup.spot(40)!.campaign.campaign_name).toBe('春节 campaign')
    expect(lookup.spot(42)).toBeNull()
    db.tx(() => {
      db.run("UPDATE campaigns SET campaign_name = 'Renamed' WHERE campaign_id = 1")
      db.run("INSERT INTO keywords(keyword_id, spot_id, keyword_name) VALUES (10, 40, 'hats')")
      insertSpot(db, 42, 2, 1, 'feed', '')
    })
    const info = lookup.spot(40)!
    expect(info.campaign.campaign_name).toBe('Renamed')
    expect(info.keywords.has(10)).toBe(true)
    expect(lookup.spot(42)!.campaign_id).toBe(2)
  })

  it('does keep its cache over a transaction that writes nothing or rolls back', () => {
    const lookup = new TrackingLookup(db)
    const first = lookup.spot(40)
    db.tx(() => undefined)
    expect(() => db.tx(() => {
      db.run("UPDATE campaigns SET campaign_name = 'Gone' WHERE campaign_id = 1")
      throw new Error('rolled back')
    })).toThrow('rolled back')
    expect(lookup.spot(40)).toBe(first)
  })

  it('does forget a deleted spot after the write', () => {
    const lookup = new TrackingLookup(db)
    expect(lookup.spot(41)).not.toBeNull()
    db.tx(() => db.run('DELETE FROM spots WHERE spot_id = 41'))
    expect(lookup.spot(41)).toBeNull()
  })
})

describe('TrackingLookup.minisite', () => {
  it('does answer the events and linked campaigns of a minisite', () => {
    const site = new TrackingLookup(db).minisite(3)!
    expect([...site.events].sort()).toEqual([1, 2])
    expect([...site.campaigns].sort()).toEqual([1, 2])
  })

  it('does answer empty sets for a minisite without events or campaigns', () => {
    expect(new TrackingLookup(db).minisite(4)).toEqual({ events: new Set(), campaigns: new Set() })
  })

  it('does answer null for a minisite that does not exist', () => {
    expect(new TrackingLookup(db).minisite(99)).toBeNull()
  })

  it('does not query again while the database is unchanged', () => {
    const lookup = new TrackingLookup(db)
    const scalar = vi.spyOn(db, 'scalar')
    const query = vi.spyOn(db, 'query')
    const first = lookup.minisite(3)
    expect(lookup.minisite(3)).toBe(first)
    expect(lookup.minisite(99)).toBeNull()
    expect(lookup.minisite(99)).toBeNull()
    expect(scalar).toHaveBeenCalledTimes(2)
    expect(query).toHaveBeenCalledTimes(2)
  })

  it('does see new events, links and minisites after a committed write', () => {
    const lookup = new TrackingLookup(db)
    expect(lookup.minisite(3)!.events.has(5)).toBe(false)
    expect(lookup.minisite(5)).toBeNull()
    db.tx(() => {
      db.run("INSERT INTO minisite_events(minisite_id, event_id, event_name) VALUES (3, 5, 'share')")
      db.run('DELETE FROM minisite_campaigns WHERE minisite_id = 3 AND campaign_id = 2')
      db.run("INSERT INTO minisites(minisite_id, minisite_name, created_at) VALUES (5, 'new', ?)", [NOW])
    })
    const site = lookup.minisite(3)!
    expect(site.events.has(5)).toBe(true)
    expect([...site.campaigns]).toEqual([1])
    expect(lookup.minisite(5)).not.toBeNull()
  })

  it('does refresh spots and minisites together on one write', () => {
    const lookup = new TrackingLookup(db)
    const spot = lookup.spot(40)
    const site = lookup.minisite(3)
    db.tx(() => db.run("UPDATE publishers SET publisher_name = 'Youku' WHERE publisher_id = 1"))
    expect(lookup.minisite(3)).not.toBe(site)
    expect(lookup.spot(40)).not.toBe(spot)
    expect(lookup.spot(40)!.spot.publisher_name).toBe('Youku')
  })
})
