/** What the form's sections share (provide/inject): the model, the mode, errors to show, pickers' data. */
import { inject, type ComputedRef, type InjectionKey, type Ref } from 'vue'
import type { CampaignForm } from '../../campaigns/form-model'
import type { ErrorField } from '../../campaigns/form-rules'
import type { BrandRow } from '../../stores/reference'

export interface FormContext {
  form: CampaignForm
  mode: ComputedRef<'create' | 'edit'>
  /** The engine's today (YYYY-MM-DD), or null until known. */
  today: Ref<string | null>
  /** The message to show under a field now (rule or server), or null. */
  errorOf: (field: ErrorField) => string | null
  /** Brands of the chosen advertiser (the brand picker's options). */
  brands: Ref<BrandRow[]>
  /** Whether the brands of the chosen advertiser are being fetched. */
  brandsLoading: Ref<boolean>
}

export const FORM_CONTEXT: InjectionKey<FormContext> = Symbol('campaign-form')

export function useFormContext(): FormContext {
  const ctx = inject(FORM_CONTEXT)
  if (!ctx) throw new Error('campaign form sections must be used inside the campaign form')
  return ctx
}
