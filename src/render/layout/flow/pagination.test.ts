/**
 * Pagination decisions of the flow on laid-out paragraphs (line heights given as data, no fonts):
 * where lines go, which rules move them, and that every loop advances.
 */
import { describe, expect, it } from "vitest";
import { Pager, type PageGeometry } from "./pager";
import { placeParagraph, type ParagraphFlowRules } from "./paragraph-pagination";
import { exclusionsFor, floatWrap, positionFloat } from "../objects/floats";
import { columnBoxes } from "./sections";
import { choosePart } from "./header-footer";
import type { LineBox, ParagraphLayout } from "../types";
import type { Anchor, Section } from "../../model/types";
import { LimitExceeded } from "../../../errors";
import { LIMITS } from "../../../limits";
import { layoutBudget } from "../../budgets";

/** A page whose body holds exactly `lines` lines of 20 pt. */
function pager(
  opts: {
    body?: number;
    columns?: number;
    notes?: Record<string, number>;
    noteBreaks?: Record<string, number[]>;
    start?: number;
  } = {},
): Pager {
  const body = opts.body ?? 100;
  const count = opts.columns ?? 1;
  const geometry: PageGeometry = {
    width: 600,
    height: body + 200,
    bodyTop: 100,
    bodyBottom: 100 + body,
    columns: Array.from({ length: count }, (_, i) => ({ left: 50 + i * 260, width: 240 })),
    separator: false,
  };
  return new Pager({
    budget: layoutBudget(),
    geometry: () => geometry,
    numberStart: () => opts.start,
    noteHeight: (id) => opts.notes?.[id] ?? 0,
    noteBreaks: (id) => opts.noteBreaks?.[id] ?? [],
    noteSeparatorHeight: 10,
  });
}

let serial = 0;
/** A paragraph of `n` lines of `height` pt; each line draws one word naming it. */
function para(
  n: number,
  height = 20,
  extra: (i: number) => Partial<LineBox> = () => ({}),
): ParagraphLayout & { tag: string } {
  const tag = `p${++serial}`;
  const lines: LineBox[] = Array.from({ length: n }, (_, i) => ({
    height,
    baseline: height * 0.8,
    items: [{ kind: "rect", x: 0, y: 0, width: 10, height: 1, fill: `${tag}.${i}` }],
    ...extra(i),
  }));
  return { tag, spaceBefore: 0, spaceAfter: 0, lines, floats: [] };
}

const rules = (r: Partial<ParagraphFlowRules> = {}): ParagraphFlowRules => ({
  spaceBefore: 0,
  spaceAfter: 0,
  keepLines: false,
  widowControl: true,
  pageBreakBefore: false,
  ...r,
});

/** Line labels per page, in order. */
function pagesOf(p: Pager): string[][] {
  return p.pages.map((page) => page.items.flatMap((i) => (i.kind === "rect" ? [i.fill] : [])));
}

