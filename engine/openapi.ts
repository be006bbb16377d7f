/** The OpenAPI 3.1 document, generated from the endpoint table (served at /openapi.json). */
import type { EndpointDef } from './contract/endpoint'
import { endpoints } from './contract/endpoints'
import { E } from './contract/errors'
import { METRICS, METRIC_REPORTS, type MetricReport } from './contract/metrics-catalogue'
import { ErrorResponse } from './contract/models'
import type { ParamsShape } from './contract/params'
import type { JsonSchema } from './contract/schema'

/**
 * A parameter's schema as a caller writes it: the codec keeps its default decoded (a flag's
 * `false`, a limit's `{m, n}`), which a generated client would send as `false` or
 * `[object Object]` and have refused; the document gives the text the engine reads instead.
 */
export function wireSchema(schema: JsonSchema): JsonSchema {
  const d = schema.default
  if (d === undefined || d === null || typeof d === 'string' || typeof d === 'number') return schema
  const values = Array.isArray(schema.enum) ? schema.enum : []
  let wire: unknown = d
  if (typeof d === 'boolean') wire = values.includes('on') ? (d ? 'on' : 'off') : values.includes(0) || values.includes('0') ? (d ? 1 : 0) : String(d)
  else if (Array.isArray(d)) wire = d.join(',')
  else if (typeof d === 'object' && 'm' in d && 'n' in d) wire = `${(d as { m: number }).m},${(d as { n: number }).n}`
  return { ...schema, default: wire }
}

function properties(params: ParamsShape): { properties: Record<string, JsonSchema>; required: string[] } {
  const props: Record<string, JsonSchema> = {}
  for (const [name, c] of Object.entries(params)) props[name] = { ...wireSchema(c.schema), ...(c.description ? { description: c.description } : {}) }
  return { properties: props, required: Object.entries(params).filter(([, c]) => c.required).map(([n]) => n) }
}

const REPORT_OF_ENDPOINT = new Map(Object.entries(METRIC_REPORTS).map(([report, id]) => [id as string, report as MetricReport]))

/**
 * What the `metrics` parameter of a report selects, from the metric catalogue: each value's
 * metrics with their meaning (`HH` an hour 00–23, `NN` a frequency 01–10).
 */
function metricsDescription(report: MetricReport): string {
  const groups = new Map<string, string[]>()
  for (const m of METRICS) {
    const group = m.reports[report]
    if (group !== undefined) groups.set(group, [...(groups.get(group) ?? []), `${m.name} (${m.meaning})`])
  }
  return `${[...groups].map(([group, list]) => `${group}: ${list.join('; ')}`).join('. ')}. all: every one.`
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } })

function requestBody(def: EndpointDef): Record<string, unknown> | undefined {
  if (def.body === 'none') return undefined
  if (def.body === 'text') {
    const file = { type: 'string', description: 'the file: NDJSON lines, or CSV with a header row' }
    return { required: true, content: { 'application/x-ndjson': { schema: file }, 'text/csv': { schema: file } } }
  }
  if (def.body === 'json') {
    const item = properties(def.item ?? {})
    const schema = {
      type: 'object',
      required: ['campaign_id', 'spots'],
      properties: { campaign_id: { type: 'string' }, spots: { type: 'array', maxItems: 3000, items: { type: 'object', ...item } } },
    }
    return { required: true, content: { 'application/json': { schema } } }
  }
  const form = { type: 'object', ...properties(def.params) }
  return { required: true, content: { 'application/x-www-form-urlencoded': { schema: form }, 'application/json': { schema: form } } }
}

