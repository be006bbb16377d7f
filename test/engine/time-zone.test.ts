// A data directory keeps its time zone (engine/index.ts): a command without --time-zone counts days
// and hours in the zone the directory was last opened with, not in the default one
import { describe, expect, it } from 'vitest'
import { memory } from '../../engine/storage/adapters/memory'
import { makeEngine, seededRandom } from '../helpers/make-engine'

describe('the time zone of a data directory', () => {
  it('is the one given, else the one it was last opened with, else Asia/Shanghai', async () => {
    const storage = memory()
    let opened = 0
    const open = async (timeZone?: string) => {
      // (each open its own random bytes: the same seed would hand out the same token again)
      const t = await makeEngine({ storage, engine: { ...(timeZone ? { timeZone } : {}), random: seededRandom(++opened) } })
      const zone = (await t.get('/local/v1/status')).body.time_zone as string
      await t.engine.close()
      return zone
    }
    expect(await open()).toBe('Asia/Shanghai')
    expect(await open('America/New_York')).toBe('America/New_York')
    expect(await open()).toBe('America/New_York')
    expect(await open('Asia/Kolkata')).toBe('Asia/Kolkata')
    expect(await open()).toBe('Asia/Kolkata')
    // written in the database's case: `utc` and `UTC` are one zone, not a change that recounts every event
    expect(await open('utc')).toBe('UTC')
    expect(await open('asia/shanghai')).toBe('Asia/Shanghai')
  })

  it('refuses a zone that is not an IANA one, naming it, and leaves the directory as it was', async () => {
    const storage = memory()
    await (await makeEngine({ storage, engine: { timeZone: 'Europe/Paris' } })).engine.close()
    await expect(makeEngine({ storage, engine: { timeZone: 'Mars/Olympus' } })).rejects.toThrow("'Mars/Olympus' is not an IANA time zone")
    const t = await makeEngine({ storage, engine: { random: seededRandom(2) } })
    expect((await t.get('/local/v1/status')).body.time_zone).toBe('Europe/Paris')
  })
})
