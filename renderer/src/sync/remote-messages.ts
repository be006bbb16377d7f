/**
 * The sentences a pull or a push stores when a call to the remote fails or an operation is set
 * aside, one rule each (engine/sync/remote-error.ts, client.ts, jobs.ts, pull*.ts, push.ts,
 * service.ts, secrets.ts; and "Test connection"'s success); sync/messages.ts says them in Chinese. Values named `kind`, `list`,
 * `what`, `reason` and `cause` are said in the interface's language there (a reason or a cause is a sentence itself).
 */
import type { SentenceRule } from '../utils/field-message'

const none = () => ({})
const pathOnly = (m: RegExpExecArray) => ({ path: m[1]! })

/** A call to the remote that failed (RemoteError messages). */
export const REMOTE_RULES: readonly SentenceRule[] = [
  [/^(\S+) did not answer within (\d+ m?s) \((\S+)\)\.$/, 'timeout', (m) => ({ host: m[1]!, wait: m[2]!, path: m[3]! })],
  [/^The address (\S+) cannot be found \(DNS: (\S+)\); check base_url and the network\.$/, 'dns', (m) => ({ host: m[1]!, code: m[2]! })],
  [/^Nothing answers at (\S+) \(connection refused\); check base_url and that the service is up\.$/, 'connRefused', (m) => ({ host: m[1]! })],
  [/^Nothing answers at (\S+) \((\S+)\); check base_url and that the service is up\.$/, 'noAnswer', (m) => ({ host: m[1]!, code: m[2]! })],
  [/^The secure connection to (\S+) failed \(TLS: (\S+)\); check that the address is right and its certificate is trusted\.$/, 'tls', (m) => ({ host: m[1]!, code: m[2]! })],
  [/^(\S+) closed the connection \((\S+)\) during (\S+)\.$/, 'reset', (m) => ({ host: m[1]!, code: m[2]!, path: m[3]! })],
  [/^Cannot reach (\S+?): (.*)\.$/s, 'cannotReach', (m) => ({ host: m[1]!, detail: m[2]! })],
  [/^(\S+) redirects \(HTTP (\d+)\) to another address: use that address in the profile\.$/, 'redirectElsewhere', (m) => ({ where: m[1]!, status: m[2]! })],
  [/^(\S+) redirects \(HTTP (\d+)\) to (\S+): use that address in the profile\.$/, 'redirect', (m) => ({ where: m[1]!, status: m[2]!, location: m[3]! })],
  [/^The answer of (\S+) was cut short or is not valid JSON\.$/, 'cutShort', pathOnly],
  [/^The answer of (\S+) is not JSON: base_url does not point at this API\.$/, 'notJson', pathOnly],
  [/^(\S+) is not an OAuth token endpoint \(HTTP (\d+), not JSON\): check auth_url\.$/, 'notOAuthJson', (m) => ({ where: m[1]!, status: m[2]! })],
  [/^(\S+) is not an OAuth token endpoint \(HTTP (\d+)\): check auth_url\.$/, 'notOAuth', (m) => ({ where: m[1]!, status: m[2]! })],
  [/^The username or password was refused \(invalid_grant\)\.$/, 'badGrant', none],
  [/^The client id or client secret was refused \(invalid_client\)\.$/, 'badClient', none],
  [/^(\S+) does not offer the password grant \(unsupported_grant_type\)\.$/, 'noPasswordGrant', (m) => ({ where: m[1]! })],
  [/^The remote refused the token on (\S+) \((\S+)\)\.$/, 'tokenRefused', (m) => ({ path: m[1]!, code: m[2]! })],
  [/^The remote refused (\S+) with a new token too \((.*)\)\.$/s, 'refusedAfterLogin', (m) => ({ path: m[1]!, said: m[2]! })],
  [/^The remote asked us to slow down \(HTTP 429\) on (\S+)\.$/, 'slowDown', pathOnly],
  [/^The remote failed on (\S+) \((.*)\)\.$/s, 'remoteFailed', (m) => ({ path: m[1]!, said: m[2]! })],
  [/^The remote has no (\S+) \(HTTP 404\): base_url does not point at this API\.$/, 'noPath', pathOnly],
  [/^The remote refused (\S+) \((.*)\)\.$/s, 'refused', (m) => ({ path: m[1]!, said: m[2]! })],
  [/^(\S+) did not answer with a list\.$/, 'notList', pathOnly],
  [/^(\S+) answered without (\w+)\.$/, 'answeredWithout', (m) => ({ path: m[1]!, key: m[2]! })],
  [/^It was cancelled\.$/, 'cancelled', none],
  [/^The (pull|push) was cancelled\.$/, 'jobCancelled', (m) => ({ what: m[1]! })],
  [/^The (pull|push) stopped on an internal error: (.*)$/s, 'internal', (m) => ({ what: m[1]!, detail: m[2]! })],
  [/^Profile (.+) has no stored password: enter it again\.$/s, 'noPassword', (m) => ({ name: m[1]! })],
  [/^Profile (.+) has no stored client secret: enter it again\.$/s, 'noClientSecret', (m) => ({ name: m[1]! })],
  [/^the key file (.+) is empty, so the stored secrets cannot be read; enter them again$/s, 'keyFileEmpty', pathOnly],
  [/^the key file (.+) is missing, so the stored secrets cannot be read; enter them again$/s, 'keyFileMissing', pathOnly],
  [/^Logged in as (.+) at (\S+); the campaign list answers\.$/s, 'loggedIn', (m) => ({ name: m[1]!, host: m[2]! })],
  // (the cause is the cipher's: a key file sentence below, said in Chinese too, or an OS error kept as it is)
  [/^the stored secrets cannot be decrypted \((.*)\); enter the password and client secret again$/s, 'undecryptable', (m) => ({ cause: m[1]! })],
  [/^The secrets cannot be stored: (.*)\.$/s, 'unstorable', (m) => ({ cause: m[1]! })],
  [/^the key file (.+) can be read by other users \(mode (\d+)\); run: (chmod 600 ".*")$/s, 'keyFileMode', (m) => ({ path: m[1]!, perms: m[2]!, command: m[3]! })],
  [/^the key file (.+) does not hold a (\d+)-byte key \((\d+) hex digits; it has (\d+) bytes\)\. It is left as it is: put the right key file back, or move this one away and enter the secrets again$/s, 'keyFileSize',
    (m) => ({ path: m[1]!, bytes: m[2]!, digits: m[3]!, size: m[4]! })],
  [/^the stored secret is not in a known format$/, 'secretFormat', none],
]

