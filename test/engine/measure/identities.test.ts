// docs/attribution.md §5 (the frequency rule) and "Devices", metrics.md "Minisite metrics" (credit)
import { describe, expect, it } from 'vitest'
import { FREQUENCY_WINDOW_MS, Identities, MAX_CLICKS_PER_WINDOW, MAX_IMPRESSIONS_PER_WINDOW } from '../../../engine/measure/identities'
import { IdentityTexts } from '../../../engine/measure/identity-texts'
import { countTurns } from '../../helpers/turns'

/** 2025-01-10 12:00:00Z: a boundary of clock-aligned 10 minutes (the rule's windows slide across them). */
const W = Date.parse('2025-01-10T12:00:00Z')
const MIN = 60_000
const DAY = 86_400_000

/** How many of `n` hits at `ts` go beyond the limit. */
function overCount(ids: Identities, id: number, n: number, ts: number, click: boolean): boolean[] {
  return Array.from({ length: n }, () => ids.overLimit(id, ts, click))
}

describe('Identities: the dictionary', () => {
  it('does number identities densely from 1 and know their text, platform and first sighting', () => {
    const ids = new Identities()
    expect(ids.size).toBe(1)
    expect(ids.add('idfa:a', 1, 100)).toEqual({ id: 1, text: 'idfa:a', platform: 1, firstSeen: 100 })
    expect(ids.add('amid:b', 0, 200)).toEqual({ id: 2, text: 'amid:b', platform: 0, firstSeen: 200 })
    expect(ids.size).toBe(3)
    expect(ids.get('idfa:a')).toBe(1)
    expect(ids.get('amid:b')).toBe(2)
    expect(ids.get('amid:c')).toBeUndefined()
    expect(ids.textStore.all()).toEqual(['', 'idfa:a', 'amid:b'])
    expect([ids.platformOf(1), ids.platformOf(2)]).toEqual([1, 0])
    expect([ids.firstSeenOf(1), ids.firstSeenOf(2)]).toEqual([100, 200])
  })

  it('builds the text index of a checkpoint between turns of the event loop, and a lookup meanwhile finishes it at once', async () => {
    const made = new Identities()
    for (let i = 0; i < 250_000; i++) made.add(`imei:${i}`, 1, i)
    const fresh = () => Identities.from(IdentityTexts.of(made.textStore.all()), made.arrays())
    // between turns: the loop turned while it was built, and every text finds its id
    const a = fresh()
    const loop = countTurns()
    await a.indexInTurns()
    expect(loop.stop()).toBeGreaterThanOrEqual(2)
    for (const i of [0, 99_999, 100_000, 249_999]) expect(a.get(`imei:${i}`)).toBe(i + 1)
    expect(a.get('imei:250000')).toBeUndefined()
    // a lookup and a new identity half-way: the build is finished at once, and ends there
    const b = fresh()
    const built = b.indexInTurns()
    expect(b.get('imei:249999')).toBe(250_000)
    expect(b.add('imei:new', 1, 0).id).toBe(250_001)
    await built
    expect([b.get('imei:0'), b.get('imei:new')]).toEqual([1, 250_001])
  })

  it('does restore identities read from the log in order', () => {
    const ids = new Identities()
    ids.restore({ id: 1, text: 'oaid:x', platform: 1, firstSeen: 5 })
    ids.restore({ id: 2, text: 'amid:y', platform: 0, firstSeen: 6 })
    expect(ids.get('amid:y')).toBe(2)
    expect(ids.add('amid:z', 0, 7).id).toBe(3)
  })

  it('does refuse an identity restored out of order, as a damaged log', () => {
    const ids = new Identities()
    expect(() => ids.restore({ id: 2, text: 'amid:a', platform: 0, firstSeen: 0 })).toThrow(/identity 2 out of order \(expected 1\)/)
    ids.restore({ id: 1, text: 'amid:a', platform: 0, firstSeen: 0 })
    expect(() => ids.restore({ id: 1, text: 'amid:b', platform: 0, firstSeen: 0 })).toThrow(/identity 1 out of order \(expected 2\)/)
    expect(ids.size).toBe(2)
    expect(ids.get('amid:b')).toBeUndefined()
  })

  it('does keep platform, first sighting, frequency times and touches when growing past 1,024 identities', () => {
    const ids = new Identities()
    for (let i = 1; i <= 5_000; i++) ids.add(`amid:${i}`, i % 2, i * 10)
    expect(ids.size).toBe(5_001)
    expect(ids.platformOf(1)).toBe(1)
    expect(ids.firstSeenOf(1)).toBe(10)
    expect(ids.platformOf(4_000)).toBe(0)
    expect(ids.firstSeenOf(5_000)).toBe(50_000)
    ids.touched(4_999, true, 7, 70, W)
    expect(ids.lastTouch('amid:4999', W, DAY, () => true)).toEqual({ campaign: 7, spot: 70 })
    expect(overCount(ids, 4_999, 6, W, true).at(-1)).toBe(true)
  })

  it('does keep the frequency times and touches of early identities when the arrays grow', () => {
    const ids = new Identities()
    ids.add('amid:first', 0, 0)
    ids.touched(1, false, 3, 30, W)
    overCount(ids, 1, MAX_IMPRESSIONS_PER_WINDOW, W, false)
    for (let i = 0; i < 3_000; i++) ids.add(`amid:more${i}`, 0, 0)
    expect(ids.overLimit(1, W, false)).toBe(true)
    expect(ids.lastTouch('amid:first', W, DAY, () => true)).toEqual({ campaign: 3, spot: 30 })
  })

  it('does keep every field of an identity apart from the others and from its neighbours, through a checkpoint', () => {
    // one identity's fields share a record: each set to its own value, in identities side by side
    const ids = new Identities()
    for (let i = 1; i <= 1_500; i++) ids.add(`amid:n${i}`, i % 2, W - i * MIN)
    const fields = (x: Identities, id: number) => {
      const a = x.arrays()
      return [x.platformOf(id), x.firstSeenOf(id), a.impLast[id], a.clkLast[id], a.impCampaign[id], a.impSpot[id], a.impTs[id], a.clkCampaign[id], a.clkSpot[id], a.clkTs[id]]
    }
    for (let id = 1; id <= 1_500; id += 1) {
      ids.touched(id, false, 100 + id, 200 + id, W + id)
      ids.touched(id, true, 300 + id, 400 + id, W + 2 * id)
      // one impression and one click each, 20 minutes apart: kept in the record, no slot
      ids.overLimit(id, W + 3 * id, false)
      ids.overLimit(id, W + 20 * MIN + id, true)
    }
    const expected = (id: number) => [id % 2, W - id * MIN, W + 3 * id, W + 20 * MIN + id, 100 + id, 200 + id, W + id, 300 + id, 400 + id, W + 2 * id]
    for (const id of [1, 2, 3, 1_023, 1_024, 1_025, 1_500]) expect(fields(ids, id), `identity ${id}`).toEqual(expected(id))
    // identity 8 has 29 more impressions a second apart: in a slot, kept through the checkpoint
    overCount(ids, 8, 29, W + MIN, false)
    const back = Identities.from(IdentityTexts.of(ids.textStore.all()), ids.arrays())
    for (const id of [1, 2, 3, 1_023, 1_024, 1_025, 1_500]) expect(fields(back, id), `identity ${id} after a checkpoint`).toEqual(expected(id))
    expect(back.get('amid:n1024')).toBe(1_024)
    // and the restored ones go on counting: 30 impressions of identity 8 in its 10 minutes, the next beyond
    expect(back.overLimit(8, W + 2 * MIN, false)).toBe(true)
    expect(back.overLimit(9, W + 2 * MIN, false)).toBe(false)
  })
})

