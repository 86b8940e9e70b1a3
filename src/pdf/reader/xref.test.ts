import { zlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { PdfUnparseable, SignetError } from "../../errors";
import { PdfDict, PdfName, PdfRef, PdfString } from "../model";
import { PdfBudgetExceeded } from "./budget";
import { PdfReader } from "./index";
import {
  latin1Decode,
  latin1Encode,
  PdfAssembler,
  pngUpEncode,
  simplePdf,
  type XrefRow,
} from "../../../test/support/pdf-assembler";

const FREE0: XrefRow = { num: 0, type: "f", a: 0, b: 65535 };
/**
 * Work budgets a file of a few pages needs a small part of (the defaults allow 2,000,000 units and
 * 500,000 objects): reading that stays under them did not scan, parse or follow what it should not.
 */
const SMALL_FILE_LIMITS = { maxParsedObjects: 100, maxWorkUnits: 2_000 };

/** Catalog 1, Pages 2, pages 3..(2+n), written into `pdf` (no xref yet). */
function writeDoc(pdf: PdfAssembler, pages = 2) {
  pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  pdf.obj(
    2,
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(" ")}] /Count ${pages} >>`,
  );
  for (let i = 0; i < pages; i++) pdf.obj(3 + i, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${100 + i} 100] >>`);
  return Array.from({ length: pages + 2 }, (_, i) => i + 1);
}

/** Offset of the first object 3 written (writeDoc's page). */
function text0(pdf: PdfAssembler): number {
  const t = latin1Decode(pdf.bytes());
  return t.indexOf("3 0 obj");
}

function mediaWidths(r: PdfReader, rev?: number): number[] {
  return r.pages(rev).map((p) => (r.resolve(p.dict.get("MediaBox"), rev) as number[])[2]!);
}

