/**
 * The server as plain JavaScript: the engine, its HTTP door and the command line (bin/admonitor.ts)
 * bundled by esbuild into one ESM file, out/server/admonitor.mjs, which Node loads with no
 * TypeScript transform. `npm run serve` builds it when it is missing or older than its sources
 * (under a second); tests import the sources and need no bundle.
 *
 *   node scripts/server-build.mjs [server] [bench]   builds the named bundles (default: server)
 *
 * Packages stay outside the bundle and are loaded from node_modules as under tsx: the engine finds
 * their data files (ip2region, CLDR, province tables, sql.js's wasm) through createRequire from the
 * bundle's own location, which resolves to the same node_modules.
 */
import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { newest } from './ui-build.mjs'

/** The package's folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Files that shape every bundle besides the sources it holds: a change to one builds it again. */
const CONFIG = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/server-build.mjs']

/** Beside a bundle's files: the source files it was built from (esbuild's list), one absolute path a line. */
const INPUTS = 'inputs.txt'

/**
 * The bundles, each a folder with `<name>.mjs` (and its source map) for each entry:
 * - server: `npm run serve`'s command line, and the import worker it starts beside it
 *   (bin/import-workers.ts finds ./import-worker.mjs beside itself);
 * - bench: the bench's engine server (bench/children.ts), run bundled as users run the server.
 */
export const BUNDLES = {
  server: {
    outdir: join(ROOT, 'out', 'server'),
    entries: { admonitor: join(ROOT, 'bin', 'admonitor.ts'), 'import-worker': join(ROOT, 'bin', 'import-worker.ts') },
  },
  bench: {
    outdir: join(ROOT, 'out', 'bench'),
    entries: { 'server-engine': join(ROOT, 'bench', 'server-engine.ts') },
  },
}

/** The file of entry `name` of bundle `which` (default: its first entry). */
export function bundleFile(which, name = Object.keys(BUNDLES[which].entries)[0]) {
  return join(BUNDLES[which].outdir, `${name}.mjs`)
}

/** Whether a file of `built` is missing, or older than a file under `sources` (absolute paths). */
export function isStale(built, sources) {
  if (!built.every((f) => existsSync(f))) return true
  const oldest = Math.min(...built.map((f) => statSync(f).mtimeMs))
  return Math.max(...sources.map(newest)) > oldest
}

/** Whether bundle `which` is missing a file, or is older than a source it was built from or a file of CONFIG. */
export function needsServerBuild(which) {
  const { outdir, entries } = BUNDLES[which]
  return isBundleStale(outdir, Object.keys(entries).map((name) => bundleFile(which, name)))
}

/**
 * Whether the bundle in `outdir` (its files `built`) is missing a file, lists a source that is
 * gone (the sources no longer build what it holds), or is older than a source it was built from
 * or a file of CONFIG.
 */
export function isBundleStale(outdir, built) {
  const inputs = join(outdir, INPUTS)
  if (!existsSync(inputs)) return true
  const listed = readFileSync(inputs, 'utf8').split('\n').filter(Boolean)
  if (!listed.every((f) => existsSync(f))) return true
  return isStale([inputs, ...built], [...listed, ...CONFIG.map((p) => join(ROOT, p))])
}

/**
 * Why bundle `which` cannot be written here (the code, e.g. EACCES or EROFS, of the nearest
 * folder of its that exists), or null when it can: a read-only checkout, or one of another user.
 */
export function unwritable(which) {
  let dir = BUNDLES[which].outdir
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir)
  try {
    accessSync(dir, constants.W_OK)
    return null
  } catch (err) {
    return err.code ?? String(err)
  }
}

/**
 * Node's built-in modules read from process.getBuiltinModule instead of imported: an `import` of a
 * built-in makes Node evaluate every export of it (node:http's take in undici's fetch, http2 and
 * tls, about 15 ms of each start), whereas the bundle then reads only the properties it uses.
 */
