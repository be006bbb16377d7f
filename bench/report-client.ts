/**
 * Child process: the measure bench's report client, kept apart from the driver and pinned to the
 * load generator's core (idle while reports are timed). A client inside the driver shares that
 * process (the run's set-up data, its collector) and its core with whatever the driver does:
 * there, basic/show's 67 MiB measured 55-58 ms cold and a bare server's sending of the same bytes
 * 56-62 ms, against 47 and 41 ms from this process in the next run (bench/README.md, "The measure
 * part"). Each request is timed from its start to the last byte of the body, received whole: the
 * chunks are kept and joined (after the time is taken, as measure-http.ts `call` does).
 */
import { writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import type { ClientCommand, ClientGot } from './protocol'

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

function get(c: Extract<ClientCommand, { type: 'get' }>): Promise<ClientGot> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const req = request(c.url, { agent, headers: c.headers ?? {} }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (b: Buffer) => chunks.push(b))
      res.on('end', () => {
        const ms = performance.now() - t0
        const body = Buffer.concat(chunks)
        if (c.keep) writeFileSync(c.keep, body)
        const status = res.statusCode ?? 0
        resolve({ type: 'got', status, ms, bytes: body.length, headers: res.headers, ...(status === 200 ? {} : { start: body.toString('utf8', 0, 300) }) })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

process.on('message', (m: ClientCommand) => {
  if (m.type === 'stop') {
    agent.destroy()
    process.exit(0)
  }
  get(m).then((r) => process.send?.(r), (err: Error) => process.send?.({ type: 'got', status: 0, ms: 0, bytes: 0, headers: {}, start: String(err) } satisfies ClientGot))
})
process.send?.({ type: 'ready' })
