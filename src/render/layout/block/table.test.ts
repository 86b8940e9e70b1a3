/**
 * Table placement with real fonts (Carlito through the static-assets binding) at a small test
 * cursor: every row and line lands exactly once and in order across pages, header rows repeat,
 * footnote references are reported with their row, merged cells grow their last row, and hostile
 * tables (absurd spans, no cells, rows taller than a page, deep nesting) finish without throwing.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { assetFontSource } from "../../fonts/asset-source";
import { loadFontBook } from "../../fonts/font-book";
import type {
  Block,
  Border,
  DocumentModel,
  Inline,
  Paragraph,
  RunStyle,
  Table,
  TableCell,
  TableRow,
} from "../../model/types";
import type { FlowCursor, LayoutContext, PaintItem } from "../types";
import { placeTable } from "./table";
import { stackBlocks } from "./stack";
import { wholeTwips } from "../inline/line-height";
import { LIMITS } from "../../../limits";
import { layoutContext } from "../index";
import { paragraphStyle, runStyle } from "../../../../test/support/render-styles";

const run: RunStyle = runStyle({ size: 11 });

function para(text: string, extra: Inline[] = []): Paragraph {
  return {
    type: "paragraph",
    style: paragraphStyle(),
    inlines: [{ type: "text", text, style: run }, ...extra],
    markStyle: run,
  };
}

function cell(content: string | Block[], over: Partial<TableCell> = {}): TableCell {
  const blocks = typeof content === "string" ? content.split("\n").map((t) => para(t)) : content;
  return {
    gridSpan: 1,
    vMerge: null,
    blocks,
    borders: {},
    shading: null,
    margins: { top: 0, bottom: 0, left: 5.4, right: 5.4 },
    vAlign: "top",
    ...over,
  };
}
const row = (cells: TableCell[], over: Partial<TableRow> = {}): TableRow => ({
  cells,
  header: false,
  cantSplit: false,
  gridBefore: 0,
  gridAfter: 0,
  ...over,
});
const line = (width: number): Border => ({ style: "single", width, color: null, space: 0 });
function table(rows: TableRow[], over: Partial<Table> = {}): Table {
  const cols = Math.min(Math.max(...rows.map((r) => r.cells.reduce((n, c) => n + c.gridSpan, 0)), 1), 50);
  return {
    type: "table",
    grid: Array<number>(cols).fill(100),
    width: { type: "auto" },
    layout: "fixed",
    align: "left",
    indent: 0,
    rows,
    insideBorders: { horizontal: line(0.5), vertical: line(0.5) },
    borders: { top: line(0.5), bottom: line(0.5), left: line(0.5), right: line(0.5) },
    bidi: false,
    ...over,
  };
}

/** Pages of a fixed area (pt), recording items and footnote references per page. */
class TestCursor implements FlowCursor {
  readonly pages: PaintItem[][] = [[]];
  readonly notes: string[][] = [[]];
  y: number;
  constructor(readonly area = { left: 50, width: 400, top: 100, bottom: 300 }) {
    this.y = area.top;
  }
  emit(item: PaintItem): void {
    this.pages[this.pages.length - 1]!.push(item);
  }
  breakArea(): void {
    this.pages.push([]);
    this.notes.push([]);
    this.y = this.area.top;
  }
  atAreaTop(): boolean {
    return this.y <= this.area.top;
  }
  noteRefs(ids: string[]): void {
    this.notes[this.notes.length - 1]!.push(...ids);
  }
  remaining(): number {
    return this.area.bottom - this.y;
  }
  /** Text of each page in drawing order, words joined. */
  texts(): string[][] {
    return this.pages.map((items) => items.flatMap((i) => (i.kind === "text" && i.text.trim() ? [i.text.trim()] : [])));
  }
}

let ctx: LayoutContext;
beforeAll(async () => {
  const model = {
    fontFamilies: new Set(["Calibri"]),
    fontTable: new Map(),
    sections: [],
    headerFooters: new Map(),
    notes: new Map(),
  } as unknown as DocumentModel;
  const fonts = await loadFontBook(model, assetFontSource(env.ASSETS as Fetcher));
  ctx = layoutContext(fonts);
});

