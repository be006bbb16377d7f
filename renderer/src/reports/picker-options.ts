/**
 * The pickers a view shows, as plain data: each with its options, the options the API would
 * refuse with the current choices shown disabled with the API's reason, and a whole picker
 * disabled (with the reason) where its parameter is not valid.
 */
import type { ListSpot, Panel, Publisher, Region, Target } from '../../../engine/contract/models'
import { POSITIONS } from '../../../engine/contract/endpoints-reports'
import type { MinisiteRecord } from './load'
import { dependentReason, pickerApplies, topChoices, type RequestEnv, type TopName } from './params'
import { MEASURES, PERIODS, RANK_LEVELS, type Pickers, type ViewKey } from './pickers'
import type { Choice } from './rules'
import type { Translate } from './table'
import { panelLabel } from '../utils/panel-name'

export interface PickerOption {
  label: string
  value: string
  disabled?: boolean
  /** Why the option is disabled (shown on hover). */
  reason?: string | null
}

export interface PickerField {
  key: keyof Pickers
  label: string
  multiple: boolean
  clearable: boolean
  placeholder: string
  options: PickerOption[]
  /** The whole picker is disabled, for this reason. */
  disabledReason: string | null
}

/** What the pickers list. */
export interface PickerData {
  spots: readonly ListSpot[]
  publishers: readonly Publisher[]
  targets: readonly Target[]
  regions: readonly Region[]
  minisites: readonly MinisiteRecord[]
  panels: readonly string[]
  panel: Panel | null
}

const field = (key: keyof Pickers, label: string, options: PickerOption[], extra: Partial<PickerField> = {}): PickerField =>
  ({ key, label, options, multiple: false, clearable: false, placeholder: '', disabledReason: null, ...extra })

const fromChoices = (choices: Choice[], label: (v: string) => string): PickerOption[] =>
  choices.map((c) => ({ value: c.value, label: label(c.value), disabled: c.disabled, reason: c.reason }))

/**
 * Whether a figure of several positions would be a sum of rows (by_position other than campaign
 * without exactly one position chosen): unique counts are not offered then.
 */
export function severalPositions(p: Pickers): boolean {
  const list = { campaign: null, publisher: p.publisher_id, spot: p.spot_id, keyword: p.keyword_id }[p.by_position]
  return list !== null && list.length !== 1
}

function positionField(p: Pickers, view: ViewKey, env: RequestEnv, t: Translate): PickerField {
  const choices = topChoices(p, view, 'by_position', env)
  const options = POSITIONS.map((v): PickerOption => {
    const c = choices.find((x) => x.value === v)
    return c ? { value: v, label: t(`reports.position.${v}`), disabled: c.disabled, reason: c.reason } : { value: v, label: t(`reports.position.${v}`), disabled: true, reason: t('reports.reason.notPosition', { value: t(`reports.position.${v}`) }) }
  })
  return field('by_position', t('reports.picker.position'), options)
}

function topField(p: Pickers, view: ViewKey, env: RequestEnv, t: Translate, name: TopName, key: string, labelKey: string): PickerField {
  return field(name as keyof Pickers, t(`reports.picker.${labelKey}`), fromChoices(topChoices(p, view, name, env), (v) => t(`reports.${key}.${v}`)))
}

function positionPickers(p: Pickers, view: ViewKey, env: RequestEnv, d: PickerData, t: Translate): PickerField[] {
  const out = [positionField(p, view, env, t)]
  const multi = (key: 'publisher_id' | 'spot_id' | 'keyword_id', label: string, all: string, options: PickerOption[]) => {
    if (!pickerApplies(view, key)) return
    out.push(field(key, t(`reports.picker.${label}`), options, { multiple: true, clearable: true, placeholder: t(`reports.picker.${all}`), disabledReason: dependentReason(p, view, key, env) }))
  }
  const spots = d.spots.filter((s) => !p.publisher_id.length || p.publisher_id.includes(s.publisher_id))
  multi('publisher_id', 'publishers', 'allPublishers', d.publishers.map((x) => ({ value: x.publisher_id, label: x.publisher_name })))
  multi('spot_id', 'spots', 'allSpots', spots.map((s) => ({ value: s.spot_id, label: `${s.placement_name} · ${s.publisher_name} (${s.spot_id_str})` })))
  multi('keyword_id', 'keywords', 'allKeywords', spots.flatMap((s) => s.keyword.map((k) => ({ value: String(k.keywordId), label: k.keyword }))))
  return out
}

