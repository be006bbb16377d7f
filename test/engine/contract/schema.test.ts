// The response-shape language: validation used by every contract test
import { describe, expect, it } from 'vitest'
import { arr, date, dict, idStr, int, lit, nullable, obj, str, validate } from '../../../engine/contract/schema'

describe('schema.validate', () => {
  const S = obj({ id: idStr(), n: int(), d: date(), k: lit('a', 'b'), list: arr(str()), maybe: nullable(int()) }, { extra: str() })
  const good = { id: '12', n: 3, d: '2025-01-01', k: 'a', list: ['x'], maybe: null }

  it('accepts a conforming value, with or without optional members', () => {
    expect(validate(S, good)).toEqual([])
    expect(validate(S, { ...good, extra: 'e' })).toEqual([])
  })

  it('reports each problem with its path', () => {
    expect(validate(S, { ...good, id: 12 })).toEqual(['$.id: expected string, got number'])
    expect(validate(S, { ...good, n: 1.5 })[0]).toContain('$.n')
    expect(validate(S, { ...good, d: '2025-1-1' })[0]).toContain('$.d')
    expect(validate(S, { ...good, k: 'c' })[0]).toContain('$.k')
    expect(validate(S, { ...good, list: [1] })[0]).toContain('$.list[0]')
    expect(validate(S, { ...good, surprise: 1 })).toEqual(['$.surprise: not declared'])
    const { n: _n, ...missing } = good
    expect(validate(S, missing)).toEqual(['$.n: missing'])
  })

  it('checks member names and values of dictionaries', () => {
    const D = dict(int(), '^imp_')
    expect(validate(D, { imp_acc: 1 })).toEqual([])
    expect(validate(D, { clk: 1 })[0]).toContain("'clk'")
    expect(validate(D, { imp_acc: '1' })[0]).toContain('expected integer')
  })

  it('gives JSON Schema for the OpenAPI document', () => {
    expect(S.json).toMatchObject({ type: 'object', required: ['id', 'n', 'd', 'k', 'list', 'maybe'], additionalProperties: false })
  })
})
