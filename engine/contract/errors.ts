/**
 * The error catalogue: every error the engine can answer with, in one table.
 * `origin` says where the code comes from: the interface spec §7, RFC 6749/6750, the vendor's
 * documentation (vendor-notes §1.4, §3.9), or the engine itself where the spec is silent.
 * `test/contract/errors.test.ts` keeps this table, the spec and docs/errors.md in step.
 */

import { describe, describeProblem, type ArgsOf, type Problem, type ProblemKey } from './problems'

export type ErrorOrigin = 'spec' | 'rfc6749' | 'vendor' | 'engine'

export interface ErrorDef {
  readonly status: number
  /** The wire value of `error`. */
  readonly error: string
  readonly origin: ErrorOrigin
  /** When it is answered (documentation). */
  readonly when: string
}

const def = (status: number, error: string, origin: ErrorOrigin, when: string): ErrorDef => ({ status, error, origin, when })

export const E = {
  // spec §7.2
  invalidCampaignName: def(400, 'invalid_campaign_name', 'spec', 'campaign_name is empty, too long, or (on create) already used'),
  invalidPlacementName: def(400, 'invalid_placement_name', 'spec', 'placement_name is empty or too long'),
  invalidCampaignId: def(400, 'invalid_campaign_id', 'spec', 'campaign_id names no campaign'),
  invalidSpotId: def(400, 'invalid_spot_id', 'spec', 'spot_id or spot_id_str names no spot of the campaign'),
  targetNameExists: def(400, 'is wrong.', 'spec', 'publish_target: target_name already exists in the campaign (the wire value is literally "is wrong.")'),
  // RFC 6749 §5.2 (spec §7.1)
  invalidRequest: def(400, 'invalid_request', 'rfc6749', 'a parameter is missing, repeated, malformed or not valid in this combination'),
  invalidClient: def(400, 'invalid_client', 'rfc6749', 'client_id / client_secret do not match a client'),
  invalidGrant: def(400, 'invalid_grant', 'rfc6749', 'username / password do not match an account'),
  unsupportedGrantType: def(400, 'unsupported_grant_type', 'rfc6749', 'grant_type is client_credentials or refresh_token (marked unavailable) or unknown'),
  invalidScope: def(400, 'invalid_scope', 'rfc6749', 'scope names a category that does not exist'),
  // vendor documentation
  tokenRequired: def(400, 'token_required', 'vendor', 'no access token was sent'),
  accessDenied: def(400, 'access_denied', 'vendor', "the token's scope does not cover the endpoint"),
  // (never sent: writes are serialised, so a batch never waits for another write; kept for clients that handle it)
  campaignBusy: def(400, 'campaign_busy', 'vendor', 'never sent by this engine: writes are serialised, so a batch never waits for another write'),
  serverError: def(500, 'server_error', 'vendor', 'an unexpected fault; the cause is logged, never sent'),
  // engine-defined (spec §7.3: "not shown")
  invalidToken: def(400, 'invalid_token', 'engine', 'the access token is unknown, revoked or expired'),
  notFound: def(404, 'not_found', 'engine', 'no endpoint at this path'),
  methodNotAllowed: def(405, 'method_not_allowed', 'engine', 'the path exists but not for this HTTP method'),
  payloadTooLarge: def(413, 'payload_too_large', 'engine', 'the request body is larger than the limit'),
  headersTooLarge: def(431, 'headers_too_large', 'engine', 'the request line and headers are larger than the HTTP door reads (16 KiB)'),
  badHttp: def(400, 'bad_http_request', 'engine', 'the request is not well-formed HTTP/1.1'),
  unsupportedMediaType: def(415, 'unsupported_media_type', 'engine', 'the request body has a content type the endpoint does not take'),
  forbiddenHost: def(403, 'forbidden_host', 'engine', 'the Host header is not this server (DNS-rebinding guard) or the Origin is not allowed'),
  secretsUnavailable: def(500, 'secrets_unavailable', 'engine', "a remote profile's secrets cannot be stored: the secrets' key file is readable by other users or holds no key; the description names the file and what to do"),
  panelEmpty: def(409, 'panel_empty', 'engine', "the report's panel has no persons: the user emptied it (an import with mode=replace of an empty file); the body's extra member panel_id names it"),
  insufficientStorage: def(507, 'insufficient_storage', 'engine', "a write the data directory cannot take: its disk is full, a quota or file-size limit is reached, or the write fails; nothing of the request is made; the body's extra members path and cause name the directory and the system's error code"),
  temporarilyUnavailable: def(503, 'temporarily_unavailable', 'engine', 'the engine is shutting down, could not read its recorded events at start, or holds too many hits waiting while it reads or saves them; or, in a server mode, the remote cannot answer (forward) or nothing was recorded (offline)'),
} as const satisfies Record<string, ErrorDef>