/** What a pull skipped, and what a push says of one operation (results, outbox messages). */
export const ITEM_RULES: readonly SentenceRule[] = [
  [/^campaign (\d+) skipped: (.*)$/s, 'campaignSkipped', (m) => ({ id: m[1]!, reason: m[2]! })],
  [/^(\w+) list skipped: (.*)$/s, 'listSkipped', (m) => ({ list: m[1]!, reason: m[2]! })],
  [/^made by an earlier push; finished now$/, 'finishedNow', none],
  [/^found at the remote as (campaign|spot|target) (\S+) \(made by an interrupted push\); not sent again$/, 'reconciled', (m) => ({ kind: m[1]!, id: m[2]! })],
  [/^The remote no longer has (campaign|spot|target) (\S+)\.$/, 'gone', (m) => ({ kind: m[1]!, id: m[2]! })],
  [/^(campaign|spot|target) (\S+) changed at the remote since the last pull \((.*)\): not sent; resolve it \(keep mine, take theirs or edit\)\.$/s, 'conflict', (m) => ({ kind: m[1]!, id: m[2]!, fields: m[3]! })],
  [/^waits for local campaign (\S+) to be pushed$/, 'blocked', (m) => ({ id: m[1]! })],
  [/^Choose the remote's record: (.*) \(sync outbox choose, or the Sync page; pull to refresh the lists\)\.$/s, 'chooseRecord', (m) => ({ details: m[1]! })],
]
