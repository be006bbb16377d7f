/**
 * A campaign name already in use is said while typing (300 ms after the last key), not only when
 * the engine refuses the save: campaigns.list is asked for the name (its PATTERN search contains
 * the name) and an exact match of another campaign is the one the engine would refuse
 * (campaign names are unique, compared as sent).
 */
import { ref, watch, type Ref } from 'vue'
import { api } from '../../api'
import type { CampaignForm } from '../../campaigns/form-model'
import { takenBy } from '../../campaigns/name-taken'

/** How long typing pauses before the name is looked up. */
const WAIT_MS = 300

/** The id of the other campaign that uses the typed name (null: free, unchanged, or not known yet). */
export function useNameCheck(form: CampaignForm, initial: Ref<CampaignForm>, campaignId: Ref<string | null>): Ref<string | null> {
  const taken = ref<string | null>(null)
  let timer: ReturnType<typeof setTimeout> | undefined
  let seq = 0
  watch(() => form.campaign_name, (typed) => {
    clearTimeout(timer)
    taken.value = null
    const name = typed.trim()
    const mine = ++seq
    if (name === '' || name === initial.value.campaign_name.trim()) return
    timer = setTimeout(() => {
      void api.call('campaigns.list', { campaign_name: name, limit: '0,100' }).then((rows) => {
        if (mine === seq) taken.value = takenBy(rows, name, campaignId.value)
      }, () => undefined)
    }, WAIT_MS)
  })
  return taken
}
