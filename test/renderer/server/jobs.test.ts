// renderer/src/server/jobs.ts: job progress, colours, labels and following a job
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { describeProblem, problem } from '../../../engine/contract/problems'
import { rememberMessages } from '../../../renderer/src/api/problems'
import { messages } from '../../../renderer/src/i18n'
import { followJob, followUntil, jobDuration, jobLabel, jobMessage, jobPercent, jobStateKey, jobTone, type Job } from '../../../renderer/src/server/jobs'

const job = (over: Partial<Job> = {}): Job => ({
  job_id: '7', kind: 'import', state: 'running', total: 1000, processed: 0, imported: 0, rejected: 0, repeated: 0, errors: [],
  message: '', started_at: '2025-01-10T02:00:00.000Z', finished_at: '', ...over,
})

describe('jobPercent', () => {
  it('is processed over total, rounded down', () => {
    expect(jobPercent(job({ processed: 0 }))).toBe(0)
    expect(jobPercent(job({ processed: 333 }))).toBe(33)
    expect(jobPercent(job({ processed: 999 }))).toBe(99)
  })

  it('never shows 100 while running, and always 100 when done', () => {
    expect(jobPercent(job({ processed: 1000 }))).toBe(99)
    expect(jobPercent(job({ processed: 1200 }))).toBe(99)
    expect(jobPercent(job({ state: 'done', processed: 10 }))).toBe(100)
    expect(jobPercent(job({ state: 'done', total: 0 }))).toBe(100)
  })

  it('is 0 while the total is unknown, and keeps a failed job where it stopped', () => {
    expect(jobPercent(job({ total: 0, processed: 50 }))).toBe(0)
    expect(jobPercent(job({ state: 'failed', processed: 500 }))).toBe(50)
  })
})

describe('jobTone and jobLabel', () => {
  it('colours by state and rejections', () => {
    expect(jobTone(job())).toBe('default')
    expect(jobTone(job({ state: 'done' }))).toBe('success')
    expect(jobTone(job({ state: 'done', imported: 5, rejected: 3 }))).toBe('warning')
    expect(jobTone(job({ state: 'failed' }))).toBe('error')
  })

  it('names the state with the counts', () => {
    expect(jobLabel(job({ processed: 250 }))).toEqual({ key: 'running', params: { processed: 250, total: 1000, imported: 0, rejected: 0, percent: 25 } })
    expect(jobLabel(job({ total: 0 })).key).toBe('runningUnknown')
    expect(jobLabel(job({ state: 'done', imported: 998, rejected: 2 })).key).toBe('doneWithRejected')
    expect(jobLabel(job({ state: 'done', imported: 1000 })).key).toBe('done')
    expect(jobLabel(job({ kind: 'simulate', state: 'done', imported: 1000 })).key).toBe('simulated')
    const failed = jobLabel(job({ state: 'failed', message: 'disk full' }))
    expect(failed.key).toBe('failed')
    expect(failed.params.message).toBe('disk full')
  })
})

describe('jobDuration', () => {
  it('runs to the end, or to now while running', () => {
    expect(jobDuration(job({ state: 'done', finished_at: '2025-01-10T02:00:03.500Z' }), 0)).toBe(3500)
    expect(jobDuration(job(), Date.parse('2025-01-10T02:00:01.000Z'))).toBe(1000)
    expect(jobDuration(job({ started_at: '' }), 5)).toBe(0)
  })
})

describe('followJob', () => {
  it('polls until the job is no longer running, reporting every state', async () => {
    const states = [job({ processed: 500 }), job({ state: 'done', processed: 1000, imported: 1000, finished_at: '2025-01-10T02:00:02.000Z' })]
    const seen: number[] = []
    const waits: number[] = []
    const asked: string[] = []
    const last = await followJob(job(), async (id) => (asked.push(id), states.shift()!), (j) => seen.push(jobPercent(j)), {
      intervalMs: 250, sleep: async (ms) => void waits.push(ms),
    })
    expect(last.state).toBe('done')
    expect(seen).toEqual([0, 50, 100])
    expect(waits).toEqual([250, 250])
    expect(asked).toEqual(['7', '7'])
  })

  it('does not poll a job that is already finished', async () => {
    let polls = 0
    const last = await followJob(job({ state: 'done' }), async () => (polls++, job()), () => {}, { sleep: async () => {} })
    expect(polls).toBe(0)
    expect(last.state).toBe('done')
  })

  it('stops when cancelled (the page was left)', async () => {
    let polls = 0
    let cancelled = false
    const last = await followJob(job(), async () => (polls++, (cancelled = true), job({ processed: 10 })), () => {}, { sleep: async () => {}, cancelled: () => cancelled })
    expect(polls).toBe(1)
    expect(last.processed).toBe(10)
  })

  it('throws what fetching throws', async () => {
    await expect(followJob(job(), async () => { throw new Error('job_id 7 is not a job') }, () => {}, { sleep: async () => {} })).rejects.toThrow('not a job')
  })
})

