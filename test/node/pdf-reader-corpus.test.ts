import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { PdfEncrypted, PdfUnparseable, SignetError } from "../../src/errors";
import { PdfReader } from "../../src/pdf/reader";
import { PdfAssembler, type XrefRow } from "../support/pdf-assembler";

/**
 * The reader against real files (../shared/corpus, never copied into the repo):
 * page counts must equal qpdf's, encrypted files must say so, broken ones must
 * fail with PdfUnparseable or recover, and nothing may hang or throw anything
 * but a Signet error. Also times the 1000-page file and a synthetic 25 MB file.
 */

const CORPUS = fileURLToPath(new URL("../../../shared/corpus", import.meta.url));
const PLAIN = join(CORPUS, "pdf-plain");
const SIGNED = join(CORPUS, "pdf-signed");

/** Files of pdf-plain that are broken on purpose (MANIFEST.tsv): PdfUnparseable or a recovery are both fine. */
const DELIBERATELY_BROKEN = new Set(["pyhanko__circular-page-tree.pdf", "pyhanko__broken-objstream1.pdf"]);

function manifest(): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").split("\n").slice(1)) {
    const cols = line.split("\t");
    if (cols.length > 4) m.set(cols[0]!, cols[4]!);
  }
  return m;
}

function qpdfPages(file: string): number | null {
  const r = spawnSync("qpdf", ["--show-npages", file], { encoding: "utf8" });
  // exit status 3 = success with warnings (damaged files qpdf repaired)
  if (r.status !== 0 && r.status !== 3) return null;
  const n = Number.parseInt(r.stdout.trim(), 10);
  return Number.isFinite(n) ? n : null;
}

const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;

describe("pdf-plain corpus", () => {
  const files = readdirSync(PLAIN)
    .filter((f) => f.endsWith(".pdf"))
    .sort();
  const notes = manifest();

  it("has qpdf and the corpus", () => {
    expect(spawnSync("qpdf", ["--version"]).status).toBe(0);
    expect(files.length).toBeGreaterThan(30);
  });

  for (const f of files) {
    const description = notes.get(`pdf-plain/${f}`) ?? "";
    const encrypted = /\bencrypted\b/.test(description);
    it(`${f}`, () => {
      const bytes = new Uint8Array(readFileSync(join(PLAIN, f)));
      const t0 = performance.now();
      if (DELIBERATELY_BROKEN.has(f)) {
        try {
          const r = PdfReader.open(bytes);
          r.pages();
        } catch (e) {
          expect(e).toBeInstanceOf(PdfUnparseable);
        }
        return;
      }
      const r = PdfReader.open(bytes);
      expect(r.encrypted).toBe(encrypted);
      if (encrypted) return; // pages may sit in object streams that need decryption
      const expected = qpdfPages(join(PLAIN, f));
      expect(expected).not.toBeNull();
      expect(r.pages().length).toBe(expected);
      expect(r.revisions.length).toBeGreaterThan(0);
      expect(r.revisions[r.revisions.length - 1]!.endOffset).toBeLessThanOrEqual(bytes.length);
    });
  }

  it("reads the structure the manifest describes", () => {
    const open = (f: string) => PdfReader.open(new Uint8Array(readFileSync(join(PLAIN, f))));
    expect(open("pdf20examples__PDF_2.0_via_incremental_save.pdf").revisions).toHaveLength(2);
    expect(open("pdfbox__form__AcroFormsBasicFields.pdf").revisions).toHaveLength(5);
    const hybrid = open("pyhanko__minimal-hybrid-xref.pdf");
    expect(hybrid.revisions.map((r) => r.xrefKind)).toContain("hybrid");
    const junk = open("pdf20examples__PDF_2.0_with_offset_start.pdf");
    expect(junk.headerOffset).toBeGreaterThan(0);
    expect(junk.offsetBase).toBe(junk.headerOffset);
    expect(junk.recovered).toBe(false);
    expect(open("pdf20examples__Simple_PDF_2.0_file.pdf").headerVersion).toBe("2.0");
    // linearized: the first-page section and the main one are a single revision
    expect(open("qpdf__c-linearized.pdf").revisions).toHaveLength(1);
    expect(open("qpdf__leading-junk.pdf").recovered).toBe(false);
    expect(open("itext__PdfReaderTest__1000PagesDocumentWithFullCompression.pdf").usesXrefStreams).toBe(true);
    // damaged on purpose, read through recovery as qpdf does
    expect(open("pdf20examples__pdf20-utf8-test.pdf").recovered).toBe(true);
    expect(open("pyhanko__minimal-startxref-obo1.pdf").recovered).toBe(false);
    // AES-256 with an empty user password (owner password only) opens as readers open it.
    expect(open("qpdf__enc-XI-R6_V5_O_master.pdf").pages()).toHaveLength(30);
  });

  it("opens the 1000-page full-compression file quickly", () => {
    const bytes = new Uint8Array(
      readFileSync(join(PLAIN, "itext__PdfReaderTest__1000PagesDocumentWithFullCompression.pdf")),
    );
    PdfReader.open(bytes).pages(); // warm-up (JIT)
    const t0 = performance.now();
    const r = PdfReader.open(bytes);
    const open = ms(t0);
    const t1 = performance.now();
    expect(r.pages()).toHaveLength(1000);
    const pages = ms(t1);
    console.log(`1000-page full-compression file (${bytes.length} bytes): open ${open} ms, pages() ${pages} ms`);
  });
});

