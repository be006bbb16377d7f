// main/ipc.ts, main/window-state.ts and main/secret-cipher.ts under plain Node, with the electron module replaced (no binary here)
import { beforeEach, describe, expect, it, vi } from 'vitest'

type Handler = (event: { senderFrame?: { url: string } | null }, req: unknown) => Promise<unknown>
const handlers = new Map<string, Handler>()

const safe = { available: true, backend: 'gnome_libsecret' }

vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => safe.available,
    getSelectedStorageBackend: () => safe.backend,
    encryptString: (text: string) => Buffer.from(`sealed:${text}`),
    decryptString: (bytes: Buffer) => bytes.toString().replace(/^sealed:/, ''),
  },
  ipcMain: { handle: (channel: string, fn: Handler) => void handlers.set(channel, fn) },
  BrowserWindow: class {},
  shell: {},
  app: { getPath: () => '/nonexistent' },
  screen: { getAllDisplays: () => [] },
}))

const { registerIpc } = await import('../../main/ipc')
const { fits } = await import('../../main/window-state')
const { safeStorageCipher } = await import('../../main/secret-cipher')
const { respondParts } = await import('../../engine/respond')
const { commonParams } = await import('../../engine/request')

// the built renderer beside main/ (out/renderer in the app; renderer/ when main/ runs from source)
const APP = { senderFrame: { url: new URL('../../renderer/index.html', import.meta.url).href } }

function fakeEngine() {
  const seen: { headers: Record<string, string>; door?: string; path: string }[] = []
  let issued = 0
  const engine = {
    localToken: async () => `local-${++issued}`,
    handle: async (req: { headers: Record<string, string>; door?: string; path: string }) => {
      seen.push(req)
      return { status: 200, headers: {}, body: '{"ok":true}', bytes: new Uint8Array([1]) }
    },
  }
  return { engine, seen, issued: () => issued }
}

describe('the engine:request channel', () => {
  beforeEach(() => handlers.clear())

  it('refuses frames that are not the app, and requests without method, path and query', async () => {
    const f = fakeEngine()
    registerIpc(f.engine as never)
    const call = handlers.get('engine:request')!
    await expect(call({ senderFrame: { url: 'https://evil.example/' } }, { method: 'GET', path: '/x', query: {} })).rejects.toThrow(/refused from https:\/\/evil/)
    await expect(call({ senderFrame: null }, { method: 'GET', path: '/x', query: {} })).rejects.toThrow(/refused/)
    await expect(call({ senderFrame: { url: 'file:///tmp/elsewhere/renderer/index.html' } }, { method: 'GET', path: '/x', query: {} })).rejects.toThrow(/refused/)
    await expect(call(APP, { method: 'GET', path: '/x' })).rejects.toThrow(/needs \{method, path, query\}/)
    expect(f.seen).toHaveLength(0)
  })

  it('adds a local-account token, reuses it, keeps a caller\'s own, and marks the door', async () => {
    const f = fakeEngine()
    registerIpc(f.engine as never)
    const call = handlers.get('engine:request')!
    const res = await call(APP, { method: 'GET', path: '/cms/v1/campaigns/list', query: {} }) as { body: string; bytes?: Uint8Array }
    await call(APP, { method: 'GET', path: '/cms/v1/campaigns/list', query: {} })
    await call(APP, { method: 'GET', path: '/cms/v1/campaigns/list', query: {}, headers: { authorization: 'Bearer mine' } })
    await call(APP, { method: 'POST', path: '/oauth/token', query: {}, body: 'grant_type=password' })
    expect(f.seen.map((r) => r.headers.authorization)).toEqual(['Bearer local-1', 'Bearer local-1', 'Bearer mine', undefined])
    expect(f.issued()).toBe(1)
    expect(f.seen.every((r) => r.door === 'ipc')).toBe(true)
    // a text answer crosses IPC once: its pre-encoded bytes are dropped
    expect(res.body).toBe('{"ok":true}')
    expect(res.bytes).toBeUndefined()
  })

  it('sends a page answered in pieces as its text, as a plain object', async () => {
    const parts = [Buffer.from('[{"a":'), Buffer.from('"春"}]')]
    const engine = { localToken: async () => 'local', handle: async () => respondParts(200, parts, { common: commonParams({ method: 'GET', path: '/', query: {} }), noStore: false, ignored: [] }) }
    registerIpc(engine as never)
    const res = await handlers.get('engine:request')!(APP, { method: 'GET', path: '/cms/v1/campaigns/list', query: {} })
    expect(res).toEqual({ status: 200, headers: expect.objectContaining({ 'content-type': 'application/json;charset=UTF-8' }), body: '[{"a":"春"}]' })
    expect(Object.getOwnPropertyDescriptor(res, 'body')?.value).toBe('[{"a":"春"}]')
  })
})

describe('the local token', () => {
  it('is renewed after 50 minutes, before the engine\'s hour runs out', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') })
    try {
      handlers.clear()
      const f = fakeEngine()
      registerIpc(f.engine as never)
      const call = handlers.get('engine:request')!
      const get = () => call(APP, { method: 'GET', path: '/local/v1/status', query: {} })
      await get()
      vi.setSystemTime(Date.parse('2026-01-01T00:49:00Z'))
      await get()
      vi.setSystemTime(Date.parse('2026-01-01T00:50:01Z'))
      await get()
      expect(f.seen.map((r) => r.headers.authorization)).toEqual(['Bearer local-1', 'Bearer local-1', 'Bearer local-2'])
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('fits (saved window bounds)', () => {
  const screen = { x: 0, y: 0, width: 1920, height: 1040 }
  it('takes bounds on a display, large enough to use', () => {
    expect(fits({ x: 100, y: 100, width: 1360, height: 860 }, [screen])).toBe(true)
  })
  it('refuses bounds on a display that is gone, too small, or with the title bar out of reach', () => {
    expect(fits({ x: 2500, y: 100, width: 1360, height: 860 }, [screen])).toBe(false)
    expect(fits({ x: 2500, y: 100, width: 1360, height: 860 }, [screen, { x: 1920, y: 0, width: 1920, height: 1040 }])).toBe(true)
    expect(fits({ x: 100, y: 100, width: 600, height: 860 }, [screen])).toBe(false)
    expect(fits({ x: 100, y: -200, width: 1360, height: 860 }, [screen])).toBe(false)
    expect(fits({ x: 100, y: 100, width: 1360, height: 860 }, [])).toBe(false)
  })
})

describe('safeStorageCipher', () => {
  it('uses the OS keychain when it is really there, and leaves Linux basic_text (a fixed key) to the key file', async () => {
    Object.assign(safe, { available: true, backend: 'gnome_libsecret' })
    const c = safeStorageCipher()!
    expect(await c.decrypt(await c.encrypt('p@ss 密码'))).toBe('p@ss 密码')
    Object.assign(safe, { available: false })
    expect(safeStorageCipher()).toBeUndefined()
    Object.assign(safe, { available: true, backend: 'basic_text' })
    expect(safeStorageCipher() === undefined).toBe(process.platform === 'linux')
  })
})
