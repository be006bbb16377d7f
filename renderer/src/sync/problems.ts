/**
 * A remote problem said in the interface's language ("Test connection"). In Chinese, the engine's
 * message by its problem key when the answer told it (sync/messages.ts: it names the host, the
 * path, the key file and what to do); else what the problem code (contract REMOTE_PROBLEMS) means,
 * then the engine's message as it is. In English the engine's message says it already.
 */
import { REMOTE_PROBLEMS, type RemoteProblem } from '../../../engine/contract/endpoints-sync'
import type { Translate } from '../reports/table'
import { syncText } from './messages'

const known = (p: string): p is RemoteProblem => (REMOTE_PROBLEMS as readonly string[]).includes(p)

/** The text of a remote problem `problem` whose engine message is `message`, in the language `lang`. */
export function problemText(problem: string, message: string, t: Translate, lang: string): string {
  if (lang !== 'zh') return message
  const said = syncText(message, t, lang)
  if (said !== message) return said
  if (!known(problem)) return message
  return message ? `${t(`sync.problem.${problem}`)}（${message}）` : t(`sync.problem.${problem}`)
}
