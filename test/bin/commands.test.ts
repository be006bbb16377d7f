// bin/commands.ts: the data commands (import, simulate, rebuild, demo) as real processes on a real
// data directory (docs/import.md, docs/simulator.md, docs/measurement.md), and the piece reader
// that lets `import` take files larger than memory.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pieces } from '../../bin/commands'
import { csvRows } from '../../engine/measure/import'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const dirs: string[] = []
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'admonitor-cli-'))
  dirs.push(d)
  return d
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function collect(file: string, csv: boolean, bytes: number): Promise<{ text: string; offset: number }[]> {
  const out: { text: string; offset: number }[] = []
  for await (const p of pieces(file, csv, bytes)) out.push(p)
  return out
}

describe('pieces', () => {
  it('cuts NDJSON into whole lines whose numbers map back to the file', async () => {
    const file = join(tempDir(), 'e.ndjson')
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ n: i + 1 }))
    writeFileSync(file, lines.join('\n'))
    const got = await collect(file, false, 64)
    expect(got.length).toBeGreaterThan(5)
    const seen: number[] = []
    for (const p of got) p.text.split('\n').forEach((l, i) => {
      expect(JSON.parse(l).n).toBe(p.offset + i + 1)
      seen.push(p.offset + i + 1)
    })
    expect(seen).toEqual(lines.map((_, i) => i + 1))
  })

  it('keeps NDJSON lines longer than a read, CRLF endings, multi-byte text and a final newline whole', async () => {
    const file = join(tempDir(), 'long.ndjson')
    const lines = Array.from({ length: 30 }, (_, i) => JSON.stringify({ n: i + 1, note: i % 4 === 0 ? '春'.repeat(100) : 'x' }))
    writeFileSync(file, `${lines.join('\r\n')}\r\n`)
    const got = await collect(file, false, 64)
    const seen: number[] = []
    for (const p of got) p.text.split('\n').forEach((l, i) => {
      if (l.trim() === '') return
      expect(JSON.parse(l).n).toBe(p.offset + i + 1)
      seen.push(p.offset + i + 1)
    })
    expect(seen).toEqual(lines.map((_, i) => i + 1))
    expect(got.map((p) => p.text).join('\n')).toBe(`${lines.join('\r\n')}\r`)
  })

  it('repeats the CSV header in every piece, never cuts a quoted field, and keeps file line numbers', async () => {
    const file = join(tempDir(), 'e.csv')
    const rows = ['type,ts,note']
    const lineOf = new Map<string, number>() // ts -> the file line its row starts on
    let fileLine = 1
    for (let i = 2; i <= 40; i++) {
      const row = i % 7 === 0 ? `impression,${i},"two\nlines, ""quoted"""` : `impression,${i},plain`
      lineOf.set(String(i), ++fileLine)
      fileLine += row.split('\n').length - 1
      rows.push(row)
    }
    writeFileSync(file, rows.join('\n'))
    const got = await collect(file, true, 40)
    expect(got.length).toBeGreaterThan(5)
    const cells: string[][] = []
    for (const p of got) {
      const [head, ...body] = [...csvRows(p.text)]
      expect(head!.cells).toEqual(['type', 'ts', 'note'])
      for (const r of body) {
        expect(r.line + p.offset).toBe(lineOf.get(r.cells[1]!))
        cells.push(r.cells)
      }
    }
    expect(cells.map((c) => Number(c[1]))).toEqual(Array.from({ length: 39 }, (_, i) => i + 2))
    expect(cells.find((c) => c[1] === '7')![2]).toBe('two\nlines, "quoted"')
  })

  it('yields nothing more than the header for a CSV file of a header only', async () => {
    const file = join(tempDir(), 'h.csv')
    writeFileSync(file, 'type,ts\n')
    expect((await collect(file, true, 1)).map((p) => p.text)).toEqual(['type,ts'])
  })
})

describe('admonitor demo, import, simulate, rebuild', () => {
  const dataDir = tempDir()
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bin/admonitor.ts', ...args, '--data-dir', dataDir], {
      cwd: ROOT, encoding: 'utf8', timeout: 120_000,
      env: { ...process.env, ADMONITOR_USERNAME: 'cli', ADMONITOR_PASSWORD: 'cli-Password-1', ADMONITOR_CLIENT_ID: 'cli-client', ADMONITOR_CLIENT_SECRET: 'cli-Secret-12' },
    })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }
  let demoHits = 0
  const rebuiltFrom = (out: string): number => Number(/rebuilt from (\d+) raw events/.exec(out)?.[1])
  let rawAfterDemo = 0

  beforeAll(() => {
    const r = run('demo')
    expect(r.code, r.err).toBe(0)
    const m = /demo campaign 1 with (\d+) simulated hits/.exec(r.out)
    expect(m, r.out).not.toBeNull()
    demoHits = Number(m![1])
    rawAfterDemo = rebuiltFrom(run('rebuild').out)
  }, 120_000)

  it('creates the demo campaign with its simulated traffic (and minisite page views besides)', () => {
    expect(demoHits).toBeGreaterThan(10_000)
    expect(rawAfterDemo).toBeGreaterThanOrEqual(demoHits)
  })

  it('imports the good lines of an NDJSON file and names the bad ones by line', () => {
    const file = join(tempDir(), 'events.ndjson')
    const good = { type: 'impression', ts: '2025-01-10T10:00:00+08:00', campaign_id: 1, spot_id: 1, identity: 'idfa:cli-1' }
    writeFileSync(file, [JSON.stringify(good), '{not json', JSON.stringify({ ...good, spot_id: 99_999 }), JSON.stringify({ ...good, type: 'click' })].join('\n'))
    const r = run('import', file)
    expect(r.code, r.err).toBe(0)
    expect(r.err).toContain('2 events imported, 2 rejected')
    expect(r.err).toMatch(/line 2: .*JSON/)
    expect(r.err).toMatch(/line 3: .*99999/)
  })

  it('imports a CSV file with the same columns', () => {
    const file = join(tempDir(), 'events.csv')
    writeFileSync(file, 'type,ts,campaign_id,spot_id,identity\nimpression,1736474400000,1,1,oaid:cli-2\nclick,1736474460000,1,1,oaid:cli-2\nimpression,nope,1,1,oaid:cli-2\n')
    const r = run('import', file)
    expect(r.code, r.err).toBe(0)
    expect(r.err).toContain('2 events imported, 1 rejected')
    expect(r.err).toMatch(/line 4: .*'ts'/)
  })

  it('refuses an unknown --format and a missing file with a message and exit code 2', () => {
    const bad = run('import', 'x.txt', '--format', 'xml')
    expect([bad.code, bad.err]).toEqual([2, expect.stringContaining('--format must be ndjson or csv')])
    const missing = run('import', join(dataDir, 'none.ndjson'))
    expect([missing.code, missing.err]).toEqual([2, expect.stringContaining('cannot read')])
  })

  it('rebuilds every figure from the raw events, the demo hits and the imported ones', () => {
    const r = run('rebuild')
    expect(r.code, r.err).toBe(0)
    expect(rebuiltFrom(r.out)).toBe(rawAfterDemo + 4)
  })

  it('simulates more traffic for a campaign, and names a campaign that does not exist', () => {
    const r = run('simulate', '--campaign', '1', '--seed', '9', '--scale', '0.01')
    expect(r.code, r.err).toBe(0)
    expect(r.out).toMatch(/^\d+ hits simulated/)
    const missing = run('simulate', '--campaign', '999')
    expect(missing.code).not.toBe(0)
    expect(missing.err).toContain('999')
  })
})
