// census-store.ts: the file holds at most MAX_FILE_BYTES of counters, the censuses used last first.
// A census that does not fit (a days report's census of a few days of spot x city, 45 MB; or more
// than the bound by itself) is left out, and the censuses used before it that still fit are kept:
// the reports they answer read them at the next start.
import { describe, expect, it } from 'vitest'
import { MemoryEventLog } from '../../../engine/measure/event-log'
import { CensusStore, MAX_FILE_BYTES, keptFileOf, type KeptCensus } from '../../../engine/reports/census-store'
import { fixture, uniform } from './census-store-crash-child'

/** Cells of a census whose counters take about `mib` MiB on disk. */
const cellsOf = (mib: number) => Math.floor((mib * 2 ** 20) / (4 * 10 + 4 * 24 * 2 + 1))

describe('kept censuses: the file bound', () => {
  it('keeps the censuses used before one that does not fit, when they do', async () => {
    const { part, base } = fixture()
    const store = new CensusStore(keptFileOf(new MemoryEventLog()))
    const sizes: [string, number][] = [['days', 40], ['city', 30], ['province', 12], ['publisher', 2], ['over', MAX_FILE_BYTES / 2 ** 20 + 1], ['total', 1]]
    const kept: KeptCensus[] = sizes.map(([key, mib], i) => ({ part: 1, key, n: 10, result: uniform(i + 1, cellsOf(mib)) }))
    await store.take(kept, null, () => part).write(base, () => part)
    const found = sizes.filter(([key]) => store.restore(base, 1, part, key) !== null).map(([key]) => key)
    // 40 + 12 + 2 + 1 MiB fit; 30 after 40 does not, nor the one over the bound by itself
    expect(found).toEqual(['days', 'province', 'publisher', 'total'])
    expect(store.restore(base, 1, part, 'publisher')!.result).toEqual(uniform(4, cellsOf(2)))
  })
})
