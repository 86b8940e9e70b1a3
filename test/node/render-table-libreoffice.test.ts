/**
 * Table placement against LibreOffice: small DOCX documents built here are converted by
 * `soffice` (our substitute fonts) and parsed by our model parser; our `placeTable` places the
 * table at a test cursor over the section's text area, and every word LibreOffice drew must be on
 * the same page within a tolerance of where we draw it. Expected positions come from LibreOffice's
 * `pdftotext -bbox`, never from our engine.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildDocx,
  DEFAULT_SETTINGS,
  DEFAULT_STYLES,
  p,
  pageBreak,
  sectionBreak,
  sectPr,
  table,
  type CellSpec,
  type TableProps,
} from "../support/docx-builder";
import { convertWithLibreOffice, libreOfficeAvailable, wordBoxes, type PageWords } from "./support/libreoffice";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import { parseDocx } from "../../src/render/model/parse-docx";
import { loadFontBook } from "../../src/render/fonts/font-book";
import { placeTable } from "../../src/render/layout/block/table";
import { renderDocxToPdf } from "../../src/render/index";
import { layoutContext } from "../../src/render/layout/index";
import type { FlowCursor, LayoutContext, PaintItem } from "../../src/render/layout/types";
import type { FontBook } from "../../src/render/fonts/types";
import { makePng } from "../support/png-images";

/** How far (pt) our word may be from LibreOffice's; both use the same font metrics and widths. */
const TOLERANCE = 1;

/** Word compatibility 14: tblInd is where the first cell's text starts (see table-grid.ts). */
const SETTINGS_14 = `<w:defaultTabStop w:val="720"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="14"/></w:compat>`;

interface OurWord {
  text: string;
  page: number;
  xMin: number;
  /** Baseline minus the face's ascent: what poppler reports as yMin. */
  yMin: number;
}

/** A FlowCursor over pages of one section's text area, recording text items as words. */
class PagesCursor implements FlowCursor {
  readonly pages: PaintItem[][] = [[]];
  y: number;
  constructor(readonly area: { left: number; width: number; top: number; bottom: number }) {
    this.y = area.top;
  }
  emit(item: PaintItem): void {
    this.pages[this.pages.length - 1]!.push(item);
  }
  breakArea(): void {
    this.pages.push([]);
    this.y = this.area.top;
  }
  atAreaTop(): boolean {
    return this.y <= this.area.top;
  }
  noteRefs(): void {}
  remaining(): number {
    return this.area.bottom - this.y;
  }
}

/** Our words: text items split at spaces, positioned with the face's advance widths. */
function ourWords(pages: PaintItem[][]): OurWord[] {
  const out: OurWord[] = [];
  pages.forEach((items, page) => {
    for (const item of items) {
      if (item.kind !== "text") continue;
      let x = item.x;
      for (const part of item.text.split(/( +)/)) {
        const w = item.face.widthOf(part, item.size);
        if (part.trim()) out.push({ text: part, page, xMin: x, yMin: item.y - item.face.ascent(item.size) });
        x += w;
      }
    }
  });
  return out;
}

/** Renders the document's first table with LibreOffice and with us; returns both word lists. */
async function compare(
  docx: Uint8Array,
): Promise<{ lo: PageWords[]; ours: OurWord[]; pages: number; loPdf: Uint8Array; items: PaintItem[][] }> {
  const loPdf = await convertWithLibreOffice(docx);
  const lo = await wordBoxes(loPdf);
  const model = parseDocx(docx);
  const fonts: FontBook = await loadFontBook(model, nodeFontSource());
  const ctx: LayoutContext = layoutContext(fonts, model.defaultTabStop);
  const s = model.sections[0]!;
  const cursor = new PagesCursor({
    left: s.margins.left,
    width: s.pageWidth - s.margins.left - s.margins.right,
    top: s.margins.top,
    bottom: s.pageHeight - s.margins.bottom,
  });
  const t = s.blocks.find((b) => b.type === "table");
  if (!t || t.type !== "table") throw new Error("the document has no table");
  placeTable(t, cursor, ctx);
  return { lo, ours: ourWords(cursor.pages), pages: cursor.pages.length, loPdf, items: cursor.pages };
}

/** Pixels per pt when rasterizing LibreOffice's page to find its border lines. */
const RASTER_SCALE = 4;

/** A vertical line crossing a given y: its colour (hex) and centre x, pt. */
interface VerticalLine {
  colour: string;
  x: number;
}

const PURE = ["FF0000", "00FF00", "0000FF"] as const;

/**
 * The vertical lines of pure red, green or blue LibreOffice drew across the horizontal line at
 * `y` (pt) of page 1, left to right: each run of same-coloured pixels there is one line.
 */
async function loVerticalLines(pdf: Uint8Array, y: number): Promise<VerticalLine[]> {
  const dir = mkdtempSync(join(tmpdir(), "signet-raster-"));
  try {
    writeFileSync(join(dir, "in.pdf"), pdf);
    await promisify(execFile)("pdftoppm", [
      "-r",
      String(72 * RASTER_SCALE),
      "-f",
      "1",
      "-l",
      "1",
      "-singlefile",
      join(dir, "in.pdf"),
      join(dir, "page"),
    ]);
    const ppm = readFileSync(join(dir, "page.ppm"));
    // Binary PPM: "P6", width, height, maxval, each followed by one whitespace byte.
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 64).toString("latin1"));
    if (!header) throw new Error("pdftoppm wrote no P6 image");
    const width = Number(header[1]);
    const row = ppm.subarray(header[0].length + Math.round(y * RASTER_SCALE) * width * 3);
    const out: VerticalLine[] = [];
    let run = null as { colour: string; from: number; to: number } | null;
    const flush = () => {
      if (run) out.push({ colour: run.colour, x: (run.from + run.to) / 2 / RASTER_SCALE });
      run = null;
    };
    for (let px = 0; px < width; px++) {
      const rgb = [row[px * 3]!, row[px * 3 + 1]!, row[px * 3 + 2]!];
      const k = rgb.findIndex((v) => v > 200);
      const colour = k >= 0 && rgb.every((v, i) => i === k || v < 60) ? PURE[k]! : null;
      if (colour && run?.colour === colour) run.to = px + 1;
      else {
        flush();
        if (colour) run = { colour, from: px, to: px + 1 };
      }
    }
    flush();
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Our vertical lines crossing `y`, left to right. */
function ourVerticalLines(items: PaintItem[], y: number): VerticalLine[] {
  const out: VerticalLine[] = [];
  for (const item of items) {
    if (item.kind !== "line" || item.x1 !== item.x2 || !item.color) continue;
    if (y >= Math.min(item.y1, item.y2) && y <= Math.max(item.y1, item.y2))
      out.push({ colour: item.color.toUpperCase(), x: item.x1 });
  }
  return out.sort((a, b) => a.x - b.x);
}

