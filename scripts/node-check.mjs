// The Node.js lines this project supports (package.json "engines": 22.12 and later 22, 24, and
// from 26 on), and the refusal of any other: imported first by `npm run serve`, `npm start` and
// the CLI, so that an unsupported runtime stops with the fix rather than a stack trace.

/** Why a Node.js version (as process.versions.node) is not supported, or null when it is. */
export function nodeProblem(version) {
  const [major, minor] = version.split('.').map(Number)
  if ((major === 22 && minor >= 12) || major === 24 || major >= 26) return null
  const why = major < 22 ? ', which no longer gets security fixes' : major === 22 ? ': 22 is supported from 22.12' : ' (an odd-numbered line, never long-term supported)'
  return `AdMonitor Desk needs Node.js 22 (22.12 or later) or 24; this is Node.js ${version}${why}.\n` +
    'Get Node.js 24 from the npm registry, for this shell, with:\n' +
    '  eval "$(bash scripts/node.sh 24)"\n' +
    '(it installs into .tools/ in this folder and puts it first on PATH), or install it from https://nodejs.org.'
}

const problem = nodeProblem(process.versions.node)
if (problem) {
  console.error(problem)
  process.exit(1)
}