describe("classic xref tables", () => {
  it("opens a clean file without repairs and reports its structure", () => {
    const { bytes, xref } = simplePdf(3);
    const r = PdfReader.open(bytes);
    expect(r.headerOffset).toBe(0);
    expect(r.headerVersion).toBe("1.7");
    expect(r.startxref).toBe(xref);
    expect(r.recovered).toBe(false);
    expect(r.encrypted).toBe(false);
    expect(r.usesXrefStreams).toBe(false);
    expect(r.size).toBe(6);
    expect(r.offsetBase).toBe(0);
    expect(r.revisions).toHaveLength(1);
    const rev = r.revisions[0]!;
    expect([rev.number, rev.xrefOffset, rev.xrefKind, rev.endOffset]).toEqual([1, xref, "table", bytes.length]);
    expect(rev.entries.get(0)).toEqual({ type: "free", offset: 0, gen: 65535 });
    expect(r.catalogRef()).toEqual(new PdfRef(1, 0));
    expect((r.catalog().get("Type") as PdfName).name).toBe("Catalog");
    expect(r.pages().map((p) => p.ref.num)).toEqual([3, 4, 5]);
    expect(r.recovered).toBe(false);
  });

  it("corrects a table that starts at 1 with object 0's free-list row", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 1);
    const xref = pdf.length;
    let t = "xref\n1 4\n0000000000 65535 f \n";
    for (const n of [1, 2, 3]) t += `${String(pdf.offsets.get(n)).padStart(10, "0")} 00000 n \n`;
    pdf.text(t + "trailer\n<< /Size 4 /Root 1 0 R >>\n").startxref(xref);
    const r = PdfReader.open(pdf.bytes());
    expect(r.recovered).toBe(false);
    expect(r.objectOffset(1)).toEqual({ type: "inuse", offset: pdf.offsets.get(1), gen: 0 });
    expect(r.pages()).toHaveLength(1);
  });

  it("reads a table that legitimately starts at 1", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 1);
    const xref = pdf.length;
    let t = "xref\n1 3\n";
    for (const n of [1, 2, 3]) t += `${String(pdf.offsets.get(n)).padStart(10, "0")} 00000 n\r\n`;
    pdf.text(t + "trailer\n<< /Size 4 /Root 1 0 R >>\n").startxref(xref);
    const r = PdfReader.open(pdf.bytes());
    expect(r.objectOffset(1)?.offset).toBe(pdf.offsets.get(1));
    expect(r.pages()).toHaveLength(1);
    expect(r.recovered).toBe(false);
  });

  it("tolerates misaligned rows, odd digit counts and wrong generations", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 2);
    const o = (n: number, w = 10) => String(pdf.offsets.get(n)).padStart(w, "0");
    const xref = pdf.length;
    pdf.text(
      `xref\n0 5\n0000000000 65535 f \n ${o(1)} 00000 n\n${o(2)}  00000 n \r\n${o(3, 9)} 00000 n\n${o(4)} 0003 n\ntrailer << /Size 5 /Root 1 0 R >>\n`,
    );
    pdf.startxref(xref);
    const r = PdfReader.open(pdf.bytes());
    expect(r.recovered).toBe(false);
    expect(r.objectOffset(4)).toEqual({ type: "inuse", offset: pdf.offsets.get(4), gen: 3 });
    expect(mediaWidths(r)).toEqual([100, 101]); // object 4 is read although its header says generation 0
  });

  it("accepts startxref landing on white-space before `xref` without calling it a repair", () => {
    const { bytes, xref } = simplePdf(1);
    const text = latin1Decode(bytes).replace(`startxref\n${xref}\n`, `startxref\n${xref - 1}\n`);
    const r = PdfReader.open(latin1Encode(text));
    expect(r.recovered).toBe(false);
    expect(r.startxref).toBe(xref - 1);
    expect(r.revisions[0]!.xrefOffset).toBe(xref);
  });

  it("finds the section when startxref is off by a few bytes (and says so)", () => {
    for (const delta of [3, -7, 40]) {
      const { bytes, xref } = simplePdf(2);
      const text = latin1Decode(bytes).replace(`startxref\n${xref}\n`, `startxref\n${xref + delta}\n`);
      const r = PdfReader.open(latin1Encode(text));
      expect(r.revisions[0]!.xrefOffset).toBe(xref);
      expect(r.recovered).toBe(true);
      expect(r.pages()).toHaveLength(2);
    }
  });

  it("handles junk before the header with offsets relative to the header", () => {
    const junk = "JUNK LINE\r\n".repeat(20);
    const pdf = new PdfAssembler(junk + "%PDF-1.4\n");
    const nums = writeDoc(pdf, 1);
    const base = junk.length;
    const xref = pdf.table([FREE0, ...pdf.rowsFor(nums, base)], "/Size 4 /Root 1 0 R");
    pdf.startxref(xref - base);
    const r = PdfReader.open(pdf.bytes());
    expect([r.headerOffset, r.offsetBase, r.headerVersion, r.recovered]).toEqual([base, base, "1.4", false]);
    expect(r.objectOffset(3)?.offset).toBe(pdf.offsets.get(3)); // entries are absolute
    expect(r.revisions[0]!.xrefOffset).toBe(xref);
    expect(r.pages()).toHaveLength(1);
  });

  it("handles junk before the header with absolute offsets", () => {
    const pdf = new PdfAssembler("garbage\n%PDF-1.6\n");
    const nums = writeDoc(pdf, 1);
    const xref = pdf.table([FREE0, ...pdf.rowsFor(nums)], "/Size 4 /Root 1 0 R");
    pdf.startxref(xref);
    const r = PdfReader.open(pdf.bytes());
    expect([r.headerOffset, r.offsetBase, r.recovered]).toEqual([8, 0, false]);
    expect(r.pages()).toHaveLength(1);
  });

  it("rejects input that is not a PDF", () => {
    expect(() => PdfReader.open(new Uint8Array(0))).toThrow(PdfUnparseable);
    expect(() => PdfReader.open(latin1Encode("hello world"))).toThrow(/no %PDF- header/);
    expect(() => PdfReader.open(latin1Encode(" ".repeat(1100) + "%PDF-1.7\n"))).toThrow(PdfUnparseable);
  });
});

