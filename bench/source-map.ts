/**
 * Just enough of Source Map v3 for bench/profile.ts: which original file a (line, column) of the
 * bundle wrangler dev built comes from. Mappings are decoded once (base64 VLQ, ECMA-426).
 */
const VLQ = new Int8Array(128).fill(-1);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  .split("")
  .forEach((c, i) => (VLQ[c.charCodeAt(0)] = i));

export class SourceMap {
  /** Per generated line: [generated column, source index] pairs, columns ascending. */
  private readonly lines: Int32Array[] = [];
  readonly sources: string[];

  constructor(json: { sources: string[]; mappings: string }) {
    this.sources = json.sources;
    const m = json.mappings;
    let source = 0;
    let row: number[] = [];
    let col = 0;
    let i = 0;
    const field = (): number => {
      let value = 0;
      let shift = 0;
      for (;;) {
        const digit = VLQ[m.charCodeAt(i++)]!;
        value += (digit & 31) << shift;
        shift += 5;
        if (!(digit & 32)) break;
      }
      return value & 1 ? -(value >>> 1) : value >>> 1;
    };
    while (i <= m.length) {
      const c = m[i];
      if (c === ";" || c === undefined) {
        this.lines.push(Int32Array.from(row));
        row = [];
        col = 0;
        i++;
        if (c === undefined) break;
        continue;
      }
      if (c === ",") {
        i++;
        continue;
      }
      col += field();
      const more = m[i] !== "," && m[i] !== ";" && i < m.length;
      if (more) {
        source += field();
        field(); // original line
        field(); // original column
        if (m[i] !== "," && m[i] !== ";" && i < m.length) field(); // name
        row.push(col, source);
      }
    }
  }

  /** The original source of a zero-based generated position, or null. */
  sourceAt(line: number, column: number): string | null {
    const row = this.lines[line];
    if (!row || row.length === 0) return null;
    let lo = 0;
    let hi = row.length / 2 - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (row[mid * 2]! <= column) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? null : (this.sources[row[found * 2 + 1]!] ?? null);
  }
}
