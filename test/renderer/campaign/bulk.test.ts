// renderer/src/campaign/bulk.ts: sheet -> batch items, checks, and item[N] errors back on rows
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { BATCH_ITEM } from '../../../engine/contract/endpoints-cms'
import { E, badRequest, refuse } from '../../../engine/contract/errors'
import { describeProblem, problem } from '../../../engine/contract/problems'
import type { PlanInput } from '../../../engine/routes/spots-plan'
import { messageOf } from '../../../renderer/src/api/problems'
import { BATCH_FIELDS, batchBody, fieldOfMessage, itemError, mapColumns, mappingProblems, rowProblems, sheetItems, templateRows } from '../../../renderer/src/campaign/bulk'
import { emptyForm, validateSpot } from '../../../renderer/src/campaign/spot-form'
import { parseCsv } from '../../../renderer/src/utils/export'
import { makeEngine } from '../../helpers/make-engine'
import { engineRefusal } from './engine-plan'

const campaign = { start_date: '2025-01-10', end_date: '2025-01-20' }

describe('templateRows', () => {
  it('has every batch member as a column and examples that pass the checks', () => {
    const [header, ...rows] = templateRows(campaign)
    expect([...header!].sort()).toEqual(Object.keys(BATCH_ITEM).sort())
    const items = sheetItems(rows, mapColumns(header!))
    expect(items).toHaveLength(2)
    for (const r of items) expect(rowProblems(r.item, campaign)).toEqual([])
    expect(items[0]!.item.add_slot).toBe('2025-01-10,2025-01-11,2025-01-12')
  })
})

describe('mapColumns', () => {
  it('maps wire names in any case and spacing, labels given as aliases, and each field once', () => {
    expect(mapColumns(['Publisher Name', 'channel-name', 'GUID', 'budgetinput', 'Placement', 'notes', 'guid'], { Placement: 'placement_name' }))
      .toEqual(['publisher_name', 'channel_name', 'guid', 'budgetInput', 'placement_name', null, null])
  })

  it('reports required fields without a column and fields mapped twice', () => {
    expect(mappingProblems(['publisher_name', 'guid', 'guid', null])).toEqual({ missing: ['channel_name', 'placement_name'], twice: ['guid'] })
  })
})

describe('sheetItems', () => {
  it('keeps non-empty mapped cells, skips blank rows and numbers lines from the header', () => {
    const rows = parseCsv('publisher_name,channel_name,placement_name,x\nA,news, top ,ignored\n,,,\nB,c,,\n')
    const items = sheetItems(rows.slice(1), mapColumns(rows[0]!))
    expect(items).toEqual([
      { line: 2, item: { publisher_name: 'A', channel_name: 'news', placement_name: 'top' } },
      { line: 3, item: { publisher_name: 'B', channel_name: 'c' } },
    ])
  })
})