describe("reconstruction", () => {
  it("rebuilds a file whose xref offsets are all wrong", () => {
    const pdf = new PdfAssembler();
    const nums = writeDoc(pdf, 3);
    const rows = pdf.rowsFor(nums).map((r) => ({ ...r, a: r.a + 13 }));
    const xref = pdf.table([FREE0, ...rows], "/Size 6 /Root 1 0 R /Info 9 0 R");
    pdf.startxref(xref);
    const r = PdfReader.open(pdf.bytes());
    expect(r.recovered).toBe(true);
    expect(r.pages()).toHaveLength(3);
    expect(mediaWidths(r)).toEqual([100, 101, 102]);
  });

  it("rebuilds a file without startxref or xref, finding the trailer", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 2);
    pdf.text("trailer\n<< /Size 5 /Root 1 0 R >>\n%%EOF\n");
    const r = PdfReader.open(pdf.bytes());
    expect(r.recovered).toBe(true);
    expect(r.startxref).toBe(-1);
    expect(r.revisions).toHaveLength(1);
    expect(r.revisions[0]!.endOffset).toBe(pdf.length);
    expect(r.pages()).toHaveLength(2);
  });

  it("finds the catalog when no trailer names it", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 2);
    pdf.text("startxref\n999999\n%%EOF\n");
    const r = PdfReader.open(pdf.bytes());
    expect(r.recovered).toBe(true);
    expect(r.catalogRef()).toEqual(new PdfRef(1, 0));
    expect(r.pages()).toHaveLength(2);
  });

  it("skips `obj` inside stream data while scanning", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 1);
    pdf.stream(9, "", "1 0 obj << /Type /Catalog /Pages 77 0 R >> endobj");
    pdf.text("trailer << /Root 1 0 R >>\n%%EOF\n");
    const r = PdfReader.open(pdf.bytes());
    expect(r.recovered).toBe(true);
    expect(r.pages()).toHaveLength(1);
  });

  it("gives PdfUnparseable when there is no catalog at all", () => {
    const pdf = new PdfAssembler();
    pdf.obj(1, "<< /Foo 1 >>");
    pdf.text("trailer << /Size 2 >>\nstartxref\n0\n%%EOF\n");
    expect(() => PdfReader.open(pdf.bytes())).toThrow(/no usable document catalog/);
  });

  it("gives PdfUnparseable for a file cut inside its catalog: a catalog whose page tree is missing is none", () => {
    // The first bytes of a signed file: the header and the catalog object, cut before "endobj".
    const pdf = new PdfAssembler();
    pdf.text("1 0 obj\n<< /Type /Catalog /Pages 2 0 R /AcroForm 15 0 R >>\nendob");
    expect(() => PdfReader.open(pdf.bytes())).toThrow(/no usable document catalog/);
  });

  it("records where the table of a found trailer begins, for an update's /Prev", () => {
    const pdf = new PdfAssembler();
    const nums = writeDoc(pdf, 2);
    const xref = pdf.table([FREE0, ...pdf.rowsFor(nums)], "/Size 5 /Root 1 0 R");
    pdf.text("startxref\n999999\n%%EOF\n"); // wrong: the reader rebuilds the file from a scan
    const r = PdfReader.open(pdf.bytes());
    expect(r.recovered).toBe(true);
    const last = r.revisions[r.revisions.length - 1]!;
    expect(last.xrefOffset).toBe(xref);
    expect(latin1Decode(pdf.bytes().subarray(xref, xref + 4))).toBe("xref");
  });

  it("never fails with anything but a Signet error on truncated files", () => {
    const { bytes } = simplePdf(3);
    let opened = 0;
    for (let cut = 0; cut < bytes.length; cut += 3) {
      try {
        const r = PdfReader.open(bytes.subarray(0, cut));
        r.pages();
        opened++;
      } catch (e) {
        expect(e).toBeInstanceOf(SignetError);
        expect(e).toBeInstanceOf(PdfUnparseable);
      }
    }
    expect(opened).toBeGreaterThan(10); // cut after the objects: reconstruction still finds the pages
  });
});

describe("mutated files", () => {
  it("open and read, or fail with PdfUnparseable: never another error, never past a small work budget", () => {
    let x = 2024;
    const rnd = (n: number) => {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      return x % n;
    };
    const { bytes: base } = simplePdf(4);
    let ok = 0;
    for (let i = 0; i < 400; i++) {
      let b = base.slice();
      const kind = i % 4;
      if (kind === 0) for (let k = 0; k < 1 + rnd(8); k++) b[rnd(b.length)] = rnd(256);
      else if (kind === 1) {
        const at = rnd(b.length);
        b = new Uint8Array([...b.subarray(0, at), ...b.subarray(Math.min(b.length, at + 1 + rnd(60)))]);
      } else if (kind === 2) {
        for (let k = 0; k < 1 + rnd(4); k++) {
          const p = rnd(b.length);
          if (b[p]! >= 0x30 && b[p]! <= 0x39) b[p] = 0x30 + rnd(10); // offsets, counts, generations
        }
      } else b = b.subarray(0, rnd(b.length));
      try {
        // A work budget a 4-page file needs a small part of: no mutation may make reading it costly.
        const r = PdfReader.open(b, { limits: SMALL_FILE_LIMITS });
        for (const p of r.pages()) r.inheritedPageAttribute(p.dict, "MediaBox");
        ok++;
      } catch (e) {
        expect(e).toBeInstanceOf(PdfUnparseable);
        // Refused for what the file says (a count past a limit is fine), never for the work of reading it.
        if (e instanceof PdfBudgetExceeded)
          expect((e as Error).message).not.toMatch(/units of work|limit maxParsedObjects/);
      }
    }
    expect(ok).toBeGreaterThan(100);
  });
});

