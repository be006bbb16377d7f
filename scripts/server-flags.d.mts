/** Types of scripts/server-flags.mjs (for the bench and the tests that import it). */
/** The V8 flags node starts the engine's server with. */
export declare const SERVER_NODE_FLAGS: readonly string[]
