/**
 * The font book against real font files: family substitution through the font table, which faces
 * get loaded, fallback splitting for scripts the primary face lacks, and line metrics compared
 * with what LibreOffice produced for the same fonts (numbers in src/render/fonts/font-face.ts).
 */
import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { nodeFontPath, nodeFontSource } from "../../scripts/lib/node-font-source";
import { loadFontBook } from "../../src/render/fonts/font-book";
import { NODE_FONT_PACKAGE_PATHS, FAMILY_IDS, fontFile, substituteFamily } from "../../src/render/fonts/catalog";
import { parseFontMetrics } from "../../src/evidence/font-metrics";
import type { FontSource } from "../../src/render/fonts/types";
import { sfntTable } from "../support/font-files";
import { letterDocument, paragraphStyle, runStyle } from "../support/render-styles";
import type { DocumentModel, FontTableEntry, Paragraph, RunStyle } from "../../src/render/model/types";

function style(font: string, extra: Partial<RunStyle> = {}): RunStyle {
  return runStyle({ font, size: 11, ...extra });
}

function para(runs: { text: string; style: RunStyle }[]): Paragraph {
  return {
    type: "paragraph",
    style: paragraphStyle(),
    inlines: runs.map((r) => ({ type: "text" as const, ...r })),
    markStyle: runs[0]?.style ?? style("Calibri"),
  };
}

function model(paragraphs: Paragraph[], fontTable: FontTableEntry[] = []): DocumentModel {
  return letterDocument(paragraphs, { fontTable });
}

/** The real Node source, recording which files were asked for. */
function recordingSource(): FontSource & { asked: string[] } {
  const inner = nodeFontSource();
  const asked: string[] = [];
  return { asked, load: (file) => (asked.push(file), inner.load(file)), shaper: inner.shaper };
}

describe("font catalog", () => {
  it("every family and style maps to a file that exists in node_modules", async () => {
    for (const id of FAMILY_IDS)
      for (const [b, i] of [
        [false, false],
        [true, false],
        [false, true],
        [true, true],
      ] as const) {
        const path = nodeFontPath(fontFile(id, b, i));
        expect(path, `${id} ${b} ${i}`).not.toBeNull();
        expect((await readFile(path!)).byteLength).toBeGreaterThan(10_000);
      }
    // Ten families in four styles, four in two, three single faces (Noto Sans Symbols 2, Droid Sans
    // Fallback, OpenSymbol).
    expect(NODE_FONT_PACKAGE_PATHS.size).toBe(10 * 4 + 4 * 2 + 3);
  });

  it("maps Office families to their metric-compatible substitutes", () => {
    expect(substituteFamily("Calibri")).toBe("Carlito");
    expect(substituteFamily("  calibri   light ")).toBe("Carlito");
    expect(substituteFamily("Cambria")).toBe("Caladea");
    expect(substituteFamily("Arial")).toBe("Arimo");
    expect(substituteFamily("Times New Roman")).toBe("Tinos");
    expect(substituteFamily("Courier New")).toBe("Cousine");
    // LibreOffice (through fontconfig) drew these in Noto Serif / Noto Sans: word widths matched to 0.1 pt.
    expect(substituteFamily("Georgia")).toBe("NotoSerif");
    expect(substituteFamily("Verdana")).toBe("NotoSans");
  });

  it("maps unknown families as fontconfig does, by name only: not by the font table's class, PANOSE, pitch or alt name", () => {
    const table = new Map<string, FontTableEntry>([
      ["Corporate Sans", { name: "Corporate Sans", altName: "Arial" }],
      ["Typewriter X", { name: "Typewriter X", pitch: "fixed", family: "auto" }],
      ["Old Style", { name: "Old Style", family: "roman" }],
      ["Times New Roman Bold", { name: "Times New Roman Bold", altName: "Times New Roman", family: "roman" }],
      ["Panose Serif", { name: "Panose Serif", panose: "02040503050406030204" }],
      ["Panose Mono", { name: "Panose Mono", panose: "02070309020205020404" }],
    ]);
    // LibreOffice 7.4 asks fontconfig with the name alone (render-fonts-libreoffice.test.ts measures these).
    for (const name of [
      "Corporate Sans",
      "Typewriter X",
      "Old Style",
      "Times New Roman Bold",
      "Panose Serif",
      "Panose Mono",
      "Never Heard Of",
    ])
      expect(substituteFamily(name, table), name).toBe("NotoSans");
    // fontconfig's generics (45-latin.conf): serif names → Noto Serif, monospace names → Noto Sans Mono.
    for (const name of ["Georgia", "Garamond", "Constantia", "Palatino Linotype"])
      expect(substituteFamily(name), name).toBe("NotoSerif");
    for (const name of ["Consolas", "Andale Mono"]) expect(substituteFamily(name), name).toBe("NotoSansMono");
    for (const name of ["Verdana", "Tahoma", "Segoe UI", "Book Antiqua", "Helvetica Neue", "Lucida Console"])
      expect(substituteFamily(name), name).toBe("NotoSans");
    // DejaVu by its names and the Bitstream Vera ones (57-dejavu-*.conf).
    expect(substituteFamily("DejaVu Serif")).toBe("DejaVuSerif");
    expect(substituteFamily("Bitstream Vera Sans Mono")).toBe("DejaVuSansMono");
  });
});

