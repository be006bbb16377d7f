// The tracking URL's one shape (engine/contract/tracking-url.ts; docs/attribution.md "Reading a
// tracking URL"): the tags list_spots writes read back, parameter for parameter, and the endpoint
// table, the reader and the HTTP door take exactly the paths it names.
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { trackingEndpoints } from '../../../engine/contract/endpoints-tracking'
import { TRACKING_PATHS, TRACKING_KINDS, trackingRoute } from '../../../engine/contract/tracking-url'
import { BASE_TAG_PARAMS, CODE_TYPES, CODE_TYPE_NAMES, type CodeType } from '../../../engine/contract/vocabulary'
import type { EngineRequest } from '../../../engine/contract/envelope'
import { parseTrackingUrl } from '../../../engine/measure/attribute/tracking-url'
import { startHttpDoor, type HttpDoor } from '../../../engine/server/http'
import { tagShape, trackingTags } from '../../../engine/tracking/tags'

const BASE = 'https://track.example.com:8443/sub'
const campaign = { campaign_id: '215', campaign_name: 'Spring 春 & co' }
const spot = { spot_id_str: '89WTd', publisher_name: 'DOUYIN LE', placement_type: 'display', landing_page: 'http://www.a.com/p?x=1&y=%E4%B8%AD#top' }
const keyword = { keyword_id: 22050057, keyword_name: '牛奶 milk', landing_page: 'https://www.baidu.com/s?wd=1' }

/** `a=1&b=2` as pairs, split by hand (the macro sets as vocabulary.ts writes them). */
const pairs = (text: string): [string, string][] => (text === '' ? [] : text.split('&').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]))

/** The landing page with the utm parameters a tag carries, built by hand for these fixtures. */
function utmLanding(withKeyword: boolean): string {
  const page = withKeyword ? keyword.landing_page : spot.landing_page
  const [head, hash] = page.includes('#') ? [page.slice(0, page.indexOf('#')), page.slice(page.indexOf('#'))] : [page, '']
  const utm = [`utm_source=${encodeURIComponent(spot.publisher_name)}`, `utm_medium=${withKeyword ? 'cpc' : 'display'}`, `utm_campaign=${encodeURIComponent(campaign.campaign_name)}`, `utm_content=${spot.spot_id_str}`]
  if (withKeyword) utm.push(`utm_term=${encodeURIComponent(keyword.keyword_name)}`)
  return `${head}&${utm.join('&')}${hash}`
}

/** Every parameter a tag of these options must give back, worked out from the vocabulary's strings. */
function expected(kind: 'impression' | 'click', options: readonly CodeType[], withKeyword: boolean): Record<string, string> {
  const out: Record<string, string> = { k: campaign.campaign_id, p: spot.spot_id_str }
  if (withKeyword) out.af = String(keyword.keyword_id)
  for (const [k, v] of pairs(BASE_TAG_PARAMS)) out[k] = v
  for (const name of CODE_TYPE_NAMES) {
    const def: { params: string; clickOnly?: boolean } = CODE_TYPES[name]
    if (options.includes(name) && (kind === 'click' || !def.clickOnly)) for (const [k, v] of pairs(def.params)) out[k] = v
  }
  const landing = withKeyword ? keyword.landing_page : spot.landing_page
  out.o = kind === 'impression' || options.includes('closedurl') ? '' : options.includes('utm') ? utmLanding(withKeyword) : landing
  return out
}

/** A tag as a hit arrives: the path below the host, and the query without `?`. */
function arrive(url: string): [string, string] {
  const rest = url.slice(url.indexOf('/', url.indexOf('//') + 2))
  const q = rest.indexOf('?')
  return q < 0 ? [rest, ''] : [rest.slice(0, q), rest.slice(q + 1)]
}

/** Each option alone, every option together but closedurl (it empties o=), and with it. */
const OPTION_SETS: CodeType[][] = [[], ...CODE_TYPE_NAMES.map((n) => [n]), CODE_TYPE_NAMES.filter((n) => n !== 'closedurl'), [...CODE_TYPE_NAMES]]

