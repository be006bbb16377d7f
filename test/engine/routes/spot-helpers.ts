/** Helpers shared by the spot write tests. */
import { expect } from 'vitest'
import { toBase62 } from '../../../engine/contract/base62'
import { endpoints, type EndpointId } from '../../../engine/contract/endpoints'
import type { Reply, TestEngine } from '../../helpers/make-engine'

export type Form = Record<string, string | number>
export const path = (id: EndpointId) => endpoints[id].path
let seq = 0

/** A campaign from 2025-01-10 (the test day) to 2025-03-31 unless told otherwise. */
export async function newCampaign(t: TestEngine, start = '2025-01-10', end = '2025-03-31'): Promise<string> {
  return (await t.post(path('campaigns.create'), { campaign_name: `write ${++seq}`, start_date: start, end_date: end })).body.campaign_id
}
export const spotForm = (campaign_id: string, extra: Form = {}): Form => ({ campaign_id, publisher_name: 'Twitter', channel_name: 'news', placement_name: 'top banner', ...extra })
export const createSpot = (t: TestEngine, cid: string, extra: Form = {}) => t.post(path('campaigns.create_spot'), spotForm(cid, extra))
export const showSpot = (t: TestEngine, cid: string, sid: string, extra: Form = {}) =>
  t.get(path('campaigns.show_spot'), { campaign_id: cid, spot_id_str: toBase62(sid), keyword: 'on', show_extInfo: 1, show_filtration_status: 1, ...extra })
export const planOf = async (t: TestEngine, cid: string, sid: string) =>
  (await t.get(path('campaigns.list_spots'), { campaign_id: cid, spot_id: sid, show_plan: 1 })).body[0].spot_plan

export function refused(r: Reply, param: string, error = 'invalid_request'): void {
  expect(r.status).toBe(400)
  expect(r.body.error).toBe(error)
  expect(r.body.error_description).toContain(`'${param}'`)
}