describe("loadFontBook", () => {
  it("loads only the faces the runs use, and resolves requests to them", async () => {
    const src = recordingSource();
    const book = await loadFontBook(
      model([
        para([
          { text: "Hello ", style: style("Calibri") },
          { text: "world", style: style("Calibri", { bold: true, italic: true }) },
        ]),
      ]),
      src,
    );
    expect(new Set(src.asked)).toEqual(new Set(["Carlito-Regular.ttf", "Carlito-BoldItalic.ttf"]));
    expect(book.face({ family: "Calibri", bold: false, italic: false }).id).toBe("Carlito-Regular");
    expect(book.face({ family: "Calibri", bold: true, italic: true }).id).toBe("Carlito-BoldItalic");
    // Not scanned: the nearest loaded face of the family, never an exception.
    expect(book.face({ family: "Calibri", bold: true, italic: false }).id).toBe("Carlito-BoldItalic");
    expect(book.face({ family: "Cambria", bold: false, italic: false }).id).toMatch(/^Carlito-/);
  });

  it("measures advance widths like an independent TrueType parser (no kerning)", async () => {
    const book = await loadFontBook(
      model([para([{ text: "AVATAR Wave office", style: style("Arial") }])]),
      nodeFontSource(),
    );
    const face = book.face({ family: "Arial", bold: false, italic: false });
    const reference = parseFontMetrics(new Uint8Array(await readFile(nodeFontPath("Arimo-Regular.ttf")!)));
    // Each advance rounded to LibreOffice's layout pixels (1/120 pt) before summing, as LibreOffice
    // measures (render-paragraph-libreoffice.test.ts, "glyph advances are rounded ...").
    const pixels = (text: string, size: number) =>
      [...text].reduce((px, ch) => px + Math.round(reference.widthOf(ch, size) * 120), 0) / 120;
    for (const text of ["AVATAR Wave office", "Hello, world!", "ÄÖÜ €"]) {
      expect(face.widthOf(text, 11)).toBeCloseTo(pixels(text, 11), 6);
    }
    // "AV" kerns in Arimo: kerning off means the width is the plain sum of both letters.
    expect(face.widthOf("AV", 10)).toBeCloseTo(face.widthOf("A", 10) + face.widthOf("V", 10), 9);
  });

  it("measures the glyphs fontkit cannot read metrics for (Carlito's no-break space, Cousine's U+FEFF)", async () => {
    const book = await loadFontBook(
      model([
        para([
          { text: "a\u00a0b", style: style("Calibri") },
          { text: "x\ufeffy", style: style("Courier New") },
        ]),
      ]),
      nodeFontSource(),
    );
    const carlito = book.face({ family: "Calibri", bold: false, italic: false });
    expect(carlito.widthOf("\u00a0", 11)).toBeCloseTo(carlito.widthOf(" ", 11), 9);
    const cousine = book.face({ family: "Courier New", bold: false, italic: false });
    expect(cousine.widthOf("x\ufeffy", 10)).toBeGreaterThanOrEqual(cousine.widthOf("xy", 10));
  });

  it("gives line heights LibreOffice used for single spacing at 12 pt", async () => {
    const fams = ["Calibri", "Cambria", "Arial", "Times New Roman", "Courier New", "Noto Sans"];
    const book = await loadFontBook(model([para(fams.map((f) => ({ text: "x", style: style(f) })))]), nodeFontSource());
    // Baseline distances (over 29 lines, mutool's character origins: LibreOffice's whole twips) and
    // first-baseline offsets (pdftotext -bbox, 0.1 pt) from LibreOffice's PDF.
    const measured: Record<string, [number, number]> = {
      Calibri: [14.65, 11.4],
      Cambria: [13.8, 10.8],
      Arial: [13.8, 11.3],
      "Times New Roman": [13.8, 11.2],
      "Courier New": [13.6, 10.0],
      "Noto Sans": [16.35, 12.8],
    };
    for (const f of fams) {
      const face = book.face({ family: f, bold: false, italic: false });
      expect(face.lineHeight(12), f).toBeCloseTo(measured[f]![0], 5);
      // The line is the font's ascent and descent rounded to whole twips (font-face.ts lineHeight).
      expect(Math.abs(face.ascent(12) + face.descent(12) - face.lineHeight(12)), f).toBeLessThanOrEqual(0.05);
      expect(Math.abs(face.ascent(12) - measured[f]![1]), f).toBeLessThan(0.051);
    }
  });

  it("loads fallbacks for Hebrew, Arabic and CJK and splits text by coverage", async () => {
    const src = recordingSource();
    const text = "Contract שלום договор مرحبا 中";
    const book = await loadFontBook(model([para([{ text, style: style("Calibri") }])]), src);
    expect(src.asked).toEqual(
      expect.arrayContaining(["Carlito-Regular.ttf", "DejaVuSans-Regular.ttf", "DroidSansFallback-Regular.ttf"]),
    );
    // DejaVu Sans, sans-serif's second face, has the Hebrew too: Noto Sans Hebrew is not needed.
    expect(src.asked).not.toContain("NotoSansHebrew-Regular.ttf");
    const pieces = book.split(text, { family: "Calibri", bold: false, italic: false });
    expect(pieces.map((p) => p.text).join("")).toBe(text);
    const faceOf = (s: string) => pieces.find((p) => p.text.includes(s))!.face.id;
    expect(faceOf("Contract")).toBe("Carlito-Regular");
    expect(faceOf("договор")).toBe("Carlito-Regular"); // Carlito has Cyrillic
    // Hebrew and Arabic script in DejaVu Sans, Han in Droid Sans Fallback, as LibreOffice draws them on Debian.
    expect(faceOf("שלום")).toBe("DejaVuSans-Regular");
    expect(faceOf("مرحبا")).toBe("DejaVuSans-Regular");
    expect(faceOf("中")).toBe("DroidSansFallback-Regular");
    for (const p of pieces)
      for (const ch of p.text.replace(/\s/g, "")) expect(p.face.covers(ch.codePointAt(0)!), ch).toBe(true);
  });

  it("keeps a character no face has in the primary face (drawn as .notdef), not dropped", async () => {
    const text = "Amharic ሰላም";
    const book = await loadFontBook(model([para([{ text, style: style("Calibri") }])]), nodeFontSource());
    const pieces = book.split(text, { family: "Calibri", bold: false, italic: false });
    expect(pieces.map((p) => p.text).join("")).toBe(text);
    expect(pieces.find((p) => p.text.includes("ሰ"))!.face.id).toBe("Carlito-Regular");
  });

  it("uses Noto Serif, not Noto Sans, for Greek in Cambria (Caladea lacks Greek)", async () => {
    const book = await loadFontBook(
      model([para([{ text: "Σύμβαση", style: style("Cambria", { bold: true }) }])]),
      nodeFontSource(),
    );
    const pieces = book.split("Σύμβαση", { family: "Cambria", bold: true, italic: false });
    expect(pieces).toHaveLength(1);
    expect(pieces[0]!.face.id).toBe("NotoSerif-Bold");
  });

  it("draws Wingdings/Symbol bullets mapped to Unicode with the symbol faces, loading no unrelated script", async () => {
    const src = recordingSource();
    const text = "➢ ✓ ◆ ■ ♣ ★";
    const book = await loadFontBook(model([para([{ text, style: style("Calibri") }])]), src);
    expect(src.asked).not.toContain("NotoSansHebrew-Regular.ttf");
    expect(src.asked).not.toContain("NotoSansArabic-Regular.ttf");
    // DejaVu Sans is loaded, as the symbol fallback (LibreOffice's), not for Arabic.
    expect(src.asked).not.toContain("DroidSansFallback-Regular.ttf");
    const pieces = book.split(text, { family: "Calibri", bold: false, italic: false });
    for (const ch of text.replace(/ /g, "")) {
      const piece = pieces.find((p) => p.text.includes(ch))!;
      expect(piece.face.covers(ch.codePointAt(0)!), `${ch} in ${piece.face.id}`).toBe(true);
    }
  });

  it("a document with no runs still gets a face", async () => {
    const m = model([]);
    const book = await loadFontBook(m, nodeFontSource());
    expect(book.face({ family: "Whatever", bold: false, italic: false }).widthOf("abc", 10)).toBeGreaterThan(0);
  });
});

