/**
 * The localhost door of the desktop app: the engine on 127.0.0.1. The port is ADMONITOR_PORT,
 * else `port` in <userData>/desk.json, else 8366; when that port is taken, a free one (the
 * Server page shows the address either way).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Engine } from '../engine/index'
import { DEFAULT_PORT, startHttpDoor, type HttpDoor } from '../engine/server/http'

export { DEFAULT_PORT }

/** The configured port: the environment, then desk.json, then the default. */
export function configuredPort(userData: string, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.ADMONITOR_PORT)
  if (env.ADMONITOR_PORT && Number.isInteger(fromEnv) && fromEnv >= 0 && fromEnv < 65536) return fromEnv
  try {
    const port = (JSON.parse(readFileSync(join(userData, 'desk.json'), 'utf8')) as { port?: unknown }).port
    if (typeof port === 'number' && Number.isInteger(port) && port >= 0 && port < 65536) return port
  } catch {
    // no desk.json: the default
  }
  return DEFAULT_PORT
}

export async function startHttpServer(engine: Engine, userData: string): Promise<HttpDoor> {
  const port = configuredPort(userData)
  try {
    return await startHttpDoor(engine, { host: '127.0.0.1', port })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw err
    return startHttpDoor(engine, { host: '127.0.0.1', port: 0 })
  }
}