function audiencePickers(p: Pickers, view: ViewKey, env: RequestEnv, d: PickerData, t: Translate): PickerField[] {
  const audience = topField(p, view, env, t, 'by_audience', 'audience', 'audience')
  if (!d.targets.length) audience.options = audience.options.map((o) => (o.value === 'target' ? { ...o, disabled: true, reason: t('reports.reason.noTargets') } : o))
  const reason = dependentReason(p, view, 'target_id', env)
  const target = field('target_id', t('reports.picker.target'), d.targets.map((x) => ({ value: x.target_id, label: x.target_name })), { clearable: true, placeholder: t('reports.picker.allTargets'), disabledReason: reason })
  return [audience, target]
}

function regionPickers(p: Pickers, view: ViewKey, env: RequestEnv, d: PickerData, t: Translate): PickerField[] {
  const level = Number(p.by_region.slice(-1))
  const regions = d.regions.filter((r) => r.level === level && !(level === 0 && r.region_id === '000000000000000000000000'))
  return [
    topField(p, view, env, t, 'by_region', 'level', 'level'),
    field('region_id', t('reports.picker.region'), regions.map((r) => ({ value: r.region_id, label: r.region_name })), {
      clearable: true, placeholder: t(level === 0 ? 'reports.picker.globalRegion' : 'reports.picker.allRegions'),
    }),
  ]
}

function platformPickers(p: Pickers, view: ViewKey, env: RequestEnv, t: Translate): PickerField[] {
  const out = [topField(p, view, env, t, 'platform', 'platform', 'platform')]
  if (pickerApplies(view, 'sdk')) {
    out.push(field('sdk', t('reports.picker.sdk'), ['all', 'mm', 'mz'].map((v) => ({ value: v, label: t(`reports.sdk.${v}`) })), { disabledReason: dependentReason(p, view, 'sdk', env) }))
  }
  return out
}

function regionViewPickers(p: Pickers, view: ViewKey, env: RequestEnv, t: Translate): PickerField[] {
  const periods = topChoices(p, view, 'metrics', env).filter((c) => (PERIODS as readonly string[]).includes(c.value))
  const unique = severalPositions(p) ? t('reports.reason.unique') : null
  return [
    field('rank_level', t('reports.picker.rankLevel'), RANK_LEVELS.map((v) => ({ value: v, label: t(`reports.level.${v}`) }))),
    field('metrics', t('reports.picker.period'), fromChoices(periods, (v) => t(`reports.period.${v}`))),
    field('measure', t('reports.picker.measure'), MEASURES.map((v) => ({ value: v, label: t(`reports.measure.${v}`), disabled: !!unique && v.startsWith('u'), reason: v.startsWith('u') ? unique : null }))),
  ]
}

function audienceViewPickers(d: PickerData, t: Translate): PickerField[] {
  return [
    field('panel_id', t('reports.picker.panel'), d.panels.map((x) => ({ value: x, label: panelLabel(x, d.panel?.panel_id === x ? d.panel.panel_name : undefined, t) }))),
    field('type_id', t('reports.picker.types'), (d.panel?.type_list ?? []).map((x) => ({ value: x.type_id, label: x.type_name })), { multiple: true, clearable: true, placeholder: t('reports.picker.allTypes') }),
    field('audience_measure', t('reports.picker.audienceMeasure'), ['uim', 'ucl'].map((v) => ({ value: v, label: t(`reports.audienceMeasure.${v}`) }))),
  ]
}

/** The pickers of a view, in display order. */
export function pickerFields(p: Pickers, view: ViewKey, env: RequestEnv, d: PickerData, t: Translate): PickerField[] {
  const out: PickerField[] = []
  if (view === 'minisite') out.push(field('minisite_id', t('reports.picker.minisite'), d.minisites.map((m) => ({ value: m.minisite_id, label: m.minisite_name }))))
  if (view === 'region') out.push(...regionViewPickers(p, view, env, t))
  if (view === 'audience') out.push(...audienceViewPickers(d, t))
  out.push(...positionPickers(p, view, env, d, t))
  if (pickerApplies(view, 'by_audience')) out.push(...audiencePickers(p, view, env, d, t))
  if (pickerApplies(view, 'by_region')) out.push(...regionPickers(p, view, env, d, t))
  if (pickerApplies(view, 'platform')) out.push(...platformPickers(p, view, env, t))
  if (pickerApplies(view, 'filtration_type')) out.push(topField(p, view, env, t, 'filtration_type', 'filtration', 'filtration'))
  return out
}
