// The entry of an import worker thread: TypeScript loading first (a worker does not inherit the
// parent's `--import tsx`), then the worker itself (import-worker.ts).
import { register } from 'tsx/esm/api'

register()
await import('./import-worker.ts')