describe("placeTable pagination", () => {
  it("places 60 rows over pages in order, each once, repeating the header row on every page", () => {
    const rows = [row([cell("Head"), cell("Value")], { header: true })];
    for (let i = 1; i <= 60; i++) rows.push(row([cell(`R${i}`), cell(`V${i}`)]));
    const c = new TestCursor();
    placeTable(table(rows), c, ctx);
    const pages = c.texts();
    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages) expect(page[0]).toBe("Head");
    const body = pages.flatMap((p) => p.filter((t) => t.startsWith("R")));
    expect(body).toEqual(rows.slice(1).map((_, i) => `R${i + 1}`));
    // Nothing drawn below the area, and the cursor ends below the table on the last page.
    for (const items of c.pages)
      for (const i of items) if (i.kind === "text") expect(i.y).toBeLessThanOrEqual(c.area.bottom);
    expect(c.y).toBeGreaterThan(c.area.top);
  });

  it("splits a row of 40 lines over pages at line boundaries, every line once and in order", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `L${i + 1}`).join("\n");
    const c = new TestCursor();
    placeTable(
      table([row([cell("Before"), cell("B")]), row([cell(lines), cell("Beside")]), row([cell("After"), cell("A")])]),
      c,
      ctx,
    );
    const all = c
      .texts()
      .flat()
      .filter((t) => /^L\d+$/.test(t));
    expect(all).toEqual(Array.from({ length: 40 }, (_, i) => `L${i + 1}`));
    expect(c.pages.length).toBeGreaterThanOrEqual(3);
    // The cell beside the split one is drawn once, on the first part's page.
    expect(
      c
        .texts()
        .flat()
        .filter((t) => t === "Beside").length,
    ).toBe(1);
  });

  it("moves a cantSplit row to the next page, and splits one taller than a page there at its lines (LibreOffice) without looping", () => {
    const tall = Array.from({ length: 30 }, (_, i) => `T${i + 1}`).join("\n");
    const c = new TestCursor();
    c.y += 150; // little room left
    placeTable(table([row([cell(tall)], { cantSplit: true }), row([cell("Next")])]), c, ctx);
    const pages = c.texts();
    expect(pages[0]).toEqual([]);
    expect(pages.length).toBeGreaterThan(2); // taller than a page: split over pages, none of it lost
    expect(pages.flat().filter((t) => /^T\d+$/.test(t))).toEqual(Array.from({ length: 30 }, (_, i) => `T${i + 1}`));
    expect(pages[1]![0]).toBe("T1");
    expect(pages.flat().filter((t) => t === "Next").length).toBe(1);
  });

  it("does not repeat header rows that fill the page, nor when every row is a header", () => {
    const bigHead = Array.from({ length: 14 }, (_, i) => `H${i}`).join("\n");
    const rows = [row([cell(bigHead)], { header: true })];
    for (let i = 1; i <= 30; i++) rows.push(row([cell(`R${i}`)]));
    const c = new TestCursor();
    placeTable(table(rows), c, ctx);
    expect(
      c
        .texts()
        .flat()
        .filter((t) => /^R\d+$/.test(t)).length,
    ).toBe(30);
    expect(
      c
        .texts()
        .flat()
        .filter((t) => t === "H0").length,
    ).toBe(1);

    const all = new TestCursor();
    placeTable(table(Array.from({ length: 30 }, (_, i) => row([cell(`X${i}`)], { header: true }))), all, ctx);
    expect(
      all
        .texts()
        .flat()
        .filter((t) => /^X\d+$/.test(t)).length,
    ).toBe(30);
  });

  it("reports footnote references of a row on the page where the row is placed", () => {
    const ref: Inline = { type: "noteRef", kind: "footnote", id: "7", label: "1", style: run };
    const rows = Array.from({ length: 25 }, (_, i) => row([cell(i === 20 ? [para("Noted", [ref])] : `R${i}`)]));
    const c = new TestCursor();
    placeTable(table(rows), c, ctx);
    const page = c.texts().findIndex((p) => p.some((t) => t.startsWith("Noted")));
    expect(page).toBeGreaterThan(0);
    expect(c.notes[page]).toEqual(["footnote:7"]);
    expect(c.notes.flat()).toEqual(["footnote:7"]);
  });
});