describe('Identities.overLimit: a sliding window per device', () => {
  it('does allow 30 impressions within 10 minutes and mark every one after', () => {
    const ids = new Identities()
    ids.add('amid:a', 0, W)
    expect(MAX_IMPRESSIONS_PER_WINDOW).toBe(30)
    const got = overCount(ids, 1, 40, W + 5 * MIN, false)
    expect(got.slice(0, 30).every((x) => !x)).toBe(true)
    expect(got.slice(30).every((x) => x)).toBe(true)
  })

  it('does allow 5 clicks within 10 minutes and mark every one after', () => {
    const ids = new Identities()
    ids.add('amid:a', 0, W)
    expect(MAX_CLICKS_PER_WINDOW).toBe(5)
    expect(overCount(ids, 1, 8, W, true)).toEqual([false, false, false, false, false, true, true, true])
  })

  it('does count clicks and impressions separately, and per identity', () => {
    const ids = new Identities()
    ids.add('amid:a', 0, W)
    ids.add('amid:b', 0, W)
    expect(overCount(ids, 1, 30, W, false).some((x) => x)).toBe(false)
    expect(overCount(ids, 1, 5, W, true).some((x) => x)).toBe(false)
    expect(ids.overLimit(1, W, true)).toBe(true)
    expect(ids.overLimit(1, W, false)).toBe(true)
    expect(ids.overLimit(2, W, false)).toBe(false)
    expect(ids.overLimit(2, W, true)).toBe(false)
  })

  it('does count the impressions of the 10 minutes up to each one, across clock-aligned boundaries', () => {
    const ids = new Identities()
    ids.add('amid:a', 0, W)
    expect(FREQUENCY_WINDOW_MS).toBe(10 * MIN)
    // 58 impressions within 60 s, straddling 12:00:00: the 31st and every later one are beyond
    const got = Array.from({ length: 58 }, (_, i) => ids.overLimit(1, W - 30_000 + i * 1_000, false))
    expect(got.indexOf(true)).toBe(30)
    expect(got.filter((x) => x)).toHaveLength(28)
  })

  it('does let an impression go once its 10 minutes have passed: a time exactly 10 minutes before is outside', () => {
    const ids = new Identities()
    ids.add('amid:a', 0, W)
    overCount(ids, 1, 30, W, false)
    expect(ids.overLimit(1, W + FREQUENCY_WINDOW_MS - 1, false)).toBe(true)
    // at W + 10 min the 30 at W are out, the one at W + 10 min - 1 is in: 2 counted
    expect(ids.overLimit(1, W + FREQUENCY_WINDOW_MS, false)).toBe(false)
  })

  it('does count in arrival order: a later time recorded before does not count for an earlier one', () => {
    const ids = new Identities()
    ids.add('amid:a', 0, W)
    overCount(ids, 1, 30, W, false)
    expect(ids.overLimit(1, W - 1, false)).toBe(false)
    expect(ids.overLimit(1, W, false)).toBe(true)
  })

  it('does keep marking beyond the limit however many hits come', () => {
    const ids = new Identities()
    ids.add('amid:a', 0, W)
    expect(overCount(ids, 1, 70_000, W, false).indexOf(false, 30)).toBe(-1)
    expect(overCount(ids, 1, 70_000, W, true).indexOf(false, MAX_CLICKS_PER_WINDOW)).toBe(-1)
  })

  it('does let the slots of devices quiet for 20 minutes go once many are held, keeping their newest times (by hit times, never the clock)', () => {
    const ids = new Identities()
    for (let i = 1; i <= 17_000; i++) ids.add(`imei:${i}`, 1, W)
    // 10,000 devices with two impressions at W: a slot each
    for (let id = 1; id <= 10_000; id++) (ids.overLimit(id, W, false), ids.overLimit(id, W + 1, false))
    const slots = () => {
      const r = ids.arrays().recent
      let n = 0
      for (let i = 2; i < r.length; i += 3 + r[i + 1]! + r[i + 2]!) n++
      return n
    }
    expect(slots()).toBe(10_000)
    // 7,000 more, 21 minutes later: past 16,384 slots the quiet ones go (two windows: a late hit
    // within 10 minutes of a device's newest needs the 10 minutes before it too)
    for (let id = 10_001; id <= 17_000; id++) (ids.overLimit(id, W + 21 * MIN, false), ids.overLimit(id, W + 21 * MIN + 1, false))
    expect(slots()).toBeLessThan(7_001)
    expect(ids.arrays().impLast[1]).toBe(W + 1)
    // the same hits give the same state, through a checkpoint too
    const back = Identities.from(IdentityTexts.of(ids.textStore.all()), ids.arrays())
    expect(back.arrays()).toEqual(ids.arrays())
  })

  it('does exempt address+agent identities: 200 people behind one address are never beyond', () => {
    const ids = new Identities()
    ids.add('ipua:0123456789abcdef0123456789abcdef', 1, W)
    expect(overCount(ids, 1, 2_000, W, false).some((x) => x)).toBe(false)
    expect(overCount(ids, 1, 100, W, true).some((x) => x)).toBe(false)
  })
})

