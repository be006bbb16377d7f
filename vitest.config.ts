import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'

/**
 * The files that `npm run test:slow` runs and `npm test` leaves out: the end-to-end tests (a
 * built app in headless Chromium) and the crash tests (child processes killed with SIGKILL over
 * rounds, then their data directory reopened). `.ci/run` runs both scripts.
 */
const SLOW = ['test/e2e/**/*.test.ts', 'test/**/*crash.test.ts']

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default leaves one core to itself: one file at a time on a 2-core machine, while
    // its own process mostly waits for the workers' results
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SLOW] } },
      // one file at a time: an end-to-end file runs a server and Chromium beside its worker, and two
      // of them at once on 2 cores miss their waits for the page
      { extends: true, test: { name: 'slow', include: SLOW, fileParallelism: false } },
    ],
  },
})
