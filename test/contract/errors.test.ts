/** The error catalogue against the spec §7 table and docs/errors.md, in both directions. */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ApiError, E, errorFromBody, panelEmptyError } from '../../engine/contract/errors'

const spec = readFileSync(resolve(__dirname, '../fixtures/spec.md'), 'utf8')
const docs = readFileSync(resolve(__dirname, '../../docs/errors.md'), 'utf8')
const section7 = spec.slice(spec.indexOf('## 7. Errors'), spec.indexOf('## 8. Limits'))
const specCodes = new Set([...section7.matchAll(/\| (a value reading is wrong\.|[a-z_]+)[^|]*\|\s*$/gm)].map((m) => m[1]!).filter((c) => c !== 'error'))

describe('error catalogue', () => {
  it('reads the codes of the spec table', () => {
    expect([...specCodes]).toEqual(expect.arrayContaining(['invalid_campaign_name', 'invalid_placement_name', 'invalid_campaign_id', 'invalid_spot_id']))
  })

  it('holds every error value of spec §7 with origin spec', () => {
    for (const code of specCodes) {
      const wire = code === 'a value reading is wrong.' ? 'is wrong.' : code
      const def = Object.values(E).find((d) => d.error === wire)
      expect(def, code).toBeDefined()
      expect(def!.origin).toBe('spec')
    }
  })

  it('marks as spec only what the spec table names', () => {
    const wires = [...specCodes].map((c) => (c === 'a value reading is wrong.' ? 'is wrong.' : c))
    expect(Object.values(E).filter((d) => d.origin === 'spec').map((d) => d.error).sort()).toEqual(wires.sort())
  })

  it('uses the RFC 6749 §5.2 names for the token errors and status 400 (spec §7.1)', () => {
    for (const key of ['invalidRequest', 'invalidClient', 'invalidGrant', 'unsupportedGrantType', 'invalidScope'] as const) {
      expect(E[key].origin).toBe('rfc6749')
      expect(E[key].status).toBe(400)
    }
  })

  it('is documented in docs/errors.md, and the docs name nothing else', () => {
    for (const d of Object.values(E)) expect(docs, d.error).toContain(`\`${d.error}\``)
    const documented = [...docs.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1])
    expect(documented.sort()).toEqual(Object.values(E).map((d) => d.error).sort())
  })

  it('has unique wire values', () => {
    const wires = Object.values(E).map((d) => d.error)
    expect(new Set(wires).size).toBe(wires.length)
  })

  it('rebuilds an ApiError from a response body', () => {
    const e = errorFromBody(400, { error: 'invalid_campaign_id', error_description: 'x' })
    expect(e).toBeInstanceOf(ApiError)
    expect(e.def).toBe(E.invalidCampaignId)
    expect(errorFromBody(418, { error: 'teapot', error_description: 'y' }).def.status).toBe(418)
  })

  it('puts the extra members of panel_empty in the body after error and error_description, and keeps them when rebuilt', () => {
    const e = panelEmptyError('china-pm-2026')
    expect(e.def.status).toBe(409)
    expect(Object.keys(e.body)).toEqual(['error', 'error_description', 'panel_id'])
    expect(e.body).toMatchObject({ error: 'panel_empty', panel_id: 'china-pm-2026' })
    expect(e.body.error_description).toContain('POST /local/v1/panels/persons/import?panel_id=china-pm-2026')
    const back = errorFromBody(409, e.body)
    expect(back.def).toBe(E.panelEmpty)
    expect(back.extra).toEqual({ panel_id: 'china-pm-2026' })
    expect(back.body).toEqual(e.body)
  })
})
