/**
 * paintDocument's PDF read back with poppler and pdf-lib: the text (Latin, Cyrillic, Hebrew and
 * Arabic through the fallbacks) is extractable at the place layout put it, every font is an
 * embedded subset with a ToUnicode map, links are /URI annotations, images are drawn, the title
 * is set, and the bytes do not depend on the run.
 */
import { describe, expect, it, beforeAll } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { crc32, deflateSync } from "node:zlib";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFHexString, PDFRawStream, PDFString } from "pdf-lib";
import { unzlibSync } from "fflate";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import { loadFontBook } from "../../src/render/fonts/font-book";
import { paintDocument } from "../../src/render/paint/paint-document";
import type { FontBook, ShapedText } from "../../src/render/fonts/types";
import type { LaidOutDocument, PaintItem } from "../../src/render/layout/types";
import { letterDocument, paragraphStyle, runStyle } from "../support/render-styles";
import type { DocumentModel, ImageResource, Paragraph, RunStyle } from "../../src/render/model/types";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "signet-paint-"));

function style(font: string, extra: Partial<RunStyle> = {}): RunStyle {
  return runStyle({ font, size: 12, ...extra });
}

function modelWith(texts: { text: string; style: RunStyle }[], images: Map<string, ImageResource>): DocumentModel {
  const p: Paragraph = {
    type: "paragraph",
    style: paragraphStyle(),
    inlines: texts.map((t) => ({ type: "text" as const, ...t })),
    markStyle: style("Calibri"),
  };
  return letterDocument([p], { images });
}

/** A real 2x2 RGB PNG (red, green / blue, white), encoded here with zlib. */
function tinyPng(): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const raw = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      chunk("IHDR", ihdr),
      chunk("IDAT", deflateSync(raw)),
      chunk("IEND", Buffer.alloc(0)),
    ]),
  );
}

/** Lays out one text line per entry, splitting by face the way layout does. */
function textLine(book: FontBook, text: string, s: RunStyle, x: number, y: number): PaintItem[] {
  const items: PaintItem[] = [];
  for (const piece of book.split(text, { family: s.font, bold: s.bold, italic: s.italic })) {
    const width = piece.face.widthOf(piece.text, s.size);
    items.push({ kind: "text", x, y, text: piece.text, face: piece.face, size: s.size, color: s.color, width });
    x += width;
  }
  return items;
}

const LINES = [
  { text: "Signet contract agreement official", style: style("Calibri") },
  { text: "Bold Cambria heading", style: style("Cambria", { bold: true, color: "1F3864" }) },
  { text: "Договор подписан", style: style("Calibri") },
  // Joined by a maqaf, which Carlito lacks: one fallback piece (a space would be Carlito's, its own
  // piece, and this helper does no bidi reordering between pieces).
  { text: "Hebrew שלום־עולם", style: style("Calibri") },
  { text: "Arimo has its own Hebrew: שלום", style: style("Arial") },
  { text: "Arabic مرحبا", style: style("Times New Roman") },
];

let pdfPath: string;
let bytes: Uint8Array;
let again: Uint8Array;

