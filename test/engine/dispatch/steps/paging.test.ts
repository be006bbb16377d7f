/**
 * The paging step: every page of a query is cut out of one result set, read once per day and
 * database version whatever the limit; another filter is another set; an endpoint without a
 * cache reads its rows for each page. The rows are made here, and each page is checked against
 * the whole list cut by hand.
 */
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../../engine/contract/endpoints'
import { paging } from '../../../../engine/dispatch/steps/paging'
import { PagedRows } from '../../../../engine/result-sets'
import type { Call, Next } from '../../../../engine/dispatch/call'
import { callOf, fakeServices, sent } from '../fake-call'

const unused: Next = () => Promise.reject(new Error('a paged chain ends at the paging step'))

function setup() {
  const s = fakeServices()
  let reads = 0
  const ids = Array.from({ length: 300 }, (_, i) => i + 1)
  const handle = (call: Call) => {
    reads++
    const { status } = call.params as { status?: number }
    const matching = status === undefined ? ids : ids.filter((id) => id % 3 === status)
    return new PagedRows(matching, (some) => some.map((id) => ({ id, name: `campaign ${id}`, version: s.db.version })))
  }
  const step = paging(s.asServices, handle)
  const page = async (offset: number, count: number, filter: Record<string, unknown> = {}, call = callOf('campaigns.list', { ...filter, limit: { offset, count } })) => JSON.parse(sent(await step.run(call, unused))) as { id: number; version: number }[]
  return { s, step, page, reads: () => reads }
}

describe('paging step', () => {
  it('answers every page of a query from one read, each the whole list cut', async () => {
    const { page, reads } = setup()
    expect((await page(0, 10)).map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
    expect((await page(120, 20)).map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 121))
    expect((await page(290, 50)).map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 291))
    expect(await page(400, 5)).toEqual([])
    expect(reads()).toBe(1)
  })

  it('reads again for another filter, another database version and another day', async () => {
    const { s, page, reads } = setup()
    await page(0, 10)
    expect((await page(0, 3, { status: 1 })).map((r) => r.id)).toEqual([1, 4, 7])
    expect(reads()).toBe(2)
    s.db.version = 2
    expect((await page(0, 1))[0]!.version).toBe(2)
    expect(reads()).toBe(3)
    await s.clock.sleep(24 * 3_600_000)
    await page(0, 1)
    expect(reads()).toBe(4)
  })

  it('reads the rows for every page of an endpoint without a cache', async () => {
    const { step, reads } = setup()
    const uncached = (offset: number): Call => ({ ...callOf('campaigns.list', { limit: { offset, count: 2 } }), def: { ...endpoints['campaigns.list'], cache: undefined } })
    expect(JSON.parse(sent(await step.run(uncached(0), unused)))).toHaveLength(2)
    expect(JSON.parse(sent(await step.run(uncached(2), unused)))[0]).toMatchObject({ id: 3 })
    expect(reads()).toBe(2)
  })
})
