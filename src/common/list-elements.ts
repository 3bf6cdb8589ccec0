/*
 * Rules over the elements of a list that look at the other elements (duplicates, overlaps). A
 * rule asked once per element must not read the whole list each time, or a list of n elements
 * costs n² (docs/behaviour.md section 2): these compute their answer once per list.
 */

/** Computes `find` once per array, however many of its elements ask (O(n) for all of them). */
export function perArray<T>(
  find: (values: readonly unknown[]) => T,
): (values: readonly unknown[]) => T {
  const found = new WeakMap<readonly unknown[], T>();
  return (values) => {
    if (!found.has(values)) found.set(values, find(values));
    return found.get(values)!;
  };
}

/** For each element that repeats an earlier one, the index of its first occurrence. O(n). */
export function repeatedElements(values: readonly unknown[]): Map<number, number> {
  const first = new Map<unknown, number>();
  const repeats = new Map<number, number>();
  values.forEach((value, index) => {
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, index);
    else repeats.set(index, earlier);
  });
  return repeats;
}

/** {@link repeatedElements}, computed once per list. */
export const repeatsIn = perArray(repeatedElements);
