/** Why a Node.js version (as process.versions.node) is not supported, or null when it is. */
export function nodeProblem(version: string): string | null