/** Differences between LibreOffice's vertical lines and ours across the middle of the word `at`'s line. */
async function lineMismatches(
  c: { lo: PageWords[]; loPdf: Uint8Array; items: PaintItem[][] },
  at: string,
): Promise<{ theirs: VerticalLine[]; bad: string[] }> {
  const w = c.lo[0]!.words.find((x) => x.text === at)!;
  const y = (w.yMin + w.yMax) / 2;
  const theirs = await loVerticalLines(c.loPdf, y);
  const mine = ourVerticalLines(c.items[0]!, y);
  const show = (l: VerticalLine[]) => l.map((v) => `${v.colour}@${v.x.toFixed(1)}`).join(" ");
  const bad: string[] = [];
  if (
    theirs.length !== mine.length ||
    theirs.some((t, i) => t.colour !== mine[i]!.colour || Math.abs(t.x - mine[i]!.x) > TOLERANCE)
  )
    bad.push(`${at}: LibreOffice ${show(theirs)}, ours ${show(mine)}`);
  return { theirs, bad };
}

/** For every LibreOffice word: our word with the same text and occurrence index, and the distances. */
function mismatches(lo: PageWords[], ours: OurWord[], tolerance = TOLERANCE): string[] {
  const seen = new Map<string, number>();
  const bad: string[] = [];
  lo.forEach((page, pageIndex) => {
    for (const w of page.words) {
      const n = seen.get(w.text) ?? 0;
      seen.set(w.text, n + 1);
      const mine = ours.filter((o) => o.text === w.text)[n];
      if (!mine) {
        bad.push(`${w.text}#${n}: missing`);
        continue;
      }
      const dx = mine.xMin - w.xMin;
      const dy = mine.yMin - w.yMin;
      if (mine.page !== pageIndex || Math.abs(dx) > tolerance || Math.abs(dy) > tolerance)
        bad.push(`${w.text}#${n}: page ${mine.page + 1} vs ${pageIndex + 1}, dx ${dx.toFixed(2)}, dy ${dy.toFixed(2)}`);
    }
  });
  return bad;
}

/**
 * Word's defaults with single line spacing: these tests are about where rows and cells go, so they
 * keep proportional line spacing (paragraph layout's business) out of the row heights.
 */
const STYLES_SINGLE = DEFAULT_STYLES.replace('w:line="259"', 'w:line="240"');

function doc(tableXml: string, settings = SETTINGS_14): Uint8Array {
  return buildDocx({ body: tableXml + p(""), settings, styles: STYLES_SINGLE });
}

/** Adds table-level cell margins (twips) to a builder table. */
function withCellMargins(xml: string, m: { top: number; left: number; bottom: number; right: number }): string {
  const mar = `<w:tblCellMar><w:top w:w="${m.top}" w:type="dxa"/><w:left w:w="${m.left}" w:type="dxa"/><w:bottom w:w="${m.bottom}" w:type="dxa"/><w:right w:w="${m.right}" w:type="dxa"/></w:tblCellMar>`;
  return xml.replace("<w:tblLayout", `${mar}<w:tblLayout`);
}

/** Renders the whole document with LibreOffice and with us: the same words, each within TOLERANCE. */
async function expectWordsWhereLibreOfficeDrawsThem(docx: Uint8Array, count: number): Promise<void> {
  const [lo, ours] = await Promise.all([
    convertWithLibreOffice(docx).then(wordBoxes),
    renderDocxToPdf(docx, { fonts: nodeFontSource() }).then(wordBoxes),
  ]);
  const words = (pages: PageWords[]) => pages.flatMap((pg) => pg.words);
  expect(words(lo).length).toBe(count);
  expect(words(ours).map((w) => w.text)).toEqual(words(lo).map((w) => w.text));
  words(lo).forEach((w, i) => {
    const o = words(ours)[i]!;
    expect(Math.abs(o.yMin - w.yMin), `y of "${w.text}"`).toBeLessThan(TOLERANCE);
    expect(Math.abs(o.xMin - w.xMin), `x of "${w.text}"`).toBeLessThan(TOLERANCE);
  });
}

const haveLibreOffice = await libreOfficeAvailable();

