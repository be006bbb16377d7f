/**
 * The API's validity rules for report parameters, read from the contract rather than restated:
 * the values each endpoint accepts come from the endpoint table's codecs, and whether a
 * combination is valid comes from engine/contract/report-rules.ts (the very functions the engine
 * runs). A refused combination answers with the engine's own message, which names the parameter.
 */
import { endpoints } from '../../../engine/contract/endpoints'
import { ApiError } from '../../../engine/contract/errors'
import type { Codec } from '../../../engine/contract/params'
import { REPORT_CHECKS } from '../../../engine/contract/report-rules'
import { messageOf } from '../api/problems'

/** The report endpoints the screen calls (progress has no combinations to check). */
export type ReportId = keyof typeof REPORT_CHECKS

/** Parameters as the renderer holds them before sending (lists as arrays). */
export type ReportParams = Record<string, string | readonly string[] | number | undefined>

const CHECKS: Record<ReportId, (p: Record<string, unknown>) => void> = REPORT_CHECKS

function codecs(id: ReportId): Record<string, Codec<unknown>> {
  return endpoints[id].params as unknown as Record<string, Codec<unknown>>
}

/** Whether the endpoint takes a parameter of that name. */
export function takes(id: ReportId, name: string): boolean {
  return name in codecs(id)
}

/** The values the endpoint table accepts for an enumerated parameter, in the table's order ([] if none). */
export function allowedValues(id: ReportId, name: string): readonly string[] {
  const e = codecs(id)[name]?.schema.enum
  return Array.isArray(e) ? e.map(String) : []
}

/** The parameter's default as the engine decodes a missing value (undefined when it has none). */
export function defaultOf(id: ReportId, name: string): unknown {
  return codecs(id)[name]?.schema.default
}

/** The parameters the engine would see: every default filled in, the given values over them. */
export function decoded(id: ReportId, params: ReportParams): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, codec] of Object.entries(codecs(id))) if (codec.schema.default !== undefined) out[name] = codec.schema.default
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[k] = v
  return out
}

/** Why the API would refuse these parameters together (the engine's message), or null when it accepts them. */
export function problemOf(id: ReportId, params: ReportParams): string | null {
  try {
    CHECKS[id](decoded(id, params))
    return null
  } catch (e) {
    if (e instanceof ApiError) return messageOf(e)
    throw e
  }
}

/** One choice of a picker: offered, or shown disabled with the reason the API would give. */
export interface Choice {
  value: string
  disabled: boolean
  reason: string | null
}

/**
 * The choices of an enumerated parameter given the other parameters: every value the endpoint
 * accepts, each disabled with the API's reason when the combination is refused.
 */
export function choicesOf(id: ReportId, name: string, others: ReportParams): Choice[] {
  return allowedValues(id, name).map((value) => {
    const reason = problemOf(id, { ...others, [name]: value })
    return { value, disabled: reason !== null, reason }
  })
}

/** Why a dependent parameter (an id list, sdk) may not be sent with the others, or null when it may. */
export function dependentProblem(id: ReportId, name: string, others: ReportParams, sample: string | readonly string[] = ['1']): string | null {
  if (!takes(id, name)) return null
  return problemOf(id, { ...others, [name]: sample })
}
