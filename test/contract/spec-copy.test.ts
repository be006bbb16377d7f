// test/fixtures/spec.md and vendor-notes.md are copies of ../shared/spec (the clone CI tests may
// not have the shared folder beside it). Where the folder is present, the copies must match it.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const shared = resolve(__dirname, '../../../shared/spec')
const pairs = [['interface.md', 'spec.md'], ['vendor-notes.md', 'vendor-notes.md']] as const

describe('spec copies', () => {
  it('are present in the repository', () => {
    for (const [, copy] of pairs) expect(readFileSync(resolve(__dirname, '../fixtures', copy), 'utf8').length).toBeGreaterThan(1000)
  })

  it.runIf(existsSync(shared))('equal ../shared/spec where it exists (copy it again when the spec changes)', () => {
    for (const [orig, copy] of pairs) expect(readFileSync(resolve(__dirname, '../fixtures', copy), 'utf8'), copy).toBe(readFileSync(resolve(shared, orig), 'utf8'))
  })
})
