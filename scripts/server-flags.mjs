// The V8 flags the engine's server runs under: `npm run serve` (package.json's serve script), the
// bench's engine server (bench/children.ts) and its felt rows' server (bench/felt-serve.ts) start
// node with them. V8 sizes its heap when node
// starts, so they cannot be set from the running server (v8.setFlagsFromString changes nothing).

/**
 * The young generation at most 8 MiB a semi-space (V8's default grows it to 32 MiB under a large
 * answer's allocations, and the committed pages stay): the bench's report sequence peaks about
 * 100 MiB lower with the same CPU (docs/decisions.md, "The server's V8 flags"). V8's `gc()`
 * given to the server, which collects the typed arrays reports let go sooner than V8 would
 * (engine/server/collect.ts). Allocation-site pretenuring off (engine/server/v8-flags.ts): a
 * request's objects stay in the young generation however long some earlier requests' lived.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--expose-gc', '--no-allocation-site-pretenuring']

/**
 * The environment the server runs in, beside its flags: glibc's malloc with its mmap threshold
 * fixed at 128 KiB, its own starting value. Left to itself, glibc raises the threshold to the size
 * of each block of up to 32 MiB it gives back; once a start has freed a few MiB, every typed array
 * below that size comes from the brk heap, whose freed space stays resident, and the bench's
 * report sequence peaks 30-40 MiB higher (docs/decisions.md, "The server's V8 flags"). Fixed, a
 * block of 128 KiB or more is a mapping of its own, returned to the system when it is freed. The
 * C library reads it at the process's start only; other C libraries (macOS, Windows, musl) have
 * no such variable.
 */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: String(128 << 10) }

/** `env` with SERVER_ENV's variables where it sets none of its own. */
export const withServerEnv = (env) => ({ ...SERVER_ENV, ...env })

/**
 * Starts this process's command again, in the same process, with SERVER_ENV, when it runs on
 * Linux without it (`npm run serve`: npm scripts set no variables on every system); a no-op
 * elsewhere, when the variables are set, and on a Node.js without process.execve (before 22.15).
 */
export function restartWithServerEnv() {
  if (process.platform !== 'linux' || typeof process.execve !== 'function') return
  if (Object.keys(SERVER_ENV).every((k) => process.env[k] !== undefined)) return
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], withServerEnv(process.env))
}
