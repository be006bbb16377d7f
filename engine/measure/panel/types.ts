/**
 * A panel in the shape the report kernels read: persons as parallel typed arrays, loaded from
 * the panel tables and cached until the panel changes (docs/metrics.md, panel section).
 */

export interface PanelIndex {
  panelId: string
  /** Number of persons. */
  size: number
  /**
   * Projection weight of each person (persons of the population it stands for) in `unit`s. When
   * every weight has at most 6 decimals these are whole numbers, so that sums of them are exact
   * (up to 2^53 units) and a projection that is exactly x.5 rounds up, as the rounding rule says,
   * instead of landing on x.4999... by float addition. Sums are divided by `unit` once, at the end.
   */
  units: Float64Array
  /** Units in a weight of 1: 10^d for d the most decimals a weight has, or 1 past 6 decimals. */
  unit: number
  /** Home region of each person: index in region-table order. */
  homeRegion: Uint16Array
  /**
   * Bit p of byte person*tagBytes + (p >> 3): the person carries tag p (tagIds order). A stored
   * panel's are read at their first use (load.ts): basic/show never reads them.
   */
  tags: Uint8Array
  tagBytes: number
  /** Tag ids of the panel, in panel order; index = bit number in `tags`. */
  tagIds: string[]
  /** Tag type of each tag (same order). */
  tagTypes: string[]
  /** Bit 0: the person has a PC device; bit 1: a mobile device. */
  platforms: Uint8Array
  /** Device identity text (the `identity` of hits: idfa:..., amid:...) -> person index; a stored panel's is read at its first use (load.ts). */
  personOfDevice: Map<string, number>
  /** person_id of each person (loadPanel orders persons by person_id). */
  personIds?: string[]
  /** True for a built-in panel's seeded synthetic population (synthetic.ts), absent for stored persons. */
  synthetic?: boolean
}

/** A target audience as a predicate over panel persons: groups (AND) of tag sets (OR). */
export interface TargetMatcher {
  targetId: string
  /** groups[g] lists tag indices; a person matches when every group has one of its tags. */
  groups: number[][]
}