describe("pdf-signed corpus", () => {
  it("opens every file without crashing (PdfUnparseable allowed)", () => {
    const files = readdirSync(SIGNED)
      .filter((f) => f.toLowerCase().endsWith(".pdf"))
      .sort();
    let opened = 0;
    let withPages = 0;
    let recovered = 0;
    let encrypted = 0;
    const refused: string[] = [];
    let slowest = { f: "", t: 0 };
    for (const f of files) {
      const bytes = new Uint8Array(readFileSync(join(SIGNED, f)));
      const t0 = performance.now();
      try {
        const r = PdfReader.open(bytes);
        opened++;
        if (r.recovered) recovered++;
        if (r.encrypted) encrypted++;
        r.pages();
        withPages++;
      } catch (e) {
        if (!(e instanceof SignetError)) throw new Error(`${f}: non-Signet error ${String(e)}`);
        expect(e).toSatisfy((x: unknown) => x instanceof PdfUnparseable || x instanceof PdfEncrypted);
        refused.push(`${f}: ${(e as Error).message}`);
      }
      const t = performance.now() - t0;
      if (t > slowest.t) slowest = { f, t };
    }
    console.log(
      `pdf-signed: ${files.length} files, ${opened} open, ${withPages} with a readable page tree, ${recovered} recovered, ${encrypted} encrypted; slowest ${slowest.f} ${slowest.t.toFixed(1)} ms\n  refused: ${refused.join("\n  refused: ")}`,
    );
    expect(opened).toBeGreaterThanOrEqual(files.length - 5);
  });
});

describe("a synthetic 25 MB document", () => {
  const PAGES = 1000;
  const CONTENT = 25 * 1024;
  let classic: Uint8Array;
  let compressed: Uint8Array;

  function content(i: number): Uint8Array {
    const out = new Uint8Array(CONTENT);
    let x = i + 1;
    for (let k = 0; k < out.length; k++) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out[k] = x & 0xff;
    }
    return out;
  }

  beforeAll(() => {
    // Classic: every page and its (binary, unfiltered) content stream as plain objects, an xref table.
    let pdf = new PdfAssembler();
    pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf.obj(
      2,
      `<< /Type /Pages /Count ${PAGES} /Kids [${Array.from({ length: PAGES }, (_, i) => `${3 + 2 * i} 0 R`).join(" ")}] >>`,
    );
    for (let i = 0; i < PAGES; i++) {
      pdf.obj(3 + 2 * i, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + 2 * i} 0 R >>`);
      pdf.stream(4 + 2 * i, "", content(i));
    }
    const nums = [1, 2, ...Array.from({ length: 2 * PAGES }, (_, i) => 3 + i)];
    const xref = pdf.table(
      [{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor(nums)],
      `/Size ${3 + 2 * PAGES} /Root 1 0 R`,
    );
    pdf.startxref(xref);
    classic = pdf.bytes();

    // Full compression: page dicts in object streams of 100, content streams plain, an xref stream.
    pdf = new PdfAssembler();
    pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf.obj(
      2,
      `<< /Type /Pages /Count ${PAGES} /Kids [${Array.from({ length: PAGES }, (_, i) => `${3 + 2 * i} 0 R`).join(" ")}] >>`,
    );
    const rows: XrefRow[] = [{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor([1, 2])];
    for (let i = 0; i < PAGES; i++) {
      pdf.stream(4 + 2 * i, "", content(i));
      rows.push({ num: 4 + 2 * i, type: "n", a: pdf.offsets.get(4 + 2 * i)!, b: 0 });
    }
    let stmNum = 3 + 2 * PAGES;
    for (let g = 0; g < PAGES; g += 100, stmNum++) {
      let head = "";
      let body = "";
      for (let i = g; i < g + 100; i++) {
        head += `${3 + 2 * i} ${body.length} `;
        body += `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + 2 * i} 0 R >>\n`;
        rows.push({ num: 3 + 2 * i, type: "c", a: stmNum, b: i - g });
      }
      pdf.stream(stmNum, `/Type /ObjStm /N 100 /First ${head.length + 1}`, head + "\n" + body);
      rows.push({ num: stmNum, type: "n", a: pdf.offsets.get(stmNum)!, b: 0 });
    }
    const xs = pdf.length;
    rows.push({ num: stmNum, type: "n", a: xs, b: 0 });
    pdf.xrefStream(stmNum, rows, `/Size ${stmNum + 1} /Root 1 0 R`);
    pdf.startxref(xs);
    compressed = pdf.bytes();
  });

  for (const kind of ["classic", "compressed"] as const) {
    it(`opens the ${kind} variant quickly`, () => {
      const bytes = kind === "classic" ? classic : compressed;
      expect(bytes.length).toBeGreaterThan(25_000_000);
      PdfReader.open(bytes).pages(); // warm-up (JIT)
      const t0 = performance.now();
      const r = PdfReader.open(bytes);
      const open = ms(t0);
      const t1 = performance.now();
      const pages = r.pages();
      const walk = ms(t1);
      expect(pages).toHaveLength(PAGES);
      expect(r.recovered).toBe(false);
      expect(r.usesXrefStreams).toBe(kind === "compressed");
      console.log(
        `synthetic ${kind} (${(bytes.length / 1e6).toFixed(1)} MB, ${PAGES} pages): open ${open} ms, pages() ${walk} ms`,
      );
    });
  }

  it("reconstructs the 25 MB file without its xref", () => {
    const broken = classic.slice();
    const at = Buffer.from(broken.buffer, broken.byteOffset, broken.length).lastIndexOf("startxref");
    expect(at).toBeGreaterThan(broken.length - 40);
    broken.fill(0x20, at, at + 9);
    const t0 = performance.now();
    const r = PdfReader.open(broken);
    const pages = r.pages();
    const t = ms(t0);
    expect(r.recovered).toBe(true);
    expect(pages).toHaveLength(PAGES);
    console.log(`synthetic classic without startxref: recovered open + pages() ${t} ms`);
  });
});
