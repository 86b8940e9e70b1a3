import { Deflate, zlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { PdfEncrypted, PdfUnparseable } from "../../errors";
import { PdfDict, PdfRef, PdfStream } from "../model";
import { PdfBudgetExceeded, PdfReader } from "./index";
import { latin1Decode, PdfAssembler, type XrefRow } from "../../../test/support/pdf-assembler";

const FREE0: XrefRow = { num: 0, type: "f", a: 0, b: 65535 };

/** Writes `objects` (num → body), a table and a trailer naming catalog 1. */
function build(
  objects: Record<number, string | { dict: string; data: Uint8Array | string }>,
  trailerExtra = "",
): Uint8Array {
  const pdf = new PdfAssembler();
  const nums: number[] = [];
  for (const [k, v] of Object.entries(objects)) {
    const num = Number(k);
    nums.push(num);
    if (typeof v === "string") pdf.obj(num, v);
    else pdf.stream(num, v.dict, v.data);
  }
  const size = Math.max(...nums) + 1;
  const xref = pdf.table([FREE0, ...pdf.rowsFor(nums)], `/Size ${size} /Root 1 0 R${trailerExtra}`);
  pdf.startxref(xref);
  return pdf.bytes();
}

const CATALOG = "<< /Type /Catalog /Pages 2 0 R >>";
const page = (parent = 2, extra = "") => `<< /Type /Page /Parent ${parent} 0 R${extra} >>`;

describe("objects and references", () => {
  it("resolves reference chains and guards against cycles", () => {
    const r = PdfReader.open(
      build({
        1: CATALOG,
        2: "<< /Type /Pages /Kids [] /Count 0 >>",
        5: "6 0 R",
        6: "7 0 R",
        7: "42",
        8: "9 0 R",
        9: "8 0 R",
      }),
    );
    expect(r.resolve(new PdfRef(5, 0))).toBe(42);
    expect(r.resolve(undefined)).toBeUndefined();
    expect(r.resolve(3)).toBe(3);
    expect(r.getObject(5)).toEqual(new PdfRef(6, 0));
    expect(r.getObject(77)).toBeNull();
    expect(() => r.resolve(new PdfRef(8, 0))).toThrow(/does not end/);
  });

  it("resolves an indirect /Length and survives one that points at its own stream", () => {
    const pdf = new PdfAssembler();
    pdf.obj(1, CATALOG);
    pdf.obj(2, "<< /Type /Pages /Kids [] /Count 0 >>");
    pdf.obj(3, "<< /Length 4 0 R >>\nstream\nabcdef\nendstream");
    pdf.obj(4, "6");
    pdf.obj(5, "<< /Length 5 0 R >>\nstream\nxyz\nendstream");
    const xref = pdf.table([FREE0, ...pdf.rowsFor([1, 2, 3, 4, 5])], "/Size 6 /Root 1 0 R");
    pdf.startxref(xref);
    const r = PdfReader.open(pdf.bytes());
    expect(latin1Decode(r.decodeStream(r.getObject(3) as PdfStream))).toBe("abcdef");
    expect(latin1Decode(r.decodeStream(r.getObject(5) as PdfStream))).toBe("xyz");
  });

  it("keeps file offsets of strings so /Contents can be located exactly", () => {
    const hex = "ab".repeat(4096);
    const bytes = build({
      1: CATALOG,
      2: "<< /Type /Pages /Kids [] /Count 0 >>",
      3: `<< /Type /Sig /Contents <${hex}> /ByteRange [0 1 2 3] >>`,
    });
    const r = PdfReader.open(bytes);
    const s = (r.getObject(3) as PdfDict).get("Contents") as { start: number; end: number; bytes: Uint8Array };
    expect(latin1Decode(bytes.subarray(s.start, s.end))).toBe(`<${hex}>`);
    expect(s.bytes.length).toBe(4096);
  });
});

describe("page tree", () => {
  it("walks nested /Kids in order without trusting /Count", () => {
    const r = PdfReader.open(
      build({
        1: CATALOG,
        2: "<< /Type /Pages /Kids [3 0 R 4 0 R 7 0 R] /Count 99 /Rotate 90 >>",
        3: page(),
        4: "<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 1 /MediaBox [0 0 10 20] >>",
        5: page(4),
        6: page(4, " /MediaBox [0 0 30 40]"),
        7: page(),
      }),
    );
    const pages = r.pages();
    expect(pages.map((p) => p.ref.num)).toEqual([3, 5, 6, 7]);
    expect(r.inheritedPageAttribute(pages[1]!.dict, "MediaBox")).toEqual([0, 0, 10, 20]);
    expect(r.inheritedPageAttribute(pages[2]!.dict, "MediaBox")).toEqual([0, 0, 30, 40]);
    expect(r.inheritedPageAttribute(pages[1]!.dict, "Rotate")).toBe(90);
    expect(r.inheritedPageAttribute(pages[0]!.dict, "CropBox")).toBeUndefined();
  });

  it("ignores null and missing kids, and tolerates nodes without /Type", () => {
    const r = PdfReader.open(
      build({
        1: CATALOG,
        2: "<< /Kids [3 0 R null 9 0 R 4 0 R] >>",
        3: "<< /Parent 2 0 R >>",
        4: "<< /Kids [5 0 R] >>",
        5: page(4),
      }),
    );
    expect(r.pages().map((p) => p.ref.num)).toEqual([3, 5]);
  });

  it("detects a /Kids cycle", () => {
    const r = PdfReader.open(
      build({
        1: CATALOG,
        2: "<< /Type /Pages /Kids [3 0 R 4 0 R] >>",
        3: page(),
        4: "<< /Type /Pages /Parent 2 0 R /Kids [4 0 R] >>",
      }),
    );
    expect(() => r.pages()).toThrow(/cycle/);
    const r2 = PdfReader.open(
      build({ 1: CATALOG, 2: "<< /Type /Pages /Kids [3 0 R] >>", 3: "<< /Type /Pages /Kids [2 0 R] >>" }),
    );
    expect(() => r2.pages()).toThrow(PdfUnparseable);
  });

  it("refuses a page object listed twice, in one /Kids array or under two nodes: it would be signed and counted twice", () => {
    const twice = build({
      1: CATALOG,
      2: `<< /Type /Pages /Kids [${"3 0 R ".repeat(100_000)}] /Count 100000 >>`,
      3: page(),
    });
    expect(() => PdfReader.open(twice).pages()).toThrow(/lists page object 3 more than once/);
    const twoNodes = build({
      1: CATALOG,
      2: "<< /Type /Pages /Kids [4 0 R 5 0 R] /Count 2 >>",
      3: page(4),
      4: "<< /Type /Pages /Parent 2 0 R /Kids [3 0 R] /Count 1 >>",
      5: "<< /Type /Pages /Parent 2 0 R /Kids [3 0 R] /Count 1 >>",
    });
    expect(() => PdfReader.open(twoNodes).pages()).toThrow(PdfUnparseable);
  });

  it("bounds page count, tree depth and fan-out work", () => {
    const objects: Record<number, string> = {
      1: CATALOG,
      2: `<< /Type /Pages /Kids [${Array.from({ length: 50 }, (_, i) => `${i + 3} 0 R`).join(" ")}] >>`,
    };
    for (let i = 0; i < 50; i++) objects[i + 3] = page();
    const r = PdfReader.open(build(objects), { limits: { maxPages: 20 } });
    expect(() => r.pages()).toThrow(/maxPages/);
    expect(PdfReader.open(build(objects)).pages()).toHaveLength(50);

    const deep: Record<number, string> = { 1: CATALOG };
    for (let i = 2; i < 80; i++) deep[i] = `<< /Type /Pages /Kids [${i + 1} 0 R] >>`;
    deep[80] = page(79);
    expect(() => PdfReader.open(build(deep)).pages()).toThrow(/deeper than 64/);
    expect(PdfReader.open(build(deep), { limits: { maxDepth: 100 } }).pages()).toHaveLength(1);
  });

  it("refuses direct page dictionaries and a missing /Pages", () => {
    expect(() =>
      PdfReader.open(build({ 1: CATALOG, 2: "<< /Type /Pages /Kids [<< /Type /Page >>] >>" })).pages(),
    ).toThrow(PdfUnparseable);
    expect(() => PdfReader.open(build({ 1: "<< /Type /Catalog >>" })).pages()).toThrow(/no \/Pages/);
  });
});

describe("streams within budgets", () => {
  it("decodes a Flate stream of the file and caches the result", () => {
    const text = "BT /F1 12 Tf (Hi) Tj ET ".repeat(50);
    const r = PdfReader.open(
      build({
        1: CATALOG,
        2: "<< /Type /Pages /Kids [] >>",
        3: { dict: "/Filter /FlateDecode", data: zlibSync(new TextEncoder().encode(text)) },
      }),
    );
    const s = r.getObject(3) as PdfStream;
    const out = r.decodeStream(s);
    expect(latin1Decode(out)).toBe(text);
    expect(r.decodeStream(s)).toBe(out);
  });

  it("resolves indirect /Filter and /DecodeParms entries", () => {
    const raw = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const enc = new Uint8Array([2, 1, 2, 3, 2, 3, 3, 3]); // PNG Up over 3 columns
    const r = PdfReader.open(
      build({
        1: CATALOG,
        2: "<< /Type /Pages /Kids [] >>",
        3: { dict: "/Filter 4 0 R /DecodeParms [5 0 R]", data: zlibSync(enc) },
        4: "[/FlateDecode]",
        5: "<< /Predictor 12 /Columns 3 >>",
      }),
    );
    expect(Array.from(r.decodeStream(r.getObject(3) as PdfStream))).toEqual(Array.from(raw));
  });

  it("stops a flate bomb inside a document, and the total across streams", () => {
    const chunks: Uint8Array[] = [];
    const def = new Deflate({ level: 9 }, (c) => chunks.push(c));
    const zeros = new Uint8Array(1 << 20);
    for (let i = 0; i < 24; i++) def.push(zeros, i === 23);
    const bomb = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bomb.set(c, at);
      at += c.length;
    }
    const bytes = build({
      1: CATALOG,
      2: "<< /Type /Pages /Kids [] >>",
      3: { dict: "/Filter /FlateDecode", data: bomb },
      4: { dict: "/Filter /FlateDecode", data: bomb },
    });
    const r = PdfReader.open(bytes, { limits: { maxStreamBytes: 8_000_000 } });
    expect(() => r.decodeStream(r.getObject(3) as PdfStream)).toThrow(PdfBudgetExceeded);
    const r2 = PdfReader.open(bytes, { limits: { maxInflatedBytes: 40_000_000, maxStreamBytes: 30_000_000 } });
    expect(r2.decodeStream(r2.getObject(3) as PdfStream).length).toBe(24 << 20);
    expect(() => r2.decodeStream(r2.getObject(4) as PdfStream)).toThrow(/maxInflatedBytes/);
  });

  it("counts work: a reader stops when its work budget is spent", () => {
    const objects: Record<number, string> = {
      1: CATALOG,
      2: `<< /Type /Pages /Kids [${Array.from({ length: 300 }, (_, i) => `${i + 3} 0 R`).join(" ")}] >>`,
    };
    for (let i = 0; i < 300; i++) objects[i + 3] = page();
    expect(PdfReader.open(build(objects)).pages()).toHaveLength(300);
    expect(() => PdfReader.open(build(objects), { limits: { maxWorkUnits: 500 } }).pages()).toThrow(/units of work/);
  });
});

describe("encryption", () => {
  it("reports /Encrypt and refuses to decode streams without a security handler", () => {
    const bytes = build(
      {
        1: CATALOG,
        2: "<< /Type /Pages /Kids [3 0 R] >>",
        3: page(),
        4: { dict: "", data: "encrypted bytes" },
        9: "<< /Filter /Standard /V 2 /R 3 /O <00> /U <00> /P -4 >>",
      },
      " /Encrypt 9 0 R /ID [<aa> <aa>]",
    );
    const r = PdfReader.open(bytes);
    expect(r.encrypted).toBe(true);
    expect(r.pages()).toHaveLength(1);
    expect(() => r.decodeStream(r.getObject(4) as PdfStream)).toThrow(PdfEncrypted);
  });
});
