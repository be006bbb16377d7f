// engine/measure/kept-file.ts: a kept file's write removes the temp files that writes killed before
// left (as large as the file: 16.6 MB for the bench's censuses). A server in a container starts
// with the same process id each time (node as PID 1, or the same few after it), so the temp file
// of a write killed there (kill -9, the OOM killer) carries the id of the process writing now.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FileEventLog } from '../../../engine/measure/event-log'
import { fileBesideLog } from '../../../engine/measure/kept-file'

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe('kept files: temp files of killed writes', () => {
  it('a write removes those of an earlier process with this process id, and of others, and leaves other files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-kept-temp-'))
    dirs.push(dir)
    const stale = [`census.bin.tmp-${process.pid}-0badf00d`, 'census.bin.tmp-1-0badf00d', 'census.bin.tmp-999999-12345678']
    const others = [`panels.bin.tmp-${process.pid}-0badf00d`, 'census.binder']
    for (const name of [...stale, ...others]) await writeFile(join(dir, name), Buffer.alloc(4096))
    const file = fileBesideLog(new FileEventLog(dir), 'census.bin')
    await file.write([Buffer.from('whole')])
    expect((await readdir(dir)).sort()).toEqual(['census.bin', ...others].sort())
    expect(Buffer.from(file.read(0, 5)!).toString()).toBe('whole')
  })

  it('two writes of one file at once both finish, the file holding one of them whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-kept-temp-'))
    dirs.push(dir)
    const file = fileBesideLog(new FileEventLog(dir), 'census.bin')
    const [a, b] = [Buffer.alloc(1 << 20, 1), Buffer.alloc(1 << 20, 2)]
    await Promise.all([file.write([a]), file.write([b])])
    const got = Buffer.from(file.read(0, 1 << 20)!)
    expect(got.equals(a) || got.equals(b)).toBe(true)
    expect((await readdir(dir)).filter((n) => n.includes('.tmp-'))).toEqual([])
  })
})
