/** What the sync commands share: the common options, an engine opened for one command, profile lookup. */
import type { Engine } from '../engine/index'
import { local } from './commands'
import { fail, openEngine } from './open'

export const common = { 'data-dir': { type: 'string' }, 'time-zone': { type: 'string' } } as const

export type Json = Record<string, unknown>

export async function withEngine<T>(values: { 'data-dir'?: string | undefined; 'time-zone'?: string | undefined }, work: (e: Engine) => Promise<T>): Promise<T> {
  const { engine } = await openEngine({ dataDir: values['data-dir'], timeZone: values['time-zone'] })
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

