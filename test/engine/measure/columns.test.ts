// docs/measurement.md "In-memory columns": per-campaign/minisite typed arrays, identity-ordered visits
import { describe, expect, it } from 'vitest'
import { Columns, MAX_EVENTS, Partition } from '../../../engine/measure/columns'
import { prng } from '../../helpers/prng'

/**
 * Adds events of the given identities. Every other column is a function of the event's global
 * number g (spot = g + 1000 is unique), so an event can be recognised after compaction renumbers it.
 */
function fill(p: Partition, identities: readonly number[]): void {
  const base = p.n
  identities.forEach((id, k) => {
    const g = base + k
    p.add(20_000 + (g % 7), g % 24, 1 + (g % 3), g % 256, g % 393, g + 1000, g % 11, id, 40 + (g % 5), 1 + (g % 9))
  })
}

/** The event numbers g (see fill) whose columns do not all match g, or do not match its identity. */
function mismatched(p: Partition, identityOf: readonly number[]): number[] {
  const bad: number[] = []
  for (let i = 0; i < p.n; i++) {
    const g = p.spot[i]! - 1000
    const ok = p.day[i] === 20_000 + (g % 7) && p.hour[i] === g % 24 && p.kind[i] === 1 + (g % 3) && p.flags[i] === g % 256 &&
      p.region[i] === g % 393 && p.keyword[i] === g % 11 && p.identity[i] === identityOf[g] &&
      (!p.minisite || (p.campaign[i] === 40 + (g % 5) && p.event[i] === 1 + (g % 9)))
    if (!ok) bad.push(g)
  }
  return bad
}

interface Visit {
  identity: number
  events: number[]
}

function visits(p: Partition, identities: number): Visit[] {
  const out: Visit[] = []
  p.visitByIdentity(identities, (events, count, identity) => out.push({ identity, events: Array.from(events.subarray(0, count)) }))
  return out
}

/**
 * Every event exactly once, grouped by identity (each identity once), in ascending identity order.
 * Returns the first violation ('' when none), so that one assertion covers a million events.
 */
function groupingError(p: Partition, got: Visit[]): string {
  const seen = new Uint8Array(p.n)
  let prev = -1
  for (const v of got) {
    if (v.identity <= prev) return `identity ${v.identity} visited after ${prev}`
    prev = v.identity
    if (v.events.length === 0) return `identity ${v.identity} visited without events`
    for (const i of v.events) {
      if (p.identity[i] !== v.identity) return `event ${i} of identity ${p.identity[i]} visited with identity ${v.identity}`
      if (seen[i]) return `event ${i} visited twice`
      seen[i] = 1
    }
  }
  const missed = seen.indexOf(0)
  return missed < 0 ? '' : `event ${missed} never visited`
}

function expectGrouped(p: Partition, got: Visit[]): void {
  expect(groupingError(p, got)).toBe('')
}

/** How many events are stored in identity order (asks without triggering a compaction when the tail is short). */
const sortedProgress = (p: Partition, identities: number): number => p.identityOrder(identities).sorted

/** A visit by event (spot - 1000 = g), independent of the numbering of the moment. */
const byEvent = (p: Partition, vs: Visit[]): [number, number[]][] => vs.map((v) => [v.identity, v.events.map((i) => p.spot[i]! - 1000).sort((a, b) => a - b)])

const draw = (rnd: () => number, n: number, identities: number): number[] => Array.from({ length: n }, () => 1 + Math.floor(rnd() * (identities - 1)))

