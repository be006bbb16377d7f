/**
 * The web interface of `npm run serve`: electron-vite's renderer part alone (the Electron main and
 * preload bundles belong to the desktop app), built in the background while the server answers
 * the API. Until the build is complete the interface's folder holds a page that says so and
 * reloads itself; the finished build then takes its place in one rename.
 */
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'

/** In the interface's folder while it holds the waiting page: the next start builds again. */
const MARK = '.building'

/** What a build usually takes here: said when it starts (15 s of CPU; a busy machine takes longer). */
export const USUAL_SECONDS = 20

/** The newest modification time of a file under `path` (or of `path` itself); 0 when it is missing. */
export function newest(path) {
  if (!existsSync(path)) return 0
  const s = statSync(path)
  if (!s.isDirectory()) return s.mtimeMs
  let t = 0
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)))
  return t
}

/** Whether `dir` lacks a complete build, or holds one older than a file of `sources`. */
export function needsBuild(dir, sources) {
  const index = join(dir, 'index.html')
  if (!existsSync(index) || existsSync(join(dir, MARK))) return true
  return Math.max(...sources.map(newest)) > statSync(index).mtimeMs
}

/** The page served while the interface is built, in English and Chinese; it reloads every 3 s. */
function waitingPage(failed) {
  const en = failed
    ? 'The web interface could not be built: the terminal running npm run serve says why. The API answers.'
    : `The web interface is being built (once after an update, about ${USUAL_SECONDS} s). This page reloads itself; the API answers meanwhile.`
  const zh = failed ? '网页界面构建失败，原因见运行 npm run serve 的终端。API 可以使用。' : `正在构建网页界面（每次更新后一次，约 ${USUAL_SECONDS} 秒）。本页会自动刷新；API 已可使用。`
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    ${failed ? '' : '<meta http-equiv="refresh" content="3" />'}
    <title>AdMonitor Desk</title>
    <link rel="icon" href="favicon.ico" />
    <style>body{font:16px/1.5 system-ui,sans-serif;margin:15vh auto;max-width:36em;padding:0 1em;color:#1f2937}</style>
  </head>
  <body>
    <h1>AdMonitor Desk</h1>
    <p>${en}</p>
    <p lang="zh-CN">${zh}</p>
  </body>
</html>
`
}

/**
 * Puts the waiting page into `dir` (what was there goes), then runs `command` (an executable and
 * its arguments) with `--outDir STAGE` added, STAGE beside `dir`; a build that succeeds, leaving
 * STAGE/renderer/index.html, replaces `dir`. `favicon` is copied beside the waiting page. Resolves
 * when the build ends, with its time and, when it failed, the end of its output.
 */
export function buildInBackground({ dir, command, env = process.env, favicon }) {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, MARK), '')
  writeFileSync(join(dir, 'index.html'), waitingPage(false))
  if (favicon && existsSync(favicon)) copyFileSync(favicon, join(dir, 'favicon.ico'))
  const stage = join(dirname(dir), `.${basename(dir)}-build`)
  rmSync(stage, { recursive: true, force: true })
  const started = performance.now()
  const [exe, ...args] = command
  const child = spawn(exe, [...args, '--outDir', stage], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  // (a server stopped meanwhile takes its build along: the next start builds again)
  const stop = () => child.kill()
  process.once('exit', stop)
  let output = ''
  const keep = (chunk) => (output = (output + chunk).slice(-20_000))
  child.stdout.setEncoding('utf8').on('data', keep)
  child.stderr.setEncoding('utf8').on('data', keep)
  return new Promise((resolve) => {
    let ended = false
    const end = (ok, why) => {
      if (ended) return
      ended = true
      process.off('exit', stop)
      const seconds = (performance.now() - started) / 1000
      if (ok) {
        // (the old folder is renamed away first: `dir` is never missing for longer than a rename)
        const old = `${stage}-old`
        renameSync(dir, old)
        renameSync(join(stage, 'renderer'), dir)
        rmSync(old, { recursive: true, force: true })
        rmSync(stage, { recursive: true, force: true })
        return resolve({ ok: true, seconds })
      }
      writeFileSync(join(dir, 'index.html'), waitingPage(true))
      resolve({ ok: false, seconds, output: `${output.trim().split('\n').slice(-30).join('\n')}${why ? `\n${why}` : ''}` })
    }
    child.on('error', (err) => end(false, err.message))
    child.on('exit', (code, signal) => end(code === 0 && existsSync(join(stage, 'renderer', 'index.html')), code === 0 ? 'the build wrote no renderer/index.html' : `exit ${code ?? signal}`))
  })
}
