/**
 * How requests reach the engine: the preload's bridge over IPC in the desktop app, or fetch
 * against the same origin in a browser (`npm run serve`). Chosen once (STYLE H5).
 */
import type { EngineBridge, EngineRequest, EngineResponse } from '../../../engine/contract/envelope'

export type Transport = (r: EngineRequest) => Promise<EngineResponse>

export function ipcTransport(bridge: EngineBridge): Transport {
  return (r) => bridge.request(r)
}

export function httpTransport(baseUrl: string, fetchImpl: typeof fetch = fetch): Transport {
  return async (r) => {
    const url = new URL(r.path, baseUrl)
    for (const [k, v] of Object.entries(r.query)) for (const x of Array.isArray(v) ? v : [v]) url.searchParams.append(k, x)
    const res = await fetchImpl(url, {
      method: r.method,
      headers: r.headers ?? {},
      ...(r.body !== undefined && r.method !== 'GET' ? { body: r.body } : {}),
    })
    const headers: Record<string, string> = {}
    res.headers.forEach((v, k) => (headers[k] = v))
    return { status: res.status, headers, body: await res.text() }
  }
}

export function defaultTransport(): Transport {
  return window.engine ? ipcTransport(window.engine) : httpTransport(window.location.origin)
}