describe('Identities.link: devices', () => {
  const three = () => {
    const ids = new Identities()
    ids.add('idfa:a', 1, W)
    ids.add('caid:b', 1, W + MIN)
    ids.add('idfv:c', 0, W + 2 * MIN)
    return ids
  }

  it('does make the older id the root of a merged device, with the earliest first sighting and mobile when either is', () => {
    const ids = three()
    ids.noteEvent(2)
    ids.noteEvent(3)
    const m = ids.link(3, 2)
    expect(m).toEqual({ keep: 2, gone: 3, campaigns: [] })
    expect([ids.rootOf(2), ids.rootOf(3), ids.rootOf(1)]).toEqual([2, 2, 1])
    expect(ids.firstSeenOf(2)).toBe(W + MIN)
    expect(ids.platformOf(2)).toBe(1)
    expect(ids.link(2, 3)).toBeNull()
    ids.link(3, 1)
    expect([ids.rootOf(1), ids.rootOf(2), ids.rootOf(3)]).toEqual([1, 1, 1])
    expect(ids.membersOf(1)).toEqual([1, 2, 3])
    expect(ids.firstSeenOf(1)).toBe(W)
  })

  it('does combine the frequency history and the touches of both devices, the latest touch of a campaign winning', () => {
    const ids = three()
    overCount(ids, 1, 20, W, false)
    overCount(ids, 2, 10, W + MIN, false)
    ids.touched(1, false, 5, 50, W)
    ids.touched(2, false, 5, 51, W + MIN)
    ids.touched(2, true, 6, 60, W + MIN)
    ids.noteEvent(2)
    expect(ids.link(1, 2)).toEqual({ keep: 1, gone: 2, campaigns: expect.arrayContaining([5, 6]) as unknown as number[] })
    // 30 impressions within 10 minutes between them: the next one is beyond
    expect(ids.overLimit(1, W + 2 * MIN, false)).toBe(true)
    expect(ids.creditOf(1, W + 2 * MIN, DAY, (c) => c === 5)).toEqual({ campaign: 5, spot: 51 })
    expect(ids.creditOf(1, W + 2 * MIN, DAY, () => true)).toEqual({ campaign: 6, spot: 60 })
    expect(ids.lastTouch('caid:b', W + 2 * MIN, DAY, () => true)).toEqual({ campaign: 6, spot: 60 })
  })

  it('does not link cookies, and address identities only with their legacy text', () => {
    const ids = new Identities()
    ids.add('idfa:a', 1, W)
    ids.add('amid:0123456789abcdef0123456789abcdef', 0, W)
    ids.add('ipua:0123456789abcdef0123456789abcdef', 0, W)
    expect(ids.linkable(1, 2, false)).toBe(false)
    expect(ids.linkable(3, 1, false)).toBe(false)
    expect(ids.linkable(3, 2, false)).toBe(false)
    expect(ids.linkable(3, 2, true)).toBe(true)
    expect(ids.linkable(1, 2, true)).toBe(false)
  })

  it('does not make a device of more than 16 ids', () => {
    const ids = new Identities()
    for (let i = 1; i <= 20; i++) ids.add(`idfa:${i}`, 1, W)
    for (let i = 2; i <= 16; i++) expect(ids.link(1, i)).not.toBeNull()
    expect(ids.link(1, 17)).toBeNull()
    expect(ids.rootOf(17)).toBe(17)
    expect(ids.link(18, 19)).not.toBeNull()
    expect(ids.link(1, 18)).toBeNull()
    expect(ids.membersOf(1)).toHaveLength(16)
  })

  it('does keep devices, their times and uncounted campaigns through a checkpoint', () => {
    const ids = three()
    overCount(ids, 2, 20, W, false)
    ids.noteUncounted(2, 9)
    ids.noteEvent(2)
    ids.link(2, 3)
    overCount(ids, 1, 3, W, false)
    const back = Identities.from(IdentityTexts.of(ids.textStore.all()), ids.arrays())
    expect(back.rootOf(3)).toBe(2)
    expect(back.membersOf(2)).toEqual([2, 3])
    expect(back.arrays()).toEqual(ids.arrays())
    expect(overCount(back, 2, 11, W, false).indexOf(true)).toBe(10)
    back.noteEvent(1)
    expect(back.link(1, 2)?.campaigns).toEqual([9])
  })
})

