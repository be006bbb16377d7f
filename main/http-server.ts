/** The localhost door of the desktop app: the engine on 127.0.0.1 (ADMONITOR_PORT, default 8366). */
import type { Engine } from '../engine/index'
import { startHttpDoor, type HttpDoor } from '../engine/server/http'

export function startHttpServer(engine: Engine): Promise<HttpDoor> {
  const port = Number(process.env.ADMONITOR_PORT ?? 8366)
  return startHttpDoor(engine, { host: '127.0.0.1', port })
}
