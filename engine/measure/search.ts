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
