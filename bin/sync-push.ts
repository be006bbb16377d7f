/**
 * `admonitor sync outbox ...` and `admonitor sync push`: the outbox of offline drafts and pushes
 * to the remote (docs/sync.md "Push"), through the same local endpoints the app uses.
 */
import { parseArgs } from 'node:util'
import { local } from './commands'
import { fail } from './open'
import { common, followJob, profileId, withEngine, type Json } from './sync-common'

export const PUSH_HELP = `  sync outbox add --profile NAME --campaign LOCAL_ID
                       queue a local campaign with its spots (keywords, plans) and targets
  sync outbox add --profile NAME --kind campaign|spot|target --op create|update
                       [--local-id N | --remote-id R] [--campaign-id R] [--params 'a=1&b=2']
  sync outbox list --profile NAME [--state pending|sending|failed|conflict|choose]
  sync outbox show|delete OP_ID · sync outbox edit OP_ID --params 'a=1&b='
  sync outbox resolve OP_ID keep_mine|take_theirs|edit [--params ...]
  sync outbox choose OP_ID advertiser_id=REMOTE_ID [brand_id=... agency_id=...]
                       the remote's record for a reference whose name matched none exactly
  sync push --profile NAME
                       send the outbox; failed operations and conflicts stay in it
  sync mode list · sync mode set campaigns|reference|reports local|forward|offline [--profile NAME]
                       how the localhost door answers that group of the API`

const line = (o: Json) => {
  const where = o.remote_id ? ` -> remote ${String(o.remote_id)}` : ''
  const local = o.local_id ? ` (local ${String(o.local_id)})` : ''
  const why = o.message ? `\t${String(o.message)}` : ''
  return `${String(o.op_id)}\t${String(o.state)}\t${String(o.op)} ${String(o.kind)}${local}${where}\t${String(o.name)}${why}`
}

function printOp(o: Json): void {
  console.log(line(o))
  console.log('  sends (what the push would send now):')
  for (const f of o.sends as Json[]) {
    const label = f.label ? ` (${String(f.label)})` : ''
    const was = f.base === null ? '' : `\tat last pull: ${JSON.stringify(f.base)}`
    console.log(`    ${String(f.name)}=${f.value === '' ? '?' : String(f.value)}${label}${was}`)
  }
  for (const f of o.conflict as Json[]) console.log(`  conflict ${String(f.name)}: mine ${JSON.stringify(f.local)}, at last pull ${JSON.stringify(f.base)}, remote now ${JSON.stringify(f.remote)}`)
  for (const c of o.choices as Json[]) {
    console.log(`  choose ${String(c.param)} for '${String(c.name)}' (${String(c.reason)}):${(c.candidates as Json[]).length === 0 ? ' pull the lists, or give the remote id' : ''}`)
    for (const x of c.candidates as Json[]) console.log(`    ${String(c.param)}=${String(x.remote_id)}\t${String(x.name)}`)
  }
}

const options = { ...common, profile: { type: 'string' }, state: { type: 'string' }, params: { type: 'string' }, campaign: { type: 'string' }, kind: { type: 'string' }, op: { type: 'string' }, 'local-id': { type: 'string' }, 'remote-id': { type: 'string' }, 'campaign-id': { type: 'string' } } as const

