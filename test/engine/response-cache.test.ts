// The read cache: valid until the next committed write, bounded in size
import { describe, expect, it } from 'vitest'
import { ResponseCache } from '../../engine/response-cache'

describe('ResponseCache', () => {
  it('answers a stored body and its UTF-8 bytes for the same database version', () => {
    const c = new ResponseCache()
    c.set('k', 1, '{"a":"春"}')
    const hit = c.get('k', 1)
    expect(hit?.body).toBe('{"a":"春"}')
    expect(Buffer.from(hit!.bytes).toString('utf8')).toBe('{"a":"春"}')
  })

  it('keeps an answer written as bytes without its text, in one piece, within the same bound', () => {
    const c = new ResponseCache(2000)
    c.setBytes('k', 1, [Buffer.from('{"a":'), Buffer.from('"春"}')])
    const hit = c.get('k', 1)
    expect(hit?.body).toBeUndefined()
    expect(Buffer.from(hit!.bytes).toString('utf8')).toBe('{"a":"春"}')
    // a copy, not a view keeping a writer's whole buffer alive
    const piece = Buffer.alloc(1 << 20).subarray(0, 10)
    c.setBytes('view', 1, [piece])
    expect(c.get('view', 1)!.bytes.buffer.byteLength).toBeLessThan(1 << 20)
    c.setBytes('big', 1, [Buffer.alloc(501)])
    expect(c.get('big', 1)).toBeUndefined()
  })

  it('forgets everything once the version changes (versions only move forward)', () => {
    const c = new ResponseCache()
    c.set('k', 1, 'x')
    c.set('k2', 1, 'x2')
    expect(c.get('k', 2)).toBeUndefined()
    // the old entries are dropped at that first read of the new version, not at the next write
    expect(c.get('k2', 1)).toBeUndefined()
    c.set('j', 2, 'y')
    expect(c.get('j', 2)?.body).toBe('y')
  })

  it('evicts the least recently used entries past its size and never keeps a body over a quarter of it', () => {
    // each 150-character entry costs 450 bytes (UTF-16 text and UTF-8 bytes); 2000 hold four
    const c = new ResponseCache(2000)
    for (const k of ['a', 'b']) c.set(k, 1, k.repeat(150))
    c.get('a', 1)
    for (const k of ['c', 'd', 'e']) c.set(k, 1, k.repeat(150))
    expect(c.get('b', 1)).toBeUndefined()
    expect(['a', 'c', 'd', 'e'].every((k) => c.get(k, 1) !== undefined)).toBe(true)
    expect(c.set('big', 1, 'x'.repeat(200)).body).toHaveLength(200)
    expect(c.get('big', 1)).toBeUndefined()
  })
})
