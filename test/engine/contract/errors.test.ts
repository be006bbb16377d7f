// engine/contract/errors.ts refuse(), badRequest() and badProblem(): a refusal's description is the problem catalogue's text, and it carries its problem
import { describe, expect, it } from 'vitest'
import { ApiError, E, badProblem, badRequest, errorFromBody, refuse } from '../../../engine/contract/errors'
import { describeProblem, problem, problemHeader, problemOfHeader } from '../../../engine/contract/problems'

describe('refuse', () => {
  it("writes the description from the catalogue and keeps the key and arguments", () => {
    const e = badRequest('param.tooLong', { param: 'campaign_name', max: 255 })
    expect(e).toBeInstanceOf(ApiError)
    expect(e.def).toBe(E.invalidRequest)
    expect(e.message).toBe("The 'campaign_name' is longer than 255 characters.")
    expect(e.problem).toEqual({ key: 'param.tooLong', args: { param: 'campaign_name', max: 255 } })
    const token = refuse(E.invalidToken, 'token.unknown', { path: '/oauth/token' }, { 'www-authenticate': 'Bearer' })
    expect(token.body).toEqual({ error: 'invalid_token', error_description: 'The access token is unknown or was revoked; request a new one from /oauth/token.' })
    expect(token.headers).toEqual({ 'www-authenticate': 'Bearer' })
  })

  it('words a nested problem inside the sentence, and a problem made beforehand', () => {
    const reason = problem('param.date', { param: 'start_date', got: 'soon' })
    expect(badRequest('outbox.badMember', { reason }).message).toBe("The 'params' holds a bad member: The 'start_date' must be a date written YYYY-MM-DD, got 'soon'.")
    expect(badProblem(reason).message).toBe(describeProblem(reason))
  })

  it('sends the problem as a header value of printable ASCII that reads back, and rebuilds it on the client', () => {
    const p = problem('param.nameUsed', { param: 'campaign_name', value: '春季 campaign', id: '3' })
    const header = problemHeader(p)
    expect(header).toMatch(/^[\x21-\x7e]+$/)
    expect(problemOfHeader(header)).toEqual(p)
    expect(problemOfHeader(undefined)).toBeNull()
    expect(problemOfHeader('%7Bnot json')).toBeNull()
    expect(errorFromBody(400, { error: 'invalid_request', error_description: 'x' }, p).problem).toEqual(p)
  })
})
