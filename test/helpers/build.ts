/**
 * Builds the app (main, preload, renderer) with electron-vite into a temporary folder, once per
 * test file. Tests that need the built bundles (security checks, end-to-end) start here.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The output folder of a fresh build (out/main, out/preload, out/renderer inside it). */
export function buildApp(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'admonitor-build-'))
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--outDir', outDir], { cwd: ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`electron-vite build failed:\n${r.stdout}\n${r.stderr}`)
  return outDir
}
