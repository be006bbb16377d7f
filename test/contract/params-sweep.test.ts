/**
 * Every parameter of every endpoint, from the endpoint table: each required one missing is
 * refused naming it; each enumerated value is accepted; a value of the wrong form is refused
 * naming the parameter; every success body has the declared shape.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints, type EndpointId } from '../../engine/contract/endpoints'
import { validate } from '../../engine/contract/schema'
import { makeEngine, toReply, type Reply, type TestEngine } from '../helpers/make-engine'
import { campaignToSimulate, seed, textBody, validParams, type Fixture } from '../fixtures/seed'
import { CONTEXT, wrongValue } from './sweep-values'

let t: TestEngine
let f: Fixture
let valid: ReturnType<typeof validParams>

beforeAll(async () => {
  t = await makeEngine()
  f = await seed(t)
  valid = validParams(f)
})

const call = async (id: EndpointId, params: Record<string, string>): Promise<Reply> => {
  const def = endpoints[id]
  const body = textBody(id, f)
  if (body !== undefined) {
    // file endpoints: parameters in the query, the file as the body
    return toReply(await t.engine.handle({ method: 'POST', path: def.path, query: { ...params, access_token: t.token }, body, headers: { 'content-type': 'application/x-ndjson' } }))
  }
  return def.method === 'GET' ? t.get(def.path, params) : t.post(def.path, params)
}

// Left out: the token (RFC order of checks, its own tests), the batch (JSON body, its own tests),
// deletes and sign-out (they consume their fixture, the sweep's token), tracking (raw pixel
// answers, their own tests).
const swept = (Object.keys(endpoints) as EndpointId[]).filter((id) =>
  !['oauth.token', 'openapi.json', 'campaigns.batch_create_spot_with_plan', 'campaigns.delete', 'campaigns.delete_spot', 'minisites.delete', 'account.sign_out'].includes(id) && !endpoints[id].rawParams)

describe.each(swept)('%s', (id) => {
  const def = endpoints[id]
  const params = Object.entries(def.params)

  it('answers 200 with the declared shape for valid parameters', async () => {
    const r = await call(id, valid[id]!())
    expect(r.status, r.raw.body).toBe(200)
    // file answers (exports) are not JSON
    if (r.headers['content-type']?.startsWith('application/json')) expect(validate(def.response, r.body)).toEqual([])
  })

  it('refuses each missing required parameter, naming it', async () => {
    for (const [name, codec] of params) {
      if (!codec.required) continue
      const p = valid[id]!()
      delete p[name]
      const r = await call(id, p)
      expect(r.status, name).toBe(400)
      expect(r.body.error_description).toContain(`'${name}'`)
    }
  })

  it('accepts each enumerated value of each parameter', async () => {
    for (const [name, codec] of params) {
      const values = codec.schema.enum as readonly (string | number)[] | undefined
      if (!values || name === 'order_desc') continue
      for (const v of values) {
        // (each simulation's days then have events: append=0 is tried on a campaign that has none)
        const fresh: Record<string, string> = id === 'simulate.run' && name === 'append' ? { campaign_id: await campaignToSimulate(t, `Sweep append=${v}`) } : {}
        const r = await call(id, { ...valid[id]!(), ...CONTEXT[id]?.[name], ...fresh, [name]: String(v) })
        const blamed = r.status === 400 && String(r.body.error_description).includes(`'${name}'`)
        expect(blamed, `${name}=${v}: ${r.raw.body}`).toBe(false)
      }
    }
  })

  it('refuses a value of the wrong form for each typed parameter, naming it', async () => {
    for (const [name, codec] of params) {
      const bad = wrongValue(codec.schema)
      if (bad === undefined) continue
      const r = await call(id, { ...valid[id]!(), [name]: bad })
      expect(r.status, `${name}=${bad}`).toBe(400)
      expect(r.body.error_description, `${name}=${bad}`).toContain(`'${name}'`)
    }
  })
})
