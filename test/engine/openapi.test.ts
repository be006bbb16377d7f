// The OpenAPI document generated from the endpoint table (served at /openapi.json)
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../engine/contract/endpoints'
import { openApiDocument } from '../../engine/openapi'

describe('openApiDocument', () => {
  const doc = openApiDocument('http://127.0.0.1:8366')

  it('is a valid OpenAPI 3.1 document', async () => {
    const v = new Validator()
    const res = await v.validate(structuredClone(doc))
    expect(res.errors ?? []).toEqual([])
    expect(res.valid).toBe(true)
    expect(v.version).toBe('3.1')
  })

  it('has one operation per endpoint of the table, with its parameters and response schema', () => {
    const paths = doc.paths as Record<string, Record<string, { operationId: string; parameters: { name?: string }[] }>>
    for (const [id, def] of Object.entries(endpoints)) {
      const op = paths[def.path]?.[def.method.toLowerCase()]
      expect(op?.operationId, id).toBe(id)
      if (def.method === 'GET') expect(op!.parameters.filter((p) => p.name).map((p) => p.name)).toEqual(Object.keys(def.params))
    }
  })

  it('gives defaults as a caller writes them, each read as the default is (not `false` for a string, nor an object)', () => {
    const paths = doc.paths as Record<string, Record<string, { parameters: { name?: string; schema?: { default?: unknown } }[] }>>
    let checked = 0
    for (const [id, def] of Object.entries(endpoints)) {
      if (def.method !== 'GET') continue
      for (const p of paths[def.path]![def.method.toLowerCase()]!.parameters) {
        const d = p.schema?.default
        if (!p.name || d === undefined) continue
        expect(['string', 'number'], `${id} ${p.name}: ${JSON.stringify(d)}`).toContain(typeof d)
        const codec = (def.params as Record<string, { decode: (raw: string | undefined, name: string) => unknown }>)[p.name]!
        expect(codec.decode(String(d), p.name), `${id} ${p.name}`).toEqual(codec.decode(undefined, p.name))
        checked++
      }
    }
    expect(checked).toBeGreaterThan(30)
  })

  it('names the scope each operation needs, answers the /report/ aliases, and has unique operation ids', () => {
    const paths = doc.paths as Record<string, Record<string, { operationId: string; security: Record<string, string[]>[] }>>
    expect(paths['/admonitor/v1/reports/basic/show']!.get!.security).toContainEqual({ oauth2: ['admonitor'] })
    expect(paths['/local/v1/status']!.get!.security).toContainEqual({ bearer: ['local'] })
    expect(paths['/admonitor/v1/report/basic/show']!.get!.operationId).toBe('reports.basic_show.alias')
    const ids = Object.values(paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId))
    expect(new Set(ids).size).toBe(ids.length)
  })
})
