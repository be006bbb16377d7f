/**
 * `admonitor sync ...`: remote profiles and pulls (docs/sync.md), through the same local endpoints
 * the app uses. Secrets are never taken as arguments (they would show in `ps` and the shell
 * history): they come from the environment, a hidden prompt, or two lines on stdin.
 */
import { createInterface } from 'node:readline'
import { Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { local } from './commands'
import { fail } from './open'
import { common, followJob, profileId, withEngine, type Json } from './sync-common'
import { PUSH_HELP, modeCommand, outboxCommand, pushCommand } from './sync-push'

export const SYNC_HELP = `  sync profile add --name N --base-url URL --username U --client-id C [--auth-url URL]
                       add a remote profile; the password and client secret come from
                       ADMONITOR_REMOTE_PASSWORD / ADMONITOR_REMOTE_CLIENT_SECRET, a hidden prompt,
                       or two lines on stdin (docs/sync.md)
  sync profile list | remove NAME | test NAME
  sync pull --profile NAME [--fresh]
                       pull campaigns, spots, targets, publishers and reference lists
  sync snapshot --profile NAME --report basic_show --params 'campaign_id=12&date=2025-01-20' [--to D]
                       keep report answers as snapshots, one per date up to --to
                       (secrets are encrypted with the key file ADMONITOR_KEY_FILE, default
                       the data directory's own in the user's config folder, mode 0600)
${PUSH_HELP}`

/** A hidden prompt on a terminal; else the next line of stdin. */
async function readSecret(question: string, lines: AsyncIterator<string> | null): Promise<string> {
  if (lines) return (await lines.next()).value ?? ''
  process.stderr.write(question)
  const muted = new Writable({ write: (_chunk, _enc, done) => done() })
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true })
  const answer = await new Promise<string>((resolve) => rl.question('', resolve))
  rl.close()
  process.stderr.write('\n')
  return answer
}

/** The secrets from the environment; stdin is read only for those missing there, then let go. */
async function secrets(): Promise<{ password: string; client_secret: string }> {
  const env = process.env
  if (env.ADMONITOR_REMOTE_PASSWORD !== undefined && env.ADMONITOR_REMOTE_CLIENT_SECRET !== undefined)
    return { password: env.ADMONITOR_REMOTE_PASSWORD, client_secret: env.ADMONITOR_REMOTE_CLIENT_SECRET }
  const rl = process.stdin.isTTY ? null : createInterface({ input: process.stdin, crlfDelay: Infinity })
  const lines = rl?.[Symbol.asyncIterator]() ?? null
  try {
    const password = env.ADMONITOR_REMOTE_PASSWORD ?? (await readSecret('remote password: ', lines))
    const client_secret = env.ADMONITOR_REMOTE_CLIENT_SECRET ?? (await readSecret('remote client secret: ', lines))
    return { password, client_secret }
  } finally {
    rl?.close()
  }
}

async function add(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { ...common, name: { type: 'string' }, 'base-url': { type: 'string' }, 'auth-url': { type: 'string' }, username: { type: 'string' }, 'client-id': { type: 'string' } } })
  const { name, username } = values
  const [base, client] = [values['base-url'], values['client-id']]
  if (!name || !base || !username || !client) fail('sync profile add: give --name, --base-url, --username and --client-id')
  const s = await secrets()
  const fields = { name, base_url: base, username, client_id: client, ...s, ...(values['auth-url'] ? { auth_url: values['auth-url'] } : {}) }
  const p = await withEngine(values, (e) => local(e, 'POST', '/local/v1/sync/profiles/create', fields))
  console.log(`profile ${String(p.profile_id)} '${String(p.name)}': ${String(p.base_url)} (token endpoint ${String(p.auth_url)}/oauth/token)`)
}

async function list(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: common })
  const rows = (await withEngine(values, (e) => local(e, 'GET', '/local/v1/sync/profiles/list', {}))) as unknown as Json[]
  if (rows.length === 0) return void console.log('no remote profile; add one with: admonitor sync profile add ...')
  for (const p of rows) {
    const secret = p.has_password && p.has_client_secret ? 'secrets stored' : 'secrets missing'
    console.log(`${String(p.name)}\t${String(p.base_url)}\t${String(p.username)} / ${String(p.client_id)}\t${secret}\tlast pull: ${String(p.last_pull_at) || 'never'}`)
  }
}