beforeAll(async () => {
  const images = new Map<string, ImageResource>([
    ["media/good.png", { bytes: tinyPng(), type: "png" }],
    [
      "media/broken.png",
      {
        bytes: new Uint8Array([
          137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 9, 0, 0, 0, 9, 8, 2, 0, 0, 0, 1, 2, 3,
          4, 5,
        ]),
        type: "png",
      },
    ],
    ["media/drawing.emf", { bytes: new Uint8Array([1, 0, 0, 0]), type: "other" }],
  ]);
  const model = modelWith([...LINES, { text: "Second page text", style: style("Courier New") }], images);
  const render = async () => {
    const book = await loadFontBook(model, nodeFontSource());
    const items: PaintItem[] = [{ kind: "rect", x: 70, y: 80, width: 200, height: 16, fill: "FFFF00" }];
    LINES.forEach((l, i) => items.push(...textLine(book, l.text, l.style, 72, 100 + i * 20)));
    items.push(
      { kind: "line", x1: 72, y1: 102, x2: 200, y2: 102, width: 0.75, color: null, style: "single" },
      { kind: "line", x1: 72, y1: 122, x2: 200, y2: 122, width: 0.5, color: "FF0000", style: "double" },
      { kind: "line", x1: 72, y1: 142, x2: 200, y2: 142, width: 1, color: null, style: "dashed" },
      { kind: "line", x1: 72, y1: 162, x2: 200, y2: 162, width: 1, color: null, style: "dotted" },
      { kind: "image", x: 300, y: 200, width: 50, height: 50, image: "media/good.png" },
      { kind: "image", x: 300, y: 260, width: 50, height: 50, image: "media/broken.png" },
      { kind: "image", x: 300, y: 320, width: 50, height: 50, image: "media/drawing.emf" },
      { kind: "image", x: 400, y: 200, width: 50, height: 50, image: "media/good.png" },
      { kind: "link", x: 72, y: 88, width: 120, height: 16, uri: "https://example.com/terms?a=(1)&b=ü" },
      { kind: "link", x: 72, y: 108, width: 120, height: 16, uri: "javascript:alert(1)" },
      {
        kind: "text",
        x: Number.NaN,
        y: 10,
        text: "skipped",
        face: book.face({ family: "Calibri", bold: false, italic: false }),
        size: 12,
        color: null,
        width: 1,
      },
    );
    const page2: PaintItem[] = textLine(book, "Second page text", style("Courier New"), 72, 500);
    const doc: LaidOutDocument = {
      pages: [
        { width: 612, height: 792, items },
        { width: 842, height: 595, items: page2 },
      ],
      title: "Master Services Agreement – draft",
    };
    return paintDocument(doc, model);
  };
  bytes = await render();
  again = await render();
  pdfPath = join(dir, "paint.pdf");
  writeFileSync(pdfPath, bytes);
});