describe.skipIf(!haveLibreOffice)("tables placed where LibreOffice places them", () => {
  const grid3: TableProps = { widths: [2400, 2400, 2400] };

  it("a 3x3 grid", async () => {
    const { lo, ours } = await compare(
      doc(
        table(
          [
            ["A1", "B1", "C1"],
            ["A2", "B2", "C2"],
            ["A3", "B3", "C3"],
          ],
          grid3,
        ),
      ),
    );
    expect(lo.flatMap((pg) => pg.words).length).toBe(9);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("gridSpan cells, and text wrapping in a narrow cell", async () => {
    const rows: (string | CellSpec)[][] = [
      [{ content: "Spanning two columns", gridSpan: 2 }, "Right"],
      ["Left", "Middle", "End"],
      ["One", { content: "Two three four five six seven eight nine ten eleven", gridSpan: 2 }],
    ];
    const { lo, ours } = await compare(doc(table(rows, { widths: [1500, 1500, 1500] })));
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a vertically merged cell spanning three rows, centred, beside rows of different heights", async () => {
    const rows: (string | CellSpec)[][] = [
      [
        { content: "Merged", vMerge: "restart", vAlign: "center" },
        "First row with enough words to wrap onto a second line",
        "x1",
      ],
      [{ content: "", vMerge: "continue" }, "Second", "x2"],
      [{ content: "", vMerge: "continue" }, "Third", "x3"],
      ["After", "Last", "x4"],
    ];
    const { lo, ours } = await compare(doc(table(rows, { widths: [1800, 2400, 1200] })));
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("table cell margins move the text inside each cell", async () => {
    const xml = withCellMargins(
      table(
        [
          ["Alpha", "Beta"],
          ["Gamma", "Delta"],
        ],
        { widths: [3000, 3000] },
      ),
      { top: 144, left: 360, bottom: 100, right: 360 },
    );
    const { lo, ours } = await compare(doc(xml));
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a long table continues on the next page with its header row repeated", async () => {
    const rows: string[][] = [["Head", "Value"]];
    for (let i = 1; i <= 60; i++) rows.push([`Row${i}`, `V${i}`]);
    const { lo, ours, pages } = await compare(doc(table(rows, { widths: [3000, 3000], headerRows: 1 })));
    expect(lo.length).toBe(3);
    expect(pages).toBe(lo.length);
    // The header's words are on every page, at LibreOffice's positions.
    for (const page of lo) expect(page.words.filter((w) => w.text === "Head").length).toBe(1);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("tables nested two and three deep inside a cell split their rows across pages as LibreOffice splits them (no text runs off a page)", async () => {
    // Layout tables without borders, as in generated documents (a job announcement of 16 pages was 3).
    const rows = Array.from({ length: 60 }, (_, i) => [
      { content: p(`Row${i} first line of the nested row`) + p(`Row${i} second line of the nested row`) },
    ]);
    const innermost = table(rows, { widths: [7000], borders: false });
    const wrap = (inner: string, width: number) =>
      table([[{ content: inner + p("") }]], { widths: [width], borders: false });
    for (const nested of [wrap(wrap(innermost, 7600), 8200), wrap(wrap(wrap(innermost, 7600), 8200), 8800)]) {
      const { lo, ours } = await compare(doc(nested));
      expect(lo.length).toBeGreaterThan(2);
      expect(ours.length).toBe(lo.flatMap((pg) => pg.words).length);
      expect(mismatches(lo, ours)).toEqual([]);
    }
  });

  it("a row taller than a page splits at its lines even when marked cantSplit: no text is lost", async () => {
    const lines = Array.from({ length: 120 }, (_, i) => p(`Line${i} of a row that may not split`)).join("");
    const { lo, ours } = await compare(doc(table([[{ content: lines }]], { widths: [8000], cantSplit: true })));
    expect(lo.length).toBeGreaterThan(2);
    expect(ours.length).toBe(lo.flatMap((pg) => pg.words).length);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a tall cell of a table nested in a cell splits at its lines across pages", async () => {
    const lines = Array.from({ length: 120 }, (_, i) => p(`Line${i} of one tall nested cell`)).join("");
    const nested = table([[{ content: table([[{ content: lines }]], { widths: [7000] }) + p("") }]], {
      widths: [8000],
    });
    const { lo, ours } = await compare(doc(nested));
    expect(lo.length).toBeGreaterThan(2);
    expect(ours.length).toBe(lo.flatMap((pg) => pg.words).length);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("paragraph spacing inside cells: before at the top, the larger of after/before between, contextual spacing", async () => {
    const sp = (before: number, after: number, contextualSpacing = false) => ({
      spacing: { before, after },
      contextualSpacing,
    });
    const rows: (string | CellSpec)[][] = [
      [{ content: p("Top", sp(240, 0)) + p("Second", sp(0, 240)) }, { content: p("Plain", sp(0, 0)) }],
      [
        { content: p("Ctx1", sp(0, 240, true)) + p("Ctx2", sp(240, 240, true)) + p("Ctx3", sp(0, 0)) },
        { content: p("Max1", sp(0, 200)) + p("Max2", sp(100, 0)) + p("Max3", sp(300, 0)) },
      ],
      ["Next", "Row"],
    ];
    const { lo, ours } = await compare(doc(table(rows, { widths: [3000, 3000] })));
    expect(mismatches(lo, ours)).toEqual([]);
  });

  /** Rows of one line, then a row of `lines` lines in its first cell, then rows again. */
  function tallRowTable(before: number, lines: number, props: Partial<TableProps> = {}): string {
    const rows: (string | CellSpec)[][] = [];
    for (let i = 1; i <= before; i++) rows.push([`Line${i}`, `W${i}`]);
    const tall = Array.from({ length: lines }, (_, i) => p(`Tall${i + 1}`, { spacing: { after: 0 } })).join("");
    rows.push([{ content: tall }, "Beside"]);
    rows.push(["Following", "Last"]);
    return table(rows, { widths: [3000, 3000], ...props });
  }

  it("a row split between paragraphs continues on the next page with the next paragraph's space before", async () => {
    // Each paragraph of the tall cell has 12 pt before: the one opening page 2 keeps it (12 pt lower
    // than a row continued inside a paragraph would start).
    const rows: (string | CellSpec)[][] = [];
    for (let i = 1; i <= 26; i++) rows.push([`Line${i}`, `W${i}`]);
    rows.push([
      {
        content: Array.from({ length: 10 }, (_, i) => p(`Tall${i + 1}`, { spacing: { before: 240, after: 0 } })).join(
          "",
        ),
      },
      "Beside",
    ]);
    rows.push(["Following", "Last"]);
    const { lo, ours } = await compare(doc(table(rows, { widths: [3000, 3000] })));
    expect(lo.length).toBe(2);
    expect(lo[1]!.words[0]!.text).toMatch(/^Tall/);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a row that may split is cut at a line boundary of its cell and continues on the next page", async () => {
    const { lo, ours } = await compare(doc(tallRowTable(27, 10)));
    expect(lo.length).toBe(2);
    const tallOnFirst = lo[0]!.words.filter((w) => w.text.startsWith("Tall")).length;
    expect(tallOnFirst).toBeGreaterThan(0);
    expect(tallOnFirst).toBeLessThan(10);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a cantSplit row that does not fit moves whole to the next page", async () => {
    const { lo, ours } = await compare(doc(tallRowTable(27, 10, { cantSplit: true })));
    expect(lo[0]!.words.some((w) => w.text.startsWith("Tall"))).toBe(false);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a table nested in a cell", async () => {
    const inner =
      table(
        [
          ["In1", "In2"],
          ["In3", "In4"],
        ],
        { widths: [1200, 1200] },
      ) + p("Under");
    const rows: (string | CellSpec)[][] = [
      [{ content: p("Outer") + inner }, "Side"],
      ["Bottom", "End"],
    ];
    const { lo, ours } = await compare(doc(table(rows, { widths: [3600, 2400] })));
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("an empty paragraph ending a cell right after a nested table takes no room; a second one, or text, does", async () => {
    const inner = table([["In1"]], { widths: [2400] });
    const rows: (string | CellSpec)[][] = [
      [{ content: p("Outer") + inner + p("") }],
      [{ content: inner + p("") + p("") }],
      [{ content: inner + p("Tail") }],
      ["Bottom"],
    ];
    const { lo, ours } = await compare(doc(table(rows, { widths: [4800] })));
    expect(lo.flatMap((pg) => pg.words).length).toBe(6);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a wrapped picture anchored to a line is offset upwards from it (LibreOffice 7.4) and its cell grows to hold it", async () => {
    // positionV relativeFrom="line": -60 pt puts the picture 60 pt below the line's top in
    // LibreOffice 7.4 (Word: above, inside the cell), and the row grows to the picture's bottom.
    const picture = (offsetPt: number, id: number) =>
      `<w:r><w:drawing><wp:anchor distT="19050" distB="19050" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="0">` +
      `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="line"><wp:posOffset>${offsetPt * 12700}</wp:posOffset></wp:positionV>` +
      `<wp:extent cx="63500" cy="63500"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapTopAndBottom/><wp:docPr id="${id}" name="Picture ${id}"/>` +
      `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="${id}" name="p"/><pic:cNvPicPr/></pic:nvPicPr>` +
      `<pic:blipFill><a:blip r:embed="rIdPic"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="63500" cy="63500"/></a:xfrm>` +
      `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
    const rows: (string | CellSpec)[][] = [
      [{ content: p("Top") + p("Date") + `<w:p>${picture(-60, 1)}</w:p>` }, "Side"],
      ["Below", "End"],
    ];
    const docx = buildDocx({
      body: table(rows, { widths: [3600, 3600] }) + p(""),
      settings: SETTINGS_14,
      styles: STYLES_SINGLE,
      media: { rIdPic: makePng(4, 4) },
    });
    const { lo, ours } = await compare(docx);
    expect(lo.flatMap((pg) => pg.words).length).toBe(5);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("every cell of a row takes the row's largest top and bottom cell margins, as in LibreOffice", async () => {
    // Cell margins in twips per cell ([top, bottom], undefined: the table's), text lines per cell.
    const row = (cells: { mar?: [number, number]; lines: string[]; vAlign?: string }[]) =>
      `<w:tr>${cells
        .map(
          (c) =>
            `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/>` +
            (c.mar
              ? `<w:tcMar><w:top w:w="${c.mar[0]}" w:type="dxa"/><w:bottom w:w="${c.mar[1]}" w:type="dxa"/></w:tcMar>`
              : "") +
            (c.vAlign ? `<w:vAlign w:val="${c.vAlign}"/>` : "") +
            `</w:tcPr>${c.lines.map((l) => p(l)).join("")}</w:tc>`,
        )
        .join("")}</w:tr>`;
    const tbl = (rows: string[]) =>
      `<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/><w:tblBorders><w:top w:val="single" w:sz="4" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:color="000000"/></w:tblBorders>` +
      `<w:tblCellMar><w:top w:w="144" w:type="dxa"/><w:left w:w="115" w:type="dxa"/><w:bottom w:w="58" w:type="dxa"/><w:right w:w="115" w:type="dxa"/></w:tblCellMar></w:tblPr>` +
      `<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>${rows.join("")}</w:tbl>${p("After")}`;
    const xml =
      tbl([row([{ mar: [0, 0], lines: ["Zero"] }, { lines: ["Table"] }])]) +
      tbl([row([{ mar: [600, 0], lines: ["Thirty"] }, { lines: ["Default"] }])]) +
      tbl([
        row([
          { mar: [0, 0], lines: ["L1", "L2", "L3"], vAlign: "bottom" },
          { mar: [0, 600], lines: ["Low"], vAlign: "bottom" },
        ]),
      ]) +
      tbl([
        row([{ mar: [600, 300], lines: ["R1a"] }, { lines: ["R1b"] }]),
        row([{ lines: ["R2a"] }, { lines: ["R2b"] }]),
      ]);
    await expectWordsWhereLibreOfficeDrawsThem(doc(xml), 16);
  });

  it("cell margins come from the table's named style and its cell parts, never from the default table style alone", async () => {
    // Twips per side, as a w:tblCellMar or w:tcMar body.
    const mar = (m: Partial<Record<"top" | "bottom" | "left" | "right", number>>) =>
      Object.entries(m)
        .map(([side, w]) => `<w:${side} w:w="${w}" w:type="dxa"/>`)
        .join("");
    // Normal Table: 10.8 pt top and bottom, 15 pt left and right. S1 takes them but sets top 0; its
    // first row's cells have 15 pt top, 20 pt left (its w:tblPr there is ignored). S2's cells have
    // 15 pt top, 20 pt left everywhere, over the table's own w:tblCellMar.
    const styles =
      STYLES_SINGLE.replace(/<w:style w:type="table" w:default="1".*?<\/w:style>/, "") +
      `<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblCellMar>${mar({ top: 216, left: 300, bottom: 216, right: 300 })}</w:tblCellMar></w:tblPr></w:style>` +
      `<w:style w:type="table" w:styleId="S1"><w:name w:val="S1"/><w:basedOn w:val="TableNormal"/><w:tblPr><w:tblCellMar>${mar({ top: 0 })}</w:tblCellMar></w:tblPr>` +
      `<w:tblStylePr w:type="firstRow"><w:tblPr><w:tblCellMar>${mar({ bottom: 400 })}</w:tblCellMar></w:tblPr><w:tcPr><w:tcMar>${mar({ top: 300, left: 400 })}</w:tcMar></w:tcPr></w:tblStylePr></w:style>` +
      `<w:style w:type="table" w:styleId="S2"><w:name w:val="S2"/><w:basedOn w:val="TableNormal"/><w:tcPr><w:tcMar>${mar({ top: 300, left: 400 })}</w:tcMar></w:tcPr></w:style>`;
    const cell = (text: string, tcMar = "") =>
      `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/>${tcMar && `<w:tcMar>${tcMar}</w:tcMar>`}<w:shd w:val="clear" w:color="auto" w:fill="FFCC00"/></w:tcPr>${p(text)}</w:tc>`;
    const tbl = (tblPr: string, words: string[], firstCellMar = "") =>
      `<w:tbl><w:tblPr>${tblPr}<w:tblW w:w="6000" w:type="dxa"/><w:tblLook w:val="0420" w:firstRow="1" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="1" w:noVBand="1"/></w:tblPr>` +
      `<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>` +
      `<w:tr>${cell(words[0]!, firstCellMar)}${cell(words[1]!)}</w:tr><w:tr>${cell(words[2]!)}${cell(words[3]!)}</w:tr></w:tbl>${p(`After${words[0]}`)}`;
    const tblPr = (style: string, own = "") =>
      (style ? `<w:tblStyle w:val="${style}"/>` : "") + (own && `<w:tblCellMar>${own}</w:tblCellMar>`);
    const body =
      tbl(tblPr(""), ["Ua", "Ub", "Uc", "Ud"]) +
      tbl(tblPr("Missing"), ["Ma", "Mb", "Mc", "Md"]) +
      tbl(tblPr("TableNormal"), ["Na", "Nb", "Nc", "Nd"]) +
      tbl(tblPr("S1"), ["Fa", "Fb", "Fc", "Fd"]) +
      tbl(tblPr("S2", mar({ top: 100, left: 200 })), ["Wa", "Wb", "Wc", "Wd"]) +
      tbl(tblPr("S1"), ["Ta", "Tb", "Tc", "Td"], mar({ top: 60, left: 100 }));
    await expectWordsWhereLibreOfficeDrawsThem(buildDocx({ body, styles }), 30);
  });

  it("a table style fills what the Normal style leaves unset, and replaces its 11 pt and left alignment", async () => {
    // Normal: Arial, 11 pt, left, 20 pt after. Table style: Courier New bold 16 pt, centred, 0 after.
    // LibreOffice keeps Normal's font and spacing, takes bold from the table style and, by Word's old
    // rule (no overrideTableStyleFontSizeAndJustification here), its size and centring.
    const styles =
      `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>` +
      `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr><w:spacing w:after="400"/><w:jc w:val="left"/></w:pPr>` +
      `<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="22"/></w:rPr></w:style>` +
      `<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblCellMar><w:left w:w="108" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>` +
      `<w:style w:type="table" w:styleId="TG"><w:name w:val="TG"/><w:basedOn w:val="TableNormal"/><w:pPr><w:spacing w:after="0"/><w:jc w:val="center"/></w:pPr>` +
      `<w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/><w:b/><w:sz w:val="32"/></w:rPr></w:style>`;
    const xml =
      `<w:tbl><w:tblPr><w:tblStyle w:val="TG"/><w:tblW w:w="6000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="6000"/></w:tblGrid>` +
      `<w:tr><w:tc><w:tcPr><w:tcW w:w="6000" w:type="dxa"/></w:tcPr>${p("First line")}${p("Second line")}</w:tc></w:tr></w:tbl>${p("After")}`;
    const docx = buildDocx({ body: xml, styles });
    const [lo, ours] = await Promise.all([
      convertWithLibreOffice(docx).then(wordBoxes),
      renderDocxToPdf(docx, { fonts: nodeFontSource() }).then(wordBoxes),
    ]);
    const words = (pages: PageWords[]) => pages.flatMap((pg) => pg.words);
    expect(words(ours).map((w) => w.text)).toEqual(words(lo).map((w) => w.text));
    words(lo).forEach((w, i) => {
      const o = words(ours)[i]!;
      expect(Math.abs(o.yMin - w.yMin), `y of "${w.text}"`).toBeLessThan(TOLERANCE);
      expect(Math.abs(o.xMin - w.xMin), `x of "${w.text}"`).toBeLessThan(TOLERANCE);
      expect(Math.abs(o.xMax - w.xMax), `width of "${w.text}"`).toBeLessThan(TOLERANCE);
    });
  });

  it("row heights (at least) with bottom- and centre-aligned cells, in a centred table", async () => {
    const rows: (string | CellSpec)[][] = [
      [{ content: "Bottom", vAlign: "bottom" }, { content: "Centre", vAlign: "center" }, "TopText"],
      [{ content: "Second", vAlign: "bottom" }, "Row", "Here"],
    ];
    const { lo, ours } = await compare(
      doc(table(rows, { widths: [1800, 1800, 1800], rowHeight: { h: 1000 }, jc: "center" })),
    );
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a right-to-left table (bidiVisual) puts its first column on the right", async () => {
    const xml = table(
      [
        ["First", "Second", "Third"],
        ["A", "B", "C"],
      ],
      { widths: [1000, 2000, 3000] },
    ).replace("<w:tblPr>", "<w:tblPr><w:bidiVisual/>");
    const { lo, ours } = await compare(doc(xml));
    const x = (t: string) => lo[0]!.words.find((w) => w.text === t)!.xMin;
    expect(x("First")).toBeGreaterThan(x("Third"));
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("an exact row height cuts off the lines that start below it", async () => {
    const rows: (string | CellSpec)[][] = [
      [{ content: p("One") + p("Two") + p("Three") + p("Four") }, "Side"],
      ["Next", "Row"],
    ];
    const { lo, ours } = await compare(
      doc(table(rows, { widths: [3000, 3000], rowHeight: { h: 400, rule: "exact" } })),
    );
    const words = lo.flatMap((pg) => pg.words.map((w) => w.text));
    expect(words).not.toContain("Four");
    expect(ours.map((w) => w.text)).toEqual(expect.arrayContaining(words));
    expect(ours.map((w) => w.text).sort()).toEqual([...words].sort());
    expect(mismatches(lo, ours)).toEqual([]);
  });
  it("a row whose every cell is empty and hides its end mark (w:hideMark) collapses to its w:trHeight, none: no height", async () => {
    const cell = (content: string, o: { span?: number; hide?: boolean; vMerge?: string } = {}) =>
      `<w:tc><w:tcPr><w:tcW w:w="${o.span ? 0 : 3000}" w:type="${o.span ? "auto" : "dxa"}"/>` +
      (o.span ? `<w:gridSpan w:val="${o.span}"/>` : "") +
      (o.vMerge ?? "") +
      (o.hide === false ? "" : "<w:hideMark/>") +
      `</w:tcPr>${content}</w:tc>`;
    const row = (cells: string, height?: number) =>
      `<w:tr>${height ? `<w:trPr><w:trHeight w:val="${height}"/></w:trPr>` : ""}${cells}</w:tr>`;
    const text = (t: string) => row(cell(p(`${t} left`)) + cell(p(`${t} right`)));
    const spaced = { spacing: { before: 80, after: 160, line: 288 } };
    const rows = [
      text("First"),
      row(cell(p("", spaced), { span: 2 })), // collapsed: no height at all
      text("Second"),
      row(cell(p("")) + cell(p("")), 400), // collapsed to exactly 20 pt
      text("Third"),
      row(cell(p("")) + cell(p(""), { hide: false })), // one cell shows its mark: a line high
      text("Fourth"),
      row(cell(p("") + p(""), { span: 2 })), // two paragraphs are not empty
      text("Fifth"),
      row(cell(p("")) + cell(p(""), { vMerge: `<w:vMerge w:val="restart"/>` })), // merged: kept
      row(cell(p("")) + cell(p(""), { vMerge: "<w:vMerge/>" })),
      text("Sixth"),
    ];
    const xml =
      `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblLayout w:type="fixed"/></w:tblPr>` +
      `<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>${rows.join("")}</w:tbl>`;
    await expectWordsWhereLibreOfficeDrawsThem(buildDocx({ body: p("Before") + xml + p("After") }), 26);
  });

  it("Word 2013+ (compatibilityMode 15): tblInd is the outer edge of the left border, not where the text starts", async () => {
    const thick = table(
      [
        ["Alpha", "Beta"],
        ["Gamma", "Delta"],
      ],
      { widths: [3000, 3000] },
    ).replace(/<w:left w:val="single" w:sz="4"/, '<w:left w:val="single" w:sz="24"');
    for (const xml of [
      table(
        [
          ["Alpha", "Beta"],
          ["Gamma", "Delta"],
        ],
        { widths: [3000, 3000] },
      ),
      thick,
    ]) {
      for (const indent of [0, 720]) {
        const { lo, ours } = await compare(
          doc(xml.replace("<w:tblPr>", `<w:tblPr><w:tblInd w:w="${indent}" w:type="dxa"/>`), DEFAULT_SETTINGS),
        );
        expect(mismatches(lo, ours)).toEqual([]);
      }
    }
  });

  it("a table without w:tblGrid spreads its columns over the text width", async () => {
    const xml = table(
      [
        ["One", "Two", "Three"],
        ["Four", "Five", "Six"],
      ],
      { widths: [1000, 1000, 1000] },
    )
      .replace(/<w:tblGrid>.*?<\/w:tblGrid>/, "")
      .replace(/<w:tcW [^>]*\/>/g, "");
    const { lo, ours } = await compare(doc(xml));
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a percentage table width above 100 % is capped at the text width", async () => {
    // 113.2 % (w:w="5660" pct) over a grid wider than the page: LibreOffice lays it out at 100 %.
    const xml = table([["One", "Two", "Three"]], { widths: [3739, 3561, 3559] }).replace(
      '<w:tblW w:w="0" w:type="auto"/>',
      '<w:tblW w:w="5660" w:type="pct"/>',
    );
    const { lo, ours } = await compare(doc(xml));
    expect(lo.flatMap((pg) => pg.words).length).toBe(3);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("a percentage table width is kept in whole percent, truncated", async () => {
    // 78.76 % (w:w="3938" pct) lays out at 78 %: 0.76 % of the text width is 3.6 pt, so the second
    // column's text would start 3 pt further right; the grid (7291 tw, 7301 wanted) is scaled to it.
    const xml = table(
      [
        ["Description", "Name"],
        ["Two", "Three"],
      ],
      { widths: [6184, 1107] },
    ).replace('<w:tblW w:w="0" w:type="auto"/>', '<w:tblW w:w="3938" w:type="pct"/>');
    const { lo, ours } = await compare(doc(xml));
    expect(lo.flatMap((pg) => pg.words).length).toBe(4);
    expect(mismatches(lo, ours)).toEqual([]);
  });

  it("row-level table property exceptions (w:tblPrEx): their sides become every cell's borders, their inside borders and cell margins are ignored", async () => {
    const b = (side: string, sz: number, c: string, v = "single") =>
      `<w:${side} w:val="${v}" w:sz="${sz}" w:space="0" w:color="${c}"/>`;
    const exceptions = [
      "",
      `<w:tblPrEx><w:tblBorders>${b("top", 48, "000000")}${b("left", 16, "00FF00")}${b("bottom", 48, "000000")}${b("insideV", 24, "FF0000")}</w:tblBorders><w:tblCellMar><w:left w:w="400" w:type="dxa"/></w:tblCellMar></w:tblPrEx>`,
      `<w:tblPrEx><w:tblBorders>${b("insideV", 0, "auto", "none")}${b("insideH", 0, "auto", "none")}</w:tblBorders></w:tblPrEx>`,
      `<w:tblPrEx><w:tblBorders>${b("insideH", 48, "FF0000")}</w:tblBorders></w:tblPrEx>`,
    ];
    const xml = table(
      [
        ["R1a", "R1b", "R1c"],
        ["R2a", "R2b", "R2c"],
        ["R3a", "R3b", "R3c"],
        ["R4a", "R4b", "R4c"],
      ],
      { widths: [2000, 2000, 2000], borders: false },
    )
      .replace(
        "<w:tblLayout",
        `<w:tblBorders>${["top", "left", "bottom", "right", "insideH", "insideV"].map((s) => b(s, 8, "0000FF")).join("")}</w:tblBorders><w:tblLayout`,
      )
      .split("<w:tr>")
      .map((part, i) => (i > 0 ? exceptions[i - 1] + part : part))
      .join("<w:tr>");
    const c = await compare(doc(xml, DEFAULT_SETTINGS));
    // The 6 pt top and bottom of row 2 take room above and below it.
    expect(
      c.lo[0]!.words.find((w) => w.text === "R2a")!.yMin - c.lo[0]!.words.find((w) => w.text === "R1a")!.yMin,
    ).toBeGreaterThan(20);
    expect(mismatches(c.lo, c.ours)).toEqual([]);
    const rows = await Promise.all(["R1a", "R2a", "R3a", "R4a"].map((w) => lineMismatches(c, w)));
    expect(rows.flatMap((r) => r.bad)).toEqual([]);
    // Row 2: the green left side on every cell; the red insideV nowhere. Row 3 keeps the blue insideV.
    expect(rows[1]!.theirs.map((l) => l.colour)).toEqual(["00FF00", "00FF00", "00FF00", "0000FF"]);
    expect(rows[2]!.theirs.map((l) => l.colour)).toEqual(["0000FF", "0000FF", "0000FF", "0000FF"]);
  });
  it("a right-to-left table in a Word 2013+ document: indent, uneven cell margins and a thick start border", async () => {
    const xml = withCellMargins(
      table(
        [
          ["First", "Second", "Third"],
          ["A", "B", "C"],
        ],
        { widths: [1000, 2000, 3000] },
      ),
      { top: 0, left: 400, bottom: 0, right: 100 },
    )
      .replace("<w:tblPr>", `<w:tblPr><w:bidiVisual/><w:tblInd w:w="720" w:type="dxa"/>`)
      .replace(/<w:left w:val="single" w:sz="4"/, '<w:left w:val="single" w:sz="24"');
    const { lo, ours } = await compare(doc(xml, DEFAULT_SETTINGS));
    expect(mismatches(lo, ours)).toEqual([]);
  });
  it("left and right borders of a right-to-left table are its start and end: drawn on the right and left, as LibreOffice draws them", async () => {
    const colour = (side: string, sz: number, c: string) =>
      `<w:${side} w:val="single" w:sz="${sz}" w:space="0" w:color="${c}"/>`;
    const base = table(
      [
        ["First", "Second", "Third"],
        ["A", "B", "C"],
      ],
      { widths: [1000, 2000, 3000], borders: false },
    )
      .replace(
        "<w:tblLayout",
        `<w:tblBorders>${colour("left", 48, "0000FF")}${colour("right", 8, "00FF00")}</w:tblBorders><w:tblLayout`,
      )
      .replace(
        '<w:tcW w:w="1000" w:type="dxa"/>',
        `<w:tcW w:w="1000" w:type="dxa"/><w:tcBorders>${colour("left", 24, "FF0000")}</w:tcBorders>`,
      );
    for (const bidi of [true, false]) {
      const xml = bidi ? base.replace("<w:tblPr>", "<w:tblPr><w:bidiVisual/>") : base;
      const c = await compare(doc(xml, DEFAULT_SETTINGS));
      expect(mismatches(c.lo, c.ours)).toEqual([]);
      const { theirs, bad } = await lineMismatches(c, "First");
      expect(bad).toEqual([]);
      // The first cell's own left border beats the table's (blue is not drawn); the table's right border is.
      expect(theirs.map((l) => l.colour)).toEqual(bidi ? ["00FF00", "FF0000"] : ["FF0000", "00FF00"]);
    }
  });
});

/** Filler paragraph `i`: about `lines` lines of Letter-width text, no space after. */
function filler(i: number, lines: number, props: Parameters<typeof p>[1] = {}): string {
  const words = Array.from({ length: lines * 22 }, (_, k) => `w${k}`).join(" ");
  return p(`Para${i} ${words}`, { spacing: { after: 0 }, ...props });
}

/**
 * Tolerance (pt) between two PDFs read back by poppler: its word boxes come from each font's
 * descriptor, which our subsets and LibreOffice's write differently (about 1.2 pt in y for Tinos).
 */
const PAGE_TOLERANCE = 2;

/** Renders a whole document with Signet and with LibreOffice; LibreOffice's words Signet misplaces. */
async function comparePages(docx: Uint8Array): Promise<{ firstWords: [string[], string[]]; bad: string[] }> {
  const [ours, lo] = await Promise.all([
    renderDocxToPdf(docx, { fonts: nodeFontSource() }).then(wordBoxes),
    convertWithLibreOffice(docx).then(wordBoxes),
  ]);
  const mine: OurWord[] = ours.flatMap((page, i) =>
    page.words.map((w) => ({ text: w.text, page: i, xMin: w.xMin, yMin: w.yMin })),
  );
  const first = (pages: PageWords[]) => pages.map((pg) => pg.words[0]?.text ?? "");
  return { firstWords: [first(ours), first(lo)], bad: mismatches(lo, mine, PAGE_TOLERANCE) };
}

describe.skipIf(!haveLibreOffice)("page margins where no header or footer is drawn (LibreOffice)", () => {
  it("a header and footer distance larger than the margins does not move the body when the page has no header or footer", async () => {
    // Margins of 0.39" with the header and footer 0.5" from the edges, and no header or footer.
    const body =
      Array.from({ length: 24 }, (_, i) => filler(i + 1, 3)).join("") +
      sectPr({ margins: { top: 567, bottom: 567, header: 720, footer: 720 } });
    const c = await comparePages(buildDocx({ body, styles: STYLES_SINGLE }));
    expect(c.firstWords[0]).toEqual(c.firstWords[1]);
    expect(c.firstWords[1].length).toBeGreaterThanOrEqual(2);
    expect(c.bad).toEqual([]);
  });
});

describe.skipIf(!haveLibreOffice)("line breaks after a hyphen between letters or digits (LibreOffice)", () => {
  it("numbers joined by hyphens (codes, phone numbers, ranges) wrap after a hyphen, not inside a number", async () => {
    const tokens = ["12-34", "12-ab", "ab-12", "x-1", "560-95-33"];
    const body = tokens
      .map((t, i) => p(`T${i}: ` + Array.from({ length: 40 }, () => t).join("-"), { spacing: { after: 120 } }))
      .join("");
    const c = await comparePages(buildDocx({ body, styles: STYLES_SINGLE }));
    expect(c.bad).toEqual([]);
  });
});

describe.skipIf(!haveLibreOffice)("rows with vertically merged cells split at the page bottom (LibreOffice)", () => {
  it("the row's text runs on at the top of the next page, the merged cells' content stays on the first", async () => {
    const long = Array.from({ length: 10 }, (_, i) => `Line${i + 1} of the long description cell`).join(" ");
    const rows: CellSpec[][] = [1, 2, 3].flatMap((n) => [
      [
        { content: p(`Item${n}`) },
        { content: p(`${long} for item ${n}.`) },
        { content: p(`Total${n}`), vMerge: "restart" as const },
      ],
      [{ content: p("") }, { content: p(`Detail${n} second row`) }, { content: "", vMerge: "continue" as const }],
    ]);
    const body =
      Array.from({ length: 9 }, (_, i) => filler(i + 1, 3)).join("") +
      table(rows, { widths: [1200, 2400, 1800] }) +
      p("After.");
    const c = await comparePages(buildDocx({ body, styles: STYLES_SINGLE }));
    expect(c.firstWords[1].length).toBeGreaterThanOrEqual(2);
    expect(c.firstWords[0]).toEqual(c.firstWords[1]);
    expect(c.bad).toEqual([]);
  });
  it("a row covered by a merged cell from above splits too", async () => {
    const long = Array.from({ length: 10 }, (_, i) => `Line${i + 1} of the second row's long cell`).join(" ");
    const rows: CellSpec[][] = [1, 2, 3].flatMap((n) => [
      [
        { content: p(`Item${n}`) },
        { content: p(`Head${n} short text`) },
        { content: p(`Total${n}`), vMerge: "restart" as const },
      ],
      [{ content: p("") }, { content: p(`${long} for item ${n}.`) }, { content: "", vMerge: "continue" as const }],
    ]);
    const body =
      Array.from({ length: 9 }, (_, i) => filler(i + 1, 3)).join("") +
      table(rows, { widths: [1200, 2400, 1800] }) +
      p("After.");
    const c = await comparePages(buildDocx({ body, styles: STYLES_SINGLE }));
    expect(c.firstWords[1].length).toBeGreaterThanOrEqual(2);
    expect(c.firstWords[0]).toEqual(c.firstWords[1]);
    expect(c.bad).toEqual([]);
  });
});

describe.skipIf(!haveLibreOffice)("keep-with-next chains longer than a page (LibreOffice)", () => {
  const chain = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => filler(from + i, 3, { keepNext: true, keepLines: true })).join("");
  const loose = (from: number, n: number) => Array.from({ length: n }, (_, i) => filler(from + i, 3)).join("");

  it("a chain below a paragraph without keep moves to the next page whole, then breaks where pages are full", async () => {
    const c = await comparePages(buildDocx({ body: loose(1, 3) + chain(4, 40) + loose(44, 2), styles: STYLES_SINGLE }));
    expect(c.firstWords[1].slice(0, 2)).toEqual(["Para1", "Para4"]);
    expect(c.firstWords[0]).toEqual(c.firstWords[1]);
    expect(c.bad).toEqual([]);
  });

  it("a chain running from the top of the page is not moved: it breaks where the page is full", async () => {
    const c = await comparePages(buildDocx({ body: chain(1, 40) + loose(41, 2), styles: STYLES_SINGLE }));
    expect(c.firstWords[0]).toEqual(c.firstWords[1]);
    expect(c.bad).toEqual([]);
  });
});

describe.skipIf(!haveLibreOffice)("proportional line spacing at the end of a table cell (LibreOffice)", () => {
  it("a cell's last line takes its 1.5-line extra from the paragraph style's size, not from the line's font", async () => {
    const rPr = `<w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="28"/></w:rPr>`;
    const para = (t: string) =>
      `<w:p><w:pPr><w:spacing w:after="0" w:line="360" w:lineRule="auto"/></w:pPr><w:r>${rPr}<w:t>${t}</w:t></w:r></w:p>`;
    const rows: CellSpec[][] = Array.from({ length: 8 }, (_, i) => [
      { content: para(`First${i}`) + para(`Last${i}`) },
      { content: para(`Single${i}`) },
    ]);
    const body = table(rows, { widths: [3000, 3000] }) + para("After");
    const c = await comparePages(buildDocx({ body, styles: STYLES_SINGLE }));
    expect(c.bad).toEqual([]);
  });

  it("a cell ending in an empty paragraph takes the extra from its mark's size (the FedRAMP SSP's 5 pt spacer rows)", async () => {
    // Rows of text between spacer rows: an empty 1.2- or 1.5-line paragraph with a 2.5 to 20 pt mark
    // under the 11 pt style, 3 pt before and after, in a row of at least 4 pt.
    const para = (line: number, inner: string) =>
      `<w:p><w:pPr><w:spacing w:before="60" w:after="60" w:line="${line}" w:lineRule="auto"/>${inner}</w:p>`;
    const rows = [288, 360].flatMap((line) =>
      [5, 10, 16, 40].flatMap((mark) => [
        [{ content: para(line, `</w:pPr><w:r><w:t>Text${line}x${mark}</w:t></w:r>`) }],
        [{ content: para(line, `<w:rPr><w:sz w:val="${mark}"/></w:rPr></w:pPr>`) }],
      ]),
    );
    const body = table(rows, { widths: [6000], rowHeight: { h: 79 } }) + p("After");
    const c = await comparePages(buildDocx({ body, styles: STYLES_SINGLE }));
    expect(c.bad).toEqual([]);
  });
});

describe.skipIf(!haveLibreOffice)("the part of a split row continued on the next page (LibreOffice)", () => {
  it("starts under a rule even where the cells have no top border, its first line without the proportional extra above it", async () => {
    const borders = `<w:tcBorders><w:top w:val="nil"/><w:left w:val="single" w:sz="8" w:space="0" w:color="auto"/><w:bottom w:val="single" w:sz="8" w:space="0" w:color="auto"/><w:right w:val="single" w:sz="8" w:space="0" w:color="auto"/></w:tcBorders>`;
    const para = (t: string) =>
      `<w:p><w:pPr><w:spacing w:after="0" w:line="360" w:lineRule="auto"/></w:pPr><w:r><w:t>${t}</w:t></w:r></w:p>`;
    const cell = (inner: string) => `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/>${borders}</w:tcPr>${inner}</w:tc>`;
    const rows = Array.from(
      { length: 10 },
      (_, i) =>
        `<w:tr>${cell(para(`N${i}`))}${cell(para(Array.from({ length: 10 }, (_, k) => `Row${i}word${k}`).join(" ")))}</w:tr>`,
    ).join("");
    const tbl = `<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/><w:tblCellMar><w:left w:w="0" w:type="dxa"/><w:right w:w="0" w:type="dxa"/></w:tblCellMar></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>${rows}</w:tbl>`;
    const c = await comparePages(buildDocx({ body: p("Top") + tbl + p("End"), styles: STYLES_SINGLE }));
    expect(c.firstWords[1].length).toBeGreaterThanOrEqual(2);
    expect(c.bad).toEqual([]);
  });
});

describe.skipIf(!haveLibreOffice)("a page break just before a section break (LibreOffice)", () => {
  it("leaves no blank page: the next section's first page follows", async () => {
    const body =
      p("First section text.") +
      p([pageBreak()]) +
      sectionBreak() +
      p("Second section, landscape.") +
      p([pageBreak()]) +
      sectionBreak({ width: 15840, height: 12240, landscape: true }) +
      p("Third section.");
    const c = await comparePages(buildDocx({ body, styles: STYLES_SINGLE }));
    expect(c.firstWords[1]).toEqual(["First", "Second", "Third"]);
    expect(c.firstWords[0]).toEqual(c.firstWords[1]);
    expect(c.bad).toEqual([]);
  });
});

describe.skipIf(!haveLibreOffice)("paragraphs with the same borders form one bordered group (LibreOffice)", () => {
  it("a cell of paragraphs each with a bottom rule takes the rule's room once, under the last", async () => {
    const para = (t: string) =>
      `<w:p><w:pPr><w:pBdr><w:bottom w:val="single" w:sz="4" w:space="0" w:color="DFDFDF"/></w:pBdr><w:spacing w:after="0" w:line="250" w:lineRule="atLeast"/></w:pPr><w:r><w:t>${t}</w:t></w:r></w:p>`;
    const rows: CellSpec[][] = [1, 2].map((r) => [
      { content: p(`Name${r}`) },
      { content: Array.from({ length: 14 }, (_, i) => para(`Row${r} item ${i + 1}`)).join("") },
    ]);
    const c = await comparePages(
      buildDocx({ body: table(rows, { widths: [2000, 5000] }) + p("After the table."), styles: STYLES_SINGLE }),
    );
    expect(c.bad).toEqual([]);
  });
});

describe.skipIf(!haveLibreOffice)("contextual spacing across a page break (LibreOffice)", () => {
  it("a paragraph after a page break keeps its space before, though the one above has the same style", async () => {
    const props = { spacing: { before: 480, after: 0 }, extra: "<w:contextualSpacing/>" };
    const body =
      p("Intro one.", props) +
      p("Intro two.", props) +
      p([pageBreak()], props) +
      p("Heading after the break.", props) +
      p("Next line.", props);
    const c = await comparePages(buildDocx({ body, styles: STYLES_SINGLE }));
    expect(c.firstWords[1]).toEqual(["Intro", "Heading"]);
    expect(c.bad).toEqual([]);
  });
});

describe.skipIf(!haveLibreOffice)("rows that keep with the next row, and where a row may split (LibreOffice)", () => {
  const par = (text: string, o: { keep?: boolean; half?: number } = {}) =>
    `<w:p><w:pPr>${o.keep ? "<w:keepNext/>" : ""}<w:spacing w:after="0"/></w:pPr><w:r>${o.half ? `<w:rPr><w:sz w:val="${o.half}"/></w:rPr>` : ""}<w:t>${text}</w:t></w:r></w:p>`;
  const cell = (paras: string) => `<w:tc><w:tcPr><w:tcW w:w="4500" w:type="dxa"/></w:tcPr>${paras}</w:tc>`;
  const grid = (rows: string[]) =>
    `<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/><w:tblBorders><w:insideH w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>` +
    `<w:tblGrid><w:gridCol w:w="4500"/><w:gridCol w:w="4500"/></w:tblGrid>${rows.map((r) => `<w:tr>${r}</w:tr>`).join("")}</w:tbl><w:p/>`;
  /** `n` one-line rows (those in `keep` start their first or second cell with a keep-with-next paragraph), then `last`, then "Echo". */
  const rows = (keep: (i: number) => boolean, secondCell: boolean, last: string, n = 40) =>
    grid([
      ...Array.from(
        { length: n },
        (_, i) =>
          cell(par(`Row${i}`, { keep: keep(i) && !secondCell })) + cell(par(`x${i}`, { keep: keep(i) && secondCell })),
      ),
      last,
      cell(par("Echo")) + cell(par("five")),
    ]);
  const lines = (keep: boolean) =>
    cell(par("Delta", { keep })) + cell(["first", "second", "third"].map((w) => par(w, { keep })).join(""));
  const check = async (body: string) => {
    const c = await comparePages(buildDocx({ body }));
    expect(c.firstWords[1].length).toBe(2);
    expect(c.firstWords[0]).toEqual(c.firstWords[1]);
    return c.firstWords[1][1];
  };

  it("rows whose first cell starts with a keep-with-next paragraph go on with the first row that does not fit (not so for another cell)", async () => {
    // Rows 37-39 keep with the row after them: the three go on with the row that does not fit.
    expect(await check(rows((i) => i >= 37, false, lines(true)))).toBe("Row37");
    // The same paragraphs in the second cell do not keep the rows.
    expect(await check(rows((i) => i >= 37, true, lines(true)))).toBe("Delta");
  });

  it("the row that does not fit splits where it can, and the rows keeping with it stay", async () => {
    // Page two starts with the rest of the split row ("third", then "Echo"), not with row 37.
    expect(await check(rows((i) => i >= 37, false, lines(false)))).not.toBe("Row37");
  });

  it("a row splits only where the first line of every cell fits, and not when it keeps with the next row", async () => {
    // Its second cell's 36 pt line does not fit above the page bottom: the row goes on whole.
    const tall = cell(Array.from({ length: 10 }, (_, i) => par(`line${i}`)).join("")) + cell(par("Huge", { half: 72 }));
    expect(await check(rows(() => false, false, tall, 42))).toBe("line0");
    // Its first cell starts with a keep-with-next paragraph: the row goes on whole.
    expect(
      await check(
        rows(
          () => false,
          false,
          cell(par("Delta", { keep: true })) + cell(["first", "second", "third"].map((w) => par(w)).join("")),
          41,
        ),
      ),
    ).toBe("Delta");
    // Keep-with-next paragraphs in another cell do not hold the row together: it splits between them.
    expect(
      await check(
        rows(
          () => false,
          false,
          cell(par("Delta")) + cell(["first", "second", "third"].map((w) => par(w, { keep: true })).join("")),
          41,
        ),
      ),
    ).not.toBe("Delta");
  });
});
