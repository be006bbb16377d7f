/**
 * One IPC channel to the engine. Only the app's own frame may call it (VS Code's
 * validatedIpcMain); the engine returns error responses instead of throwing across IPC.
 */
import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import type { EngineRequest } from '../engine/contract/envelope'
import type { Engine } from '../engine/index'
import { isAppUrl } from './window'

function isRequest(x: unknown): x is EngineRequest {
  const r = x as EngineRequest
  return typeof r === 'object' && r !== null && typeof r.method === 'string' && typeof r.path === 'string' && typeof r.query === 'object' && r.query !== null
}

export function registerIpc(engine: Engine): void {
  ipcMain.handle('engine:request', async (event: IpcMainInvokeEvent, req: unknown) => {
    const url = event.senderFrame?.url ?? ''
    if (!isAppUrl(url)) throw new Error(`engine:request refused from ${url}`)
    if (!isRequest(req)) throw new Error('engine:request needs {method, path, query}')
    const res = await engine.handle({ method: req.method, path: req.path, query: req.query, ...(req.body === undefined ? {} : { body: req.body }), ...(req.headers ? { headers: req.headers } : {}) })
    // A text answer's pre-encoded bytes would only double what crosses IPC.
    if (res.bytes && res.body !== '') delete res.bytes
    return res
  })
}