describe("placeTable geometry", () => {
  const textOf = (c: TestCursor, t: string) =>
    c.pages.flat().find((i): i is Extract<PaintItem, { kind: "text" }> => i.kind === "text" && i.text.trim() === t)!;

  it("grows the last row of a vertical merge whose content is taller than its rows, and bottom-aligns it", () => {
    const c = new TestCursor({ left: 0, width: 400, top: 0, bottom: 1000 });
    const merged = cell("M1\nM2\nM3\nM4\nM5\nM6", { vMerge: "restart" });
    placeTable(
      table([
        row([merged, cell("A")]),
        row([cell("", { vMerge: "continue" }), cell("B")]),
        row([cell("After"), cell("C")]),
      ]),
      c,
      ctx,
    );
    const lineHeight = textOf(c, "M2").y - textOf(c, "M1").y;
    // Row 2 grew so the merged cell holds six lines: "After" starts below M6.
    expect(textOf(c, "After").y).toBeGreaterThan(textOf(c, "M6").y + lineHeight * 0.9);
    // No horizontal border crosses the merged cell between its rows: the one line there covers column 2 only.
    const crossing = c.pages[0]!.filter(
      (i) => i.kind === "line" && i.y1 === i.y2 && i.y1 > textOf(c, "A").y && i.y1 < textOf(c, "B").y,
    );
    expect(crossing.length).toBe(1);
    const l = crossing[0] as Extract<PaintItem, { kind: "line" }>;
    // It starts at the grid line (table left -5.4 + 100), reaching half the 0.5 pt vertical border over it.
    expect(Math.min(l.x1, l.x2)).toBeCloseTo(100 - 5.4 - 0.25, 6);
  });

  it("in a Word 2013+ document puts a top-level table's left border edge at tblInd, its text one half border and margin further right", () => {
    const place = (indentToBorder: boolean) => {
      const c = new TestCursor({ left: 72, width: 400, top: 0, bottom: 1000 });
      placeTable(table([row([cell("Text")])], { indent: 10, indentToBorder, borders: { left: line(3) } }), c, ctx);
      return textOf(c, "Text").x;
    };
    expect(place(true)).toBeCloseTo(72 + 10 + 1.5 + 5.4, 6);
    expect(place(false)).toBeCloseTo(72 + 10, 6);
  });

  it("puts gridSpan cells across their columns and gridBefore cells after the skipped columns", () => {
    const c = new TestCursor({ left: 0, width: 400, top: 0, bottom: 1000 });
    placeTable(
      table([row([cell("Wide", { gridSpan: 2 }), cell("Third")]), row([cell("Late")], { gridBefore: 2 })], {
        grid: [80, 120, 100],
      }),
      c,
      ctx,
    );
    expect(textOf(c, "Wide").x).toBeCloseTo(0, 6);
    expect(textOf(c, "Third").x).toBeCloseTo(200, 6);
    expect(textOf(c, "Late").x).toBeCloseTo(200, 6);
  });

  it("stacks paragraphs with the larger of space after and before, dropping both between same-style contextual paragraphs", () => {
    const a = para("A");
    const b = para("B");
    const d = para("D");
    a.style = { ...a.style, spaceAfter: 10 };
    b.style = { ...b.style, spaceBefore: 4, spaceAfter: 20, contextualSpacing: true };
    d.style = { ...d.style, spaceBefore: 30, contextualSpacing: true };
    const s = stackBlocks([a, b, d], 200, ctx);
    const y = (t: string) =>
      s.items.find((i): i is Extract<PaintItem, { kind: "text" }> => i.kind === "text" && i.text === t)!.y;
    // Line heights are whole twips (LibreOffice).
    const lh = wholeTwips(ctx.fonts.face({ family: "Calibri", bold: false, italic: false }).lineHeight(11));
    expect(y("B") - y("A")).toBeCloseTo(lh + 10, 3);
    expect(y("D") - y("B")).toBeCloseTo(lh, 3);
    expect(s.height).toBeCloseTo(3 * lh + 10, 3);
    expect(s.breakPoints.at(-1)).toBeCloseTo(s.height, 3);
  });
});

