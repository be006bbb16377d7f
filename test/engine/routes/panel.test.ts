// local: panel persons (DESIGN §3.6; docs/panel.md): import, export, summary, demo generator
import { beforeAll, describe, expect, it } from 'vitest'
import { PANEL_IMPORT_MAX_BYTES } from '../../../engine/contract/endpoints-panel'
import { PanelGenerateResult, PanelImportResult, PanelSummary } from '../../../engine/contract/models'
import { validate } from '../../../engine/contract/schema'
import { syntheticSeed } from '../../../engine/measure/panel/synthetic'
import { ACCOUNT, makeEngine, toReply, type Reply, type TestEngine } from '../../helpers/make-engine'

const IMPORT = '/local/v1/panels/persons/import'
const EXPORT = '/local/v1/panels/persons/export'
const SUMMARY = '/local/v1/panels/persons/summary'
const GENERATE = '/local/v1/panels/generate'
const SHENZHEN = '000000000000001156440300'
const AMID = `amid:${'b'.repeat(32)}`

let t: TestEngine

beforeAll(async () => {
  t = await makeEngine()
})

async function upload(query: Record<string, string>, body: string, contentType = 'application/x-ndjson', token: string | null = t.token): Promise<Reply> {
  return toReply(await t.engine.handle({ method: 'POST', path: IMPORT, query: { ...query, ...(token ? { access_token: token } : {}) }, body, headers: { 'content-type': contentType } }))
}

const line = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ person_id: id, weight: 55000, home_region: SHENZHEN, tags: ['male', '25-29Y'], devices: [{ device: `idfa:${id}-1`, platform: 'mb' }], ...extra })

describe('panels.persons_import', () => {
  it('imports an NDJSON body and reports the bad lines', async () => {
    const body = [line('a'), line('b', { tags: ['male', 'female'] }), line('c', { devices: [{ device: AMID, platform: 'pc' }] })].join('\n')
    const r = await upload({ panel_id: 'china-pm-2025', mode: 'replace' }, body)
    expect(r.status, r.raw.body).toBe(200)
    expect(validate(PanelImportResult, r.body)).toEqual([])
    expect(r.body).toEqual({
      panel_id: 'china-pm-2025', format: 'ndjson', mode: 'replace', imported: 2, rejected: 1, persons: 2,
      errors: [{ line: 2, error: "has two tags of the type gender ('male' and 'female'); a person has at most one tag of each type" }],
    })
  })

  it('takes the format from a text/csv body, or from format= whatever the body type', async () => {
    const csv = `person_id,weight,home_region,tags,devices\nx,1000,${SHENZHEN},female,mb:oaid:ABC\n`
    const r = await upload({ panel_id: 'china-pm-2026' }, csv, 'text/csv; charset=utf-8')
    expect(r.body).toMatchObject({ format: 'csv', mode: 'merge', imported: 1, rejected: 0 })
    const plain = await upload({ panel_id: 'china-pm-2026', format: 'csv' }, csv.replace('x,', 'y,').replace('ABC', 'DEF'), 'text/plain')
    expect(plain.body).toMatchObject({ format: 'csv', imported: 1, persons: 2 })
  })

  it.each(['application/csv', 'application/vnd.ms-excel', 'text/comma-separated-values'])('reads a body sent as %s as CSV, as browsers and tools send a .csv file', async (type) => {
    const id = `t${type.length}`
    const r = await upload({ panel_id: 'china-pm-2026' }, `person_id,weight,home_region\n${id},1000,${SHENZHEN}\n`, type)
    expect(r.body).toMatchObject({ format: 'csv', imported: 1, rejected: 0 })
  })

  it.each([
    [{}, 'panel_id', "The 'panel_id' is required."],
    [{ panel_id: 'nope' }, 'panel_id', "The 'panel_id' nope cannot be found"],
    [{ panel_id: 'china-pm-2025', format: 'xml' }, 'format', "The 'format' must be one of ndjson, csv"],
    [{ panel_id: 'china-pm-2025', mode: 'both' }, 'mode', "The 'mode' must be one of replace, merge"],
  ])('answers 400 naming the parameter for %j', async (query, _name, text) => {
    const r = await upload(query, line('z'))
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('invalid_request')
    expect(r.body.error_description).toContain(text)
  })

  it("answers 400 naming 'body' for a CSV file without its header row, and writes nothing", async () => {
    const before = (await t.get(SUMMARY, { panel_id: 'china-pm-2025' })).body.persons
    const r = await upload({ panel_id: 'china-pm-2025', format: 'csv', mode: 'replace' }, `a,1000,${SHENZHEN},,\n`, 'text/csv')
    expect(r.status).toBe(400)
    expect(r.body.error_description).toContain("The 'body' is not a panel CSV file")
    expect((await t.get(SUMMARY, { panel_id: 'china-pm-2025' })).body.persons).toBe(before)
  })

  it('answers 413 for a body over 64 MiB', async () => {
    const r = await upload({ panel_id: 'china-pm-2025' }, 'x'.repeat(PANEL_IMPORT_MAX_BYTES + 1))
    expect(r.status).toBe(413)
    expect(r.body.error).toBe('payload_too_large')
  })
})