describe("flow: splitting paragraphs across pages", () => {
  it("fills a page line by line and carries the rest on", () => {
    const p = pager();
    const a = para(12);
    placeParagraph(p, a, rules({ widowControl: false }));
    expect(pagesOf(p).map((page) => page.length)).toEqual([5, 5, 2]);
    expect(p.pages[1]!.items[0]).toMatchObject({ y: 100 });
  });

  it("widow control: the last line never stands alone at the top of a page", () => {
    const p = pager();
    placeParagraph(p, para(6), rules());
    expect(pagesOf(p).map((page) => page.length)).toEqual([4, 2]);
  });

  it("without widow control the last line may stand alone", () => {
    const p = pager();
    placeParagraph(p, para(6), rules({ widowControl: false }));
    expect(pagesOf(p).map((page) => page.length)).toEqual([5, 1]);
  });

  it("orphan control: a paragraph whose first line alone fits moves to the next page whole", () => {
    const p = pager();
    placeParagraph(p, para(4), rules());
    const b = para(3);
    placeParagraph(p, b, rules());
    expect(pagesOf(p)[0]).toHaveLength(4);
    expect(pagesOf(p)[1]).toEqual([`${b.tag}.0`, `${b.tag}.1`, `${b.tag}.2`]);
  });

  it("keep lines together moves a paragraph that would split", () => {
    const p = pager();
    placeParagraph(p, para(2), rules());
    placeParagraph(p, para(4), rules({ keepLines: true }));
    expect(pagesOf(p).map((page) => page.length)).toEqual([2, 4]);
  });

  it("keep lines on a paragraph longer than a page still splits it (at the top of an empty page)", () => {
    const p = pager();
    placeParagraph(p, para(7), rules({ keepLines: true }));
    expect(pagesOf(p).map((page) => page.length)).toEqual([5, 2]);
  });

  it("an explicit page break inside a paragraph ends the page; a column break moves to the next column", () => {
    const p = pager({ columns: 2 });
    const a = para(3, 20, (i) => (i === 0 ? { breakAfter: "column" } : i === 1 ? { breakAfter: "page" } : {}));
    placeParagraph(p, a, rules());
    expect(p.pages).toHaveLength(2);
    const [first, second] = p.pages[0]!.items;
    expect(first).toMatchObject({ x: 50, y: 100 });
    expect(second).toMatchObject({ x: 310, y: 100 });
    expect(p.pages[1]!.items[0]).toMatchObject({ x: 50, y: 100 });
  });

  it("a break ending a paragraph leaves its empty last line behind; the next paragraph starts the page", () => {
    const p = pager();
    const empty: LineBox = { height: 20, baseline: 16, items: [], markOnly: true };
    placeParagraph(
      p,
      { spaceBefore: 0, spaceAfter: 0, floats: [], lines: [{ ...para(1).lines[0]!, breakAfter: "page" }, empty] },
      rules({ spaceAfter: 8 }),
    );
    const next = para(1);
    placeParagraph(p, next, rules({ spaceBefore: 10 }));
    expect(p.pages).toHaveLength(2);
    // A hard break keeps the next paragraph's space before.
    expect(p.pages[1]!.items[0]).toMatchObject({ y: 110, fill: `${next.tag}.0` });
  });

  it("a continued line at a page top loses the extra of proportional line spacing", () => {
    const p = pager();
    placeParagraph(
      p,
      para(7, 20, (i) => (i > 0 ? { extraAbove: 4 } : {})),
      rules({ widowControl: false }),
    );
    // 20 pt lines at 1.25 carry 4 pt above the text: the sixth line starts 4 pt higher.
    expect(p.pages[1]!.items[0]).toMatchObject({ y: 96 });
    expect(p.pages[1]!.items[1]).toMatchObject({ y: 116 });
  });

  it("a line taller than the page is placed alone on its page and the flow goes on", () => {
    const p = pager();
    placeParagraph(p, para(1), rules());
    placeParagraph(p, para(2, 500), rules({ widowControl: false }));
    placeParagraph(p, para(1), rules());
    expect(pagesOf(p).map((page) => page.length)).toEqual([1, 1, 1, 1]);
  });

  it("runaway page breaks stop at LIMITS.render.maxPages with LimitExceeded", () => {
    const p = pager();
    const breaks = para(LIMITS.render.maxPages + 5, 1, () => ({ breakAfter: "page" }));
    expect(() => placeParagraph(p, breaks, rules())).toThrow(LimitExceeded);
  });
});

describe("flow: paragraph spacing at page tops", () => {
  it("space before is kept at the document start and after a hard break, dropped after a soft break", () => {
    const p = pager();
    placeParagraph(p, para(1), rules({ spaceBefore: 10 }));
    expect(p.pages[0]!.items[0]).toMatchObject({ y: 110 });
    placeParagraph(p, para(3), rules());
    const soft = para(1);
    placeParagraph(p, soft, rules({ spaceBefore: 10 }));
    expect(p.pages[1]!.items[0]).toMatchObject({ y: 100, fill: `${soft.tag}.0` });
    placeParagraph(p, para(1), rules({ spaceBefore: 10, pageBreakBefore: true }));
    expect(p.pages[2]!.items[0]).toMatchObject({ y: 110 });
  });

  it("space after does not push the next paragraph's lines when the page has room", () => {
    const p = pager();
    placeParagraph(p, para(1), rules({ spaceAfter: 15 }));
    placeParagraph(p, para(1), rules({ spaceBefore: 5 }));
    expect(p.pages[0]!.items[1]).toMatchObject({ y: 140 });
  });

  it("page break before at the top of an empty first page adds no blank page", () => {
    const p = pager();
    placeParagraph(p, para(1), rules({ pageBreakBefore: true }));
    expect(p.pages).toHaveLength(1);
  });
});