describe("floating objects in cells", () => {
  it("draws an anchored image aligned right inside its cell, without moving the text", () => {
    const anchor = {
      x: { relativeTo: "column" as const, align: "right" as const },
      y: { relativeTo: "paragraph" as const, offset: 2 },
      wrap: "square" as const,
      distance: { top: 0, bottom: 0, left: 0, right: 0 },
      behindText: false,
    };
    const withImage = para("Logo", [
      { type: "image", image: "word/media/logo.png", width: 30, height: 12, style: run, anchor },
    ]);
    const c = new TestCursor({ left: 0, width: 400, top: 0, bottom: 1000 });
    placeTable(table([row([cell([withImage]), cell("Other")])], { grid: [150, 100] }), c, ctx);
    const img = c.pages[0]!.find((i) => i.kind === "image") as Extract<PaintItem, { kind: "image" }>;
    expect(img.image).toBe("word/media/logo.png");
    // Cell content box: table left -5.4, + 5.4 margin = 0, width 150 - 10.8.
    expect(img.x).toBeCloseTo(150 - 10.8 - 30, 6);
    expect(img.y).toBeCloseTo(0.5 + 2, 6);
    const logo = c.pages[0]!.find((i) => i.kind === "text" && i.text.trim() === "Logo") as Extract<
      PaintItem,
      { kind: "text" }
    >;
    expect(logo.x).toBeCloseTo(0, 6);
  });
});

describe("hostile tables", () => {
  it("absurd spans, rows without cells, NaN widths and a huge gridBefore finish and keep their text", () => {
    const c = new TestCursor();
    const t = table(
      [
        row([cell("Span", { gridSpan: 1e9 }), cell("Lost?")]),
        row([]),
        row([cell("Far")], { gridBefore: 1e9 }),
        row([cell("Ok")]),
      ],
      { grid: [NaN, -5, Infinity] },
    );
    placeTable(t, c, ctx);
    // Columns made up for the absurd spans are narrow: words may break between letters, but all text stays.
    const text = c.texts().flat().join("");
    for (const w of ["Span", "Lost?", "Far", "Ok"]) expect(text).toContain(w);
    expect(c.pages.flat().every((i) => i.kind !== "text" || (Number.isFinite(i.x) && Number.isFinite(i.y)))).toBe(true);
  });

  it("tables nested deeper than the limit are flattened to their text", () => {
    let inner: Table = table([row([cell("Deepest")])]);
    for (let d = 0; d < LIMITS.render.maxNesting + 10; d++) inner = table([row([cell([para(`L${d}`), inner])])]);
    const c = new TestCursor({ left: 0, width: 500, top: 0, bottom: 100_000 });
    placeTable(inner, c, ctx);
    const words = c.texts().flat();
    expect(words).toContain("Deepest");
    expect(words).toContain(`L${LIMITS.render.maxNesting + 9}`);
  });

  it("a table laid out while another is being placed is nested only if it sits in its cells (a footnote's table, laid out when a row references it)", () => {
    const note = table([row([cell("Note")])]);
    const alone = ctx.routines.stackTable(note, 300, ctx, 0).items;
    // The flow lays a footnote out when a row placed first references it, in the body's context.
    let during: PaintItem[] = [];
    const c = new TestCursor();
    c.noteRefs = () => void (during = ctx.routines.stackTable(note, 300, ctx, 0).items);
    placeTable(table([row([cell("Body")])]), c, ctx);
    expect(during.length).toBeGreaterThan(0);
    // Nested, its grid would start at its border instead of one cell margin left of the indent.
    expect(during).toEqual(alone);
  });

  it("an exact row height smaller than its text neither loops nor hides the following rows", () => {
    const c = new TestCursor();
    const rows = Array.from({ length: 40 }, (_, i) =>
      row([cell(`E${i}\nmore\nlines`)], { height: { value: 2, rule: "exact" } }),
    );
    placeTable(table(rows), c, ctx);
    expect(
      c
        .texts()
        .flat()
        .filter((t) => /^E\d+$/.test(t)).length,
    ).toBe(40);
    // Lines starting below an exact row's box are cut off (LibreOffice clips them).
    expect(
      c
        .texts()
        .flat()
        .filter((t) => t === "lines").length,
    ).toBe(0);
  });
});