describe("incremental updates and /Prev", () => {
  function twoRevisions() {
    const pdf = new PdfAssembler();
    const nums = writeDoc(pdf, 2);
    pdf.obj(6, "(original info)");
    const x1 = pdf.table([FREE0, ...pdf.rowsFor([...nums, 6])], "/Size 7 /Root 1 0 R /Info 6 0 R /ID [<01> <01>]");
    pdf.startxref(x1);
    const end1 = pdf.length;
    // Update: page 3 gets wider, page 4 is deleted from the tree and freed, a page 7 is added.
    pdf.obj(2, "<< /Type /Pages /Kids [3 0 R 7 0 R] /Count 2 >>");
    pdf.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] >>");
    pdf.obj(7, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 700 100] >>");
    const x2 = pdf.table(
      [{ num: 4, type: "f", a: 0, b: 1 }, ...pdf.rowsFor([2, 3, 7])],
      `/Size 8 /Root 1 0 R /Prev ${x1} /ID [<01> <02>]`,
    );
    pdf.text(`startxref\n${x2}\n%%EOF\r\n`);
    return { bytes: pdf.bytes(), x1, x2, end1 };
  }

  it("keeps each revision's view of the objects", () => {
    const { bytes, x1, x2, end1 } = twoRevisions();
    const r = PdfReader.open(bytes);
    expect(r.revisions.map((v) => [v.number, v.xrefOffset, v.endOffset])).toEqual([
      [1, x1, end1],
      [2, x2, bytes.length],
    ]);
    expect(r.revisions[1]!.entries.size).toBe(4);
    expect(mediaWidths(r, 1)).toEqual([100, 101]);
    expect(mediaWidths(r, 2)).toEqual([300, 700]);
    expect(mediaWidths(r)).toEqual([300, 700]);
    expect(r.getObject(4)).toBeNull();
    expect(r.getObject(4, 1)).toBeInstanceOf(PdfDict);
    expect(r.getObject(7, 1)).toBeNull();
    expect(r.size).toBe(8);
    expect(() => r.getObject(1, 3)).toThrow(RangeError);
  });

  it("merges trailers as readers do (newer keys win, older ones stay)", () => {
    const r = PdfReader.open(twoRevisions().bytes);
    expect(r.trailer.get("Info")).toEqual(new PdfRef(6, 0));
    const id = r.trailer.get("ID") as PdfString[];
    expect(Array.from(id[1]!.bytes)).toEqual([2]);
    expect(r.trailer.has("Prev")).toBe(false);
    expect(r.revisions[1]!.trailer.get("Prev")).toBeTypeOf("number");
  });

  it("treats a linearized file's first-page section as part of revision 1", () => {
    const pdf = new PdfAssembler();
    pdf.obj(10, "<< /Linearized 1 /N 2 >>");
    const firstPage = pdf.length;
    const placeholder = "/Prev 0000000000";
    pdf.text(
      `xref\n10 1\n${String(pdf.offsets.get(10)).padStart(10, "0")} 00000 n\r\ntrailer\n<< /Size 11 /Root 1 0 R ${placeholder} >>\nstartxref\n0\n%%EOF\n`,
    );
    const nums = writeDoc(pdf, 2);
    const main = pdf.table([FREE0, ...pdf.rowsFor(nums)], "/Size 11");
    pdf.startxref(firstPage);
    const bytes = latin1Encode(
      latin1Decode(pdf.bytes()).replace(placeholder, `/Prev ${String(main).padStart(10, "0")}`),
    );
    const r = PdfReader.open(bytes);
    expect(r.revisions).toHaveLength(1);
    expect([r.revisions[0]!.xrefOffset, r.revisions[0]!.endOffset]).toEqual([firstPage, bytes.length]);
    expect(r.revisions[0]!.entries.size).toBe(6);
    expect(r.pages()).toHaveLength(2);
  });

  it("keeps a section hidden inside an earlier revision apart (never merged into it)", () => {
    const pdf = new PdfAssembler();
    const nums = writeDoc(pdf, 1);
    pdf.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 666 100] >>"); // a shadow page object
    const hidden = pdf.length;
    const placeholder = "/Prev 0000000000";
    pdf.table(pdf.rowsFor([3]), `/Size 4 /Root 1 0 R ${placeholder}`);
    const real = pdf.table(
      [
        FREE0,
        ...nums.map((num) => ({ num, type: "n" as const, a: num === 3 ? text0(pdf) : pdf.offsets.get(num)!, b: 0 })),
      ],
      "/Size 4 /Root 1 0 R",
    );
    pdf.startxref(real);
    const end1 = pdf.length;
    pdf.startxref(hidden); // the "update": only a new startxref pointing back into revision 1
    const bytes = latin1Encode(
      latin1Decode(pdf.bytes()).replace(placeholder, `/Prev ${String(real).padStart(10, "0")}`),
    );
    const r = PdfReader.open(bytes);
    expect(r.revisions.map((v) => v.endOffset)).toEqual([end1, end1]); // revision 2 ends where 1 does: visible to a verifier
    expect(mediaWidths(r, 1)).toEqual([100]);
    expect(mediaWidths(r, 2)).toEqual([666]);
  });

  it("stops /Prev cycles", () => {
    const pdf = new PdfAssembler();
    const nums = writeDoc(pdf, 1);
    const x1 = pdf.length;
    pdf.table([FREE0, ...pdf.rowsFor(nums)], `/Size 4 /Root 1 0 R /Prev ${x1}`); // points to itself
    pdf.startxref(x1);
    const r = PdfReader.open(pdf.bytes());
    expect(r.revisions).toHaveLength(1);
    expect(r.recovered).toBe(true);
    expect(r.pages()).toHaveLength(1);

    // two sections pointing at each other
    const q = new PdfAssembler();
    const qn = writeDoc(q, 1);
    const a = q.length;
    const placeholder = "0000000000";
    const tA = q.table([FREE0, ...q.rowsFor(qn)], `/Size 4 /Root 1 0 R /Prev ${placeholder}`);
    q.startxref(tA);
    q.obj(3, "<< /Type /Page /Parent 2 0 R /Rotate 90 >>");
    const b = q.table(q.rowsFor([3]), `/Size 4 /Root 1 0 R /Prev ${String(a).padStart(10, "0")}`);
    q.startxref(b);
    const patched = latin1Decode(q.bytes()).replace(`/Prev ${placeholder}`, `/Prev ${String(b).padStart(10, "0")}`);
    const r2 = PdfReader.open(latin1Encode(patched));
    expect(r2.revisions).toHaveLength(2);
    expect(r2.recovered).toBe(true);
    expect(r2.pages()[0]!.dict.get("Rotate")).toBe(90);
  });

  it("limits the number of sections", () => {
    const pdf = new PdfAssembler();
    const nums = writeDoc(pdf, 1);
    let prev = pdf.table([FREE0, ...pdf.rowsFor(nums)], "/Size 4 /Root 1 0 R");
    pdf.startxref(prev);
    for (let i = 0; i < 5; i++) {
      pdf.obj(3, `<< /Type /Page /Parent 2 0 R /Rotate ${i * 90} >>`);
      prev = pdf.table(pdf.rowsFor([3]), `/Size 4 /Root 1 0 R /Prev ${prev}`);
      pdf.startxref(prev);
    }
    expect(PdfReader.open(pdf.bytes()).revisions).toHaveLength(6);
    expect(() => PdfReader.open(pdf.bytes(), { limits: { maxRevisions: 3 } })).toThrow(/maxRevisions/);
  });

  it("limits the objects the sections declare", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 1);
    const x = pdf.length;
    pdf.text("xref\n0 3000000\n0000000000 65535 f \ntrailer << /Size 3000000 /Root 1 0 R >>\n").startxref(x);
    expect(() => PdfReader.open(pdf.bytes())).toThrow(/maxObjects/);
  });
});

