/**
 * Every path of the interface spec is in the endpoint table, and every public path of the
 * table is in the spec or the vendor notes (fastify's docs-drift test).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../engine/contract/endpoints'

const spec = readFileSync(resolve(__dirname, '../fixtures/spec.md'), 'utf8')
const vendor = readFileSync(resolve(__dirname, '../fixtures/vendor-notes.md'), 'utf8')

const specPaths = new Set([...spec.matchAll(/(\/(?:cms|admonitor)\/v1\/[a-z_/]+[a-z_])/g)].map((m) => m[1]!))
specPaths.add('/oauth/token') // written {auth_url}/oauth/token
const tablePaths = new Set(Object.values(endpoints).map((d) => d.path))

/** Engine-defined public paths: the tracking endpoints the monitoring codes point at (vendor-notes §7 shows /x.gif and /r.gif; /e.gif is ours, for minisite events). */
const tracking = (p: string) => ['/x.gif', '/r.gif', '/e.gif'].includes(p)

describe('spec coverage', () => {
  it('reads the spec paths', () => {
    expect(specPaths.size).toBeGreaterThan(25)
  })

  it('declares every path of the spec (token, campaign metadata, reports, reference lists)', () => {
    const missing = [...specPaths].filter((p) => !tablePaths.has(p))
    expect(missing).toEqual([])
  })

  it('declares no public path that neither the spec nor the vendor notes describe', () => {
    const extra = [...tablePaths].filter((p) => !p.startsWith('/local/') && p !== '/openapi.json' && !tracking(p) && !specPaths.has(p) && !vendor.includes(p))
    expect(extra).toEqual([])
  })

  it('names the spec section of every endpoint', () => {
    const bad = Object.entries(endpoints).filter(([, d]) => !/^(interface §\d|vendor-notes §\d|local$)/.test(d.spec))
    expect(bad.map(([id]) => id)).toEqual([])
  })

  it('names endpoint ids after their paths', () => {
    // (tracking ids name the kind of hit, their paths are the vendor's pixel names)
    const bad = Object.entries(endpoints).filter(([id, d]) => {
      if ('prefix' in d && d.prefix) return false
      const [group, name] = id.split('.')
      return !(d.path.includes(`/${group}/`) || d.path.includes(`/${group}.`) || d.path.includes(`/${group!.replace('_', '')}`)) || !d.path.includes(name!.split('_')[0]!)
    })
    expect(bad.map(([id]) => id)).toEqual([])
  })
})
