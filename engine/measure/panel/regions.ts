/**
 * Region containment for panel cells (DESIGN §3.6, docs/regions.md): a person is in a region's
 * cell when their home region is that region or lies inside it. Global contains everything;
 * mainland China contains the 31 provinces and their cities; a province contains its cities.
 * Precomputed once per region table as an n x n byte matrix (393 regions: 150 KiB).
 */

/** The members of a region row that containment needs (a `regions` row or a RegionSeed). */
export interface RegionRow {
  readonly region_id: string
  readonly parent_id: string
  readonly level: number
}

/** The region table with its containment matrix; indices are positions in the table. */
export interface RegionTree {
  readonly size: number
  readonly ids: readonly string[]
  readonly indexOf: ReadonlyMap<string, number>
  readonly level: Uint8Array
  /** Index of the parent, -1 for the root (global). */
  readonly parent: Int32Array
  /** contains[c * size + r] is 1 when region r is c or lies inside c. */
  readonly contains: Uint8Array
}

const trees = new WeakMap<readonly RegionRow[], RegionTree>()

function build(regions: readonly RegionRow[]): RegionTree {
  const size = regions.length
  const ids = regions.map((r) => r.region_id)
  const indexOf = new Map(ids.map((id, i) => [id, i]))
  const level = Uint8Array.from(regions, (r) => r.level)
  const parent = Int32Array.from(regions, (r) => indexOf.get(r.parent_id) ?? -1)
  const contains = new Uint8Array(size * size)
  for (let r = 0; r < size; r++) {
    // Walk up from r, marking each ancestor (and r itself) as containing r; the guard stops a cycle.
    for (let c = r, steps = 0; c >= 0 && steps <= size; c = parent[c]!, steps++) contains[c * size + r] = 1
  }
  return { size, ids, indexOf, level, parent, contains }
}

/** The containment tree of a region table (memoised per array). */
export function regionTree(regions: readonly RegionRow[]): RegionTree {
  let tree = trees.get(regions)
  if (!tree) {
    tree = build(regions)
    trees.set(regions, tree)
  }
  return tree
}

/** True when region `regionIndex` is region `containerIndex` or lies inside it. */
export function regionContains(regions: readonly RegionRow[], containerIndex: number, regionIndex: number): boolean {
  const t = regionTree(regions)
  if (containerIndex < 0 || containerIndex >= t.size || regionIndex < 0 || regionIndex >= t.size) return false
  return t.contains[containerIndex * t.size + regionIndex] === 1
}

/** A region filter for `universe`: home regions inside region `containerIndex`. */
export function insideRegion(regions: readonly RegionRow[], containerIndex: number): (regionIndex: number) => boolean {
  const t = regionTree(regions)
  if (containerIndex < 0 || containerIndex >= t.size) return () => false
  const row = t.contains.subarray(containerIndex * t.size, (containerIndex + 1) * t.size)
  return (regionIndex) => row[regionIndex] === 1
}

/** The level-1 region (province) a region lies in, or -1 for regions above level 1. */
export function provinceOf(regions: readonly RegionRow[], regionIndex: number): number {
  const t = regionTree(regions)
  for (let c = regionIndex, steps = 0; c >= 0 && steps <= t.size; c = t.parent[c]!, steps++) if (t.level[c] === 1) return c
  return -1
}