export type ErrorKey = keyof typeof E

/**
 * The JSON body of every error response: `error` and `error_description`, and for some errors
 * extra members naming the problem's arguments (panel_empty: `panel_id`), which clients may ignore.
 */
export interface ErrorBody {
  error: string
  error_description: string
  [member: string]: string
}

/**
 * The one error type domain code throws. Only dispatch catches it; it becomes
 * HTTP `def.status` with `{error, error_description}`.
 */
export class ApiError extends Error {
  readonly def: ErrorDef
  readonly headers: Readonly<Record<string, string>>
  /** Members of the body besides error and error_description (the problem's arguments, for a UI). */
  readonly extra: Readonly<Record<string, string>>
  /** The problem's key and arguments (engine/contract/problems.ts), or null for a text of no key (another service's words). */
  readonly problem: Problem | null

  constructor(def: ErrorDef, description: string, headers: Record<string, string> = {}, extra: Record<string, string> = {}, problem: Problem | null = null) {
    super(description)
    this.name = 'ApiError'
    this.def = def
    this.headers = headers
    this.extra = extra
    this.problem = problem
  }

  get body(): ErrorBody {
    return { error: this.def.error, error_description: this.message, ...this.extra }
  }
}

/** The refusal `def` of problem `key` with `args`: its description written by the problem catalogue. */
export function refuse<K extends ProblemKey>(def: ErrorDef, key: K, args: ArgsOf<K>, headers: Record<string, string> = {}, extra: Record<string, string> = {}): ApiError {
  return new ApiError(def, describe(key, args), headers, extra, { key, args })
}

/** The most common refusal: an invalid_request of problem `key` (a parameter that is wrong). */
export const badRequest = <K extends ProblemKey>(key: K, args: ArgsOf<K>): ApiError => refuse(E.invalidRequest, key, args)

/** The invalid_request of problem `p`, made beforehand by problem() (the plan rules name theirs). */
export const badProblem = (p: Problem): ApiError => new ApiError(E.invalidRequest, describeProblem(p), {}, {}, p)


/** Rebuilds an ApiError from a response body and the problem its header carried (renderer side, after IPC or HTTP). */
export function errorFromBody(status: number, body: ErrorBody, problem: Problem | null = null): ApiError {
  const known = Object.values(E).find((d) => d.error === body.error && d.status === status)
  const extra: Record<string, string> = {}
  for (const [k, v] of Object.entries(body)) if (k !== 'error' && k !== 'error_description' && typeof v === 'string') extra[k] = v
  return new ApiError(known ?? { status, error: body.error, origin: 'engine', when: '' }, body.error_description, {}, extra, problem)
}

/** The refusal of a report whose panel has no persons (the user emptied it), naming the commands that fill it. */
export function panelEmptyError(panelId: string): ApiError {
  return refuse(E.panelEmpty, 'panel.empty', { panel: panelId }, {}, { panel_id: panelId })
}
