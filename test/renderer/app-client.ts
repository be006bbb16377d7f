// A test engine called as the app's API client calls it (renderer/src/api/client.ts): every request
// asks for the problem header, and a refusal is read by the client, which keeps its problem.
import { expect } from 'vitest'
import { badRequest } from '../../engine/contract/errors'
import { PROBLEM_WANTED_HEADER, toldText, type ArgsOf, type ProblemKey, type Told } from '../../engine/contract/problems'
import { messageColumns, problemMember } from '../../engine/sync/said'
import { readResponse } from '../../renderer/src/api/client'
import { messageOf, rememberMessages } from '../../renderer/src/api/problems'
import type { Reply, TestEngine } from '../helpers/make-engine'

/** Makes every request of `t` ask for the problem header, as the app's client does. */
export function asAppClient(t: TestEngine): TestEngine {
  const handle = t.engine.handle.bind(t.engine)
  t.engine.handle = (req) => handle({ ...req, headers: { ...req.headers, [PROBLEM_WANTED_HEADER]: '1' } })
  return t
}

/** The message of the refusal `r` as the app's client reads it (its problem kept for the screens). */
export function clientRefusal(r: Reply): string {
  expect(r.status, r.raw.body).not.toBe(200)
  try {
    readResponse(r.raw)
  } catch (e) {
    return (e as Error).message
  }
  throw new Error('not refused')
}

/** The engine's invalid_request of problem `key`, as the app's client reads it (its problem kept). */
export const keyed = <K extends ProblemKey>(key: K, args: ArgsOf<K>): string => messageOf(badRequest(key, args))

/**
 * The stored message `m` (engine/sync/said.ts) as the app's client reads it from an answer that
 * tells its problem to a client that asks: the problem kept for the screens, the English returned.
 */
export function heard(m: Told): string {
  const answer = JSON.parse(JSON.stringify({ message: toldText(m), ...problemMember(messageColumns(m).message_problem) })) as { message: string }
  rememberMessages(answer)
  return answer.message
}
