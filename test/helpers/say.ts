/**
 * A line to the parent process, written before the child goes on (the crash tests' children print
 * what was acknowledged, then may be killed at any moment). A child's stdout pipe is non-blocking:
 * when the parent reads slowly (a loaded machine), a plain writeSync throws EAGAIN and the child
 * died of it. This waits and writes the rest instead.
 */
import { writeSync } from 'node:fs'

const pause = new Int32Array(new SharedArrayBuffer(4))

export function say(line: string): void {
  const bytes = Buffer.from(`${line}\n`)
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(1, bytes, at)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err
      Atomics.wait(pause, 0, 0, 1)
    }
  }
}
