/**
 * `npm ci` refuses a lock file that lacks an optional dependency of a locked package. The registry
 * reachable from the build machines has only the Linux builds of DuckDB's bindings, so `npm install`
 * leaves the others out; their entries are kept in package-lock.json by hand (README, Development).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const lock = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { optionalDependencies?: Record<string, string> }>
}

describe('package-lock.json', () => {
  it('has an entry for every optional dependency of every locked package (npm ci needs them)', () => {
    const missing: string[] = []
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = `${path}/node_modules/${dep}`
        if (!lock.packages[nested] && !lock.packages[`node_modules/${dep}`]) missing.push(`${dep} (of ${path || 'the project'})`)
      }
    }
    expect(missing).toEqual([])
  })
})
