/** Writes the reference tables of schema v1 from the region builder and the demo data set. */
import type { Db } from '../storage/db'
import { insertReference } from '../storage/repos/reference-seed'
import { demoReference } from './demo'
import { buildRegions } from './regions'

export function seedReference(db: Db): void {
  insertReference(db, buildRegions(), demoReference())
}