describe("paintDocument (read back with poppler and pdf-lib)", () => {
  it("gives the same bytes for the same input", () => {
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    const text = Buffer.from(bytes).toString("latin1");
    expect(text).not.toMatch(/\/CreationDate|\/ModDate|\/ID\s*\[/);
  });

  it("text is extractable, including the fallback scripts", async () => {
    const { stdout } = await run("pdftotext", ["-enc", "UTF-8", pdfPath, "-"]);
    for (const word of ["Signet", "contract", "agreement", "Cambria", "Договор", "подписан", "Second", "page"])
      expect(stdout).toContain(word);
    // Hebrew comes back in logical order: drawn right to left, whether in a fallback face or in Arimo.
    expect(stdout).toContain("שלום־עולם");
    expect(stdout).toMatch(/Hebrew: \S*שלום/);
    expect(stdout).not.toContain("skipped");
    // Arabic letters come back (shaped presentation forms map to their base letters through ToUnicode).
    expect(stdout.normalize("NFKC")).toMatch(/[\u0621-\u064a]{3,}/);
  });

  it("places words where layout put them (baseline flipped to PDF coordinates)", async () => {
    const { stdout } = await run("pdftotext", ["-bbox", pdfPath, "-"]);
    const word = (w: string) => {
      const m = new RegExp(`xMin="([\\d.]+)" yMin="([\\d.]+)" xMax="([\\d.]+)" yMax="([\\d.]+)">${w}<`).exec(stdout);
      expect(m, w).not.toBeNull();
      return m!.slice(1).map(Number) as [number, number, number, number];
    };
    const [x0, , x1, yMax] = word("Signet");
    expect(x0).toBeCloseTo(72, 0);
    // Word box right edge = start + measured width of "Signet" in Carlito 12 pt.
    const book = await loadFontBook(modelWith([LINES[0]!], new Map()), nodeFontSource());
    const carlito = book.face({ family: "Calibri", bold: false, italic: false });
    expect(x1).toBeCloseTo(72 + carlito.widthOf("Signet", 12), 0);
    // No ligatures: "ffi" is drawn as three glyphs, so the word is as wide as layout measured it.
    const [ox0, , ox1] = word("official");
    expect(ox1 - ox0).toBeCloseTo(carlito.widthOf("official", 12), 1); // with the ffi ligature: 0.39 pt narrower
    // poppler puts the box bottom below the baseline (y = 100 from the top) by the font's descent.
    expect(yMax).toBeGreaterThan(100);
    expect(yMax).toBeLessThan(105);
    const [, y0b] = word("Second");
    expect(y0b).toBeGreaterThan(480);
  });

  it("every font is embedded as a subset with a ToUnicode map", async () => {
    const { stdout } = await run("pdffonts", [pdfPath]);
    const rows = stdout.trim().split("\n").slice(2);
    const names = rows.map((r) => r.split(/\s+/)[0]!);
    expect(names).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^[A-Z]{6}\+Carlito-Regular$/),
        expect.stringMatching(/^[A-Z]{6}\+Caladea-Bold$/),
        expect.stringMatching(/^[A-Z]{6}\+DejaVuSans-Regular$/),
        expect.stringMatching(/^[A-Z]{6}\+Cousine-Regular$/),
      ]),
    );
    for (const r of rows) expect(r, r).toMatch(/\byes\s+yes\s+yes\s+\d+\s+\d+\s*$/);
  });

  it("links are borderless /URI annotations; unsafe schemes are dropped", async () => {
    const pdf = await PDFDocument.load(bytes);
    const annots = pdf.getPage(0).node.Annots();
    expect(annots?.size()).toBe(1);
    const link = pdf.context.lookup(annots!.get(0), PDFDict);
    expect(link.get(PDFName.of("Subtype"))).toEqual(PDFName.of("Link"));
    const border = link.lookup(PDFName.of("Border"), PDFArray);
    expect(border.asArray().map(String)).toEqual(["0", "0", "0"]);
    const action = link.lookup(PDFName.of("A"), PDFDict);
    const uri = action.lookup(PDFName.of("URI")) as PDFHexString | PDFString;
    expect(uri.decodeText()).toBe("https://example.com/terms?a=(1)&b=%C3%BC");
    const rect = link.lookup(PDFName.of("Rect"), PDFArray).asArray().map(Number);
    expect(rect).toEqual([72, 792 - 104, 192, 792 - 88]);
  });

  it("draws valid images once per id and skips broken and unsupported ones", async () => {
    const pdf = await PDFDocument.load(bytes);
    const xobjects = pdf.getPage(0).node.Resources()!.lookup(PDFName.of("XObject"), PDFDict);
    expect(xobjects.keys().map(String)).toEqual(["/Im1"]);
    const { stdout } = await run("pdfimages", ["-list", pdfPath]);
    const rows = stdout.trim().split("\n").slice(2);
    expect(rows).toHaveLength(2); // drawn twice, one object
    expect(new Set(rows.map((r) => r.split(/\s+/)[10]))).toHaveProperty("size", 1);
  });

  it("sets the title (shown in the window title bar) and producer, and page sizes", async () => {
    const { stdout } = await run("pdfinfo", [pdfPath]);
    expect(stdout).toMatch(/Title:\s+Master Services Agreement – draft/);
    expect(stdout).toMatch(/Producer:\s+Signet/);
    expect(stdout).toMatch(/Pages:\s+2/);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPage(1).getSize()).toEqual({ width: 842, height: 595 });
    expect(
      pdf.catalog.lookup(PDFName.of("ViewerPreferences"), PDFDict).get(PDFName.of("DisplayDocTitle"))?.toString(),
    ).toBe("true");
  });

  it("qpdf finds the file structurally sound", async () => {
    const { stdout } = await run("qpdf", ["--check", pdfPath]);
    expect(stdout).toMatch(/No syntax or stream encoding errors/);
  });
});