async function remove(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: common })
  const name = positionals[0] ?? fail('sync profile remove: name the profile')
  await withEngine(values, async (e) => local(e, 'POST', '/local/v1/sync/profiles/delete', { profile_id: await profileId(e, name) }))
  console.log(`removed profile '${name}', its secrets and what was pulled with it`)
}

async function test(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: common })
  const name = positionals[0] ?? fail('sync profile test: name the profile')
  const r = await withEngine(values, async (e) => local(e, 'POST', '/local/v1/sync/profiles/test', { profile_id: await profileId(e, name) }))
  if (r.ok) return void console.log(`ok (${String(r.ms)} ms): ${String(r.message)}`)
  console.error(`failed: ${String(r.problem)}: ${String(r.message)}`)
  process.exitCode = 1
}

function progress(s: Json): string {
  const c = s.phase === 'campaigns' ? ` ${String(s.campaigns_done)}/${String(s.campaigns_total)} campaigns` : ''
  return `\r  ${String(s.phase)}${c}, ${String(s.requests)} requests${Number(s.retries) > 0 ? `, ${String(s.retries)} retried` : ''}   `
}

async function pull(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { ...common, profile: { type: 'string' }, fresh: { type: 'boolean' } } })
  if (!values.profile) fail('sync pull: name the profile: admonitor sync pull --profile NAME')
  const s = await withEngine(values, async (e) => followJob(e, 'pull', await profileId(e, values.profile!), progress, 500, { fresh: values.fresh ? '1' : '0' }))
  process.stderr.write('\n')
  for (const c of s.counts as Json[]) console.log(`  ${String(c.kind).padEnd(14)} +${String(c.added)} ~${String(c.changed)} -${String(c.removed)} =${String(c.unchanged)}`)
  // (a pull that did not finish says so on stderr)
  const say = s.state === 'done' ? console.log : console.error
  if (s.message) say(`  ${String(s.message)}`)
  say(`pull ${String(s.state)}${s.resumed ? ' (resumed)' : ''}: ${String(s.campaigns_done)}/${String(s.campaigns_total)} campaigns`)
  if (s.state !== 'done') process.exitCode = 1
}

async function snapshot(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { ...common, profile: { type: 'string' }, report: { type: 'string' }, params: { type: 'string' }, to: { type: 'string' } } })
  if (!values.profile || !values.report || !values.params) fail("sync snapshot: give --profile, --report and --params 'campaign_id=..&date=..'")
  const r = await withEngine(values, async (e) => local(e, 'POST', '/local/v1/sync/snapshots/pull', {
    profile_id: await profileId(e, values.profile!), report: values.report!, params: values.params!, ...(values.to ? { to_date: values.to } : {}),
  }))
  for (const s of r.snapshots as Json[]) {
    const change = s.previous_id === '' ? 'first' : s.changed ? `changed since snapshot ${String(s.previous_id)}` : 'unchanged'
    console.log(`snapshot ${String(s.snapshot_id)}\t${String(s.date)}\t${String(s.version) || '-'}\tprogress ${String(s.progress_date) || '-'}\t${String(s.items)} items\t${change}`)
  }
  if (r.state !== 'done') {
    console.error(`stopped: ${String(r.problem)}: ${String(r.message)}`)
    process.exitCode = 1
  }
}

export async function syncCommand(argv: string[]): Promise<void> {
  const [what, verb, ...rest] = argv
  if (what === 'pull') return pull([verb ?? '', ...rest].filter((x) => x !== ''))
  if (what === 'snapshot') return snapshot([verb ?? '', ...rest].filter((x) => x !== ''))
  if (what === 'push') return pushCommand([verb ?? '', ...rest].filter((x) => x !== ''))
  if (what === 'outbox') return outboxCommand(verb, rest)
  if (what === 'mode') return modeCommand(verb, rest)
  const verbs: Record<string, (argv: string[]) => Promise<void>> = { add, list, remove, test }
  if (what !== 'profile' || verb === undefined || !Object.hasOwn(verbs, verb)) fail(`usage:\n${SYNC_HELP}`)
  return verbs[verb]!(rest)
}