export async function outboxCommand(verb: string | undefined, argv: string[]): Promise<void> {
  const { values: v, positionals } = parseArgs({ args: argv, allowPositionals: true, options })
  const opId = () => positionals[0] ?? fail(`sync outbox ${String(verb)}: give the operation id (admonitor sync outbox list --profile NAME)`)
  const opt = (k: string, x: string | undefined): Record<string, string> => (x === undefined ? {} : { [k]: x })
  await withEngine(v, async (e) => {
    const profile = async () => profileId(e, v.profile ?? fail(`sync outbox ${String(verb)}: name the profile with --profile NAME`))
    if (verb === 'list') {
      const rows = (await local(e, 'GET', '/local/v1/sync/outbox/list', { profile_id: await profile(), ...opt('state', v.state) })) as unknown as Json[]
      if (rows.length === 0) console.log('the outbox is empty')
      for (const o of rows) console.log(line(o))
    } else if (verb === 'add') {
      const what: Record<string, string> = v.campaign !== undefined ? { kind: 'campaign', op: 'create', local_id: v.campaign } : { kind: v.kind ?? fail('sync outbox add: give --campaign LOCAL_ID, or --kind and --op'), op: v.op ?? 'create', ...opt('local_id', v['local-id']) }
      const rows = (await local(e, 'POST', '/local/v1/sync/outbox/add', { profile_id: await profile(), ...what, ...opt('remote_id', v['remote-id']), ...opt('campaign_id', v['campaign-id']), ...opt('params', v.params) })) as unknown as Json[]
      if (rows.length === 0) console.log('nothing queued: the local record is as pulled, and its waiting update was dropped')
      for (const o of rows) console.log(line(o))
    } else if (verb === 'show') printOp(await local(e, 'GET', '/local/v1/sync/outbox/show', { op_id: opId() }))
    else if (verb === 'edit') printOp(await local(e, 'POST', '/local/v1/sync/outbox/update', { op_id: opId(), params: v.params ?? fail("sync outbox edit: give --params 'name=value&...'") }))
    else if (verb === 'delete') console.log(`dropped operation ${String((await local(e, 'POST', '/local/v1/sync/outbox/delete', { op_id: opId() })).op_id)}`)
    else if (verb === 'resolve') {
      const r = await local(e, 'POST', '/local/v1/sync/outbox/resolve', { op_id: opId(), action: positionals[1] ?? fail('sync outbox resolve: keep_mine, take_theirs or edit?'), ...opt('params', v.params) })
      if (r.dropped) console.log(`dropped operation ${String(r.op_id)}: the remote's version stays`)
      else printOp(r.op as Json)
    } else if (verb === 'choose') {
      const chosen = positionals.slice(1).join('&') || v.params || fail('sync outbox choose: give the choice, e.g. advertiser_id=REMOTE_ID (sync outbox show OP_ID lists them)')
      printOp((await local(e, 'POST', '/local/v1/sync/outbox/resolve', { op_id: opId(), action: 'choose', params: chosen })).op as Json)
    } else fail(`usage:\n${PUSH_HELP}`)
  })
}

export async function pushCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { ...common, profile: { type: 'string' } } })
  if (!values.profile) fail('sync push: name the profile: admonitor sync push --profile NAME')
  const progress = (st: Json) => `\r  ${String(st.ops_done)}/${String(st.ops_total)} operations, ${String(st.requests)} requests   `
  const s = await withEngine(values, async (e) => followJob(e, 'push', await profileId(e, values.profile!), progress, 300))
  process.stderr.write('\n')
  for (const r of s.results as Json[]) {
    const where = r.remote_id ? ` -> remote ${String(r.remote_id)}` : ''
    console.log(`  ${String(r.op_id)}\t${String(r.outcome)}\t${String(r.op)} ${String(r.kind)}${where}\t${String(r.name)}${r.message ? `\t${String(r.message)}` : ''}`)
  }
  console.log(`push ${String(s.state)}: ${String(s.message)}`)
  if (s.state !== 'done' || (s.results as Json[]).some((r) => r.outcome === 'failed' || r.outcome === 'conflict' || r.outcome === 'choose')) process.exitCode = 1
}

export async function modeCommand(verb: string | undefined, argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...common, profile: { type: 'string' } } })
  const rows = await withEngine(values, async (e) => {
    if (verb === 'list') return (await local(e, 'GET', '/local/v1/sync/modes/list', {})) as unknown as Json[]
    if (verb !== 'set' || positionals.length !== 2) fail(`usage:\n${PUSH_HELP}`)
    const profile: Record<string, string> = values.profile === undefined ? {} : { profile_id: await profileId(e, values.profile) }
    return (await local(e, 'POST', '/local/v1/sync/modes/set', { group: positionals[0]!, mode: positionals[1]!, ...profile })) as unknown as Json[]
  })
  for (const m of rows) console.log(`${String(m.group).padEnd(10)} ${String(m.mode).padEnd(8)} ${m.profile_name ? `${String(m.profile_name)} (${String(m.recorded)} recorded)` : ''}`.trimEnd())
}