describe("paintDocument with text fontkit cannot handle", () => {
  it("draws Carlito's no-break space and Arabic with Quranic marks (fontkit throws on both) and MuPDF renders the page", async () => {
    const nbsp = "Signet\u00a0Ltd\u00a0§\u00a01";
    const quranic = "ٱللَّهِۚ"; // Noto Sans Arabic's mark anchors make fontkit's GPOS code throw
    const model = modelWith(
      [
        { text: nbsp, style: style("Calibri") },
        { text: quranic, style: style("Calibri") },
      ],
      new Map(),
    );
    const book = await loadFontBook(model, nodeFontSource());
    const items = [
      ...textLine(book, nbsp, style("Calibri"), 72, 100),
      ...textLine(book, quranic, style("Calibri"), 72, 130),
    ];
    expect(items.some((i) => i.kind === "text" && i.face.id === "NotoSansArabic-Regular")).toBe(true);
    const pdf = await paintDocument({ pages: [{ width: 612, height: 792, items }] }, model);
    const path = join(dir, "fontkit-traps.pdf");
    writeFileSync(path, pdf);
    const { stdout } = await run("pdftotext", ["-enc", "UTF-8", path, "-"]);
    expect(stdout.replace(/\u00a0/g, " ")).toContain("Signet Ltd § 1");
    expect(stdout).toMatch(/[\u0621-\u064a]/);
    const drawn = await run("mutool", ["draw", "-o", join(dir, "traps-%d.png"), "-r", "36", path]);
    expect(drawn.stderr).not.toMatch(/error|invalid/i);
  });
});

describe("paintDocument glyph positions", () => {
  it("draws every glyph of a long line within 0.01 pt of its shaped advances, carrying sub-thousandth differences", async () => {
    const text = "Signet places each glyph where its advance, rounded at the size, puts it; ".repeat(3);
    const model = modelWith([{ text, style: style("Calibri") }], new Map());
    const book = await loadFontBook(model, nodeFontSource());
    const face = book.face({ family: "Calibri", bold: false, italic: false });
    const size = 7.3; // a size whose rounded advances differ from the PDF widths by fractions
    const item: PaintItem = {
      kind: "text",
      x: 20,
      y: 100,
      text,
      face,
      size,
      color: null,
      width: face.widthOf(text, size),
    };
    const pdf = await paintDocument({ pages: [{ width: 2000, height: 200, items: [item] }] }, model);
    const path = join(dir, "glyph-positions.pdf");
    writeFileSync(path, pdf);
    const { stdout } = await run("mutool", ["draw", "-F", "stext", "-o", "-", path]);
    const xs = [...stdout.matchAll(/<char [^>]*\bx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs.length).toBe(text.length);
    // Where HarfBuzz's advances (font units, as paint draws them) put each glyph; carrying keeps each
    // within half a thousandth of an em (0.004 pt here).
    const shaped = (face as unknown as { shaped(t: string): ShapedText }).shaped(text);
    let at = 20;
    const off = xs.map((x, i) => {
      const d = Math.abs(x - at);
      at += (shaped.xAdvances[i]! * size) / shaped.unitsPerEm;
      return d;
    });
    for (let i = 0; i < text.length; i++) expect(off[i], `glyph ${i}`).toBeLessThan(0.01);
    // The content stream writes few adjustments: not one per glyph.
    const doc = await PDFDocument.load(pdf);
    const contents = doc.getPage(0).node.Contents()!;
    const raw = contents instanceof PDFRawStream ? Buffer.from(unzlibSync(contents.contents)).toString("latin1") : "";
    const adjustments = raw.match(/> -?[\d.]+ </g)?.length ?? 0;
    expect(adjustments).toBeLessThan(text.length / 4);
  });
});
