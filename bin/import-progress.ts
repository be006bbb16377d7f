/**
 * The progress of the command line's import on stderr. On a terminal one line is rewritten in
 * place (a carriage return before each state); written to a file or a pipe, where a carriage
 * return does not go back, a state gets a line of its own, at most one every `everyMs`, and the
 * summary after it says where the import ended.
 */
export class ImportProgress {
  private readonly tty: boolean
  private last = Date.now()

  constructor(private readonly out: NodeJS.WriteStream = process.stderr, private readonly everyMs = 5_000) {
    this.tty = out.isTTY === true
  }

  /** The state now, e.g. "37%  1200 imported, 3 rejected". */
  update(state: string): void {
    if (this.tty) return void this.out.write(`\r  ${state}`)
    const now = Date.now()
    if (now - this.last < this.everyMs) return
    this.last = now
    this.out.write(`  ${state}\n`)
  }

  /** The last state, before the summary: on a terminal the line is ended; elsewhere the summary alone says it. */
  end(state: string): void {
    if (this.tty) this.out.write(`\r  ${state}\n`)
  }
}
