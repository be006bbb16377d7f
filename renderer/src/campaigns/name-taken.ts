/** Whether a campaign name is already in use, from the rows a campaigns.list search for it answered. */

/**
 * The campaign other than `own` whose name is exactly `name` (campaign names are unique, compared
 * as sent: another case is another name), or null. The search (PATTERN: contains) may answer others.
 */
export function takenBy(rows: readonly { campaign_id: string; campaign_name: string }[], name: string, own: string | null): string | null {
  return rows.find((c) => c.campaign_name === name && c.campaign_id !== own)?.campaign_id ?? null
}
