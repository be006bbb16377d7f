/**
 * Which errors the form shows: a rule's error once its field was changed by the user or after a
 * submit, and a server error on its field until that field changes again.
 */
import { reactive, ref, watch, type ComputedRef } from 'vue'
import type { CampaignForm } from '../../campaigns/form-model'
import { touchedBy, type ErrorField, type FieldError, type FormErrors } from '../../campaigns/form-rules'
import { clearedWith } from '../../campaigns/server-errors'

const WARES_PARTS: readonly string[] = ['wares_advertiser', 'wares_brand', 'wares_product']

export function useFieldErrors(form: CampaignForm, errors: ComputedRef<FormErrors>) {
  const touched = reactive(new Set<ErrorField>())
  const serverErrors = reactive(new Map<ErrorField, string>())
  const submitted = ref(false)
  let quiet = false

  // sync: a programmatic assignment inside `silently` must not count as the user's change.
  watch(() => ({ ...form }), (now, before) => {
    if (quiet) return
    for (const k of Object.keys(now) as (keyof CampaignForm)[]) {
      if (now[k] === before[k]) continue
      const field: ErrorField = WARES_PARTS.includes(k) ? 'wares' : k
      for (const f of touchedBy(field, now)) touched.add(f)
      // a date's server error is about the pair (plan days outside start..end): either clears it
      for (const f of clearedWith(field)) serverErrors.delete(f)
    }
  }, { flush: 'sync' })

  /** The error to show under a field now: a server message, a rule error, or null. */
  function shownError(field: ErrorField): FieldError | string | null {
    const server = serverErrors.get(field)
    if (server !== undefined) return server
    return submitted.value || touched.has(field) ? (errors.value[field] ?? null) : null
  }

  /** Changes the form without touching fields (loading a campaign). */
  function silently(change: () => void): void {
    quiet = true
    try {
      change()
    } finally {
      quiet = false
    }
  }

  /** Forgets touched fields, server errors and the submit. */
  function clear(): void {
    touched.clear()
    serverErrors.clear()
    submitted.value = false
  }

  return { serverErrors, submitted, shownError, silently, clear }
}
