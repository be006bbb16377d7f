// Kept censuses and the answer text kept with them (census-cache.ts, kept-bytes.ts): basic/show asked
// again after events came writes only the rows whose cells changed and copies the others; every
// answer still equals the oracle's count over all the events, step after step.
import { beforeAll, describe, it } from 'vitest'
import { prng } from '../../helpers/prng'
import { buildDataset, importEvents, importPanel, type Dataset, type RawEvent } from './dataset'
import { PATHS, combinations, compare, noDifferences } from './helpers'
import { basicShow } from './oracle'

let base: Dataset
beforeAll(async () => {
  base = await buildDataset(2)
})

/**
 * `n` impressions and clicks like those of campaign A already sent (same spots, identities,
 * addresses, user agents, so some are new to their cell and some are not), at other times of
 * its window, a third on the report day.
 */
function moreEvents(ds: Dataset, rng: () => number, n: number, reportDay: string): RawEvent[] {
  const a = ds.campaigns[0]!.campaign_id
  const like = ds.events.filter((e) => e.campaign_id === a && e.kind !== 'evt' && e.via === 'import')
  return Array.from({ length: n }, (_, k) => {
    const e = like[Math.floor(rng() * like.length)]!
    const day = rng() < 1 / 3 ? reportDay : `2025-01-${String(12 + Math.floor(rng() * 14)).padStart(2, '0')}`
    const ts = Date.parse(`${day}T00:00:00+08:00`) + Math.floor(rng() * 86_400_000)
    return { ...e, seq: ds.events.length + k, ts }
  })
}

describe('basic/show with kept censuses and kept answer text', () => {
  it('equals the oracle after each of several batches of new events, for every breakdown asked before', async () => {
    const rng = prng(77)
    let ds = base
    const asks = combinations({ by_position: ['spot', 'publisher', 'keyword'], by_region: ['level2', 'level0'], by_audience: ['overall', 'stable'], date: [ds.dates.today, ds.dates.middle], order_desc: [undefined, 'uim_acc'] })
    const askAll = async (step: string) => {
      const diffs: string[] = []
      for (const q of asks) {
        const params = { campaign_id: ds.campaigns[0]!.campaign_id, platform: 'pm', metrics: 'all', ...q }
        diffs.push(...(await compare(ds, PATHS.basic, params, basicShow)).map((d) => `${step}: ${d}`))
      }
      noDifferences(diffs)
    }
    await askAll('before')
    for (const n of [1, 3, 40, 400]) {
      const added = moreEvents(ds, rng, n, ds.dates.today)
      await importEvents(ds.t, added, ds.spots)
      // a new object: the oracle keeps its facts per dataset
      ds = { ...ds, events: [...ds.events, ...added] }
      await askAll(`after ${n} more`)
    }
    // the panel's weights change: the universe attribute of every row, no census count
    const panelId = ds.campaigns[0]!.panel_id
    const panel = ds.panels.get(panelId)!
    const heavier = { ...panel, persons: panel.persons.map((x, k) => ({ ...x, weight: x.weight * (1 + (k % 3)) })) }
    await importPanel(ds.t, heavier)
    ds = { ...ds, panels: new Map([...ds.panels, [panelId, heavier]]) }
    await askAll('after the panel changed')
  })
})
