// docs/attribution.md §2, "Options weighed": each way of telling persons apart, modelled by its
// rule alone on the same generated traffic, and its error (identities counted - persons) on the
// identity scenarios of test/engine/scenarios. The engine's choice, (d) the cookie check with its fallback, must have the
// smallest error on each scenario and in total. The table printed is the one in the doc.
import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { prng } from '../../helpers/prng'

interface Client {
  keepsCookies: boolean
  followsRedirects: boolean
}

interface Hit {
  client: Client
  ip: string
  ua: string
  /** Sent by an ad server with the person's address in `ns=`. */
  s2s: boolean
}

/** A rule: the identity a hit is counted as, given the cookie jars (client -> amid value) and a source of fresh values. */
type Rule = (h: Hit, jars: Map<Client, string>, fresh: () => string) => string

const hash = (ip: string, ua: string): string => createHash('sha256').update(`${ip}\n${ua}`).digest('hex').slice(0, 32)
const KEY = Buffer.alloc(32, 9)
const ipua = (ip: string, ua: string): string => `ipua:${createHmac('sha256', KEY).update(`${ip}\n${ua}`).digest('hex').slice(0, 32)}`
const keep = (h: Hit, jars: Map<Client, string>, value: string): void => {
  if (h.client.keepsCookies) jars.set(h.client, value)
}

const OPTIONS: Record<string, Rule> = {
  // the hash of address and agent, set as the cookie on first contact
  '(a) IP+UA hash': (h, jars) => {
    const cookie = jars.get(h.client)
    if (cookie !== undefined) return `amid:${cookie}`
    const v = hash(h.ip, h.ua)
    keep(h, jars, v)
    return `amid:${v}`
  },
  // a random cookie on first contact, counted at once under it
  '(b) random cookie, no check': (h, jars, fresh) => {
    const cookie = jars.get(h.client)
    if (cookie !== undefined) return `amid:${cookie}`
    const v = fresh()
    keep(h, jars, v)
    return `amid:${v}`
  },
  // a first contact counted as its address and agent, a random cookie set for the next hits
  '(c) address first, then cookie': (h, jars, fresh) => {
    const cookie = jars.get(h.client)
    if (cookie !== undefined) return `amid:${cookie}`
    keep(h, jars, fresh())
    return ipua(h.ip, h.ua)
  },
  // the engine's: server-to-server as address; else a cookie check, counted under the cookie when
  // the browser comes back with it, else (refused, or never back) as its address and agent
  '(d) cookie check, address fallback': (h, jars, fresh) => {
    const cookie = jars.get(h.client)
    if (cookie !== undefined) return `amid:${cookie}`
    if (h.s2s) return ipua(h.ip, h.ua)
    const v = fresh()
    keep(h, jars, v)
    return h.client.followsRedirects && jars.get(h.client) === v ? `amid:${v}` : ipua(h.ip, h.ua)
  },
}

const CHROME_131 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const browser = (): Client => ({ keepsCookies: true, followsRedirects: true })

/** The scenarios: their hits, interleaved by a seeded shuffle, and how many persons sent them. */
function scenarios(): Record<string, { hits: Hit[]; persons: number }> {
  const rnd = prng(24)
  const shuffled = (hits: Hit[]): Hit[] => {
    for (let i = hits.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1))
      ;[hits[i], hits[j]] = [hits[j]!, hits[i]!]
    }
    return hits
  }
  const nat = Array.from({ length: 50 }, browser)
  const refusers = Array.from({ length: 200 }, (): Client => ({ keepsCookies: false, followsRedirects: true }))
  const lone = browser()
  const tracker: Client = { keepsCookies: false, followsRedirects: false }
  return {
    '50 browsers, one office address and agent, 10 impressions each': { persons: 50, hits: shuffled(nat.flatMap((client) => Array.from({ length: 10 }, () => ({ client, ip: '202.96.134.133', ua: CHROME_131, s2s: false })))) },
    '200 cookie refusers on one carrier NAT, 3 hits each': { persons: 200, hits: shuffled(refusers.flatMap((client) => Array.from({ length: 3 }, () => ({ client, ip: '117.136.12.34', ua: IPHONE, s2s: false })))) },
    'a lone browser seen 3 times (home, office, phone network)': { persons: 1, hits: ['113.64.1.10', '202.96.134.133', '117.136.12.34'].map((ip) => ({ client: lone, ip, ua: CHROME_131, s2s: false })) },
    'a server-to-server tracker, 3 hits of one person': { persons: 1, hits: Array.from({ length: 3 }, () => ({ client: tracker, ip: '61.135.169.121', ua: IPHONE, s2s: true })) },
  }
}

/** Identities counted - persons, per option and scenario. */
function errors(): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {}
  for (const [option, rule] of Object.entries(OPTIONS)) {
    out[option] = {}
    let n = 0
    const fresh = () => createHash('sha256').update(`fresh ${n++}`).digest('hex').slice(0, 32)
    for (const [name, s] of Object.entries(scenarios())) {
      const jars = new Map<Client, string>()
      const identities = new Set(s.hits.map((h) => rule(h, jars, fresh)))
      out[option]![name] = identities.size - s.persons
    }
  }
  return out
}

describe('identity options on the scenarios of docs/attribution.md (NAT, refusers, movers)', () => {
  it('gives the cookie check with its address fallback the smallest error on every scenario', () => {
    const table = errors()
    const names = Object.keys(scenarios())
    const total = (o: string) => names.reduce((sum, n) => sum + Math.abs(table[o]![n]!), 0)
    const lines = [`| Option | ${names.join(' | ')} | Total abs. error |`, `|---|${names.map(() => '---|').join('')}---|`]
    for (const o of Object.keys(OPTIONS)) lines.push(`| ${o} | ${names.map((n) => String(table[o]![n])).join(' | ')} | ${total(o)} |`)
    console.log(lines.join('\n'))
    const chosen = '(d) cookie check, address fallback'
    for (const n of names) for (const o of Object.keys(OPTIONS)) expect(Math.abs(table[chosen]![n]!), `${n}: ${o}`).toBeLessThanOrEqual(Math.abs(table[o]![n]!))
    for (const o of Object.keys(OPTIONS)) if (o !== chosen) expect(total(chosen)).toBeLessThan(total(o))
    // what each scenario holds: the refusers are one identity (the limit of an address and agent)
    expect(table[chosen]).toEqual({ [names[0]!]: 0, [names[1]!]: -199, [names[2]!]: 0, [names[3]!]: 0 })
  })
})
