// badParam writes the parameter's name into error_description; paramOfDescription reads it back
import { describe, expect, it } from 'vitest'
import { badParam, paramOfDescription } from '../../../engine/contract/errors'

describe('paramOfDescription', () => {
  it('reads back the parameter badParam names', () => {
    for (const name of ['end_date', 'schedulingCode', 'linked_siteids', 'budgetInput', 'x2']) {
      expect(paramOfDescription(badParam(name, "must be written 'a|b', got 'c'").message)).toBe(name)
    }
  })

  it('finds it after a prefix (batch items) and answers null when none is named', () => {
    expect(paramOfDescription(`item[3] ${badParam('vending_model', 'is unknown').message}`)).toBe('vending_model')
    expect(paramOfDescription('no quotes')).toBeNull()
    expect(paramOfDescription("Calls from the origin 'x' are not allowed.")).toBeNull()
  })
})
