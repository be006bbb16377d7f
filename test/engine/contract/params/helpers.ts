import { expect } from 'vitest'
import { ApiError, type ErrorDef, E } from '../../../../engine/contract/errors'
import type { Codec } from '../../../../engine/contract/params'

/** Decodes and expects an ApiError (invalid_request by default) whose text names the parameter. */
export function expectRefused<T>(codec: Codec<T>, raw: string | undefined, name = 'param', def: ErrorDef = E.invalidRequest, text?: RegExp): void {
  let thrown: unknown
  try {
    codec.decode(raw, name)
  } catch (err) {
    thrown = err
  }
  expect(thrown, `'${raw}' should be refused`).toBeInstanceOf(ApiError)
  const e = thrown as ApiError
  expect(e.def).toBe(def)
  expect(e.message).toContain(`'${name}'`)
  if (text) expect(e.message).toMatch(text)
}
