// The panel import formats, one line at a time (docs/panel.md)
import { describe, expect, it } from 'vitest'
import { parseCsvHeader, parseCsvLine, parseNdjsonLine, splitCsv } from '../../../../engine/measure/panel/parse'
import { LineError } from '../../../../engine/measure/panel/person'

const fails = (f: () => unknown): string => {
  try {
    f()
  } catch (err) {
    if (err instanceof LineError) return err.message
    throw err
  }
  throw new Error('did not fail')
}

describe('splitCsv', () => {
  it.each([
    ['a,b,c', ['a', 'b', 'c']],
    ['a,,c', ['a', '', 'c']],
    ['', ['']],
    ['a,', ['a', '']],
    ['"a,b",c', ['a,b', 'c']],
    ['"say ""hi""",x', ['say "hi"', 'x']],
    ['"",x', ['', 'x']],
  ])('splits %j', (line, fields) => {
    expect(splitCsv(line)).toEqual(fields)
  })

  it.each([
    ['"open,b', 'closing quote'],
    ['"a"b,c', 'after a closing quote'],
  ])('refuses %j', (line, text) => {
    expect(fails(() => splitCsv(line))).toContain(text)
  })
})

describe('parseCsvHeader', () => {
  it('finds the columns in any order and case, tags and devices optional', () => {
    expect(parseCsvHeader('Weight,person_id,HOME_REGION')).toEqual({ person_id: 1, weight: 0, home_region: 2, tags: -1, devices: -1, width: 3 })
  })

  it('names the missing columns and asks for a header row', () => {
    const m = fails(() => parseCsvHeader('p1,1000,000000000000001156440300'))
    expect(m).toContain('person_id, weight, home_region')
    expect(m).toContain('header row is required')
  })

  it('refuses a column of another name, naming it and the columns (a typo would lose that column of every person)', () => {
    expect(fails(() => parseCsvHeader('person_id,weight,home_region,tag,device'))).toBe('the header row names the unknown columns tag, device; the columns are person_id,weight,home_region,tags,devices')
    expect(fails(() => parseCsvHeader('person_id,weight,home_region,foo'))).toContain('unknown column foo;')
    // (an empty name, a spreadsheet's trailing comma, names no column)
    expect(parseCsvHeader('person_id,Weight,home_region,').weight).toBe(1)
  })

  it('refuses a column named twice', () => {
    expect(fails(() => parseCsvHeader('person_id,weight,home_region,tags,tags'))).toContain('tags twice')
  })
})

describe('parseCsvLine', () => {
  const layout = parseCsvHeader('person_id,weight,home_region,tags,devices')

  it('reads tags joined by | and devices written platform:device', () => {
    expect(parseCsvLine('p1,55000.5,R,male|25-29Y,mb:idfa:abc|pc:amid:def', layout)).toEqual({
      person_id: 'p1', weight: 55000.5, home_region: 'R', tags: ['male', '25-29Y'],
      devices: [{ platform: 'mb', device: 'idfa:abc' }, { platform: 'pc', device: 'amid:def' }],
    })
  })

  it('reads a negative weight as the number it is, for the check to refuse as not above 0', () => {
    expect(parseCsvLine('p1,-5,R,,', layout)).toMatchObject({ weight: -5 })
  })

  it('reads empty tags and devices as none', () => {
    expect(parseCsvLine('p1,1,R,,', layout)).toMatchObject({ tags: [], devices: [] })
  })

  it.each([
    ['p1,1,R,male', 'has 4 fields, the header has 5'],
    ['p1,,R,,', "'weight' is missing"],
    ['p1,abc,R,,', "'weight' must be a number"],
    [',1,R,,', "'person_id' is missing"],
    ['p1,1,,,', "'home_region' is missing"],
    ['p1,1,R,,idfa-abc', 'pc:<device> or mb:<device>'],
  ])('refuses %j', (line, text) => {
    expect(fails(() => parseCsvLine(line, layout))).toContain(text)
  })
})

describe('parseNdjsonLine', () => {
  it('reads an object, tags and devices optional', () => {
    expect(parseNdjsonLine('{"person_id":"p1","weight":2,"home_region":"R"}')).toEqual({ person_id: 'p1', weight: 2, home_region: 'R', tags: [], devices: [] })
  })

  it.each([
    ['{"person_id":"p1",', 'malformed JSON: the line ends before its JSON does'],
    ['{"person_id":"p1",}', 'malformed JSON: it breaks at character 19'],
    ['[1,2]', 'must be a JSON object'],
    ['{"weight":2,"home_region":"R"}', "'person_id' is missing"],
    ['{"person_id":7,"weight":2,"home_region":"R"}', "'person_id' must be a string"],
    ['{"person_id":"p1","home_region":"R"}', "'weight' is missing"],
    ['{"person_id":"p1","weight":"2","home_region":"R"}', "'weight' must be a number"],
    ['{"person_id":"p1","weight":2,"home_region":"R","tags":"male"}', "'tags' must be an array of strings"],
    ['{"person_id":"p1","weight":2,"home_region":"R","devices":["idfa:x"]}', "'devices[0]' must be an object"],
    ['{"person_id":"p1","weight":2,"home_region":"R","devices":{}}', "'devices' must be an array"],
  ])('refuses %j', (line, text) => {
    expect(fails(() => parseNdjsonLine(line))).toContain(text)
  })
})
