/**
 * Test-only helpers: a tiny PDF assembler that writes exactly the bytes a test
 * asks for (broken ones included) and records where each object landed. Not
 * used by production code.
 */
import { latin1Bytes as latin1Encode, latin1Text as latin1Decode } from "../../src/util/bytes";

/** Latin-1 both ways (src/util/bytes.ts), under the names the reader tests use. */
export { latin1Decode, latin1Encode };

export interface XrefRow {
  num: number;
  type: "n" | "f" | "c";
  /** offset (n), next free (f), object stream number (c) */
  a: number;
  /** generation (n, f), index (c) */
  b: number;
}

export class PdfAssembler {
  private parts: Uint8Array[] = [];
  length = 0;
  /** Offset of each object's header, by number (last write wins). */
  readonly offsets = new Map<number, number>();

  constructor(header: string | null = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n") {
    if (header !== null) this.text(header);
  }

  text(s: string): this {
    return this.raw(latin1Encode(s));
  }

  raw(b: Uint8Array): this {
    this.parts.push(b);
    this.length += b.length;
    return this;
  }

  /** Writes `num gen obj\n<body>\nendobj\n` and returns the header offset. */
  obj(num: number, body: string | Uint8Array, gen = 0): number {
    const at = this.length;
    this.offsets.set(num, at);
    this.text(`${num} ${gen} obj\n`);
    if (typeof body === "string") this.text(body);
    else this.raw(body);
    this.text("\nendobj\n");
    return at;
  }

  /** A stream object with a correct /Length; `dict` is the inside of `<< >>` without /Length. */
  stream(num: number, dict: string, data: Uint8Array | string): number {
    const bytes = typeof data === "string" ? latin1Encode(data) : data;
    const at = this.length;
    this.offsets.set(num, at);
    this.text(`${num} 0 obj\n<<${dict} /Length ${bytes.length}>>\nstream\n`);
    this.raw(bytes);
    this.text("\nendstream\nendobj\n");
    return at;
  }

  /** Rows for every object written so far (plus the free head), offsets relative to `base`. */
  rowsFor(nums: number[], base = 0): XrefRow[] {
    return nums.map((num) => ({ num, type: "n" as const, a: this.offsets.get(num)! - base, b: 0 }));
  }

  /** A classic table with one subsection per run of consecutive numbers; returns its offset. */
  table(rows: XrefRow[], trailer: string): number {
    const at = this.length;
    const sorted = [...rows].sort((x, y) => x.num - y.num);
    let s = "xref\n";
    let i = 0;
    while (i < sorted.length) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1]!.num === sorted[j]!.num + 1) j++;
      s += `${sorted[i]!.num} ${j - i + 1}\n`;
      for (let k = i; k <= j; k++) {
        const r = sorted[k]!;
        s += `${String(r.a).padStart(10, "0")} ${String(r.b).padStart(5, "0")} ${r.type === "f" ? "f" : "n"}\r\n`;
      }
      i = j + 1;
    }
    this.text(s + `trailer\n<<${trailer}>>\n`);
    return at;
  }

  /** An xref stream object (uncompressed, W [1 4 2]); returns its offset. */
  xrefStream(num: number, rows: XrefRow[], dict: string, opts: { index?: boolean } = {}): number {
    const sorted = [...rows].sort((x, y) => x.num - y.num);
    const data = new Uint8Array(sorted.length * 7);
    sorted.forEach((r, i) => {
      const p = i * 7;
      data[p] = r.type === "f" ? 0 : r.type === "n" ? 1 : 2;
      data[p + 1] = (r.a >>> 24) & 0xff;
      data[p + 2] = (r.a >>> 16) & 0xff;
      data[p + 3] = (r.a >>> 8) & 0xff;
      data[p + 4] = r.a & 0xff;
      data[p + 5] = (r.b >>> 8) & 0xff;
      data[p + 6] = r.b & 0xff;
    });
    const index: number[] = [];
    let i = 0;
    while (i < sorted.length) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1]!.num === sorted[j]!.num + 1) j++;
      index.push(sorted[i]!.num, j - i + 1);
      i = j + 1;
    }
    const indexPart = opts.index === false ? "" : ` /Index [${index.join(" ")}]`;
    return this.stream(num, `/Type /XRef /W [1 4 2]${indexPart} ${dict}`, data);
  }

  startxref(offset: number): this {
    return this.text(`startxref\n${offset}\n%%EOF\n`);
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/**
 * A minimal valid document: catalog 1, pages 2, `pageCount` pages from 3 on,
 * classic xref table. Returns the assembler (not yet closed) and the xref offset.
 */
export function simplePdf(
  pageCount = 1,
  opts: { trailerExtra?: string } = {},
): { pdf: PdfAssembler; bytes: Uint8Array; xref: number } {
  const pdf = new PdfAssembler();
  pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  const kids = Array.from({ length: pageCount }, (_, i) => `${3 + i} 0 R`).join(" ");
  pdf.obj(2, `<< /Type /Pages /Kids [${kids}] /Count ${pageCount} /MediaBox [0 0 612 792] >>`);
  for (let i = 0; i < pageCount; i++) pdf.obj(3 + i, "<< /Type /Page /Parent 2 0 R >>");
  const nums = Array.from({ length: pageCount + 2 }, (_, i) => i + 1);
  const rows: XrefRow[] = [{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor(nums)];
  const xref = pdf.table(rows, `/Size ${pageCount + 3} /Root 1 0 R${opts.trailerExtra ?? ""}`);
  pdf.startxref(xref);
  return { pdf, bytes: pdf.bytes(), xref };
}

/** PNG "Up" predictor encoding (what writers apply to xref streams). */
export function pngUpEncode(data: Uint8Array, columns: number, filterType = 2): Uint8Array {
  const rows = Math.ceil(data.length / columns);
  const out = new Uint8Array(rows * (columns + 1));
  const prev = new Uint8Array(columns);
  for (let r = 0; r < rows; r++) {
    out[r * (columns + 1)] = filterType;
    for (let i = 0; i < columns; i++) {
      const v = data[r * columns + i] ?? 0;
      const left = i > 0 ? (data[r * columns + i - 1] ?? 0) : 0;
      const up = prev[i]!;
      const upLeft = i > 0 ? prev[i - 1]! : 0;
      let pred = 0;
      if (filterType === 1) pred = left;
      else if (filterType === 2) pred = up;
      else if (filterType === 3) pred = (left + up) >> 1;
      else if (filterType === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        pred = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      out[r * (columns + 1) + 1 + i] = (v - pred) & 0xff;
    }
    for (let i = 0; i < columns; i++) prev[i] = data[r * columns + i] ?? 0;
  }
  return out;
}
