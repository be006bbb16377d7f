/**
 * Values the contract sweeps (params-sweep.test.ts, the golden answers) send beyond each endpoint's
 * valid parameters: what some values need beside them, and a value of the wrong form per codec.
 */
import type { EndpointId } from '../../engine/contract/endpoints'

/** Parameters some values need beside them (spec §4.4: sdk only with platform=mb). */
export const CONTEXT: Partial<Record<EndpointId, Record<string, Record<string, string>>>> = {
  'reports.basic_show': { sdk: { platform: 'mb', metrics: 'all' } },
}

/** A value of the wrong form for a codec, judged from its schema; undefined for free text. */
export function wrongValue(schema: Record<string, unknown>): string | undefined {
  if (Array.isArray(schema.enum)) return 'zz-not-a-value'
  if (schema.type === 'integer') return '1.5x'
  if (schema.format === 'date') return '2025-02-30'
  if (schema.format === 'uri') return 'not a url'
  if (typeof schema.pattern === 'string') return '!!'
  return undefined
}