describe('list_spots tags read back by the tracking reader', () => {
  const cases = OPTION_SETS.flatMap((options) => [false, true].map((withKeyword) => [options.join(',') || '(none)', withKeyword, options] as const))
  it.each(cases)('gives back every parameter with code_type %s (keyword tag: %s)', (_name, withKeyword, options) => {
    const tags = trackingTags(tagShape(BASE, options), campaign, spot, withKeyword ? keyword : undefined)
    for (const kind of ['impression', 'click'] as const) {
      const [path, query] = arrive(kind === 'impression' ? tags.impression_url : tags.click_url)
      expect(path.startsWith(`/sub${TRACKING_PATHS[kind].prefix}`), path).toBe(true)
      const read = parseTrackingUrl(path.slice('/sub'.length), query)
      expect(read?.kind).toBe(kind)
      expect(Object.fromEntries(read?.params ?? [])).toEqual(expected(kind, options, withKeyword))
    }
  })

  it('checks every option of code_type and every macro of the vocabulary', () => {
    const macros = new Set(pairs([BASE_TAG_PARAMS, ...CODE_TYPE_NAMES.map((n) => CODE_TYPES[n].params)].filter((p) => p !== '').join('&')).map(([, v]) => v).filter((v) => /^__\w+__$/.test(v)))
    const read = parseTrackingUrl(...arrive(trackingTags(tagShape(BASE, CODE_TYPE_NAMES), campaign, spot).click_url).map((x, i) => (i === 0 ? x.slice(4) : x)) as [string, string])
    expect(new Set([...(read?.params.values() ?? [])].filter((v) => macros.has(v)))).toEqual(macros)
    expect(macros.size).toBeGreaterThan(40)
  })
})

/** Every path form of every kind, and near misses that are no tracking path. */
const FORMS = TRACKING_KINDS.flatMap((kind) => {
  const { prefix, bare, gif } = TRACKING_PATHS[kind]
  return [`${prefix}k=1&p=e&o=`, `${prefix}`, bare, gif].map((path) => [kind, path] as const)
})
const MISSES = ['/x.png', '/xy', '/X/k=1', '/r.gifx', '/e.gi', '/ex/', '/q/k=1', '/', '/xx.gif']

describe('the tracking paths the endpoint table and the reader take', () => {
  it("declares each kind's endpoint at its gif path, its bare path as alias and its prefix", () => {
    const declared = Object.values(trackingEndpoints).map((d) => [d.path, d.aliases, d.prefix])
    expect(declared).toEqual(TRACKING_KINDS.map((k) => [TRACKING_PATHS[k].gif, [TRACKING_PATHS[k].bare], TRACKING_PATHS[k].prefix]))
    expect(TRACKING_PATHS.impression).toEqual({ prefix: '/x/', bare: '/x', gif: '/x.gif' })
    expect(TRACKING_PATHS.click).toEqual({ prefix: '/r/', bare: '/r', gif: '/r.gif' })
    expect(TRACKING_PATHS.minisite).toEqual({ prefix: '/e/', bare: '/e', gif: '/e.gif' })
  })

  it('reads every form of every kind, and nothing else', () => {
    for (const [kind, path] of FORMS) expect([path, trackingRoute(path)?.kind]).toEqual([path, kind])
    for (const path of MISSES) expect([path, trackingRoute(path)]).toEqual([path, null])
  })
})

describe('the HTTP door hands exactly the tracking paths to the engine', () => {
  let door: HttpDoor
  let www: string
  const seen: string[] = []
  beforeAll(async () => {
    // (an empty web-interface folder: a path the door does not take for the API is looked up there)
    www = mkdtempSync(join(tmpdir(), 'admonitor-url-shape-'))
    const engine = { handle: async (req: EngineRequest) => (seen.push(req.path), { status: 204, headers: {}, body: '' }) }
    door = await startHttpDoor(engine, { port: 0, staticDir: www })
  })
  afterAll(async () => {
    await door?.close()
    if (www) rmSync(www, { recursive: true, force: true })
  })

  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const r = request({ host: '127.0.0.1', port: door.port, path, headers: { host: `127.0.0.1:${door.port}` } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)))
      r.on('error', reject)
      r.end()
    })

  it('takes every form of every kind, with a query too', async () => {
    for (const [, path] of FORMS) {
      seen.length = 0
      expect([path, await get(`${path}?k=1&p=e`), seen]).toEqual([path, 204, [path]])
    }
  })

  it('leaves the near misses to the web interface (404: no such file)', async () => {
    // ('/r.gifx' starts with a door prefix: the door takes it, and the engine finds no endpoint)
    for (const path of MISSES.filter((p) => p !== '/' && p !== '/r.gifx')) {
      seen.length = 0
      expect([path, await get(path), seen]).toEqual([path, 404, []])
    }
  })
})