describe("loadFontBook with embedded fonts", () => {
  const carlito = () => new Uint8Array(readFileSync(nodeFontPath("Carlito-Regular.ttf")!));
  /** Carlito with its cmap table's bytes zeroed: a table directory that checks out, a font that does not. */
  function brokenCmap(): Uint8Array {
    const bytes = carlito();
    const cmap = sfntTable(bytes, "cmap")!;
    return bytes.fill(0, cmap.offset, cmap.offset + cmap.length);
  }

  it("draws a family with the face the document embeds for it, the nearest embedded style for the others", async () => {
    const m = {
      ...model([para([{ text: "Embedded", style: style("Contoso") }])]),
      embeddedFonts: [{ family: "Contoso", style: "Regular" as const, bytes: carlito() }],
    };
    const book = await loadFontBook(m, nodeFontSource());
    // Named by its PostScript name, marked apart from the catalog's own Carlito.
    expect(book.face({ family: "Contoso", bold: false, italic: false }).id).toBe("Carlito-Regular-Embedded");
    expect(book.face({ family: "contoso", bold: true, italic: true }).id).toBe("Carlito-Regular-Embedded");
    expect(book.face({ family: "Other", bold: false, italic: false }).id).toBe("NotoSans-Regular");
  });

  it("substitutes the family when its embedded file does not read as a font", async () => {
    const m = {
      ...model([para([{ text: "Embedded", style: style("Contoso") }])]),
      embeddedFonts: [{ family: "Contoso", style: "Regular" as const, bytes: brokenCmap() }],
    };
    const book = await loadFontBook(m, nodeFontSource());
    expect(book.face({ family: "Contoso", bold: false, italic: false }).id).toBe("NotoSans-Regular");
  });
});
