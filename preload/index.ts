/** Exposes exactly one typed bridge to the renderer: request and events, nothing else. */
import { contextBridge, ipcRenderer } from 'electron'
import type { EngineBridge, EngineEvent, EngineRequest, EngineResponse } from '../engine/contract/envelope'

const bridge = {
  request: (r: EngineRequest): Promise<EngineResponse> => ipcRenderer.invoke('engine:request', r),
  onEvent: (cb: (e: EngineEvent) => void) => {
    const listener = (_: unknown, e: EngineEvent) => cb(e)
    ipcRenderer.on('engine:event', listener)
    return () => void ipcRenderer.removeListener('engine:event', listener)
  },
} satisfies EngineBridge

contextBridge.exposeInMainWorld('engine', bridge)
