// bin/commands.ts: the data commands (import, simulate, rebuild, demo) as real processes on a real
// data directory (docs/import.md, docs/simulator.md, docs/measurement.md), and the piece reader
// that lets `import` take files larger than memory.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WORKER_PIECE_BYTES, local } from '../../bin/commands'
import { ndjsonBytes, pieces, type Piece } from '../../bin/pieces'
import { openEngine } from '../../bin/open'
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

async function collect(file: string, csv: boolean, bytes: number): Promise<Piece[]> {
  const out: Piece[] = []
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
    // the bytes of the file each piece covers (the progress), the newline it was cut after included
    expect(got.reduce((n, p) => n + p.bytes, 0)).toBe(statSync(file).size)
  })

  it('cuts NDJSON bytes (for workers) after whole lines, never inside a character, each piece with a buffer of its own', async () => {
    const file = join(tempDir(), 'bytes.ndjson')
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ n: i + 1, note: i % 3 === 0 ? '春眠不觉晓😀'.repeat(7) : 'x' }))
    const text = `${lines.join('\r\n')}\r\n`
    writeFileSync(file, text)
    const got: Uint8Array[] = []
    for await (const b of ndjsonBytes(file, 50)) got.push(b)
    expect(got.length).toBeGreaterThan(5)
    // each piece decodes on its own, its lines whole; together, the file without its last newline
    const decoded = got.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'))
    expect(decoded.join('\n')).toBe(text.slice(0, -1))
    for (const d of decoded) expect(d).not.toContain('\ufffd')
    expect(new Set(got.map((b) => b.buffer)).size).toBe(got.length)
    expect(decoded.flatMap((d) => d.split('\n')).filter((l) => l.trim() !== '').map((l) => JSON.parse(l).n)).toEqual(lines.map((_, i) => i + 1))
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
    // every piece but the first repeats the header (13 bytes with its newline)
    expect(got.reduce((n, p) => n + p.bytes, 0)).toBe(statSync(file).size + 1 + 13 * (got.length - 1))
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
  const run = (...args: string[]) => runIn(dataDir, ...args)
  const runIn = (dir: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bin/admonitor.ts', ...args, '--data-dir', dir], {
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
    expect(r.code, r.err).toBe(1)
    expect(r.err).toContain('2 events imported, 2 rejected')
    expect(r.err).toMatch(/line 2: .*JSON/)
    expect(r.err).toMatch(/line 3: .*99999/)
  })

  it('imports a CSV file with the same columns', () => {
    const file = join(tempDir(), 'events.csv')
    writeFileSync(file, 'type,ts,campaign_id,spot_id,identity\nimpression,1736474400000,1,1,oaid:cli-2\nclick,1736474460000,1,1,oaid:cli-2\nimpression,nope,1,1,oaid:cli-2\n')
    const r = run('import', file)
    expect(r.code, r.err).toBe(1)
    expect(r.err).toContain('2 events imported, 1 rejected')
    expect(r.err).toMatch(/line 4: .*'ts'/)
  })

  it('refuses an unknown --format and a missing file with a message and exit code 2', () => {
    const bad = run('import', 'x.txt', '--format', 'xml')
    expect([bad.code, bad.err]).toEqual([2, expect.stringContaining('--format must be ndjson or csv')])
    const missing = run('import', join(dataDir, 'none.ndjson'))
    expect([missing.code, missing.err]).toEqual([2, expect.stringContaining('cannot read')])
    expect(missing.err).toContain('no such file')
  })

  it('rebuilds every figure from the raw events, the demo hits and the imported ones', () => {
    const r = run('rebuild')
    expect(r.code, r.err).toBe(0)
    expect(rebuiltFrom(r.out)).toBe(rawAfterDemo + 4)
  })

  it("says, when a process holds the directory, that a server's API does what the command does", () => {
    const held = join(tempDir(), 'held')
    cpSync(dataDir, held, { recursive: true })
    writeFileSync(join(held, 'LOCK'), String(process.pid)) // a live process: this test's
    const r = runIn(held, 'rebuild')
    expect(r.code).toBe(2)
    expect(r.err).toContain(`in use by process ${process.pid}`)
    expect(r.err).toContain('its API does the same: POST /local/v1/events/import, /local/v1/simulate/run, /local/v1/measurement/rebuild')
    // account rotate: the server must be stopped (its API asks for the password that was lost)
    const rotate = runIn(held, 'account', 'rotate', '--what', 'password')
    expect(rotate.code).toBe(2)
    expect(rotate.err).toContain(`in use by process ${process.pid}`)
    expect(rotate.err).toContain('Stop it first: the secrets are replaced on the data directory itself')
    expect(rotate.err).not.toContain('its API does the same')
  })

  it('refuses to rebuild a directory with no data (a mistyped --data-dir), creating nothing there', () => {
    const missing = join(tempDir(), 'no-such-dir')
    const r = runIn(missing, 'rebuild')
    expect(r.code).toBe(2)
    expect(r.err).toContain(`admonitor: rebuild: ${missing} holds no data (no database there): check --data-dir`)
    expect(existsSync(missing)).toBe(false)
  })

  it('rotates the account password on the data directory (the way back in when it is lost): the new one logs in, the old one no longer', async () => {
    const r = run('account', 'rotate', '--what', 'password')
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain('New secrets of the local account.')
    const password = /password: +(\S+)/.exec(r.out)?.[1] ?? ''
    expect(password).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(r.out).not.toContain('client_secret:')
    const { engine } = await openEngine({ dataDir })
    try {
      const login = async (pw: string) => (await engine.handle({ method: 'POST', path: '/oauth/token', query: {}, body: new URLSearchParams({ grant_type: 'password', username: 'cli', password: pw, client_id: 'cli-client', client_secret: 'cli-Secret-12' }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status
      expect(await login(password)).toBe(200)
      expect(await login('cli-Password-1')).toBe(400)
    } finally {
      await engine.close()
    }
    const bad = run('account', 'rotate', '--what', 'everything')
    expect([bad.code, bad.err.trim()]).toEqual([2, "admonitor: invalid_request: The 'what' (--what) must be one of password, client_secret, both, got 'everything'."])
    const fresh = runIn(join(tempDir(), 'typo'), 'account', 'rotate', '--what', 'both')
    expect(fresh.code).toBe(2)
    expect(fresh.err).toContain('account rotate: ')
    expect(fresh.err).toContain('holds no data (no database there): check --data-dir')
  })

  it('parses a large file on worker threads with the result of one thread, bad lines named by their line in the file', async () => {
    const file = join(tempDir(), 'big.ndjson')
    const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
    // days inside the demo campaign (the two weeks before today)
    const days = [5, 4, 3, 2].map((k) => new Date(Date.now() - k * 86_400_000).toISOString().slice(0, 10))
    const bad = new Map<number, string>()
    const rows = Array.from({ length: 40_000 }, (_, i) => {
      if (i % 7_001 === 5) return bad.set(i + 1, 'is not a JSON object: its JSON breaks at character 2'), '{not json'
      // a tenth of the lines carry media request ids, each id on 20 lines of one day: repeats
      const line = {
        type: i % 40 === 0 ? 'click' : 'impression', ts: `${days[i % 4]}T${String(i % 24).padStart(2, '0')}:00:00+08:00`, campaign_id: 1, spot_id: i % 9_001 === 7 ? 99_999 : 1,
        identity: `idfa:big-${i % 3_000}`, user_agent: UA, ip: '1.2.4.8', ...(i % 10 === 0 ? { request_id: `req-${i % 2_000}` } : {}),
      }
      if (line.spot_id !== 1) bad.set(i + 1, 'spot 99999 is not a spot of campaign 1')
      return JSON.stringify(line)
    })
    writeFileSync(file, rows.join('\n'))
    expect(rows.join('\n').length).toBeGreaterThan(2 * WORKER_PIECE_BYTES) // three pieces
    const [one, two] = [join(tempDir(), 'one'), join(tempDir(), 'two')]
    for (const d of [one, two]) cpSync(dataDir, d, { recursive: true })
    const a = runIn(one, 'import', file, '--workers', '0')
    const b = runIn(two, 'import', file, '--workers', '1')
    // (exit code 1: lines were rejected)
    expect([a.code, b.code], a.err + b.err).toEqual([1, 1])
    expect(b.err).toMatch(/parsed by 1 worker thread, main thread busy \d+%/)
    const summary = (err: string) => /(\d+) events imported, (\d+) rejected(?:, (\d+) repeats of a counted media request id left out)?/.exec(err)!.slice(1).map(Number)
    expect(summary(b.err)).toEqual(summary(a.err))
    const [imported, rejected, repeats] = summary(b.err)
    expect(rejected).toBe(bad.size)
    // 4,000 lines with ids, of 200 ids (clicks and impressions apart): all but the first of each left out
    expect(repeats).toBeGreaterThan(3_500)
    expect(imported! + repeats!).toBe(40_000 - bad.size)
    const listed = (err: string) => [...err.matchAll(/^ {2}line (\d+): (.*)$/gm)].map((m) => [Number(m[1]), m[2]!.replace(/ \(.*$/, '')])
    expect(listed(b.err)).toEqual([...bad])
    expect(listed(a.err)).toEqual([...bad])
    // the same figures in both data directories
    const figures = async (dir: string) => {
      const { engine } = await openEngine({ dataDir: dir })
      try {
        const out = []
        for (const date of days) out.push(await local(engine, 'GET', '/admonitor/v1/reports/basic/show', { campaign_id: '1', date, by_position: 'spot', by_region: 'level1', metrics: 'all', platform: 'pm' }))
        return out
      } finally {
        await engine.close()
      }
    }
    const [fa, fb] = [await figures(one), await figures(two)]
    expect(fb).toEqual(fa)
    expect(fa.map((f) => (f.items as unknown[]).length).every((n) => n > 0)).toBe(true)
    expect(runIn(two, 'import', file, '--workers', 'x').err).toContain('--workers must be a number of threads')
  }, 120_000)

  it('refuses a CSV file with an unknown column with a message and exit code 2, on one thread and on workers', () => {
    const file = join(tempDir(), 'bogus.csv')
    writeFileSync(file, 'type,ts,bogus\nimpression,1736474400000,x\n')
    for (const workers of ['0', '1']) {
      const r = run('import', file, '--workers', workers)
      expect(r.code, r.err).toBe(2)
      expect(r.err).toContain('admonitor: import: ')
      expect(r.err).toContain('unknown CSV columns bogus')
      expect(r.err).not.toMatch(/^\s+at /m) // no stack trace
    }
  })

  it('simulates more traffic for a campaign with --append only, and names a campaign that does not exist', () => {
    const refused = run('simulate', '--campaign', '1', '--seed', '9', '--scale', '0.01')
    expect(refused.code).toBe(2)
    expect(refused.err).toMatch(/admonitor: .*--append is needed to simulate .* campaign 1 already has \d+ events/)
    // the option typed is said beside the parameter it fills
    expect(run('simulate', '--campaign', '1', '--from', '2026-13-01').err).toContain("The 'from_date' (--from) must be")
    const r = run('simulate', '--campaign', '1', '--seed', '9', '--scale', '0.01', '--append')
    expect(r.code, r.err).toBe(0)
    expect(r.out).toMatch(/^\d+ hits simulated/)
    const missing = run('simulate', '--campaign', '999')
    expect(missing.code).not.toBe(0)
    expect(missing.err).toContain('999')
  })

  it('creates another demo when run again, under names of its own', () => {
    const r = run('demo')
    expect(r.code, r.err).toBe(0)
    expect(r.out).toMatch(/demo campaign \d+ with \d+ simulated hits, minisite \d+/)
  }, 120_000)
})

describe('the command line on bad input and on a new directory', () => {
  const bare = (...args: string[]) => {
    const env = { ...process.env }
    for (const k of ['ADMONITOR_USERNAME', 'ADMONITOR_PASSWORD', 'ADMONITOR_CLIENT_ID', 'ADMONITOR_CLIENT_SECRET']) delete env[k]
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bin/admonitor.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }

  it('prints the first-run secrets whichever command opens a new directory first', () => {
    const r = bare('sync', 'mode', 'list', '--data-dir', join(tempDir(), 'fresh'))
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain('First run: created the local account and API client')
    expect(r.out).toMatch(/password: +\S{12,}/)
    expect(r.out).toMatch(/client_secret: +\S{12,}/)
  })

  it.each([
    [['serve', '--bogus'], "admonitor: serve: Unknown option '--bogus' (admonitor --help"],
    [['rebuild', 'extra'], "admonitor: rebuild: Unexpected argument 'extra'"],
    [['import', 'f.ndjson', '--workers', '-1'], 'a value beginning with - is written --option=-1'],
    [['rebuild', '--data-dir', ''], 'admonitor: --data-dir is empty'],
    [['serve', '--port', '0x1F90'], "admonitor: --port must be 0..65535, got '0x1F90'"],
    [['serve', '--port', ''], "admonitor: --port must be 0..65535, got ''"],
    [['serve', '--host', '0.0.0.0', '--port', '0'], 'admonitor: --host 0.0.0.0 makes the API reachable from the network; name the Host clients will use with --allowed-host'],
    [['serve', '--port', '0', '--public-url', 'ads.example.com'], "admonitor: --public-url must be an http or https URL such as https://ads.example.com, got 'ads.example.com'"],
    [['import', 'a.ndjson', 'b.ndjson'], 'admonitor: import: one file at a time, got 2 (a.ndjson b.ndjson)'],
    [['account', 'show'], "admonitor: account: the command is 'account rotate --what password|client_secret|both', got 'account show'"],
    [['account', 'rotate'], 'admonitor: account rotate: name the secret to replace with --what password, client_secret or both'],
  ])('refuses %j with a message and exit code 2, without a stack trace', (args, message) => {
    const r = bare(...args)
    expect(r.code, r.err).toBe(2)
    expect(r.err).toContain(message)
    expect(r.err).not.toMatch(/^\s+at /m)
  })

  it.each(['import', 'simulate', 'rebuild', 'demo'])('prints the help for %s --help', (command) => {
    const r = bare(command, '--help')
    expect([r.code, r.out.startsWith('Usage:')]).toEqual([0, true])
  })
})