describe('Partition.add', () => {
  it('does store every column of an event and bump the version', () => {
    const p = new Partition()
    p.add(20_100, 23, 2, 0b1011, 392, 4_000_000_000, 77, 123_456)
    expect(p.n).toBe(1)
    expect(p.version).toBe(1)
    expect([p.day[0], p.hour[0], p.kind[0], p.flags[0], p.region[0], p.spot[0], p.keyword[0], p.identity[0]]).toEqual([20_100, 23, 2, 0b1011, 392, 4_000_000_000, 77, 123_456])
    expect(p.minisite).toBe(false)
  })

  it('does keep no campaign or event column in a campaign partition', () => {
    const p = new Partition()
    fill(p, [1, 2, 3])
    expect(p.campaign.length).toBe(0)
    expect(p.event.length).toBe(0)
  })

  it('does grow past its initial capacity and keep every earlier event', () => {
    const p = new Partition()
    const ids = Array.from({ length: 5_000 }, (_, k) => (k * 7) % 313 + 1)
    fill(p, ids)
    expect(p.n).toBe(5_000)
    expect(p.version).toBe(5_000)
    expect(Array.from(p.spot.subarray(0, 5_000))).toEqual(Array.from({ length: 5_000 }, (_, g) => g + 1000))
    expect(mismatched(p, ids)).toEqual([])
  })

  it('does store the campaign and event of every minisite event, the first ones included', () => {
    const p = new Partition(true)
    const ids = Array.from({ length: 3_000 }, (_, k) => 1 + (k % 17))
    fill(p, ids)
    expect(p.minisite).toBe(true)
    expect(mismatched(p, ids)).toEqual([])
    expect([p.campaign[0], p.event[0], p.campaign[255], p.campaign[256]]).toEqual([40, 1, 40, 41])
  })

  it('does refuse an event past MAX_EVENTS and leave the partition unchanged', () => {
    const p = new Partition()
    p.n = MAX_EVENTS
    expect(MAX_EVENTS).toBe(2 ** 26)
    expect(() => p.add(1, 1, 1, 0, 0, 1, 0, 1)).toThrow(/at most 67108864 events/)
    expect(p.n).toBe(MAX_EVENTS)
    expect(p.version).toBe(0)
  })
})

