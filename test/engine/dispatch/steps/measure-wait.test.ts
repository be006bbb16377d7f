/** The measure wait step: an answer that reads the counted events runs only once a reading of the log has ended. */
import { describe, expect, it } from 'vitest'
import { measureWait } from '../../../../engine/dispatch/steps/measure-wait'
import type { Call } from '../../../../engine/dispatch/call'
import { callOf } from '../fake-call'

describe('measure wait step', () => {
  it('runs the answer only after the measurement settled', async () => {
    let settle = () => undefined as void
    const settled = new Promise<void>((resolve) => (settle = resolve))
    const log: string[] = []
    const answer = measureWait({ settled: () => settled }).run(callOf('reports.basic_show'), async () => (log.push('answered'), { status: 200, headers: {}, body: '{}' }))
    for (let i = 0; i < 5; i++) await Promise.resolve()
    expect(log).toEqual([])
    log.push('settled')
    settle()
    await answer
    expect(log).toEqual(['settled', 'answered'])
  })

  it('applies to the reports and the endpoints that read the held events or the columns', () => {
    const step = measureWait({ settled: async () => undefined })
    const applies = (id: Call['id']) => step.applies({ id, def: callOf(id).def, paged: false })
    expect([applies('reports.basic_show'), applies('measurement.status'), applies('simulate.run'), applies('campaigns.show'), applies('tracking.impression')]).toEqual([true, true, true, false, false])
  })
})
