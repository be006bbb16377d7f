/**
 * The answer cache step: an answer is kept per endpoint, parameters, day and version (the
 * database's; for reports the measurement's too), is sent again with its bytes while they hold,
 * and is not kept when a write landed while it was made. The "handler" here is a counter that
 * answers what it was called with, so each run is visible.
 */
import { describe, expect, it } from 'vitest'
import { JsonParts } from '../../../../engine/answers'
import { answerCache } from '../../../../engine/dispatch/steps/answer-cache'
import { runHandler } from '../../../../engine/dispatch/steps/handler'
import type { Call, Next } from '../../../../engine/dispatch/call'
import type { EndpointId } from '../../../../engine/contract/endpoints'
import { callOf, fakeServices, sent } from '../fake-call'

function setup() {
  const s = fakeServices()
  const step = answerCache(s.asServices)
  let runs = 0
  let answer: (call: Call) => unknown = (call) => ({ run: runs, params: call.params, today: call.today })
  const end: Next = runHandler((call) => {
    runs++
    return answer(call)
  })
  /** One call of `id` through the step, its write scope's version taken now (as steps/durability.ts does). */
  const ask = (id: EndpointId, params: unknown = {}, callback?: string) => {
    const call = callOf(id, params, { callback })
    call.version = s.db.version
    return step.run(call, end)
  }
  return { s, ask, runs: () => runs, answerWith: (f: (call: Call) => unknown) => (answer = f) }
}

describe('answer cache step', () => {
  it('sends a kept answer again, its bytes those of the text, while the database version holds', async () => {
    const { s, ask, runs } = setup()
    const first = await ask('campaigns.show', { campaign_id: 7 })
    const again = await ask('campaigns.show', { campaign_id: 7 })
    expect(runs()).toBe(1)
    expect(again.body).toBe(first.body)
    expect(Buffer.from(again.bytes!).toString('utf8')).toBe(first.body)
    expect(JSON.parse(again.body)).toEqual({ run: 1, params: { campaign_id: 7 }, today: '2026-03-10' })
    s.db.version++
    expect(JSON.parse((await ask('campaigns.show', { campaign_id: 7 })).body)).toMatchObject({ run: 2 })
  })

  it('keeps each parameter set, endpoint and day apart', async () => {
    const { s, ask, runs } = setup()
    await ask('campaigns.show', { campaign_id: 7 })
    await ask('campaigns.show', { campaign_id: 8 })
    await ask('campaigns.show_spot', { campaign_id: 7 })
    expect(runs()).toBe(3)
    await s.clock.sleep(14 * 3_600_000) // 2026-03-11 00:00 in Shanghai
    expect(JSON.parse((await ask('campaigns.show', { campaign_id: 7 })).body)).toEqual({ run: 4, params: { campaign_id: 7 }, today: '2026-03-11' })
  })

  it('ends a report\'s answer at the next counted event, a metadata answer only at the next write', async () => {
    const { s, ask, runs } = setup()
    await ask('reports.basic_show', { campaign_id: 7 })
    await ask('campaigns.show', { campaign_id: 7 })
    s.measure.version = 'm2'
    await ask('reports.basic_show', { campaign_id: 7 })
    await ask('campaigns.show', { campaign_id: 7 })
    expect(runs()).toBe(3)
  })

  it('keeps no answer made while a write landed, nor drops for it the answers kept since', async () => {
    const { s, ask, runs, answerWith } = setup()
    const plain = (call: Call) => ({ run: runs(), params: call.params })
    // campaign 7's answer is made while a write lands, and campaign 8's is kept meanwhile at the new version
    answerWith(async (call) => {
      s.db.version++
      answerWith(plain)
      await ask('campaigns.show', { campaign_id: 8 })
      return plain(call)
    })
    await ask('campaigns.show', { campaign_id: 7 })
    expect(runs()).toBe(2)
    await ask('campaigns.show', { campaign_id: 8 })
    expect(runs()).toBe(2)
    await ask('campaigns.show', { campaign_id: 7 })
    expect(runs()).toBe(3)
  })

  it('keeps an answer written as UTF-8 pieces in one piece, and wraps a kept answer for JSONP', async () => {
    const { ask, runs, answerWith } = setup()
    answerWith(() => new JsonParts([Buffer.from('{"a":'), Buffer.from('"é"}')]))
    const fresh = await ask('reports.basic_show', { campaign_id: 7 })
    const kept = await ask('reports.basic_show', { campaign_id: 7 })
    const wrapped = await ask('reports.basic_show', { campaign_id: 7 }, 'cb')
    expect(runs()).toBe(1)
    expect(sent(fresh)).toBe('{"a":"é"}')
    expect(kept.parts).toHaveLength(1)
    expect(sent(kept)).toBe('{"a":"é"}')
    expect(wrapped.body).toBe('/**/cb({"a":"é"});')
    expect(wrapped.headers['content-type']).toBe('application/javascript;charset=UTF-8')
  })
})