describe("xref streams and object streams", () => {
  /** Catalog 1 and Pages 2 plain; pages 3..5 and an Info string in object stream 10. */
  function compressedDoc(opts: { flate?: boolean; hybrid?: boolean; wrongIndex?: boolean } = {}) {
    const pdf = new PdfAssembler();
    pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf.obj(2, "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>");
    const objs = [
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 101 100] >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 102 100] >>",
      "(info in objstm)",
    ];
    const nums = [3, 4, 5, 6];
    let body = "";
    const header: string[] = [];
    objs.forEach((o, i) => {
      header.push(`${nums[i]} ${body.length}`);
      body += o + "\n";
    });
    const head = header.join(" ") + "\n";
    pdf.stream(10, `/Type /ObjStm /N 4 /First ${head.length}`, head + body);
    const idx = (i: number) => (opts.wrongIndex ? 3 - i : i);
    const compressed: XrefRow[] = nums.map((num, i) => ({ num, type: "c", a: 10, b: idx(i) }));
    if (opts.hybrid) {
      const xs = pdf.xrefStream(11, compressed, "/Size 12");
      const xref = pdf.table(
        [FREE0, ...pdf.rowsFor([1, 2, 10, 11]), ...nums.map((num) => ({ num, type: "f" as const, a: 0, b: 0 }))],
        `/Size 12 /Root 1 0 R /Info 6 0 R /XRefStm ${xs}`,
      );
      pdf.startxref(xref);
      return { pdf, bytes: pdf.bytes(), xref };
    }
    const rows: XrefRow[] = [FREE0, ...pdf.rowsFor([1, 2, 10]), ...compressed];
    const xref = pdf.length;
    rows.push({ num: 11, type: "n", a: xref, b: 0 });
    if (opts.flate) {
      // W [1 4 2], PNG Up predictor over 7-byte rows, Flate, /Index with two ranges.
      const sorted = rows.sort((x, y) => x.num - y.num);
      const raw = new Uint8Array(sorted.length * 7);
      sorted.forEach((r, i) => {
        const p = i * 7;
        raw[p] = r.type === "f" ? 0 : r.type === "n" ? 1 : 2;
        raw[p + 1] = r.a >>> 24;
        raw[p + 2] = (r.a >>> 16) & 0xff;
        raw[p + 3] = (r.a >>> 8) & 0xff;
        raw[p + 4] = r.a & 0xff;
        raw[p + 5] = r.b >>> 8;
        raw[p + 6] = r.b & 0xff;
      });
      const data = zlibSync(pngUpEncode(raw, 7));
      pdf.stream(
        11,
        "/Type /XRef /Size 12 /W [1 4 2] /Index [0 7 10 2] /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 7 >> /Root 1 0 R /Info 6 0 R",
        data,
      );
    } else {
      pdf.xrefStream(11, rows, "/Size 12 /Root 1 0 R /Info 6 0 R");
    }
    pdf.startxref(xref);
    return { pdf, bytes: pdf.bytes(), xref };
  }

  it("reads an uncompressed xref stream and objects from an object stream", () => {
    const { bytes, xref } = compressedDoc();
    const r = PdfReader.open(bytes);
    expect(r.usesXrefStreams).toBe(true);
    expect(r.recovered).toBe(false);
    const rev = r.revisions[0]!;
    expect([rev.xrefKind, rev.xrefOffset, rev.endOffset]).toEqual(["stream", xref, bytes.length]);
    expect((rev.trailer.get("Type") as PdfName).name).toBe("XRef");
    expect(r.trailer.has("W")).toBe(false);
    expect(r.objectOffset(4)).toEqual({ type: "compressed", offset: 10, gen: 1 });
    expect(mediaWidths(r)).toEqual([100, 101, 102]);
    const info = r.resolve(r.trailer.get("Info")) as PdfString;
    expect(latin1Decode(info.bytes)).toBe("info in objstm");
    expect([info.start, info.end]).toEqual([-1, -1]); // not in the file as written
    expect(r.getObject(3)).toBe(r.getObject(3)); // cached
  });

  it("reads a Flate xref stream with a PNG predictor and /Index ranges", () => {
    const r = PdfReader.open(compressedDoc({ flate: true }).bytes);
    expect(r.recovered).toBe(false);
    expect(mediaWidths(r)).toEqual([100, 101, 102]);
    expect(r.size).toBe(12);
  });

  it("finds objects by number when the object-stream index is wrong", () => {
    const r = PdfReader.open(compressedDoc({ wrongIndex: true }).bytes);
    expect(mediaWidths(r)).toEqual([100, 101, 102]);
  });

  it("reads hybrid files: the table's free rows are filled from /XRefStm", () => {
    const { bytes, xref } = compressedDoc({ hybrid: true });
    const r = PdfReader.open(bytes);
    expect(r.revisions[0]!.xrefKind).toBe("hybrid");
    expect(r.revisions[0]!.xrefOffset).toBe(xref);
    expect(r.usesXrefStreams).toBe(false);
    expect(r.recovered).toBe(false);
    expect(mediaWidths(r)).toEqual([100, 101, 102]);
  });

  it("reconstructs compressed objects when the xref stream is lost", () => {
    const { bytes, xref } = compressedDoc();
    const broken = bytes.slice();
    broken.fill(0x20, xref, xref + 20); // wipe the xref stream's header
    const r = PdfReader.open(broken);
    expect(r.recovered).toBe(true);
    expect(mediaWidths(r)).toEqual([100, 101, 102]);
  });

  it("mixes an xref-stream original with a table update", () => {
    const { pdf, xref } = compressedDoc();
    pdf.obj(4, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 444 100] >>");
    const x2 = pdf.table(pdf.rowsFor([4]), `/Size 12 /Root 1 0 R /Prev ${xref}`);
    pdf.startxref(x2);
    const r = PdfReader.open(pdf.bytes());
    expect(r.revisions.map((v) => v.xrefKind)).toEqual(["stream", "table"]);
    expect(r.usesXrefStreams).toBe(false);
    expect(mediaWidths(r)).toEqual([100, 444, 102]);
    expect(mediaWidths(r, 1)).toEqual([100, 101, 102]);
  });
});

