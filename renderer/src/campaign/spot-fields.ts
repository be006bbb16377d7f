/**
 * How the spot editor lays out the fields of spot-form.ts: sections, and the control each field
 * uses. Choices offered are exactly the contract's vocabularies (engine/contract/vocabulary.ts).
 */
import { PLACEMENT_TYPES, REPORT_METRICS, VENDING_MODEL_LEVEL1 } from '../../../engine/contract/vocabulary'
import { CUSTOMER_FIELD_NAMES, type SpotField } from './spot-form'

export type FieldKind = 'text' | 'textarea' | 'select' | 'programs' | 'plmttype' | 'vending' | 'date' | 'int'

export type SectionId = 'basics' | 'buying' | 'tracking' | 'plan' | 'customer'

export const SECTIONS: Readonly<Record<SectionId, readonly SpotField[]>> = {
  basics: ['publisher_name', 'channel_name', 'placement_name', 'placement_type', 'adposition_type', 'report_metrics', 'landing_page', 'description'],
  buying: ['program_purchasing_type', 'program', 'vending_model', 'market', 'budgetInput', 'shop_id'],
  tracking: ['dangerous_source_filtration', 'freq_capping', 'tracking_timing', 'referrer_url', 'other_impr_tracking_tag', 'linked_siteid', 'guid', 'caguid', 'customize'],
  plan: ['slot_begin', 'slot_duration', 'est_impression', 'est_click'],
  customer: CUSTOMER_FIELD_NAMES,
}

const KINDS: Partial<Record<SpotField, FieldKind>> = {
  placement_type: 'select', report_metrics: 'select', program_purchasing_type: 'select', dangerous_source_filtration: 'select',
  program: 'programs', adposition_type: 'plmttype', vending_model: 'vending', description: 'textarea', other_impr_tracking_tag: 'textarea',
  slot_begin: 'date', slot_duration: 'int', est_impression: 'int', est_click: 'int', linked_siteid: 'int',
}

export const kindOf = (f: SpotField): FieldKind => KINDS[f] ?? 'text'

/** A select choice: the wire value and the message key of its label. */
export interface Choice {
  value: string
  label: string
}

const PLACEMENT_KEY: Record<(typeof PLACEMENT_TYPES)[number], string> = { display: 'display', video: 'video', text: 'text', others: 'others', 'QR-Code': 'qrcode', search: 'search' }
const METRICS_KEY: Record<(typeof REPORT_METRICS)[number], string> = { impression: 'impression', click: 'click', 'impression+click': 'both' }

/** Choices of the select fields; labels are message keys. */
export const CHOICES: Partial<Record<SpotField, readonly Choice[]>> = {
  placement_type: PLACEMENT_TYPES.map((v) => ({ value: v, label: `campaign.editor.placementType.${PLACEMENT_KEY[v]}` })),
  report_metrics: REPORT_METRICS.map((v) => ({ value: v, label: `campaign.editor.metrics.${METRICS_KEY[v]}` })),
  program_purchasing_type: [
    { value: '通投', label: 'campaign.editor.programPurchasing.bulk' },
    { value: '按频道采买', label: 'campaign.editor.programPurchasing.by_channel' },
    { value: '按剧目采买', label: 'campaign.editor.programPurchasing.by_program' },
  ],
  dangerous_source_filtration: [{ value: '1', label: 'campaign.spots.on' }, { value: '0', label: 'campaign.spots.off' }],
}

/** The engine's default of a field when it is not sent (docs/spots.md), as a message or a value. */
export const DEFAULTS: Partial<Record<SpotField, string>> = {
  placement_type: 'display', report_metrics: 'impression+click', freq_capping: 'S0+',
}

export { VENDING_MODEL_LEVEL1 }

/** vending_model split into its two levels ('' when empty). */
export function splitVending(value: string): [string, string] {
  const cut = value.indexOf('-')
  return cut < 0 ? [value, ''] : [value.slice(0, cut), value.slice(cut + 1)]
}

/** vending_model from its levels: '' when both are empty. */
export const joinVending = (l1: string, l2: string): string => (l1 === '' && l2 === '' ? '' : `${l1}-${l2}`)

/** How screens name a spot: "publisher / placement". */
export function spotLabel(s: { publisher_name: string; placement_name: string }): string {
  return `${s.publisher_name} / ${s.placement_name}`
}