describe('followUntil', () => {
  it('does not report a status that arrives after cancelling (another profile is shown)', async () => {
    let current = true
    const seen: string[] = []
    const last = await followUntil('running', async () => ((current = false), 'done'), (s) => s === 'running', (s) => seen.push(s), { sleep: async () => {}, cancelled: () => !current })
    expect(seen).toEqual(['running'])
    expect(last).toBe('done')
  })

  it('polls any status with its own test of running', async () => {
    const states = [2, 1, 0]
    const seen: number[] = []
    const last = await followUntil(3, async () => states.shift()!, (n) => n > 0, (n) => seen.push(n), { sleep: async () => {} })
    expect(seen).toEqual([3, 2, 1, 0])
    expect(last).toBe(0)
  })
})

describe('jobStateKey', () => {
  it('says an import with every line rejected imported nothing, in the error colour, instead of "Done"', () => {
    const failedAll = job({ state: 'done', total: 3, processed: 3, imported: 0, rejected: 3 })
    expect(jobStateKey(failedAll)).toBe('nothingImported')
    expect(jobTone(failedAll)).toBe('error')
    expect(jobLabel(failedAll).key).toBe('nothingImported')
  })

  it('says lines were rejected when some were, and plain done, running or failed otherwise', () => {
    expect(jobStateKey(job({ state: 'done', imported: 5, rejected: 2 }))).toBe('doneWithRejected')
    expect(jobStateKey(job({ state: 'done', imported: 5 }))).toBe('done')
    expect(jobStateKey(job({ kind: 'simulate', state: 'done', imported: 0 }))).toBe('done')
    expect(jobStateKey(job())).toBe('running')
    expect(jobStateKey(job({ state: 'failed' }))).toBe('failed')
  })
})

describe('jobMessage', () => {
  const sim = { impressions: 766332, clicks: 5637, identities: 250591, days: 15, capped: 0, panel_persons: 1190, panel_oversampling: 224, full: 0 }
  const done = (over: Partial<Job> = {}): Job => job({ kind: 'simulate', state: 'done', message: 'the engine sentence', ...over })
  const say = (locale: 'en' | 'zh', j: Job) => {
    const g = createI18n({ legacy: false, locale, messages }).global
    return jobMessage(j, (k, named) => (named ? g.t(k, named) : g.t(k)), locale)
  }

  it("says a simulation's figures in the interface's language, with separators (the engine's English showed in Chinese)", () => {
    expect(say('zh', done({ simulation: sim }))).toBe('15 天内来自 250,591 个标识的 766,332 次曝光、5,637 次点击；样本库 1,190 人，按真实占比的 224 倍放入以保证样本量（推算值仍按计数流量校准）')
    expect(say('en', done({ simulation: { ...sim, days: 1, panel_oversampling: 1, capped: 12 } }))).toBe('766,332 impressions and 5,637 clicks from 250,591 identities over 1 day; 12 impressions not delivered: every identity found was at its frequency cap')
    expect(say('en', done({ simulation: sim }))).toMatch(/^766,332 impressions and 5,637 clicks from 250,591 identities over 15 days; 1,190 panel persons/)
  })

  it("says a simulation's clients, shared addresses, prefetches and invalid hits when the engine gives them", () => {
    const clients = { cookie_keepers: 62122, cookie_refusers: 34480, apps: 178389, server_to_server: 12744, bots: 800 }
    const more = { ...sim, clients, nat_groups: 27252, prefetches: 5112, bot_hits: 8663, datacenter_hits: 14054 }
    expect(say('en', done({ simulation: more }))).toMatch(/over 15 days; clients: 62,122 browsers keeping the cookie, 34,480 refusing it \(counted by address and user agent\), 178,389 apps \(device ids\), 12,744 reported server to server, 800 declared bots; 27,252 addresses shared by several clients \(households, offices, carrier NAT\); 5,112 prefetches answered and not counted; invalid traffic: 8,663 declared-bot and 14,054 data-centre hits; 1,190 panel persons/)
    expect(say('zh', done({ simulation: more }))).toContain('客户端：保留 Cookie 的浏览器 62,122 个')
  })

  it("gives another job's message as the engine wrote it", () => {
    expect(say('zh', done({ kind: 'import' }))).toBe('the engine sentence')
  })

  it("says an import's full campaign in Chinese by the problem its answer tells (server/line-errors.ts), and keeps the English in English", () => {
    const told = problem('measure.fullCampaign', { id: 3, capacity: '1,000' })
    const answer = JSON.parse(JSON.stringify(done({ kind: 'import', message: describeProblem(told), message_problem: told } as Partial<Job>))) as Job
    rememberMessages(answer)
    expect(say('zh', answer)).toBe('活动 3 已满：已有 1,000 个事件，达到单个活动的上限')
    expect(say('en', answer)).toBe(answer.message)
  })
})
