// `npm run serve`: the engine, its HTTP door and the web interface under plain Node. The server
// runs from its bundle (scripts/server-build.mjs), built first when it is missing or older than
// its sources. When the interface is missing or older than its sources, it is built in the
// background (scripts/ui-build.mjs) while the server starts: the API answers at once, the page
// once the build is done.
import './node-check.mjs'  // first: an unsupported Node.js stops here, with the fix
import { enableCompileCache } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { BUNDLES, buildServer, bundleFile, needsServerBuild, unwritable } from './server-build.mjs'
import { restartWithServerEnv } from './server-flags.mjs'
import { USUAL_SECONDS, buildInBackground, needsBuild } from './ui-build.mjs'

// glibc's malloc settings are read when a process starts: without them, this one starts again with them
restartWithServerEnv()

// (fileURLToPath, not .pathname: that keeps %20 for a space and /C:/ on Windows, and the build
// was then never found)
const root = fileURLToPath(new URL('..', import.meta.url))
const ui = join(root, 'out', 'renderer')
const sources = ['renderer', join('engine', 'contract'), join('build', 'web'), 'electron.vite.config.ts'].map((p) => join(root, p))

if (process.env.ADMONITOR_SKIP_UI_BUILD !== '1' && needsBuild(ui, sources)) {
  try {
    const build = buildInBackground({
      dir: ui,
      command: [process.execPath, join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
      env: { ...process.env, ADMONITOR_BUILD: 'renderer' },
      favicon: join(root, 'build', 'web', 'favicon.ico'),
    })
    console.error(`Building the web interface in the background (once after an update, usually about ${USUAL_SECONDS} s); the API answers meanwhile.`)
    void build.then((r) => {
      if (r.ok) console.error(`  the web interface is built (${r.seconds.toFixed(1)} s): open or reload the page`)
      else console.error(`${r.output}\nThe web interface could not be built (npm run build shows the whole output); the API is served anyway.`)
    })
  } catch (err) {
    // (e.g. a checkout this user cannot write: out/renderer cannot be made)
    console.error(`The web interface is missing or older than its sources and cannot be built into ${ui} (${err.code ?? err.message}); the API is served anyway.`)
  }
}
if (needsServerBuild('server')) {
  const why = unwritable('server')
  if (why) {
    console.error(
      `The server's bundle (${BUNDLES.server.outdir}) is missing or older than its sources, and cannot be written here (${why}).\n` +
      `Build it as a user who can write the checkout (node scripts/server-build.mjs), or run the sources instead: npx tsx bin/admonitor.ts serve ${process.argv.slice(2).join(' ')}`.trimEnd(),
    )
    process.exit(1)
  }
  await buildServer('server').catch((err) => {
    console.error(`${err.message}\nThe server could not be built from its sources (above: where and why).`)
    process.exit(1)
  })
}
// V8's code of the server's bundle kept between starts (in the OS temp folder, the folder Node
// names for it): a start after the first compiles none of it again (bench/README.md, "Targets")
enableCompileCache()
await import(pathToFileURL(bundleFile('server')).href)