function operation(id: string, def: EndpointDef): Record<string, unknown> {
  const report = REPORT_OF_ENDPOINT.get(id)
  const params = Object.entries(def.params).map(([name, c]) => {
    const description = report !== undefined && name === 'metrics' ? metricsDescription(report) : c.description
    return { name, in: 'query', required: c.required, schema: wireSchema(c.schema), ...(description ? { description } : {}) }
  })
  // JSONP is not answered on this engine's own namespace (docs/api.md)
  const local = def.path.startsWith('/local/')
  const json = { 'application/json': { schema: def.response.json }, ...(local ? {} : { 'application/javascript': { schema: { type: 'string', description: 'with callback=name: /**/name(<the JSON answer>);' } } }) }
  const body = requestBody(def)
  const statuses = new Set<number>(Object.values(E).map((e) => e.status))
  const produced = def.produces ? Object.fromEntries(def.produces.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])) : null
  const responses: Record<string, unknown> = {
    200: { description: def.produces ? 'Success: a file or pixel, not JSON' : 'Success', content: produced ?? json },
    ...(def.produces?.includes('text/plain') ? { 302: { description: 'Redirect to the landing page', headers: { Location: { schema: { type: 'string' } } } } } : {}),
    // a tag's rt=0 / rt=1, or a click of a spot without a landing page (docs/tracking.md)
    ...(def.rawParams ? { 204: { description: 'Counted (or not: see the header), no body', headers: { 'X-AdMonitor-Counted': { schema: { type: 'string' }, description: "1 when the hit counts in the default (net) figures, or 0; and why (not counted, or recorded as invalid traffic: its class)" } } } } : {}),
  }
  for (const s of [...statuses].sort()) responses[s] = errorResponse(Object.values(E).filter((e) => e.status === s).map((e) => e.error).join(', '))
  return {
    operationId: id,
    summary: def.summary,
    description: `Defined in ${def.spec}.`,
    tags: [id.split('.')[0]],
    // the scope the token needs (a cms token is refused on /admonitor and /local with access_denied)
    security: def.auth === 'none' ? [] : [{ access_token: [def.auth] }, { bearer: [def.auth] }, { oauth2: [def.auth] }],
    parameters: [
      ...(def.method === 'GET' || def.body === 'text' ? params : []),
      ...(local || def.rawParams ? [] : [{ $ref: '#/components/parameters/callback' }]),
      ...(def.rawParams ? [] : [{ $ref: '#/components/parameters/suppress_response_codes' }]),
    ],
    ...(body ? { requestBody: body } : {}),
    responses,
  }
}

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [id, def] of Object.entries(endpoints) as [string, EndpointDef][]) {
    // the vendor's index writes /report/ where its detail pages write /reports/ (vendor-notes §0.13)
    const reportAlias = def.path.startsWith('/admonitor/v1/reports/') ? [def.path.replace('/reports/', '/report/')] : []
    for (const path of [def.path, ...(def.aliases ?? []), ...reportAlias]) {
      const op = operation(id, def)
      paths[path] = { ...paths[path], [def.method.toLowerCase()]: path === def.path ? op : { ...op, operationId: `${id}.alias`, description: `Alias of ${def.path}.` } }
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'AdMonitor Desk local API',
      version: '1.0',
      description: 'The ad-monitoring API of the interface specification, served locally. /admonitor/v1/report/... is also answered as /admonitor/v1/reports/....',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: ErrorResponse.json },
      parameters: {
        callback: { name: 'callback', in: 'query', required: false, schema: { type: 'string' }, description: 'JSONP: wrap the answer as name(json); only [A-Za-z0-9_] is kept' },
        suppress_response_codes: { name: 'suppress_response_codes', in: 'query', required: false, schema: { type: 'string' }, description: 'when present, every answer (errors too) has status 200' },
      },
      securitySchemes: {
        access_token: { type: 'apiKey', in: 'query', name: 'access_token', description: 'also accepted as a form parameter' },
        bearer: { type: 'http', scheme: 'bearer' },
        oauth2: { type: 'oauth2', flows: { password: { tokenUrl: '/oauth/token', scopes: { cms: 'campaign metadata', admonitor: 'reports', local: 'local administration' } } } },
      },
    },
  }
}