describe('Partition.visitByIdentity', () => {
  it('does not call back for an empty partition', () => {
    const calls: number[] = []
    new Partition().visitByIdentity(10, (_e, _c, id) => calls.push(id))
    expect(calls).toEqual([])
  })

  it('does visit an unsorted tail grouped by identity, ascending', () => {
    const p = new Partition()
    fill(p, [5, 3, 5, 1, 3, 5, 9])
    expect(visits(p, 10)).toEqual([
      { identity: 1, events: [3] },
      { identity: 3, events: [1, 4] },
      { identity: 5, events: [0, 2, 5] },
      { identity: 9, events: [6] },
    ])
  })

  it('does visit every event once, grouped, for a random tail, without compacting', () => {
    const p = new Partition()
    fill(p, draw(prng(3), 20_000, 3_001))
    expectGrouped(p, visits(p, 3_001))
    expect(p.generation).toBe(0)
    expect(sortedProgress(p, 3_001)).toBe(0)
  })

  it('does not compact while the tail holds at most 65,536 events', () => {
    const p = new Partition()
    fill(p, draw(prng(4), 65_536, 1_000))
    visits(p, 1_000)
    expect(p.generation).toBe(0)
    fill(p, [7])
    visits(p, 1_000)
    expect(p.generation).toBe(1)
  })

  it('does compact past 65,536 unsorted events (counting sort) and still visit every event once', () => {
    const ids = draw(prng(5), 70_000, 5_001)
    const p = new Partition()
    fill(p, ids)
    const got = visits(p, 5_001)
    expect(p.generation).toBe(1)
    expect(sortedProgress(p, 5_001)).toBe(70_000)
    expectGrouped(p, got)
    expect(mismatched(p, ids)).toEqual([])
  })

  it('does compact a small partition of many identities (packed keys) and still visit every event once', () => {
    const identities = 400_000 // more than 4 x the events: the packed-key sort
    const ids = draw(prng(11), 66_000, identities)
    const p = new Partition()
    fill(p, ids)
    const got = visits(p, identities)
    expect(p.generation).toBe(1)
    expect(sortedProgress(p, identities)).toBe(66_000)
    expectGrouped(p, got)
    expect(mismatched(p, ids)).toEqual([])
  })

  it('does store the events in identity order after compaction, keeping each event whole', () => {
    for (const identities of [3_000, 400_000]) {
      const ids = draw(prng(13), 66_000, identities)
      const p = new Partition(true)
      fill(p, ids)
      p.identityOrder(identities)
      const col = Array.from(p.identity.subarray(0, p.n))
      expect(col.every((id, i) => i === 0 || col[i - 1]! <= id), `identities ${identities}: stored in order`).toBe(true)
      expect(mismatched(p, ids), `identities ${identities}: every column moved with its event`).toEqual([])
      // events of one identity keep their arrival order (a stable sort)
      expect(col.every((id, i) => i === 0 || col[i - 1]! !== id || p.spot[i - 1]! < p.spot[i]!)).toBe(true)
    }
  })

  it('does give the tail sorted by identity and leave the sorted prefix alone', () => {
    const p = new Partition()
    fill(p, draw(prng(19), 66_000, 500))
    p.identityOrder(500)
    fill(p, [9, 3, 9, 1])
    const { sorted, tail } = p.identityOrder(500)
    expect(sorted).toBe(66_000)
    expect(Array.from(tail)).toEqual([66_003, 66_001, 66_000, 66_002])
  })

  it('does merge a sorted prefix with a later tail, identities present in both visited once', () => {
    for (const identities of [2_000, 400_000]) {
      const rnd = prng(17)
      const ids = draw(rnd, 66_000, identities)
      const p = new Partition()
      fill(p, ids)
      visits(p, identities) // compacts
      const more = [...draw(rnd, 5_000, identities), 1, identities - 1, 1] // the smallest and the largest identity again
      fill(p, more)
      ids.push(...more)
      const got = visits(p, identities)
      expect(p.generation, 'the tail is small: no new sort').toBe(1)
      expectGrouped(p, got)
      const ones = byEvent(p, got).find(([id]) => id === 1)!
      expect(ones[1]).toEqual(expect.arrayContaining([71_000, 71_002]))
      expect(mismatched(p, ids)).toEqual([])
    }
  })

  it('does compact again once the tail passes an eighth of a large partition', () => {
    const rnd = prng(23)
    const ids = draw(rnd, 600_000, 10_001)
    const p = new Partition()
    fill(p, ids)
    visits(p, 10_001)
    expect(p.generation).toBe(1)
    const more = draw(rnd, 85_000, 10_001) // tail 85,000 <= 685,000 / 8
    fill(p, more)
    ids.push(...more)
    visits(p, 10_001)
    expect(p.generation).toBe(1)
    expect(sortedProgress(p, 10_001)).toBe(600_000)
    const last = draw(rnd, 1_000, 10_001) // tail 86,000 > 686,000 / 8
    fill(p, last)
    ids.push(...last)
    const got = visits(p, 10_001)
    expect(p.generation).toBe(2)
    expect(sortedProgress(p, 10_001)).toBe(686_000)
    expectGrouped(p, got)
    expect(mismatched(p, ids)).toEqual([])
  })

  it('does visit the same events per identity before and after compaction', () => {
    const ids = draw(prng(29), 66_000, 701)
    const p = new Partition()
    fill(p, ids.slice(0, 60_000))
    const before = byEvent(p, visits(p, 701)) // no compaction: 60,000 <= 65,536
    expect(p.generation).toBe(0)
    fill(p, ids.slice(60_000))
    const after = byEvent(p, visits(p, 701))
    expect(p.generation).toBe(1)
    const afterOld = after.map(([id, gs]) => [id, gs.filter((g) => g < 60_000)] as [number, number[]]).filter(([, gs]) => gs.length > 0)
    expect(afterOld).toEqual(before)
  })

  it('does not bump the version when compacting', () => {
    const p = new Partition()
    fill(p, draw(prng(31), 66_000, 100))
    p.identityOrder(100)
    expect(p.generation).toBe(1)
    expect(p.version).toBe(66_000)
  })

  it('does hand over all the events of an identity with many events', () => {
    const p = new Partition()
    fill(p, [...Array.from({ length: 5_000 }, () => 2), 1, 3])
    const got = visits(p, 4)
    expect(got.map((v) => [v.identity, v.events.length])).toEqual([[1, 1], [2, 5_000], [3, 1]])
    expectGrouped(p, got)
  })

  it('does pass one reused buffer: callers must copy what they keep', () => {
    const p = new Partition()
    fill(p, [1, 1, 2])
    const kept: Uint32Array[] = []
    const copies: number[][] = []
    p.visitByIdentity(3, (events, count) => {
      kept.push(events)
      copies.push(Array.from(events.subarray(0, count)))
    })
    expect(copies).toEqual([[0, 1], [2]])
    expect(kept[0]).toBe(kept[1])
    expect(kept[0]![0]).toBe(2) // the first identity's events were overwritten by the second's
  })
})

