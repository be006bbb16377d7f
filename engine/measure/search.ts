/** Searches over sorted typed arrays. */

/** The first index in [0, end) of ascending `values` whose value is not below `value` (`end` when none is). */
export function firstAtLeast(values: ArrayLike<number>, value: number, end = values.length): number {
  let lo = 0
  let hi = end
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (values[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The first index of ascending `values` whose value is above `value`, at most the last index: the
 * bucket of a draw `value` in [0, last) over cumulative sizes (`values` must not be empty).
 */
export function firstAbove(values: ArrayLike<number>, value: number): number {
  let lo = 0
  let hi = values.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (values[mid]! > value) hi = mid
    else lo = mid + 1
  }
  return lo
}
