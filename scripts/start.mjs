// `npm start`: builds and launches the desktop app where Electron's binary is available, and says
// what to do instead where it is not (Electron's installer downloads the binary from outside the
// npm registry, which some machines cannot reach).
import './node-check.mjs'  // first: an unsupported Node.js stops here, with the fix
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const electronDir = dirname(require.resolve('electron/package.json'))

function electronBinary() {
  // For tests and machines without a display: behave as if Electron were missing.
  if (process.env.ADMONITOR_NO_ELECTRON === '1') return null
  const pathFile = join(electronDir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const bin = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(bin) ? bin : null
}

if (!electronBinary() && process.env.ADMONITOR_NO_ELECTRON !== '1') {
  // Try Electron's own installer once (it fetches the binary); it fails without network access.
  console.error('AdMonitor Desk: fetching the Electron runtime...')
  spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'ignore', timeout: 300_000 })
}
if (!electronBinary()) {
  console.error(`
AdMonitor Desk: the Electron runtime is not installed on this machine, and it could not be
downloaded (its binary comes from outside the npm registry).

  Run the same application in your browser instead:   npm run serve
  (then open the address it prints), or install Electron's binary and run npm start again.
`)
  process.exit(1)
}
const r = spawnSync('npx', ['electron-vite', 'preview'], { stdio: 'inherit', shell: process.platform === 'win32' })
process.exit(r.status ?? 1)
