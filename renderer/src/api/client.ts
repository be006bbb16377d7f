/**
 * Typed calls by endpoint id: method and path come from the endpoint table, errors come back
 * as ApiError rebuilt from the response body (nothing is thrown across IPC).
 */
import { endpoints, type EndpointId, type ResultOf } from '../../../engine/contract/endpoints'
import { errorFromBody, type ErrorBody } from '../../../engine/contract/errors'
import type { Transport } from './transport'

export type Params = Record<string, string | number | undefined>

export class ApiClient {
  token: string | null = null

  constructor(private readonly transport: Transport) {}

  async call<K extends EndpointId>(id: K, params: Params = {}): Promise<ResultOf<K>> {
    const def = endpoints[id]
    const fields: Record<string, string> = {}
    for (const [k, v] of Object.entries(params)) if (v !== undefined) fields[k] = String(v)
    const headers: Record<string, string> = this.token ? { authorization: `Bearer ${this.token}` } : {}
    const res = await this.transport(
      def.method === 'GET'
        ? { method: 'GET', path: def.path, query: fields, headers }
        : { method: 'POST', path: def.path, query: {}, body: new URLSearchParams(fields).toString(), headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } },
    )
    const body: unknown = JSON.parse(res.body)
    if (res.status !== 200) throw errorFromBody(res.status, body as ErrorBody)
    return body as ResultOf<K>
  }
}