const builtinsByGetter = {
  name: 'builtins-by-getter',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (a) => ({ path: a.path, namespace: 'builtin' }))
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => ({ contents: `module.exports = process.getBuiltinModule(${JSON.stringify(a.path)})`, loader: 'js' }))
  },
}

/** The module whose rows a bundle carries computed (engine/reference/regions-built.ts). */
export const REGIONS_BUILT = /[\\/]engine[\\/]reference[\\/]regions-built\.ts$/

/**
 * The region table as the sources build it from the packages (regionsFromPackages), computed in
 * this process: engine/reference/regions.ts bundled on its own into a file under out/ (from where
 * its createRequire finds the packages, as the bundle's does), imported, then removed.
 */
export async function regionRows() {
  const dir = join(ROOT, 'out')
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [join(ROOT, 'engine', 'reference', 'regions.ts')], absWorkingDir: ROOT, bundle: true, platform: 'node', format: 'esm',
    target: 'node22.12', packages: 'external', write: false, logLevel: 'warning',
  })
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `regions-${process.pid}-${Date.now()}.tmp.mjs`)
  writeFileSync(file, result.outputFiles[0].contents)
  try {
    return (await import(pathToFileURL(file).href)).regionsFromPackages()
  } finally {
    rmSync(file, { force: true })
  }
}

/**
 * The region table computed at build time: the bundle's regions-built.ts holds the rows, so that a
 * start reads them in one piece (one JSON.parse of 60 KB) instead of reading the packages' tables
 * and the pinyin of every city (60-240 ms of a start's first report). test/scripts/region-rows.test.ts
 * compares the rows with what the sources build.
 */
export const regionsBuilt = {
  name: 'regions-built',
  setup(build) {
    let text
    build.onLoad({ filter: REGIONS_BUILT }, async () => ({ contents: await (text ??= regionsModule()), loader: 'js' }))
  },
}

/**
 * The text of regions-built.ts as a build puts it in its bundle: the rows of regionRows(). The
 * server bundle's esbuild plugin (regionsBuilt) and the Electron main build's Vite plugin
 * (electron.vite.config.ts) both use it.
 */
export async function regionsModule() {
  return `export const BUILT_REGIONS = JSON.parse(${JSON.stringify(JSON.stringify(await regionRows()))})`
}

/**
 * Builds bundle `which`; resolves when its files are in place. Each file is written beside its
 * place and renamed there: a server starting meanwhile never reads a half-written file.
 */
export async function buildServer(which = 'server') {
  const { build } = await import('esbuild')
  const { outdir, entries } = BUNDLES[which]
  const result = await build({
    entryPoints: entries,
    absWorkingDir: ROOT,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22.12',
    packages: 'external',
    plugins: [builtinsByGetter, regionsBuilt],
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    metafile: true,
  })
  const sources = Object.keys(result.metafile.inputs).filter((p) => !p.includes(':')).map((p) => join(ROOT, p))
  mkdirSync(outdir, { recursive: true })
  // (the list last: a bundle is up to date only once all of it is in place)
  for (const [path, contents] of [...result.outputFiles.map((f) => [f.path, f.contents]), [join(outdir, INPUTS), `${sources.join('\n')}\n`]]) {
    const temp = `${path}.${process.pid}.tmp`
    writeFileSync(temp, contents)
    renameSync(temp, path)
  }
}

/**
 * buildServer in a child process, waited for (for callers that cannot wait for a promise, e.g.
 * before spawning a process; esbuild's synchronous API takes no plugins). Throws with its output
 * when the build fails.
 */
export function buildServerSync(which) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), which], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`the ${which} bundle could not be built:\n${r.stderr}`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const which of process.argv.length > 2 ? process.argv.slice(2) : ['server']) {
    if (!(which in BUNDLES)) throw new Error(`unknown bundle '${which}' (${Object.keys(BUNDLES).join(', ')})`)
    await buildServer(which)
  }
}