describe("flow: footnote room", () => {
  it("a line whose note would be the page's first and cannot show two of its lines moves on with it", () => {
    const p = pager({ notes: { "footnote:1": 30 }, noteBreaks: { "footnote:1": [10, 20, 30] } });
    placeParagraph(p, para(3), rules());
    // 20 pt left below the line: the separator and one note line, not two.
    placeParagraph(
      p,
      para(1, 20, () => ({ noteRefs: ["footnote:1"] })),
      rules(),
    );
    expect(p.pages).toHaveLength(2);
    expect(p.pages[0]!.notes).toEqual([]);
    expect(p.pages[1]!.notes).toEqual(["footnote:1"]);
    // Separator plus note are reserved: 100 - 40 leaves three 20 pt lines under the first.
    expect(p.remaining()).toBe(100 - 40 - 20);
  });

  it("below notes already on the page, a line stays when its note's first line fits; a note that cannot show two lines opens the next page's notes", () => {
    const p = pager({
      notes: { "footnote:1": 20, "footnote:2": 30 },
      noteBreaks: { "footnote:1": [10, 20], "footnote:2": [10, 20, 30] },
    });
    placeParagraph(
      p,
      para(1, 20, () => ({ noteRefs: ["footnote:1"] })),
      rules(),
    );
    placeParagraph(p, para(1), rules());
    // The line at 40-60, then 10 pt for note 2's first line above separator and note 1 (30 pt).
    placeParagraph(
      p,
      para(1, 20, () => ({ noteRefs: ["footnote:2"] })),
      rules(),
    );
    expect(p.pages).toHaveLength(1);
    expect(p.page.notes).toEqual(["footnote:1"]);
    placeParagraph(p, para(1), rules());
    expect(p.pages).toHaveLength(2);
    expect(p.pages[1]!.notes).toEqual(["footnote:2"]);
    expect(p.pages[1]!.noteHeight).toBe(10 + 30);
  });

  it("a note that fits only in part is split after its last line that fits, the rest on the next page", () => {
    const p = pager({ notes: { "footnote:1": 40 }, noteBreaks: { "footnote:1": [10, 20, 30, 40] } });
    placeParagraph(p, para(2), rules());
    placeParagraph(
      p,
      para(2, 20, (i) => ({ noteRefs: i === 0 ? ["footnote:1"] : [] })),
      rules({ widowControl: false }),
    );
    // Below the line at 40-60 of the body: separator 10 and three 10 pt note lines; the paragraph's last line moves on.
    expect(p.pages[0]!.notes).toEqual(["footnote:1"]);
    expect(p.pages[0]!.noteCut).toBe(30);
    expect(p.pages[0]!.noteHeight).toBe(40);
    expect(p.pages).toHaveLength(2);
    expect(p.pages[1]!.notes).toEqual(["footnote:1"]);
    expect(p.pages[1]!.noteFrom).toBe(30);
    expect(p.pages[1]!.noteHeight).toBe(10 + 10);
  });

  it("endnote references are collected once, in order, and take no room on the page", () => {
    const p = pager();
    placeParagraph(
      p,
      para(2, 20, (i) => ({ noteRefs: i === 0 ? ["endnote:2", "endnote:1"] : ["endnote:2"] })),
      rules(),
    );
    expect(p.endnotes).toEqual(["endnote:2", "endnote:1"]);
    expect(p.page.noteHeight).toBe(0);
  });
});

describe("flow: columns and sections", () => {
  it("columns fill left to right, then a new page", () => {
    const p = pager({ columns: 2 });
    placeParagraph(p, para(12), rules({ widowControl: false }));
    const xs = p.pages[0]!.items.map((i) => (i.kind === "rect" ? i.x : -1));
    expect(xs).toEqual([50, 50, 50, 50, 50, 310, 310, 310, 310, 310]);
    expect(p.pages).toHaveLength(2);
  });

  it("a continuous section starts below the lowest column of the previous one", () => {
    const p = pager({ body: 200, columns: 2 });
    placeParagraph(p, para(3), rules());
    p.breakArea("column");
    placeParagraph(p, para(5), rules());
    p.continueWith(0);
    placeParagraph(p, para(1), rules());
    expect(p.pages).toHaveLength(1);
    expect(p.page.items.at(-1)).toMatchObject({ y: 200 });
  });

  it("page numbers continue across pages and restart where a section says so", () => {
    const p = pager({ start: 5 });
    expect(p.page.number).toBe(5);
    p.breakArea("page");
    expect(p.page.number).toBe(6);
    p.newPage(1);
    expect(p.page).toMatchObject({ number: 5, firstOfSection: true });
  });

  it("columnBoxes: equal columns share the width; explicit widths scale to the text width", () => {
    const base = { columns: { count: 2, space: 20, separator: false } } as Section;
    expect(columnBoxes(base, 72, 420)).toEqual([
      { left: 72, width: 200 },
      { left: 292, width: 200 },
    ]);
    const explicit = {
      columns: {
        count: 2,
        space: 0,
        separator: false,
        widths: [
          { width: 100, space: 10 },
          { width: 100, space: 0 },
        ],
      },
    } as Section;
    const boxes = columnBoxes(explicit, 0, 420);
    // LibreOffice scales each column with half the space beside it and keeps the space (10 pt), see
    // "explicit column widths" in test/node/render-flow-libreoffice.test.ts.
    expect(boxes[0]!.width).toBeCloseTo(205);
    expect(boxes[1]!.left).toBeCloseTo(215);
    expect(boxes[1]!.width).toBeCloseTo(205);
    expect(columnBoxes({ columns: { count: Number.NaN, space: 0, separator: false } } as Section, 0, 100)).toEqual([
      { left: 0, width: 100 },
    ]);
  });

  it("header part choice: title page first, even pages when enabled, missing parts stay blank", () => {
    const parts = { default: "d", first: "f", even: "e" };
    expect(choosePart(parts, { titlePage: true }, true, { firstOfSection: true, pageNumber: 2 })).toBe("f");
    expect(choosePart(parts, { titlePage: false }, true, { firstOfSection: true, pageNumber: 2 })).toBe("e");
    expect(choosePart(parts, { titlePage: true }, true, { firstOfSection: false, pageNumber: 3 })).toBe("d");
    expect(
      choosePart({ default: "d" }, { titlePage: true }, false, { firstOfSection: true, pageNumber: 1 }),
    ).toBeUndefined();
  });
});

