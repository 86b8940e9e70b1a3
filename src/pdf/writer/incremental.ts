import { latin1Bytes, toHex } from "../../util/bytes";
import type { PdfRef } from "../model";

/**
 * Writes an incremental update (ISO 32000-2 §7.5.6): new and changed objects,
 * then a cross-reference section (a table, or an xref stream when the file's
 * newest section is one) whose `/Prev` points at the previous section. The
 * original bytes are never touched or copied: the update is appended after them.
 */

export interface UpdateObject {
  num: number;
  gen: number;
  /** The object's content: what goes between `N G obj` and `endobj`. */
  body: Uint8Array;
}

export interface UpdateBase {
  /** Length of the existing file; the update starts right after it. */
  fileLength: number;
  /** Whether the existing file ends with an end-of-line (else one is added). */
  endsWithEol: boolean;
  /** Offset of the previous xref section (`/Prev`); null when the file has none usable. */
  prevXref: number | null;
  /** Value subtracted from absolute offsets when writing xref offsets (bytes before `%PDF-` in files whose offsets count from the header). */
  offsetBase: number;
  /** Next free object number of the existing file (its trailer /Size). */
  size: number;
  useXrefStream: boolean;
  root: PdfRef;
  info?: PdfRef;
  id: [Uint8Array, Uint8Array];
}

export interface WrittenUpdate {
  bytes: Uint8Array;
  /** Absolute file offset (from byte 0 of the whole file) of each object's body. */
  bodyOffsets: Map<number, number>;
  /** /Size of the new trailer. */
  size: number;
}

export function writeIncrementalUpdate(base: UpdateBase, objects: readonly UpdateObject[]): WrittenUpdate {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const push = (b: Uint8Array) => {
    chunks.push(b);
    length += b.length;
  };
  const text = (s: string) => push(latin1Bytes(s));

  if (!base.endsWithEol) text("\n");
  const offsets = new Map<number, { offset: number; gen: number }>();
  const bodyOffsets = new Map<number, number>();
  let maxNum = base.size - 1;
  for (const obj of objects) {
    const objStart = base.fileLength + length;
    offsets.set(obj.num, { offset: objStart - base.offsetBase, gen: obj.gen });
    const head = `${obj.num} ${obj.gen} obj\n`;
    text(head);
    bodyOffsets.set(obj.num, base.fileLength + length);
    push(obj.body);
    text("\nendobj\n");
    maxNum = Math.max(maxNum, obj.num);
  }

  const idArray = `[<${toHex(base.id[0])}><${toHex(base.id[1])}>]`;
  const common = `/Root ${base.root.num} ${base.root.gen} R${
    base.info ? ` /Info ${base.info.num} ${base.info.gen} R` : ""
  } /ID ${idArray}${base.prevXref === null ? "" : ` /Prev ${base.prevXref}`}`;

  const xrefStart = base.fileLength + length;
  let size: number;
  if (base.useXrefStream) {
    const xrefNum = maxNum + 1;
    size = xrefNum + 1;
    offsets.set(xrefNum, { offset: xrefStart - base.offsetBase, gen: 0 });
    const { data, index, widths } = xrefStreamData(offsets);
    text(
      `${xrefNum} 0 obj\n<</Type /XRef /Size ${size} /W [${widths.join(" ")}] /Index [${index.join(" ")}] ${common} /Length ${data.length}>>\nstream\n`,
    );
    push(data);
    text("\nendstream\nendobj\n");
  } else {
    size = maxNum + 1;
    text(xrefTable(offsets));
    text(`trailer\n<</Size ${size} ${common}>>\n`);
  }
  text(`startxref\n${xrefStart - base.offsetBase}\n%%EOF\n`);

  const bytes = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, bodyOffsets, size };
}

/** Groups sorted object numbers into contiguous runs: [[first, count], ...]. */
function runs(nums: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const n of nums) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === n) last[1]++;
    else out.push([n, 1]);
  }
  return out;
}

function xrefTable(offsets: Map<number, { offset: number; gen: number }>): string {
  const nums = [...offsets.keys()].sort((a, b) => a - b);
  let s = "xref\n";
  for (const [first, count] of runs(nums)) {
    s += `${first} ${count}\n`;
    for (let n = first; n < first + count; n++) {
      const e = offsets.get(n)!;
      s += `${String(e.offset).padStart(10, "0")} ${String(e.gen).padStart(5, "0")} n\r\n`;
    }
  }
  return s;
}

function xrefStreamData(offsets: Map<number, { offset: number; gen: number }>) {
  const nums = [...offsets.keys()].sort((a, b) => a - b);
  let maxOffset = 0;
  let maxGen = 0;
  for (const e of offsets.values()) {
    maxOffset = Math.max(maxOffset, e.offset);
    maxGen = Math.max(maxGen, e.gen);
  }
  const w1 = bytesFor(maxOffset);
  const w2 = Math.max(1, bytesFor(maxGen));
  const widths = [1, w1, w2];
  const row = 1 + w1 + w2;
  const data = new Uint8Array(nums.length * row);
  nums.forEach((n, i) => {
    const e = offsets.get(n)!;
    let p = i * row;
    data[p++] = 1;
    writeBig(data, p, w1, e.offset);
    writeBig(data, p + w1, w2, e.gen);
  });
  const index = runs(nums).flat();
  return { data, index, widths };
}

function bytesFor(n: number): number {
  let b = 1;
  while (n >= 2 ** (8 * b)) b++;
  return b;
}

function writeBig(out: Uint8Array, at: number, width: number, value: number) {
  for (let i = width - 1; i >= 0; i--) {
    out[at + i] = value % 256;
    value = Math.floor(value / 256);
  }
}