describe('rowProblems', () => {
  const base = { publisher_name: 'A', channel_name: 'news', placement_name: 'top' }

  it('checks members with the engine codecs', () => {
    const problems = rowProblems({ ...base, placement_name: undefined, placement_type: 'banner', freq_capping: 's1+' }, campaign)
    expect(problems.map((p) => p.field)).toEqual(['placement_name', 'placement_type', 'freq_capping'])
    expect(problems[0]!.message).toBe("The 'placement_name' is required.")
  })

  it('applies the plan rules of batch items', () => {
    const fields = (item: Record<string, string>) => rowProblems({ ...base, ...item }, campaign).map((p) => p.field)
    expect(fields({ add_slot: '2025-01-10', slot_begin: '2025-01-10' })).toContain('add_slot')
    expect(fields({ add_slot: '2025-01-10,2025-01-11', est_impression_day: '1' })).toEqual(['est_impression_day'])
    expect(fields({ est_click_day: '1' })).toEqual(['est_click_day'])
    expect(fields({ add_slot: '2025-01-09' })).toEqual(['add_slot'])
    expect(fields({ slot_begin: '2025-01-15' })).toEqual(['slot_duration'])
    expect(fields({ est_impression: '100' })).toEqual(['est_impression'])
    expect(fields({ slot_begin: '2025-01-15', slot_duration: '7' })).toEqual(['slot_duration'])
    expect(fields({ slot_begin: '2025-01-15', slot_duration: '6', est_impression: '60' })).toEqual([])
  })

  it('shows every problem of a row at once: a total that does not read, and the plan rules the rest breaks', () => {
    const fields = (item: Record<string, string>) => rowProblems({ ...base, ...item }, campaign).map((p) => p.field)
    expect(fields({ slot_begin: '2025-01-15', slot_duration: '7', est_impression: 'abc' })).toEqual(['est_impression', 'slot_duration'])
    // a member the rules decide by that does not read: only its own problem (no "send slot_duration")
    expect(fields({ slot_begin: '2025-01-15', slot_duration: 'x' })).toEqual(['slot_duration'])
  })

  it("words each plan problem as the engine does (docs/app.md: the engine's own words)", () => {
    const cases: [Record<string, string>, PlanInput][] = [
      [{ slot_begin: '2025-01-15', slot_duration: '7' }, { slot_begin: '2025-01-15', slot_duration: 7 }],
      [{ slot_begin: '2025-01-21', slot_duration: '2' }, { slot_begin: '2025-01-21', slot_duration: 2 }],
      [{ slot_begin: '2025-01-15' }, { slot_begin: '2025-01-15' }],
      [{ est_click: '5' }, { est_click: 5 }],
      [{ add_slot: '2025-01-10', slot_begin: '2025-01-10' }, { add_slot: ['2025-01-10'], slot_begin: '2025-01-10' }],
      [{ add_slot: '2025-01-10,2025-01-11', est_impression_day: '1' }, { add_slot: ['2025-01-10', '2025-01-11'], est_impression_day: [1] }],
      [{ est_click_day: '1' }, { est_click_day: [1] }],
      [{ add_slot: '2025-01-10,2025-01-21' }, { add_slot: ['2025-01-10', '2025-01-21'] }],
    ]
    for (const [item, input] of cases) expect(rowProblems({ ...base, ...item }, campaign).map((p) => p.message)).toContain(engineRefusal(input, campaign))
  })

  it('wants a Bidding channel for keywords, in the words of the engine and of the spot form', async () => {
    const problems = rowProblems({ ...base, keyword: 'milk^' }, campaign)
    expect(problems.map((p) => p.field)).toEqual(['channel_name'])
    expect(rowProblems({ ...base, channel_name: 'Bidding word', keyword: 'milk^' }, campaign)).toEqual([])
    const t = await makeEngine()
    const c = (await t.post(endpoints['campaigns.create'].path, { campaign_name: 'words', start_date: campaign.start_date, end_date: campaign.end_date })).body.campaign_id
    const r = await t.postJson(endpoints['campaigns.batch_create_spot_with_plan'].path, { campaign_id: c, spots: [{ ...base, keyword: 'milk^' }] })
    expect(r.body.error_description).toBe(`item[0] ${problems[0]!.message}`)
    const form = { ...emptyForm(), publisher_name: base.publisher_name, channel_name: base.channel_name, placement_name: base.placement_name }
    expect(validateSpot(form, 'plan', campaign, 1).channel_name).toBe(problems[0]!.message)
  })
})

describe('answers', () => {
  it('builds the JSON body from the rows in order', () => {
    expect(batchBody('12', [{ line: 2, item: { publisher_name: 'A' } }, { line: 5, item: { publisher_name: 'B' } }]))
      .toEqual({ campaign_id: '12', spots: [{ publisher_name: 'A' }, { publisher_name: 'B' }] })
  })

  it("reads an item's refusal and the member it is about by their problems", () => {
    const reason = problem('param.vendingModel', { param: 'vending_model', list: 'A, B', got: 'x' })
    const e = itemError(messageOf(refuse(E.invalidRequest, 'batch.item', { index: 2, reason })))
    expect(e).toEqual({ index: 2, message: describeProblem(reason) })
    expect(fieldOfMessage(e!.message)).toBe('vending_model')
    expect(itemError(messageOf(badRequest('batch.noSpots', { param: 'spots' })))).toBeNull()
    expect(fieldOfMessage(messageOf(badRequest('batch.noSpots', { param: 'spots' })))).toBeNull()
    // (a sentence of no known problem is not read)
    expect(itemError("item[2] The 'vending_model' must be level1-level2.")).toBeNull()
  })

  it('lists the required fields first', () => {
    expect(BATCH_FIELDS.slice(0, 3)).toEqual(['publisher_name', 'channel_name', 'placement_name'])
  })
})