describe("flow: floats", () => {
  const anchor = (a: Partial<Anchor>): Anchor => ({
    x: { relativeTo: "margin", offset: 0 },
    y: { relativeTo: "paragraph", offset: 0 },
    wrap: "square",
    distance: { top: 0, bottom: 0, left: 9, right: 9 },
    behindText: false,
    ...a,
  });
  const frame = {
    pageWidth: 612,
    pageHeight: 792,
    margins: { top: 72, bottom: 72, left: 72, right: 72 },
    column: { left: 72, width: 468 },
    paragraphTop: 300,
    lineTop: 320,
  };

  it("positions from page, margin and paragraph, by offset or alignment, kept on the page", () => {
    expect(
      positionFloat(
        anchor({ x: { relativeTo: "page", align: "center" }, y: { relativeTo: "page", offset: 100 } }),
        100,
        50,
        frame,
      ),
    ).toEqual({ x: 256, y: 100 });
    expect(
      positionFloat(
        anchor({ x: { relativeTo: "margin", align: "right" }, y: { relativeTo: "paragraph", offset: 12 } }),
        100,
        50,
        frame,
      ),
    ).toEqual({ x: 440, y: 312 });
    expect(positionFloat(anchor({ y: { relativeTo: "line", offset: 0 } }), 10, 10, frame)).toEqual({ x: 72, y: 320 });
    expect(positionFloat(anchor({ y: { relativeTo: "page", offset: 5000 } }), 10, 50, frame).y).toBe(742);
    expect(positionFloat(anchor({ x: { relativeTo: "page", offset: Number.NaN } }), 10, 10, frame).x).toBe(0);
  });

  it("square wrap keeps text on the wider side; a side too narrow turns it into top-and-bottom", () => {
    const column = { left: 72, width: 468 };
    expect(floatWrap(anchor({}), 400, 140, column)).toEqual({ wrap: "square", textSide: "left" });
    expect(floatWrap(anchor({}), 72, 140, column)).toEqual({ wrap: "square", textSide: "right" });
    expect(floatWrap(anchor({}), 80, 440, column).wrap).toBe("topAndBottom");
    expect(floatWrap(anchor({ behindText: true }), 80, 440, column).wrap).toBe("none");
  });

  it("exclusions narrow only the lines beside the float", () => {
    const f = {
      x: 400,
      y: 300,
      width: 140,
      height: 40,
      wrap: "square" as const,
      textSide: "left" as const,
      distance: { top: 0, bottom: 0, left: 9, right: 9 },
    };
    const excl = exclusionsFor([f], { left: 72, width: 468 }, 280)!;
    expect(excl(0, 15)).toEqual({ left: 0, right: 0 });
    expect(excl(20, 15)).toEqual({ left: 0, right: 149 });
    expect(excl(60, 15)).toEqual({ left: 0, right: 0 });
  });

  it("a top-and-bottom float pushes the following lines below it", () => {
    const p = pager({ body: 300 });
    p.addFloat({
      x: 50,
      y: 120,
      width: 100,
      height: 50,
      wrap: "topAndBottom",
      textSide: "left",
      distance: { top: 0, bottom: 6, left: 0, right: 0 },
    });
    placeParagraph(p, para(2), rules());
    expect(p.page.items.map((i) => (i.kind === "rect" ? i.y : -1))).toEqual([100, 176]);
  });
});
