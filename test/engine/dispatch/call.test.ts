/**
 * Dispatch's chains: the steps run outermost first, a step that answers ends the chain, and each
 * endpoint's chain holds exactly the policies that apply to it: a tracking hit passes none (it
 * writes no database record), a paged list ends at paging, a report passes every read policy.
 */
import { describe, expect, it } from 'vitest'
import { chainOf, type Call, type Step } from '../../../engine/dispatch/call'
import { dispatchSteps, routeOf } from '../../../engine/dispatch'
import { handlers } from '../../../engine/routes'
import type { Durability } from '../../../engine/dispatch/call'
import type { EndpointId } from '../../../engine/contract/endpoints'
import { callOf, fakeServices } from './fake-call'

const ok = (body: string) => ({ status: 200, headers: {}, body })

describe('chainOf', () => {
  it('runs the steps that apply, outermost first, and stops at a step that answers', async () => {
    const log: string[] = []
    const step = (name: string, applies: boolean, answers = false): Step => ({
      name,
      applies: () => applies,
      async run(call, next) {
        log.push(`${name} in`)
        if (answers) return ok(name)
        const res = await next(call)
        log.push(`${name} out`)
        return res
      },
    })
    const route = routeOf('campaigns.show', handlers)
    const end = async (_: Call) => (log.push('handler'), ok('handler'))
    expect((await chainOf(route, [step('a', true), step('b', false), step('c', true)], end)(callOf('campaigns.show'))).body).toBe('handler')
    expect(log).toEqual(['a in', 'c in', 'handler', 'c out', 'a out'])
    log.length = 0
    expect((await chainOf(route, [step('a', true), step('b', true, true), step('c', true)], end)(callOf('campaigns.show'))).body).toBe('b')
    expect(log).toEqual(['a in', 'b in', 'a out'])
  })
})

describe('dispatch steps', () => {
  const steps = dispatchSteps(fakeServices().asServices, () => undefined, {} as Durability)
  const chain = (id: EndpointId) => steps.filter((s) => s.applies(routeOf(id, handlers))).map((s) => s.name)

  it('lets a tracking hit pass no policy: it goes straight to its handler', () => {
    for (const id of ['tracking.impression', 'tracking.click', 'tracking.event'] as const) expect(chain(id)).toEqual([])
  })

  it('gives each kind of endpoint the policies that apply to it, in order', () => {
    expect(chain('reports.basic_show')).toEqual(['retry reads', 'write scope', 'sync modes', 'measure wait', 'answer cache', 'await writes'])
    expect(chain('campaigns.list')).toEqual(['retry reads', 'write scope', 'sync modes', 'paging'])
    expect(chain('campaigns.show')).toEqual(['retry reads', 'write scope', 'sync modes', 'answer cache', 'await writes'])
    expect(chain('campaigns.create')).toEqual(['probe writes', 'write scope', 'sync modes', 'await writes'])
    expect(chain('oauth.token')).toEqual(['probe writes', 'write scope', 'await writes'])
    expect(chain('local.status')).toEqual(['retry reads', 'write scope', 'await writes'])
    expect(chain('measurement.status')).toEqual(['retry reads', 'write scope', 'measure wait', 'await writes'])
  })
})
