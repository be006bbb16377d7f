/** Types of scripts/server-flags.mjs (for the bench and the tests that import it). */
/** The V8 flags node starts the engine's server with. */
export declare const SERVER_NODE_FLAGS: readonly string[]
/** The environment variables the engine's server runs with (glibc's malloc settings). */
export declare const SERVER_ENV: Readonly<Record<string, string>>
/** `env` with SERVER_ENV's variables where it sets none of its own. */
export declare function withServerEnv<T extends Record<string, string | undefined>>(env: T): T & Record<string, string>
/** Starts this process's command again, in the same process, with SERVER_ENV (Linux, when it is missing). */
export declare function restartWithServerEnv(): void
