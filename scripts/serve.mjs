// `npm run serve`: the engine, its HTTP door and the web interface under plain Node.
// Builds the web interface first when it is missing or older than its sources.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'

// (fileURLToPath, not .pathname: that keeps %20 for a space and /C:/ on Windows, and the build
// was then never found)
const root = fileURLToPath(new URL('..', import.meta.url))
const built = join(root, 'out', 'renderer', 'index.html')

function newest(dir) {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

const sources = [join(root, 'renderer'), join(root, 'engine', 'contract')]
if (process.env.ADMONITOR_SKIP_UI_BUILD !== '1' && (!existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs)) {
  console.error('Building the web interface (once)...')
  const r = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (r.status !== 0) console.error('The web interface could not be built; the API is served anyway.')
}
register()
await import('../bin/admonitor.ts')