describe('panels.persons_export', () => {
  it('answers the file itself, NDJSON by default, with its content type and a file name', async () => {
    const r = await t.get(EXPORT, { panel_id: 'china-pm-2025' })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('application/x-ndjson;charset=UTF-8')
    expect(r.headers['content-disposition']).toBe('attachment; filename="china-pm-2025-persons.ndjson"')
    expect(r.raw.body.trimEnd().split('\n').map((l) => JSON.parse(l).person_id)).toEqual(['a', 'c'])
  })

  it('answers CSV for format=csv', async () => {
    const r = await t.get(EXPORT, { panel_id: 'china-pm-2025', format: 'csv' })
    expect(r.headers['content-type']).toBe('text/csv;charset=UTF-8')
    expect(r.raw.body).toBe(`person_id,weight,home_region,tags,devices\na,55000,${SHENZHEN},male|25-29Y,mb:idfa:a-1\nc,55000,${SHENZHEN},male|25-29Y,pc:${AMID}\n`)
  })

  it('answers 400 naming the parameter', async () => {
    expect((await t.get(EXPORT, { panel_id: 'china-pm-2025', format: 'xls' })).body.error_description).toContain("'format'")
    expect((await t.get(EXPORT, {})).body.error_description).toContain("'panel_id'")
  })
})

describe('panels.generate and panels.persons_summary', () => {
  it('generates a deterministic panel that the summary shows at once; export and import reproduce it', async () => {
    const g = await t.post(GENERATE, { panel_id: 'china-pc-2025', persons: 1000, seed: 5 })
    expect(g.status, g.raw.body).toBe(200)
    expect(validate(PanelGenerateResult, g.body)).toEqual([])
    expect(g.body).toMatchObject({ panel_id: 'china-pc-2025', persons: 1000, weight_total: 1_099_670_000 })
    const s = await t.get(SUMMARY, { panel_id: 'china-pc-2025' })
    expect(validate(PanelSummary, s.body)).toEqual([])
    expect(s.body).toMatchObject({ persons: 1000, devices: g.body.devices, weight_total: 1_099_670_000 })
    const file = (await t.get(EXPORT, { panel_id: 'china-pc-2025' })).raw.body
    expect((await upload({ panel_id: 'china-pc-2026', mode: 'replace' }, file)).body).toMatchObject({ imported: 1000, rejected: 0 })
    expect({ ...(await t.get(SUMMARY, { panel_id: 'china-pc-2026' })).body, panel_id: 'china-pc-2025' }).toEqual(s.body)
    await t.post(GENERATE, { panel_id: 'china-pc-2026', persons: 1000, seed: 5 })
    expect((await t.get(EXPORT, { panel_id: 'china-pc-2026' })).raw.body).toBe(file)
  })

  it('summarises a built-in panel without persons as its synthetic population: the persons the generator stores with its seed', async () => {
    const s = await t.get(SUMMARY, { panel_id: 'china-pmo-2026' })
    expect(validate(PanelSummary, s.body)).toEqual([])
    expect(s.body).toMatchObject({ panel_id: 'china-pmo-2026', synthetic: true, persons: 20_000, weight_total: 1_099_670_000 })
    const g = await t.post(GENERATE, { panel_id: 'china-pm-2025', persons: 20_000, seed: syntheticSeed('china-pmo-2026') })
    expect(g.status, g.raw.body).toBe(200)
    const stored = (await t.get(SUMMARY, { panel_id: 'china-pm-2025' })).body
    expect(stored.synthetic).toBe(false)
    expect({ ...stored, panel_id: 'china-pmo-2026', synthetic: true }).toEqual(s.body)
  })

  it('summarises an emptied panel with every tag at zero, and not as synthetic', async () => {
    expect((await upload({ panel_id: 'china-pmo-2026', mode: 'replace' }, '')).status).toBe(200)
    const s = await t.get(SUMMARY, { panel_id: 'china-pmo-2026' })
    expect(s.body).toMatchObject({ synthetic: false, persons: 0, devices: 0, weight_total: 0, by_region_level1: [] })
    expect(s.body.by_type.gender).toEqual([{ tag_id: 'male', persons: 0, weight: 0 }, { tag_id: 'female', persons: 0, weight: 0 }])
  })

  it.each([
    [{ panel_id: 'china-pc-2025', persons: 99 }, "The 'persons' must be between 100 and 500000"],
    [{ panel_id: 'china-pc-2025', persons: 500_001 }, "'persons'"],
    [{ panel_id: 'china-pc-2025', seed: -1 }, "'seed'"],
    [{ panel_id: 'china-pc-2025', mode: 'merge' }, "The 'mode' must be one of replace"],
    [{ panel_id: 'nope' }, "The 'panel_id' nope cannot be found"],
    [{}, "The 'panel_id' is required."],
  ])('refuses %j naming the parameter', async (form, text) => {
    const r = await t.post(GENERATE, form)
    expect(r.status).toBe(400)
    expect(r.body.error_description).toContain(text)
  })

  it("answers the summary's 400 naming panel_id", async () => {
    expect((await t.get(SUMMARY, { panel_id: 'nope' })).body.error_description).toContain("The 'panel_id' nope cannot be found")
  })
})

describe('scope', () => {
  it("refuses a token without the 'local' scope with access_denied, and no token with token_required", async () => {
    const r = await t.post('/oauth/token', { grant_type: 'password', ...ACCOUNT, scope: 'cms' }, null)
    const cms = r.body.access_token as string
    const denied = [
      await upload({ panel_id: 'china-pm-2025' }, line('q'), 'application/x-ndjson', cms),
      await t.get(EXPORT, { panel_id: 'china-pm-2025' }, cms),
      await t.get(SUMMARY, { panel_id: 'china-pm-2025' }, cms),
      await t.post(GENERATE, { panel_id: 'china-pm-2025' }, cms),
    ]
    for (const d of denied) {
      expect(d.status).toBe(400)
      expect(d.body.error).toBe('access_denied')
    }
    expect((await upload({ panel_id: 'china-pm-2025' }, line('q'), 'application/x-ndjson', null)).body.error).toBe('token_required')
  })
})
