// The region table a server bundle carries computed at build time (scripts/server-build.mjs,
// engine/reference/regions-built.ts) is the table the sources build from the packages, row by
// row and value by value, and a bundle's buildRegions() hands it out without the packages.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { buildRegions } from '../../engine/reference/regions'
import type { RegionSeed } from '../../engine/reference/types'
import { ROOT, regionRows, regionsBuilt } from '../../scripts/server-build.mjs'

const dir = mkdtempSync(join(tmpdir(), 'admonitor-region-rows-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the region table computed at build time', () => {
  it('is the table the sources build from the packages, value by value and in order', async () => {
    const built = (await regionRows()) as RegionSeed[]
    const sources = buildRegions()
    expect(built).toHaveLength(393)
    expect(built).toStrictEqual(sources)
    // (each row with its fields in the same order: the JSON the bundle holds is that of the sources)
    expect(JSON.stringify(built)).toBe(JSON.stringify(sources))
  }, 60_000)

  it('is what a bundle\'s buildRegions() hands out, frozen, with no package read', async () => {
    const { build } = await import('esbuild')
    const entry = "export { buildRegions } from './engine/reference/regions'\nexport { BUILT_REGIONS } from './engine/reference/regions-built'\n"
    const out = await build({
      stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm',
      packages: 'external', write: false, logLevel: 'warning', plugins: [regionsBuilt],
    })
    // (in a folder with no node_modules above it: a package read would throw)
    const file = join(dir, 'bundle.mjs')
    writeFileSync(file, out.outputFiles[0]!.contents)
    const bundled = (await import(pathToFileURL(file).href)) as { buildRegions: () => RegionSeed[]; BUILT_REGIONS: readonly RegionSeed[] | null }
    expect(bundled.BUILT_REGIONS).not.toBeNull()
    const rows = bundled.buildRegions()
    expect(rows).toStrictEqual(buildRegions())
    expect(rows.every((r) => Object.isFrozen(r))).toBe(true)
    expect(bundled.buildRegions()).not.toBe(rows)
  }, 60_000)
})
