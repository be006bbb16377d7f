/**
 * The per-user data directory, the same place the desktop app keeps its data
 * (Electron's userData for the product name, plus /data), so the app and `npm run serve`
 * share one store (never at the same time: the directory is locked).
 */
import { homedir } from 'node:os'
import { join } from 'node:path'

export const PRODUCT_NAME = 'AdMonitor Desk'

export function appDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return env.APPDATA ?? join(homedir(), 'AppData', 'Roaming')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support')
  return env.XDG_CONFIG_HOME ?? join(homedir(), '.config')
}

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ADMONITOR_DATA_DIR ?? join(appDataDir(env), PRODUCT_NAME, 'data')
}
