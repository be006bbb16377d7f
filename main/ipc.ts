/**
 * One IPC channel to the engine. Only the app's own frame may call it (VS Code's
 * validatedIpcMain); the engine returns error responses instead of throwing across IPC.
 * The desktop app is the local user: requests without a token get one of the local account
 * (issued in this process, never sent over a socket), so the window needs no login page.
 */
import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import type { EngineRequest } from '../engine/contract/envelope'
import type { Engine } from '../engine/index'
import { isAppUrl } from './window'

/** Renewed well before the engine's 3600 s lifetime. */
const TOKEN_RENEW_MS = 50 * 60_000

function isRequest(x: unknown): x is EngineRequest {
  const r = x as EngineRequest
  return typeof r === 'object' && r !== null && typeof r.method === 'string' && typeof r.path === 'string' && typeof r.query === 'object' && r.query !== null
}

export function registerIpc(engine: Engine): void {
  let token: { value: string; until: number } | null = null
  const localToken = async () => {
    if (!token || token.until <= Date.now()) token = { value: await engine.localToken(), until: Date.now() + TOKEN_RENEW_MS }
    return token.value
  }
  ipcMain.handle('engine:request', async (event: IpcMainInvokeEvent, req: unknown) => {
    const url = event.senderFrame?.url ?? ''
    if (!isAppUrl(url)) throw new Error(`engine:request refused from ${url}`)
    if (!isRequest(req)) throw new Error('engine:request needs {method, path, query}')
    const headers = { ...(req.headers ?? {}) }
    if (!headers.authorization && req.path !== '/oauth/token') headers.authorization = `Bearer ${await localToken()}`
    const res = await engine.handle({ method: req.method, path: req.path, query: req.query, ...(req.body === undefined ? {} : { body: req.body }), headers, door: 'ipc' })
    // A text answer's pre-encoded bytes or pieces would only double what crosses IPC.
    if (res.parts) return { status: res.status, headers: res.headers, body: res.body }
    if (res.bytes && res.body !== '') delete res.bytes
    return res
  })
}