describe('Partition.markRelabel', () => {
  it('does change the generation at once, and before the next pass rewrites identities to their roots and sorts', () => {
    const p = new Partition()
    for (const id of [3, 1, 2, 3, 2]) p.add(100, 1, 1, 0, 0, 10, 0, id)
    const runs = () => {
      const out: number[] = []
      p.visitByIdentity(4, (_e, count, id) => out.push(id, count))
      return out
    }
    expect(runs()).toEqual([1, 1, 2, 2, 3, 2])
    const generation = p.generation
    // 3 joined 2's device: root 2
    p.markRelabel({ rootOf: (id) => (id === 3 ? 2 : id) })
    expect(p.generation).toBe(generation + 1)
    expect(p.relabelPending).toBe(true)
    expect(p.arrays().relabel).toBe(true)
    expect(runs()).toEqual([1, 1, 2, 4])
    expect(p.relabelPending).toBe(false)
    expect(p.sortedCount).toBe(5)
    expect(p.generation).toBeGreaterThan(generation + 1)
  })

  it('does mark the partition of a campaign with no events yet (its hits may be on their way) when its first event makes it, after those made before', () => {
    const c = new Columns()
    c.markRelabel('campaign', 7, { rootOf: (id) => id })
    expect(c.campaign(7)).toBeUndefined()
    expect(c.events).toBe(0)
    c.partitionFor('campaign', 3).add(100, 1, 1, 0, 0, 10, 0, 1)
    c.partitionFor('campaign', 7).add(100, 1, 1, 0, 0, 10, 0, 1)
    expect(c.campaign(7)!.relabelPending).toBe(true)
    expect(c.campaign(3)!.relabelPending).toBe(false)
    expect(c.campaign(7)!.n).toBe(1)
    // (partitions in the order of their first events, as a replay of the log makes them)
    expect([...c.campaigns.keys()]).toEqual([3, 7])
  })
})

describe('Columns', () => {
  it('does keep one partition per campaign and per minisite, counting the events held', () => {
    const c = new Columns()
    const a = c.partitionFor('campaign', 1)
    expect(c.partitionFor('campaign', 1)).toBe(a)
    const m = c.partitionFor('minisite', 1)
    expect(m).not.toBe(a)
    expect(m.minisite).toBe(true)
    expect(a.minisite).toBe(false)
    expect(c.partitionFor('campaign', 2)).not.toBe(a)
    expect(c.events).toBe(4)
    expect(c.campaign(1)).toBe(a)
    expect(c.minisite(1)).toBe(m)
    expect(c.campaign(3)).toBeUndefined()
    expect(c.minisite(2)).toBeUndefined()
  })

  it('does forget every partition on clear', () => {
    const c = new Columns()
    c.partitionFor('campaign', 1).add(1, 1, 1, 0, 0, 1, 0, 1)
    c.partitionFor('minisite', 2).add(1, 1, 3, 0, 0, 0, 0, 1, 1, 1)
    c.clear()
    expect(c.events).toBe(0)
    expect(c.campaign(1)).toBeUndefined()
    expect(c.minisite(2)).toBeUndefined()
  })
})

describe('Partition.sortInTurns', () => {
  it('gives the columns settle gives, in slices between turns, for campaign and minisite partitions, few and many identities', async () => {
    for (const [minisite, identities, n] of [[false, 5_000, 30_000], [true, 5_000, 30_000], [false, 400_000, 20_000]] as const) {
      const random = prng(n + identities)
      const ids = Array.from({ length: n }, () => 1 + Math.floor(random() * (identities - 1)))
      const [a, b] = [new Partition(minisite), new Partition(minisite)]
      fill(a, ids.slice(0, n / 2))
      a.settle(identities, true)
      fill(a, ids.slice(n / 2))
      fill(b, ids.slice(0, n / 2))
      b.settle(identities, true)
      fill(b, ids.slice(n / 2))
      a.settle(identities, true)
      // (what a callback of the next turn sees: still the old order when the sort yields between slices)
      let seen = -1
      setImmediate(() => (seen = b.sortedCount))
      await b.sortInTurns(identities, 1_000)
      expect(b.sortedCount).toBe(n)
      expect(mismatched(b, ids)).toEqual([])
      for (const k of ['day', 'hour', 'kind', 'flags', 'region', 'spot', 'keyword', 'identity', 'campaign', 'event'] as const) expect(Array.from(b[k].subarray(0, n)), k).toEqual(Array.from(a[k].subarray(0, n)))
      expect(seen).toBe(n / 2)
    }
  })
})
