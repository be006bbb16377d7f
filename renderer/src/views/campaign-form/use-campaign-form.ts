/**
 * The campaign form's state: the model and what the rules say about it, the brands of the chosen
 * advertiser, loading a campaign for an edit, and sending create or update with server errors
 * placed on their field (use-field-errors.ts decides what is shown).
 */
import { computed, reactive, ref, watch, type Ref } from 'vue'
import type { ApiError } from '../../../../engine/contract/errors'
import type { Campaign } from '../../../../engine/contract/models'
import { api } from '../../api'
import { CREATE_ONLY, createParams, emptyForm, formFromCampaign, updateIsEmpty, updateParams, type CampaignForm } from '../../campaigns/form-model'
import { isValid, validateCampaignForm, type FormErrors } from '../../campaigns/form-rules'
import { fieldsOfServerError } from '../../campaigns/server-errors'
import { useReferenceStore, type BrandRow } from '../../stores/reference'
import { idByName } from '../../stores/reference/shared'
import { useFieldErrors } from './use-field-errors'
import { useNameCheck } from './use-name-check'

/** What a submit did: saved, nothing to send, refused by the rules, or refused by the engine. */
export type SubmitResult = { kind: 'saved'; campaignId: string } | { kind: 'unchanged' } | { kind: 'invalid' } | { kind: 'failed' }

/** The brand picker's list: the chosen advertiser's brands; a brand of another advertiser is dropped. */
function useBrands(form: CampaignForm, onError: (message: string) => void) {
  const reference = useReferenceStore()
  const brands = ref<BrandRow[]>([])
  const brandsLoading = ref(false)
  watch(() => form.advertiser_id, async (id) => {
    brandsLoading.value = true
    try {
      brands.value = id === null ? [] : await reference.brandsOf(id)
      if (form.brand_id !== null && !brands.value.some((b) => b.brand_id === form.brand_id)) form.brand_id = null
    } catch (e) {
      onError((e as Error).message)
    } finally {
      brandsLoading.value = false
    }
  })
  return { brands, brandsLoading }
}

/** Ids of a shown campaign's advertiser, brand and agency, found by name (show answers names only). */
async function resolveRefs(reference: ReturnType<typeof useReferenceStore>, c: Campaign) {
  const [advertisers, agencies] = await Promise.all([reference.advertisers(), reference.agencies()])
  const advertiser_id = idByName(advertisers, c.advertiser_name, (a) => a.advertiser_name, (a) => a.advertiser_id)
  const brandRows = advertiser_id === null ? [] : await reference.brandsOf(advertiser_id)
  return {
    advertiser_id,
    brand_id: idByName(brandRows, c.brand_name, (b) => b.brand_name, (b) => b.brand_id),
    agency_id: idByName(agencies, c.agency_name, (a) => a.agency_name, (a) => a.agency_id),
  }
}

export function useCampaignForm(campaignId: Ref<string | null>) {
  const reference = useReferenceStore()
  const form = reactive<CampaignForm>(emptyForm())
  const initial = ref<CampaignForm>(emptyForm())
  const campaign = ref<Campaign | null>(null)
  const today = ref<string | null>(null)
  const alert = ref<string | null>(null)
  const loading = ref(false)
  const loadError = ref<string | null>(null)
  const busy = ref(false)
  const mode = computed(() => (campaignId.value === null ? 'create' : 'edit') as 'create' | 'edit')
  const { brands, brandsLoading } = useBrands(form, (m) => (alert.value = m))
  const errors = computed<FormErrors>(() =>
    validateCampaignForm(form, {
      mode: mode.value,
      today: today.value ?? '0000-00-00',
      initial: initial.value,
      brandParent: (id) => brands.value.find((b) => b.brand_id === id)?.advertiser_id,
    }),
  )
  const shown = useFieldErrors(form, errors)
  const taken = useNameCheck(form, initial, campaignId)
  /** A field's error now; a name another campaign uses is said as soon as it is known. */
  const shownError = (field: Parameters<typeof shown.shownError>[0]) =>
    shown.shownError(field) ?? (field === 'campaign_name' && taken.value !== null ? { key: 'nameTaken', params: { id: taken.value } } : null)
  const dirty = computed(() => JSON.stringify(form) !== JSON.stringify(initial.value))

  /** Starts over: a new form, or the campaign to edit (shown with pmo_info and dm_info). */
  async function reset(): Promise<void> {
    shown.clear()
    alert.value = null
    loadError.value = null
    campaign.value = null
    const id = campaignId.value
    loading.value = id !== null
    try {
      today.value = await reference.today()
      const c = id === null ? null : await api.call('campaigns.show', { campaign_id: id, pmo_info: true, dm_info: true })
      const next = c === null ? emptyForm() : formFromCampaign(c, await resolveRefs(reference, c))
      if (id !== campaignId.value) return
      shown.silently(() => Object.assign(form, next))
      initial.value = { ...next }
      campaign.value = c
    } catch (e) {
      loadError.value = (e as Error).message
    } finally {
      loading.value = false
    }
  }

  /** Puts a refused request's error on its field, else (or for a read-only field) in the alert. */
  function placeServerError(e: ApiError): void {
    const fields = fieldsOfServerError(e.body?.error, e.message).filter((f) => mode.value === 'create' || !(CREATE_ONLY as readonly string[]).includes(f))
    for (const f of fields) shown.serverErrors.set(f, e.message)
    if (fields.length === 0) alert.value = e.message
  }

  /** The create or update request of the form; null when an update would change nothing. */
  async function send(id: string | null): Promise<string | null> {
    if (id === null) return (await api.call('campaigns.create', createParams(form))).campaign_id
    const u = updateParams(id, form, initial.value)
    if (updateIsEmpty(u)) return null
    await api.call('campaigns.update', u.params, { keepEmpty: u.keepEmpty })
    return id
  }

  async function submit(): Promise<SubmitResult> {
    shown.submitted.value = true
    alert.value = null
    if (!isValid(errors.value)) return { kind: 'invalid' }
    busy.value = true
    try {
      const saved = await send(campaignId.value)
      initial.value = { ...form }
      return saved === null ? { kind: 'unchanged' } : { kind: 'saved', campaignId: saved }
    } catch (e) {
      placeServerError(e as ApiError)
      return { kind: 'failed' }
    } finally {
      busy.value = false
    }
  }

  return {
    form, initial, campaign, today, brands, brandsLoading, mode, errors, dirty, alert, loading, loadError, busy,
    serverErrors: shown.serverErrors, shownError, nameTakenBy: taken, reset, submit,
  }
}
