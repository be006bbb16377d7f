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
})
