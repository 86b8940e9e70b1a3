/**
 * The /W array of a CIDFont (ISO 32000-2 §9.7.4.3): `[first [w1 w2 ...]]` for each run of
 * consecutive CIDs, from sorted CIDs and their widths in thousandths of an em.
 */
export function cidWidths(sortedCids: readonly number[], width: (cid: number) => number): (number | number[])[] {
  const out: (number | number[])[] = [];
  for (let i = 0; i < sortedCids.length;) {
    const first = sortedCids[i]!;
    const run: number[] = [];
    while (i < sortedCids.length && sortedCids[i] === first + run.length) {
      run.push(width(sortedCids[i]!));
      i++;
    }
    out.push(first, run);
  }
  return out;
}
