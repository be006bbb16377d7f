/** Types of scripts/ui-build.mjs (for the tests that import it). */
export declare const USUAL_SECONDS: number
export declare function newest(path: string): number
export declare function needsBuild(dir: string, sources: string[]): boolean
export declare function buildInBackground(o: { dir: string; command: string[]; env?: NodeJS.ProcessEnv; favicon?: string }): Promise<{ ok: boolean; seconds: number; output?: string }>
