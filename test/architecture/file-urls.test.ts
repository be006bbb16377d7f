/**
 * Paths from file URLs: `fileURLToPath(url)`, never `url.pathname`, which keeps percent escapes
 * (`My%20Projects`) and a leading slash before a Windows drive (`/C:/`): a script reading
 * `url.pathname` under a folder with a space never finds its build.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(__dirname, '..', '..')
const DIRS = ['scripts', 'bin', 'main', 'preload', 'engine', 'bench', 'electron.vite.config.ts']

function files(rel: string): string[] {
  if (!statSync(join(root, rel)).isDirectory()) return [rel]
  return readdirSync(join(root, rel)).flatMap((name) => (name === 'node_modules' ? [] : files(join(rel, name)))).filter((f) => /\.(ts|mjs|js)$/.test(f))
}

describe('paths from file URLs', () => {
  it('are never read from a URL object\'s pathname', () => {
    const found = DIRS.flatMap(files).flatMap((file) =>
      readFileSync(join(root, file), 'utf8').split('\n').flatMap((text, i) => (/(import\.meta\.url|new URL\([^)]*\))\)?\.pathname/.test(text) ? [`${file}:${i + 1}: ${text.trim()}`] : [])),
    )
    expect(found).toEqual([])
  })
})
