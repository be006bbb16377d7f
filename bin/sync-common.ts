/** What the sync commands share: the common options, an engine opened for one command, profile lookup, following a job. */
import type { Engine } from '../engine/index'
import { local } from './commands'
import { SERVE_URL, fail, openEngine } from './open'

export const common = { 'data-dir': { type: 'string' }, 'time-zone': { type: 'string' } } as const

export type Json = Record<string, unknown>

export async function withEngine<T>(values: { 'data-dir'?: string | undefined; 'time-zone'?: string | undefined }, work: (e: Engine) => Promise<T>): Promise<T> {
  const { engine } = await openEngine({ dataDir: values['data-dir'], timeZone: values['time-zone'], firstRunUrl: SERVE_URL })
  try {
    return await work(engine)
  } finally {
    await engine.close()
  }
}

export async function profileId(engine: Engine, name: string): Promise<string> {
  const list = (await local(engine, 'GET', '/local/v1/sync/profiles/list', {})) as unknown as Json[]
  const p = list.find((x) => x.name === name) ?? fail(`no remote profile is named '${name}' (admonitor sync profile list)`)
  return String(p.profile_id)
}

/**
 * Starts a pull or push of the profile (`wait=0`, plus `extra` parameters) and polls its status
 * until it ends, writing `progress` to stderr every `everyMs`; Ctrl-C cancels it. Answers the
 * last status.
 */
export async function followJob(e: Engine, job: 'pull' | 'push', profile: string, progress: (s: Json) => string, everyMs: number, extra: Record<string, string> = {}): Promise<Json> {
  const id = { profile_id: profile }
  await local(e, 'POST', `/local/v1/sync/${job}/start`, { ...id, wait: '0', ...extra })
  const stop = () => void local(e, 'POST', `/local/v1/sync/${job}/cancel`, id)
  process.once('SIGINT', stop)
  let st = await local(e, 'GET', `/local/v1/sync/${job}/status`, id)
  while (st.state === 'running') {
    process.stderr.write(progress(st))
    await new Promise((r) => setTimeout(r, everyMs))
    st = await local(e, 'GET', `/local/v1/sync/${job}/status`, id)
  }
  process.off('SIGINT', stop)
  return st
}