describe('Identities.touched, lastTouch and creditOf', () => {
  const all = (): boolean => true
  function withTouches(): Identities {
    const ids = new Identities()
    ids.add('amid:a', 0, W)
    return ids
  }

  it('does answer null for an unknown identity or one never touched', () => {
    const ids = withTouches()
    expect(ids.lastTouch('amid:nobody', W, DAY, all)).toBeNull()
    expect(ids.lastTouch('amid:a', W, DAY, all)).toBeNull()
    expect(ids.creditOf(1, W, DAY, all)).toBeNull()
  })

  it('does answer the same by text (lastTouch) and by number (creditOf)', () => {
    const ids = withTouches()
    ids.add('amid:b', 0, W)
    ids.touched(2, true, 5, 50, W)
    expect(ids.lastTouch('amid:b', W, DAY, all)).toEqual({ campaign: 5, spot: 50 })
    expect(ids.creditOf(2, W, DAY, all)).toEqual({ campaign: 5, spot: 50 })
    expect(ids.creditOf(1, W, DAY, all)).toBeNull()
  })

  it('does credit the latest impression when there is no click', () => {
    const ids = withTouches()
    ids.touched(1, false, 5, 50, W)
    ids.touched(1, false, 6, 60, W + MIN)
    expect(ids.lastTouch('amid:a', W + 2 * MIN, DAY, all)).toEqual({ campaign: 6, spot: 60 })
  })

  it('does prefer the latest click over a later impression', () => {
    const ids = withTouches()
    ids.touched(1, true, 5, 50, W)
    ids.touched(1, false, 6, 60, W + MIN)
    expect(ids.lastTouch('amid:a', W + 2 * MIN, DAY, all)).toEqual({ campaign: 5, spot: 50 })
  })

  it('does fall back to the impression when the click is outside the window', () => {
    const ids = withTouches()
    ids.touched(1, true, 5, 50, W)
    ids.touched(1, false, 6, 60, W + 2 * DAY)
    expect(ids.lastTouch('amid:a', W + 3 * DAY, 2 * DAY, all)).toEqual({ campaign: 6, spot: 60 })
  })

  it('does include a touch exactly windowMs before and exclude one a millisecond older', () => {
    const ids = withTouches()
    ids.touched(1, false, 6, 60, W)
    expect(ids.lastTouch('amid:a', W + DAY, DAY, all)).toEqual({ campaign: 6, spot: 60 })
    expect(ids.lastTouch('amid:a', W + DAY + 1, DAY, all)).toBeNull()
  })

  it('does ignore a touch later than the event', () => {
    const ids = withTouches()
    ids.touched(1, true, 5, 50, W + MIN)
    ids.touched(1, false, 6, 60, W - MIN)
    expect(ids.lastTouch('amid:a', W, DAY, all)).toEqual({ campaign: 6, spot: 60 })
    expect(ids.lastTouch('amid:a', W + MIN, DAY, all)).toEqual({ campaign: 5, spot: 50 })
  })

  it('does credit only a campaign the linked filter allows', () => {
    const ids = withTouches()
    ids.touched(1, true, 5, 50, W)
    ids.touched(1, false, 6, 60, W)
    expect(ids.lastTouch('amid:a', W, DAY, (c) => c === 6)).toEqual({ campaign: 6, spot: 60 })
    expect(ids.lastTouch('amid:a', W, DAY, (c) => c === 5)).toEqual({ campaign: 5, spot: 50 })
    expect(ids.lastTouch('amid:a', W, DAY, () => false)).toBeNull()
  })

  it('does credit the latest click on a linked campaign, although a later click went to another campaign', () => {
    const ids = withTouches()
    ids.touched(1, true, 5, 50, W)
    ids.touched(1, true, 7, 70, W + MIN)
    ids.touched(1, true, 8, 80, W + 2 * MIN)
    ids.touched(1, false, 6, 60, W + 3 * MIN)
    expect(ids.lastTouch('amid:a', W + 4 * MIN, DAY, (c) => c === 5 || c === 6)).toEqual({ campaign: 5, spot: 50 })
    expect(ids.lastTouch('amid:a', W + 4 * MIN, DAY, (c) => c === 5 || c === 7)).toEqual({ campaign: 7, spot: 70 })
    expect(ids.lastTouch('amid:a', W + 4 * MIN, DAY, (c) => c === 6)).toEqual({ campaign: 6, spot: 60 })
  })

  it('does keep the latest touch of each campaign, by time, whatever the arrival order', () => {
    const ids = withTouches()
    ids.touched(1, false, 5, 51, W + 5 * MIN)
    ids.touched(1, false, 6, 60, W + MIN)
    ids.touched(1, false, 5, 52, W + 2 * MIN) // older than 51: ignored
    ids.touched(1, false, 7, 70, W)
    expect(ids.lastTouch('amid:a', W + 10 * MIN, DAY, all)).toEqual({ campaign: 5, spot: 51 })
    expect(ids.lastTouch('amid:a', W + 10 * MIN, DAY, (c) => c !== 5)).toEqual({ campaign: 6, spot: 60 })
    expect(ids.lastTouch('amid:a', W + 10 * MIN, DAY, (c) => c === 7)).toEqual({ campaign: 7, spot: 70 })
  })

  it('does skip a linked campaign whose touch fell out of the window for an older one still in it', () => {
    const ids = withTouches()
    ids.touched(1, true, 5, 50, W - 3 * DAY)
    ids.touched(1, true, 6, 60, W - DAY)
    expect(ids.lastTouch('amid:a', W, 2 * DAY, all)).toEqual({ campaign: 6, spot: 60 })
    expect(ids.lastTouch('amid:a', W, 2 * DAY, (c) => c === 5)).toBeNull()
    expect(ids.lastTouch('amid:a', W, 4 * DAY, (c) => c === 5)).toEqual({ campaign: 5, spot: 50 })
  })

  it('does not ask the linked filter about campaign 0 (never touched)', () => {
    const ids = withTouches()
    const asked: number[] = []
    ids.touched(1, false, 6, 60, W)
    ids.lastTouch('amid:a', W, DAY, (c) => (asked.push(c), false))
    expect(asked).toEqual([6])
  })

  it('does keep the later touch of a campaign when an earlier one of it arrives afterwards', () => {
    const ids = withTouches()
    ids.touched(1, true, 5, 50, W)
    ids.touched(1, true, 5, 55, W - MIN)
    expect(ids.lastTouch('amid:a', W, DAY, all)).toEqual({ campaign: 5, spot: 50 })
  })

  it('does let a touch of a campaign at the same time replace the previous one', () => {
    const ids = withTouches()
    ids.touched(1, true, 5, 50, W)
    ids.touched(1, true, 5, 55, W)
    expect(ids.lastTouch('amid:a', W, DAY, all)).toEqual({ campaign: 5, spot: 55 })
  })

  it('does keep touches per identity', () => {
    const ids = withTouches()
    ids.add('amid:b', 0, W)
    ids.touched(1, true, 5, 50, W)
    ids.touched(2, false, 6, 60, W)
    ids.touched(2, false, 7, 70, W + 1)
    expect(ids.lastTouch('amid:a', W + 1, DAY, all)).toEqual({ campaign: 5, spot: 50 })
    expect(ids.lastTouch('amid:a', W + 1, DAY, (c) => c !== 5)).toBeNull()
    expect(ids.lastTouch('amid:b', W + 1, DAY, (c) => c === 6)).toEqual({ campaign: 6, spot: 60 })
  })
})
