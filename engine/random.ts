/** The engine's randomness, passed in (createEngine's `random`) so that tests can fix it. */
import { randomBytes } from 'node:crypto'

export interface Random {
  bytes(n: number): Uint8Array
}

export const systemRandom: Random = { bytes: (n) => randomBytes(n) }
