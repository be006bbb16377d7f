// engine/measure/json-break.ts: where a refused line stops being JSON, the character a rejected
// import line's problem names. The truth is JSON.parse itself: whether a text is JSON, and, where
// V8's message gives one ("at position N"), the position it stopped at.
import { describe, expect, it } from 'vitest'
import { jsonBreak, type JsonBreak } from '../../../engine/measure/json-break'
import { prng } from '../../helpers/prng'

/** What JSON.parse says of `text`: null when it is JSON, else the break at V8's position (null when its message gives none). */
function parserBreak(text: string): { break: JsonBreak | null } | null {
  try {
    JSON.parse(text)
    return null
  } catch (err) {
    const m = / at position (\d+)/.exec((err as Error).message)
    if (!m) return { break: /end of JSON input/.test((err as Error).message) ? 'end' : null }
    const at = Number(m[1])
    return { break: at >= text.length ? 'end' : { char: [...text.slice(0, at)].length + 1 } }
  }
}

const ATOMS = ['{', '}', '[', ']', ',', ':', '"', '\\', 'a', 'u', '1', '0', '9', '-', '.', 'e', 'E', '+', 'true', 'false', 'null', 'tru', ' ', '\t', '\n', 'x', '😀', '名', '\u0001', '"ts"', '"k":']
const LINE = JSON.stringify({ type: 'impression', ts: 1795665600000, campaign_id: 1, spot_id: 41, identity: 'idfa:ABC|caid:名字', nested: [1.5e3, -0.25, true, null, { k: '\u00e9\\"' }] })

describe('jsonBreak', () => {
  it.each([
    ['{not json', { char: 2 }],
    ['{"type":"click",}', { char: 17 }],
    ['{"type":"click"', 'end'],
    ['{"a":"x\ty"}', { char: 8 }],
    ['{"a":1} x', { char: 9 }],
    ['{"a":tru}', { char: 9 }],
    ['{"a":01}', { char: 7 }],
    ['{"名字":1 x', { char: 9 }],
    ['{"😀":1 x', { char: 8 }],
    ['{"a":"\\x"}', { char: 8 }],
    ['nul', 'end'],
    ['', 'end'],
  ] as const)('breaks %j at %j', (text, want) => {
    expect(jsonBreak(text)).toEqual(want)
  })

  it('finds no break in JSON, whatever its nesting', () => {
    for (const text of [LINE, '[]', '{}', ' [ { } , [ ] ] ', '"\\u00e9"', '-0.5e-3', '0', 'null']) expect(jsonBreak(text), text).toBeNull()
    expect(jsonBreak(`${'['.repeat(200_000)}${']'.repeat(200_000)}`)).toBeNull()
    expect(jsonBreak('['.repeat(200_000))).toBe('end')
  })

  it("agrees with JSON.parse on 40,000 random and mutated lines: JSON or not, and the position V8's message gives", () => {
    const random = prng(14)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
    const disagreements: string[] = []
    let positioned = 0
    for (let n = 0; n < 40_000; n++) {
      let text: string
      if (n % 2 === 0) {
        text = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(ATOMS)).join('')
      } else {
        const at = Math.floor(random() * LINE.length)
        const cut = random()
        text = cut < 0.25 ? LINE.slice(0, at) : cut < 0.5 ? LINE.slice(0, at) + LINE.slice(at + 1) : cut < 0.75 ? LINE.slice(0, at) + pick(ATOMS) + LINE.slice(at) : LINE.slice(0, at) + pick(ATOMS) + LINE.slice(at + 1)
      }
      const want = parserBreak(text)
      const got = jsonBreak(text)
      if (want === null ? got !== null : got === null) disagreements.push(`${JSON.stringify(text)}: JSON.parse ${want ? 'refuses' : 'reads'} it, jsonBreak ${JSON.stringify(got)}`)
      else if (want?.break) {
        positioned++
        if (JSON.stringify(got) !== JSON.stringify(want.break)) disagreements.push(`${JSON.stringify(text)}: V8 ${JSON.stringify(want.break)}, jsonBreak ${JSON.stringify(got)}`)
      }
    }
    expect(disagreements.slice(0, 10), `${disagreements.length} disagreements`).toEqual([])
    // most refusals carry a position to compare with
    expect(positioned).toBeGreaterThan(10_000)
  })
})
