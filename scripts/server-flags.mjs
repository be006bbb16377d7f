// The V8 flags the engine's server runs under: `npm run serve` (package.json's serve script) and
// the bench's engine server (bench/children.ts) start node with them. V8 sizes its heap when node
// starts, so they cannot be set from the running server (v8.setFlagsFromString changes nothing).

/**
 * The young generation at most 8 MiB a semi-space (V8's default grows it to 32 MiB under a large
 * answer's allocations, and the committed pages stay): the bench's report sequence peaks about
 * 100 MiB lower with the same CPU (docs/decisions.md, "The server's V8 flags").
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8']
