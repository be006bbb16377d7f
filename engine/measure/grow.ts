/** Growable typed arrays: the columns double their capacity as events arrive. */

type Typed = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array

/** `arr` with room for at least `n` elements (the same array when it has room). */
export function ensure<T extends Typed>(arr: T, n: number): T {
  if (n <= arr.length) return arr
  const Ctor = arr.constructor as new (len: number) => T
  const next = new Ctor(Math.max(n, arr.length * 2, 1024))
  next.set(arr)
  return next
}
