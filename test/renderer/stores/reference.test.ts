// The reference store's cache: one request per list, a failed one forgotten, invalidate() forgets all
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'

const call = vi.fn()
vi.mock('../../../renderer/src/api', () => ({ api: { call: (...args: unknown[]) => call(...args) } }))
vi.mock('../../../renderer/src/stores/prefs', () => ({ usePrefsStore: () => ({ lang: 'en' }) }))

const { useReferenceStore } = await import('../../../renderer/src/stores/reference')

describe('reference store', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    call.mockReset()
  })

  it('asks once per list and shares the answer', async () => {
    call.mockResolvedValue([{ name: 'News' }])
    const store = useReferenceStore()
    const [a, b] = await Promise.all([store.programs(), store.programs()])
    expect(a).toEqual([{ name: 'News' }])
    expect(b).toBe(a)
    await store.programs()
    await store.placementTypes()
    expect(call.mock.calls.map((c) => c[0])).toEqual(['programs.list', 'plmttype.list'])
  })

  it('forgets a failed request so that the next call tries again', async () => {
    call.mockRejectedValueOnce(new Error('offline')).mockResolvedValue([{ name: 'Banner' }])
    const store = useReferenceStore()
    await expect(store.placementTypes()).rejects.toThrow('offline')
    await expect(store.placementTypes()).resolves.toEqual([{ name: 'Banner' }])
    expect(call).toHaveBeenCalledTimes(2)
  })

  it('asks again after invalidate()', async () => {
    call.mockResolvedValue([])
    const store = useReferenceStore()
    await store.programs()
    store.invalidate()
    await store.programs()
    expect(call).toHaveBeenCalledTimes(2)
  })

  it("keeps the engine's today and falls back to this computer's date", async () => {
    call.mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ today: '2026-03-04' })
    const store = useReferenceStore()
    expect(await store.today()).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    store.invalidate()
    expect(await store.today()).toBe('2026-03-04')
    expect(await store.today()).toBe('2026-03-04')
    expect(call).toHaveBeenCalledTimes(2)
  })
})
