/**
 * The region table as the server bundle's build computed it (scripts/server-build.mjs puts the
 * rows here), so that a bundled start reads it instead of building it from the packages. In the
 * sources it is null: buildRegions() builds the table from the packages.
 */
import type { RegionSeed } from './types'

/** The rows of buildRegions(), computed at build time; null when not built. */
export const BUILT_REGIONS: readonly RegionSeed[] | null = null
