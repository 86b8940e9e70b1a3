import { isRegular } from "./lexer";

/**
 * Byte-pattern search over the file without converting it to a string.
 * Horspool skipping keeps full-file scans (recovery, `endstream` and `%%EOF`
 * indexes) linear and fast on 25 MB inputs.
 */

export function asciiBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Every start offset of `pattern` in `bytes[from, to)`, ascending. */
export function findAll(bytes: Uint8Array, pattern: Uint8Array, from = 0, to = bytes.length): number[] {
  const m = pattern.length;
  const out: number[] = [];
  if (m === 0) return out;
  const skip = new Uint32Array(256).fill(m);
  for (let i = 0; i < m - 1; i++) skip[pattern[i]!] = m - 1 - i;
  const last = pattern[m - 1]!;
  let i = Math.max(0, from);
  const stop = Math.min(to, bytes.length) - m;
  while (i <= stop) {
    const c = bytes[i + m - 1]!;
    if (c === last) {
      let j = m - 2;
      while (j >= 0 && bytes[i + j] === pattern[j]) j--;
      if (j < 0) out.push(i);
    }
    i += skip[c]!;
  }
  return out;
}

/** First offset of `pattern` at or after `from` and ending by `to`, or -1. Never looks past `to`. */
export function indexOfBytes(bytes: Uint8Array, pattern: Uint8Array, from = 0, to = bytes.length): number {
  const m = pattern.length;
  const lo = Math.max(0, from);
  const hi = Math.min(to, bytes.length);
  if (hi - lo < m) return -1;
  const window = bytes.subarray(lo, hi);
  const first = pattern[0]!;
  const stop = window.length - m;
  for (let i = window.indexOf(first); i !== -1 && i <= stop; i = window.indexOf(first, i + 1)) {
    let j = 1;
    while (j < m && window[i + j] === pattern[j]) j++;
    if (j === m) return lo + i;
  }
  return -1;
}

/** Last offset of `pattern` starting before `before`, or -1. */
export function lastIndexOfBytes(bytes: Uint8Array, pattern: Uint8Array, before = bytes.length): number {
  const m = pattern.length;
  const first = pattern[0]!;
  for (
    let i = bytes.lastIndexOf(first, Math.min(before, bytes.length - m));
    i >= 0;
    i = i === 0 ? -1 : bytes.lastIndexOf(first, i - 1)
  ) {
    let j = 1;
    while (j < m && bytes[i + j] === pattern[j]) j++;
    if (j === m) return i;
  }
  return -1;
}

/** Smallest element of a sorted array that is >= `x`, or -1. */
export function nextAtOrAfter(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo]! : -1;
}

/** Whether `p` starts a token (nothing regular immediately before it). */
export function atTokenStart(bytes: Uint8Array, p: number): boolean {
  return p === 0 || !isRegular(bytes[p - 1]);
}

/**
 * Given the offset of an `obj` keyword, the offset where its `N G obj` header
 * starts, or -1 when the bytes before it are not `digits ws digits ws`.
 */
export function objHeaderStart(bytes: Uint8Array, objPos: number): number {
  if (objPos + 3 < bytes.length && isRegular(bytes[objPos + 3])) return -1;
  let p = objPos - 1;
  const isWs = (c: number | undefined) =>
    c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
  const isDig = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
  let n = 0;
  while (p >= 0 && isWs(bytes[p]) && n++ < 64) p--;
  if (n === 0) return -1;
  let d = 0;
  while (p >= 0 && isDig(bytes[p]) && d++ < 6) p--;
  if (d === 0 || d > 5) return -1;
  n = 0;
  while (p >= 0 && isWs(bytes[p]) && n++ < 64) p--;
  if (n === 0) return -1;
  d = 0;
  while (p >= 0 && isDig(bytes[p]) && d++ < 11) p--;
  if (d === 0 || d > 10) return -1;
  if (p >= 0 && isRegular(bytes[p])) return -1;
  return p + 1;
}

/**
 * A set of half-open ranges answering "does any range contain p?" in O(log n).
 * Ranges may overlap; insertion is O(n), fine for the few large objects it holds.
 */
export class RangeSet {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** maxEnd[i] = max(ends[0..i]) */
  private readonly maxEnd: number[] = [];

  add(start: number, end: number): void {
    if (end <= start) return;
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= start) lo = mid + 1;
      else hi = mid;
    }
    this.starts.splice(lo, 0, start);
    this.ends.splice(lo, 0, end);
    this.maxEnd.splice(lo, 0, 0);
    for (let i = lo; i < this.starts.length; i++)
      this.maxEnd[i] = Math.max(i > 0 ? this.maxEnd[i - 1]! : 0, this.ends[i]!);
  }

  covers(p: number): boolean {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= p) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && this.maxEnd[lo - 1]! > p;
  }
}