describe("hostile input", () => {
  it("scans past fake object headers hidden in strings without parsing them", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 1);
    pdf.obj(9, "[" + "(10 0 obj [) ".repeat(100_000) + "]");
    pdf.text("trailer << /Root 1 0 R >>\n%%EOF\n");
    const r = PdfReader.open(pdf.bytes(), { limits: SMALL_FILE_LIMITS });
    expect(r.recovered).toBe(true);
    expect(r.pages()).toHaveLength(1);
  });

  it("scans an unterminated object full of fake headers without parsing them", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 1);
    pdf.text("9 0 obj\n[" + "(10 0 obj [) ".repeat(100_000)); // never closed
    const r = PdfReader.open(pdf.bytes(), { limits: SMALL_FILE_LIMITS });
    expect(r.pages()).toHaveLength(1);
  });

  it("does not re-parse one large object for many xref entries pointing inside it", () => {
    const fakes = 20_000;
    const pdf = new PdfAssembler();
    pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    const kids = ["3 0 R", ...Array.from({ length: fakes }, (_, i) => `${10 + i} 0 R`)].join(" ");
    pdf.obj(2, `<< /Type /Pages /Kids [${kids}] >>`);
    pdf.obj(3, "<< /Type /Page /Parent 2 0 R >>");
    const at = pdf.obj(9, "[" + Array.from({ length: fakes }, (_, i) => `(${10 + i} 0 obj [)`).join(" ") + "]");
    const text = latin1Decode(pdf.bytes());
    const rows: XrefRow[] = [FREE0, ...pdf.rowsFor([1, 2, 3, 9])];
    let from = at;
    for (let i = 0; i < fakes; i++) {
      from = text.indexOf(`(${10 + i} 0 obj`, from) + 1;
      rows.push({ num: 10 + i, type: "n", a: from, b: 0 });
    }
    const xref = pdf.table(rows, `/Size ${10 + fakes} /Root 1 0 R`);
    pdf.startxref(xref);
    // 20,001 kids are looked at (work units), but the large object is parsed once, not per entry.
    const r = PdfReader.open(pdf.bytes(), { limits: { maxParsedObjects: 100 } });
    expect(r.pages().length).toBeLessThanOrEqual(2); // the real page, and at most the first fake (a page-less array is skipped)
  });

  it("ignores a `trailer` inside an object's string", () => {
    const pdf = new PdfAssembler();
    writeDoc(pdf, 1);
    pdf.obj(9, "(trailer << /Root 9 0 R >>)");
    pdf.text("trailer << /Root 1 0 R >>\n%%EOF\n");
    const r = PdfReader.open(pdf.bytes());
    expect(r.catalogRef()).toEqual(new PdfRef(1, 0));
  });
});
