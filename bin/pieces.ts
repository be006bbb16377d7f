/**
 * An event file read in pieces of whole records, for the command line's `import` (an event log may
 * be larger than memory; docs/import.md).
 */
import { isAscii } from 'node:buffer'
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { createInterface } from 'node:readline'

/**
 * A piece of a file: its text; `offset` turns a line number within it into one of the file;
 * `bytes` is how much of the file it covers (the progress of an import); `lines` is the number of
 * lines of its text, so that its last is the file's line `offset + lines`.
 */
export interface Piece {
  text: string
  offset: number
  bytes: number
  lines: number
}

/** Reads a file in pieces of whole records (an event log may be larger than memory). */
export function pieces(file: string, csv: boolean, bytes = 32 << 20): AsyncGenerator<Piece> {
  return csv ? csvPieces(file, bytes) : ndjsonPieces(file, bytes)
}

/** CSV: a piece is never cut inside a quoted field, and every piece after the first starts with the header again. */
async function* csvPieces(file: string, bytes: number): AsyncGenerator<Piece> {
  let buf: string[] = []
  let size = 0
  let line = 0
  let header: string | undefined
  let offset = 0
  let quoted = false
  let yielded = false
  for await (const l of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    line++
    buf.push(l)
    if (header === undefined) header = l
    else size += l.length + 1
    for (let i = l.indexOf('"'); i >= 0; i = l.indexOf('"', i + 1)) quoted = !quoted
    if (size >= bytes && !quoted) {
      yield piece(buf, offset)
      yielded = true
      // the next piece: the header (its line 1), then file line `line + 1` as its line 2
      buf = [header]
      size = 0
      offset = line - 1
    }
  }
  if (size > 0 || !yielded) yield piece(buf, offset)
}

/** A CSV piece of the lines `buf` (a piece after the first repeats the header, which counts in its bytes: the progress is near). */
function piece(buf: string[], offset: number): Piece {
  const text = buf.join('\n')
  return { text, offset, bytes: Buffer.byteLength(text) + 1, lines: buf.length }
}

/** NDJSON on one thread: the byte pieces decoded here, each numbered after the lines of those before. */
async function* ndjsonPieces(file: string, bytes: number): AsyncGenerator<Piece> {
  let offset = 0
  for await (const b of ndjsonBytes(file, bytes)) {
    const { text, lines } = decodePiece(b)
    // (and the newline it was cut after)
    yield { text, offset, bytes: b.length + 1, lines }
    offset += lines
  }
}

/**
 * NDJSON for worker threads: pieces of bytes cut after their last newline (a newline byte never
 * falls inside a UTF-8 character), decoded and counted by the worker that parses them, so that
 * the main thread neither decodes nor scans the text. Each piece has a buffer of its own, moved
 * to the worker without a copy; the file is read straight into it, after the bytes the piece
 * before left over (a file stream's chunks had to be copied once more).
 */
export async function* ndjsonBytes(file: string, bytes: number): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  const fh = await open(file, 'r')
  try {
    let rest = new Uint8Array(0)
    let yielded = false
    for (;;) {
      const all = new Uint8Array(rest.length + bytes)
      all.set(rest)
      const { bytesRead } = await fh.read(all, rest.length, bytes, null)
      if (bytesRead === 0) break
      const filled = rest.length + bytesRead
      const cut = all.lastIndexOf(10, filled - 1)
      if (cut < 0) {
        rest = all.slice(0, filled)
        continue
      }
      rest = all.slice(cut + 1, filled)
      yield all.subarray(0, cut)
      yielded = true
    }
    if (rest.length > 0 || !yielded) yield rest
  } finally {
    await fh.close()
  }
}

/**
 * A piece of NDJSON bytes (ndjsonBytes) as text, and its number of lines: the next piece's line 1
 * is the line after them. Decoded by the thread that parses it (an import worker, or the main
 * thread on one thread).
 */
export function decodePiece(b: Uint8Array): { text: string; lines: number } {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength)
  // ASCII bytes are the same text in Latin-1, which is copied rather than decoded: a 4 MiB piece of
  // the bench's events took 2.8 ms as UTF-8, 0.6 ms checked and copied (a twentieth of a worker's
  // parsing)
  const text = isAscii(buf) ? buf.toString('latin1') : buf.toString('utf8')
  let lines = 1
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++
  return { text, lines }
}
