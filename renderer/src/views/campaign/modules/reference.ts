/**
 * Reference lists the spot editor offers (programs, placement types), fetched once per page load
 * and shared by every editor; a failed fetch is forgotten so that the next open tries again.
 */
import { api } from '../../../api'

let programs: Promise<string[]> | null = null
let plmttypes: Promise<string[]> | null = null

const names = (p: Promise<{ name: string }[]>): Promise<string[]> => p.then((rows) => rows.map((r) => r.name))

/** Names of /cms/v1/programs/list (every page). */
export function programNames(): Promise<string[]> {
  programs ??= names(api.call('programs.list', { limit: '1,100000' })).catch((e: unknown) => {
    programs = null
    throw e
  })
  return programs
}

/** Names of /cms/v1/plmttype/list (every page). */
export function plmttypeNames(): Promise<string[]> {
  plmttypes ??= names(api.call('plmttype.list', { limit: '1,100000' })).catch((e: unknown) => {
    plmttypes = null
    throw e
  })
  return plmttypes
}
