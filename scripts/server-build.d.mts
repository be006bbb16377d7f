/** Types of scripts/server-build.mjs (for the bench and the tests that import it). */
export type BundleName = 'server' | 'bench'
export interface Bundle {
  /** The folder of the bundle: `<name>.mjs` (and its .map) for each entry. */
  outdir: string
  /** Entry name -> its source file. */
  entries: Record<string, string>
}
export declare const ROOT: string
export declare const BUNDLES: Record<BundleName, Bundle>
export declare function bundleFile(which: BundleName, name?: string): string
export declare function isStale(built: string[], sources: string[]): boolean
export declare function needsServerBuild(which: BundleName): boolean
export declare function isBundleStale(outdir: string, built: string[]): boolean
export declare function unwritable(which: BundleName): string | null
export declare function buildServer(which?: BundleName): Promise<void>
export declare function buildServerSync(which: BundleName): void
/** The region table as the sources build it from the packages, computed in this process (what a bundle carries). */
export declare function regionRows(): Promise<import('../engine/reference/types').RegionSeed[]>
/** The esbuild plugin that puts regionRows() into a bundle's engine/reference/regions-built.ts. */
export declare const regionsBuilt: import('esbuild').Plugin
/** Matches the path of engine/reference/regions-built.ts. */
export declare const REGIONS_BUILT: RegExp
/** The text of regions-built.ts as a build puts it in its bundle (the rows of regionRows()). */
export declare function regionsModule(): Promise<string>
