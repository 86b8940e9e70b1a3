/**
 * Paragraph layout rules on small paragraphs, inside workerd with the real fonts (static-assets
 * binding): breaking, alignment, indents and labels, tabs, breaks, floats, decorations, fields,
 * exclusions, right-to-left, and hostile input. Positions against LibreOffice are checked in
 * test/node/render-paragraph-libreoffice.test.ts.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { assetFontSource } from "../../fonts/asset-source";
import { loadFontBook } from "../../fonts/font-book";
import type { FontBook } from "../../fonts/types";
import type { DocumentModel, Inline, Paragraph, ParagraphStyle, RunStyle } from "../../model/types";
import { layoutParagraph } from "./paragraph";
import { wholeTwips } from "./line-height";
import type { Exclusions, LayoutContext, LineBox, PaintItem, ParagraphLayout } from "../types";
import { paragraphStyle, runStyle } from "../../../../test/support/render-styles";
import { layoutContext } from "../index";
import { LimitExceeded } from "../../../errors";
import { LIMITS } from "../../../limits";

const source = assetFontSource(env.ASSETS as Fetcher);

const rs = runStyle;
const ps = paragraphStyle;
const t = (text: string, o: Partial<RunStyle> = {}, link?: string): Inline => ({
  type: "text",
  text,
  style: rs(o),
  link,
});
const tab: Inline = { type: "tab", style: rs() };
const para = (inlines: Inline[], style: Partial<ParagraphStyle> = {}, extra: Partial<Paragraph> = {}): Paragraph => ({
  type: "paragraph",
  style: ps(style),
  inlines,
  markStyle: rs(),
  ...extra,
});

let book: FontBook | undefined;
/** One font book for every test: Carlito, Arimo and the Hebrew fallback. */
async function fonts(): Promise<FontBook> {
  if (!book) {
    const sample = para([
      t("Latin text"),
      t("bold", { bold: true }),
      t("italic", { italic: true }),
      t("Arial", { font: "Arial" }),
      t("שלום עולם 123"),
    ]);
    const model = {
      sections: [{ blocks: [sample] }],
      headerFooters: new Map(),
      notes: new Map(),
      images: new Map(),
      evenAndOddHeaders: false,
      defaultTabStop: 36,
      fontFamilies: new Set(["Calibri", "Arial"]),
      fontTable: new Map(),
    } as unknown as DocumentModel;
    book = await loadFontBook(model, source);
  }
  return book;
}

async function ctx(fieldValue: LayoutContext["fieldValue"] = () => undefined): Promise<LayoutContext> {
  return { ...layoutContext(await fonts()), fieldValue };
}

type TextItem = Extract<PaintItem, { kind: "text" }>;
const texts = (line: LineBox): TextItem[] => line.items.filter((i): i is TextItem => i.kind === "text");
const lineText = (line: LineBox) =>
  texts(line)
    .map((i) => i.text)
    .join("|");
const right = (i: { x: number; width: number }) => i.x + i.width;
const allText = (out: ParagraphLayout) =>
  out.lines
    .map((l) =>
      texts(l)
        .map((i) => i.text)
        .join(" "),
    )
    .join(" ");

const LOREM =
  "The parties agree that this contract is governed by the law of the place where it was signed, and that every dispute goes to its courts.";

describe("layoutParagraph: breaking and alignment", () => {
  it("wraps at spaces, keeps every line inside the width and every word once", async () => {
    const out = layoutParagraph(para([t(LOREM)]), 200, await ctx());
    expect(out.lines.length).toBeGreaterThan(2);
    for (const line of out.lines) for (const item of texts(line)) expect(right(item)).toBeLessThanOrEqual(200.01);
    expect(allText(out).split(/\s+/)).toEqual(LOREM.split(" "));
  });

  it("does not count trailing spaces when aligning right or centring", async () => {
    const c = await ctx();
    const r = layoutParagraph(para([t("alpha beta      ")], { align: "right" }), 300, c).lines[0]!;
    expect(right(texts(r).at(-1)!)).toBeCloseTo(300, 2);
    const m = layoutParagraph(para([t("alpha beta      ")], { align: "center" }), 300, c).lines[0]!;
    const items = texts(m);
    expect(items[0]!.x).toBeCloseTo(300 - right(items.at(-1)!), 2);
  });

  it("justifies every line but the last, one item per word; the last line stays left", async () => {
    const out = layoutParagraph(para([t(LOREM + " " + LOREM)], { align: "justify" }), 250, await ctx());
    const lines = out.lines;
    for (const line of lines.slice(0, -1)) {
      const items = texts(line);
      expect(items[0]!.x).toBeCloseTo(0, 2);
      expect(right(items.at(-1)!)).toBeCloseTo(250, 2);
      for (const item of items) expect(item.text).not.toContain(" ");
    }
    const last = texts(lines.at(-1)!);
    expect(right(last.at(-1)!)).toBeLessThan(249);
  });

  it("stretches a justified line that ends with a line break (LibreOffice's DOCX behaviour)", async () => {
    const out = layoutParagraph(
      para([t("short line here"), { type: "break", kind: "line", style: rs() }, t("last words")], { align: "justify" }),
      300,
      await ctx(),
    );
    expect(out.lines.length).toBe(2);
    expect(right(texts(out.lines[0]!).at(-1)!)).toBeCloseTo(300, 2);
    expect(right(texts(out.lines[1]!).at(-1)!)).toBeLessThan(200);
  });

  it("cuts a word longer than the line by characters", async () => {
    const word = "Pneumonoultramicroscopicsilicovolcanoconiosis";
    const out = layoutParagraph(para([t(word)]), 60, await ctx());
    expect(out.lines.length).toBeGreaterThan(3);
    expect(
      out.lines
        .map((l) =>
          texts(l)
            .map((i) => i.text)
            .join(""),
        )
        .join(""),
    ).toBe(word);
    for (const line of out.lines) expect(right(texts(line).at(-1)!)).toBeLessThanOrEqual(60.01);
  });

  it("never breaks at a no-break space", async () => {
    // U+202F here: measuring U+00A0 in Carlito crashes fontkit's glyph metrics (font-face.ts, reported).
    const out = layoutParagraph(para([t("aaaa bbbb\u202Fcccc")]), 60, await ctx());
    expect(out.lines.map(lineText)).toEqual(["aaaa", "bbbb\u202Fcccc"]);
  });

  it("ends a line at a soft hyphen with a visible hyphen that fits; shows nothing elsewhere", async () => {
    const c = await ctx();
    const word = "Wahrscheinlich\u00ADkeits\u00ADrechnung";
    const wide = layoutParagraph(para([t(`Die ${word}`)]), 400, c);
    expect(wide.lines.map(lineText)).toEqual(["Die Wahrscheinlichkeitsrechnung"]);
    const narrow = layoutParagraph(para([t(`Die ${word}`)]), 110, c);
    const lines = narrow.lines.map((l) =>
      texts(l)
        .map((i) => i.text)
        .join(""),
    );
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.at(-1)).not.toContain("-");
    expect(lines.slice(0, -1).every((l) => l.endsWith("-"))).toBe(true);
    expect(lines.join("").replaceAll("-", "")).toBe("Die Wahrscheinlichkeitsrechnung");
    for (const line of narrow.lines) expect(right(texts(line).at(-1)!)).toBeLessThanOrEqual(110.01);
  });
});

describe("layoutParagraph: indents and numbering labels", () => {
  it("starts the first line at indentLeft + firstLine and the others at indentLeft", async () => {
    const out = layoutParagraph(para([t(LOREM)], { indentLeft: 30, firstLine: 20, indentRight: 40 }), 300, await ctx());
    expect(texts(out.lines[0]!)[0]!.x).toBeCloseTo(50, 2);
    expect(texts(out.lines[1]!)[0]!.x).toBeCloseTo(30, 2);
    for (const line of out.lines) expect(right(texts(line).at(-1)!)).toBeLessThanOrEqual(260.01);
  });

  it("puts a label at the hanging position and its tab to the left indent", async () => {
    const out = layoutParagraph(
      para(
        [t("Item text")],
        { indentLeft: 36, firstLine: -18 },
        { numbering: { text: "1.", style: rs(), suffix: "tab", align: "left" } },
      ),
      400,
      await ctx(),
    );
    const items = texts(out.lines[0]!);
    expect(items[0]).toMatchObject({ text: "1.", x: 18 });
    expect(items[1]!.x).toBeCloseTo(36, 2);
  });

  it("goes to the next default stop when the label is wider than the hanging indent", async () => {
    const out = layoutParagraph(
      para(
        [t("Text")],
        { indentLeft: 20, firstLine: -10 },
        { numbering: { text: "Article 12.", style: rs(), suffix: "tab", align: "left" } },
      ),
      400,
      await ctx(),
    );
    expect(texts(out.lines[0]!)[1]!.x).toBeCloseTo(72, 2);
  });

  it("draws a picture bullet as a label-sized image before the tab", async () => {
    const out = layoutParagraph(
      para(
        [t("Item")],
        { indentLeft: 36, firstLine: -18 },
        {
          numbering: {
            text: "",
            image: "word/media/bullet.png",
            style: rs({ size: 10 }),
            suffix: "tab",
            align: "left",
          },
        },
      ),
      400,
      await ctx(),
    );
    const line = out.lines[0]!;
    expect(line.items).toContainEqual({
      kind: "image",
      x: 18,
      y: line.baseline - 10,
      width: 10,
      height: 10,
      image: "word/media/bullet.png",
    });
    expect(texts(line)[0]).toMatchObject({ text: "Item", x: 36 });
  });

  it("ends a right-aligned label at the first-line position; a space suffix is one space", async () => {
    const c = await ctx();
    const out = layoutParagraph(
      para(
        [t("Text")],
        { indentLeft: 40, firstLine: -10 },
        { numbering: { text: "iv.", style: rs(), suffix: "space", align: "right" } },
      ),
      400,
      c,
    );
    // Label, space and text share one look, so they are one item starting a label's width before 30.
    const [item] = texts(out.lines[0]!);
    const face = c.fonts.face({ family: "Calibri", bold: false, italic: false });
    expect(item!.text).toBe("iv. Text");
    expect(item!.x).toBeCloseTo(30 - face.widthOf("iv.", 12), 2);
    expect(item!.width).toBeCloseTo(face.widthOf("iv. Text", 12), 2);
  });
});

describe("layoutParagraph: tabs", () => {
  it("right tab with a dot leader: the text ends at the stop and the dots fill the gap", async () => {
    const out = layoutParagraph(
      para([t("Chapter one"), tab, t("12")], { tabs: [{ pos: 300, align: "right", leader: "dot" }] }),
      400,
      await ctx(),
    );
    const items = texts(out.lines[0]!);
    const page = items.find((i) => i.text === "12")!;
    const dots = items.find((i) => /^\.+$/.test(i.text))!;
    expect(right(page)).toBeCloseTo(300, 2);
    expect(right(dots)).toBeLessThanOrEqual(page.x + 0.01);
    expect(dots.x).toBeGreaterThanOrEqual(right(items[0]!) - 0.01);
    expect(dots.text.length).toBeGreaterThan(20);
  });

  it("centre and decimal tabs", async () => {
    const c = await ctx();
    const centre = texts(
      layoutParagraph(para([tab, t("middle")], { tabs: [{ pos: 200, align: "center", leader: "none" }] }), 400, c)
        .lines[0]!,
    )[0]!;
    expect(centre.x + centre.width / 2).toBeCloseTo(200, 2);
    const dec = texts(
      layoutParagraph(para([tab, t("1234.50")], { tabs: [{ pos: 200, align: "decimal", leader: "none" }] }), 400, c)
        .lines[0]!,
    )[0]!;
    const face = c.fonts.face({ family: "Calibri", bold: false, italic: false });
    expect(dec.x + face.widthOf("1234", 12)).toBeCloseTo(200, 2);
  });

  it("default stops every defaultTabStop; a tab whose stop is past the right edge starts the next line (LibreOffice)", async () => {
    const c = await ctx();
    const line = layoutParagraph(para([t("a"), tab, t("b"), tab, t("c")]), 400, c).lines[0]!;
    expect(texts(line).map((i) => i.x)).toEqual([0, 36, 72]);
    const out = layoutParagraph(para([t("a"), tab, tab, tab, t("b")]), 100, c);
    expect(out.lines.map(lineText)).toEqual(["a", "b"]);
    expect(texts(out.lines[1]!)[0]!.x).toBe(36);
  });

  it("draws a bar tab as a vertical line and does not stop at it", async () => {
    const line = layoutParagraph(
      para([t("a"), tab, t("b")], { tabs: [{ pos: 10, align: "bar", leader: "none" }] }),
      400,
      await ctx(),
    ).lines[0]!;
    expect(line.items).toContainEqual(
      expect.objectContaining({ kind: "line", x1: 10, x2: 10, y1: 0, y2: line.height }),
    );
    expect(texts(line)[1]!.x).toBe(36);
  });
});

describe("layoutParagraph: line heights and breaks", () => {
  it("gives an empty paragraph the height of its mark", async () => {
    const c = await ctx();
    const out = layoutParagraph({ ...para([]), markStyle: rs({ size: 20 }) }, 300, c);
    const face = c.fonts.face({ family: "Calibri", bold: false, italic: false });
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]!.height).toBeCloseTo(wholeTwips(face.lineHeight(20)), 2);
    expect(out.lines[0]!.baseline).toBeCloseTo(face.ascent(20), 2);
  });

  it("raises a line for its largest text and for an inline image sitting on the baseline", async () => {
    const c = await ctx();
    const face = c.fonts.face({ family: "Calibri", bold: false, italic: false });
    const mixed = layoutParagraph(para([t("small "), t("BIG", { size: 30 })]), 400, c).lines[0]!;
    expect(mixed.baseline).toBeCloseTo(face.ascent(30), 2);
    const image: Inline = { type: "image", image: "word/media/a.png", width: 50, height: 80, style: rs() };
    const line = layoutParagraph(para([t("x"), image]), 400, c).lines[0]!;
    expect(line.baseline).toBeCloseTo(80, 2);
    expect(line.items).toContainEqual(expect.objectContaining({ kind: "image", y: 0, height: 80, width: 50 }));
  });

  it("ends a line at a line break and marks a page break", async () => {
    const out = layoutParagraph(
      para([
        t("one"),
        { type: "break", kind: "page", style: rs() },
        t("two"),
        { type: "break", kind: "line", style: rs() },
        t("three"),
      ]),
      400,
      await ctx(),
    );
    expect(out.lines.map(lineText)).toEqual(["one", "two", "three"]);
    expect(out.lines.map((l) => l.breakAfter)).toEqual(["page", undefined, undefined]);
  });

  it("keeps the mark's line after a final break, and stretches the justified line before it", async () => {
    const c = await ctx();
    const out = layoutParagraph(
      {
        ...para([t("words on a line"), { type: "break", kind: "line", style: rs() }], { align: "justify" }),
        markStyle: rs({ size: 20 }),
      },
      300,
      c,
    );
    expect(out.lines).toHaveLength(2);
    expect(right(texts(out.lines[0]!).at(-1)!)).toBeCloseTo(300, 2);
    expect(out.lines[1]!.items).toEqual([]);
    expect(out.lines[1]!.height).toBeCloseTo(
      wholeTwips(c.fonts.face({ family: "Calibri", bold: false, italic: false }).lineHeight(20)),
      2,
    );
  });

  it("returns anchored objects as floats with their line, outside the text", async () => {
    const anchor = {
      x: { relativeTo: "page" as const, offset: 0 },
      y: { relativeTo: "paragraph" as const, offset: 0 },
      wrap: "square" as const,
      distance: { top: 0, bottom: 0, left: 0, right: 0 },
      behindText: false,
    };
    const float: Inline = { type: "image", image: "i.png", width: 40, height: 40, style: rs(), anchor };
    const out = layoutParagraph(
      para([t("first line"), { type: "break", kind: "line", style: rs() }, t("second"), float]),
      400,
      await ctx(),
    );
    expect(out.floats).toEqual([expect.objectContaining({ line: 1, anchor })]);
    expect(out.lines.flatMap((l) => l.items).some((i) => i.kind === "image")).toBe(false);
  });

  it("records note references on their line", async () => {
    const ref: Inline = {
      type: "noteRef",
      kind: "footnote",
      id: "3",
      label: "1",
      style: rs({ vertAlign: "superscript" }),
    };
    const out = layoutParagraph(para([t("text"), ref]), 400, await ctx());
    expect(out.lines[0]!.noteRefs).toEqual(["footnote:3"]);
    const label = texts(out.lines[0]!).find((i) => i.text === "1")!;
    expect(label.size).toBeCloseTo(12 * 0.58, 2);
    expect(label.y).toBeLessThan(out.lines[0]!.baseline);
  });
});

describe("layoutParagraph: run formatting", () => {
  it("skips hidden text, upper-cases caps, draws small caps at 80 %", async () => {
    const out = layoutParagraph(
      para([t("shown "), t("hidden ", { hidden: true }), t("caps ", { caps: true }), t("Small", { smallCaps: true })]),
      400,
      await ctx(),
    );
    const items = texts(out.lines[0]!);
    expect(items.map((i) => i.text).join("")).toBe("shown CAPS SMALL");
    expect(items.find((i) => i.text === "MALL")!.size).toBeCloseTo(9.6, 2);
    expect(items.find((i) => i.text.endsWith("S"))!.size).toBe(12);
  });

  it("keeps a symbol font's typed characters with the text drawn for them, also where a word is cut or a label drawn", async () => {
    const drawn = "αβχ".repeat(12);
    const typed = "abc".repeat(12);
    const out = layoutParagraph(
      para(
        [t("plain "), { type: "text", text: drawn, typed, style: rs() }],
        {},
        {
          numbering: { text: "•", typed: "\uf0b7", style: rs(), suffix: "space", align: "left" },
        },
      ),
      60,
      await ctx(),
    );
    const items = out.lines.flatMap(texts);
    expect(out.lines.length).toBeGreaterThan(2);
    expect(items[0]).toMatchObject({ text: "•", typed: "\uf0b7" });
    // No item merges typed text with plain text; each cut part copies as its own characters.
    for (const i of items) if (i.typed !== undefined) expect(i.typed.length).toBe(i.text.length);
    const symbolItems = items.filter((i) => /[αβχ]/.test(i.text));
    expect(symbolItems.map((i) => i.text).join("")).toBe(drawn);
    expect(symbolItems.map((i) => i.typed).join("")).toBe(typed);
    expect(items.find((i) => i.text.startsWith("plain"))!.typed).toBeUndefined();
  });

  it("adds character spacing to the width and passes it to the item", async () => {
    const c = await ctx();
    const face = c.fonts.face({ family: "Calibri", bold: false, italic: false });
    const item = texts(layoutParagraph(para([t("abc", { charSpacing: 2 })]), 400, c).lines[0]!)[0]!;
    expect(item.charSpacing).toBe(2);
    expect(item.width).toBeCloseTo(face.widthOf("abc", 12) + 6, 2);
  });

  it("underlines words and spaces (or words only), strikes through, highlights behind the text", async () => {
    const c = await ctx();
    const single = layoutParagraph(para([t("two words", { underline: "single" })]), 400, c).lines[0]!;
    const lines = single.items.filter((i) => i.kind === "line");
    expect(lines).toHaveLength(1);
    // Where LibreOffice strokes Carlito 12 pt underlines: 1.3 pt below the baseline, 0.8 pt thick.
    expect(lines[0]).toMatchObject({ x1: 0 });
    const u = lines[0]!;
    expect(u.kind === "line" && u.y1 - single.baseline).toBeCloseTo(1.3, 1);
    expect(u.kind === "line" && u.width).toBeCloseTo(0.8, 1);
    const words = layoutParagraph(para([t("two words", { underline: "words" })]), 400, c).lines[0]!;
    expect(words.items.filter((i) => i.kind === "line")).toHaveLength(2);
    const struck = layoutParagraph(para([t("gone", { strike: true, highlight: "FFFF00" })]), 400, c).lines[0]!;
    expect(struck.items[0]).toMatchObject({ kind: "rect", fill: "FFFF00" });
    // LibreOffice: Carlito 12 pt strike-out 3.3 pt above the baseline.
    const strike = struck.items.find((i) => i.kind === "line")!;
    expect(strike.kind === "line" && struck.baseline - strike.y1).toBeCloseTo(3.3, 0);
  });

  it("covers a hyperlink with one link item per line", async () => {
    const out = layoutParagraph(
      para([t("see "), t("the terms and conditions of the service", {}, "https://example.org/terms")]),
      120,
      await ctx(),
    );
    const links = out.lines.map((l) => l.items.filter((i) => i.kind === "link"));
    expect(out.lines.length).toBeGreaterThan(1);
    for (const l of links) expect(l).toHaveLength(1);
    expect(links[0]![0]).toMatchObject({ uri: "https://example.org/terms", y: 0 });
  });

  it("shows a field's value from the flow, else its cached result", async () => {
    const field: Inline = { type: "field", field: "PAGE", format: "decimal", style: rs(), fallback: "1" };
    expect(lineText(layoutParagraph(para([t("Page "), field]), 400, await ctx(() => "7")).lines[0]!)).toBe("Page 7");
    expect(lineText(layoutParagraph(para([t("Page "), field]), 400, await ctx()).lines[0]!)).toBe("Page 1");
  });
});

describe("layoutParagraph: exclusions, right-to-left, hostile input", () => {
  it("narrows lines beside a float and moves a line down when not even a word fits", async () => {
    const c = await ctx();
    const beside: Exclusions = (top) => (top < 30 ? { left: 100, right: 0 } : { left: 0, right: 0 });
    const out = layoutParagraph(para([t(LOREM)]), 300, c, beside);
    expect(texts(out.lines[0]!)[0]!.x).toBe(100);
    const blocked: Exclusions = (top) => (top < 40 ? { left: 295, right: 0 } : { left: 0, right: 0 });
    const moved = layoutParagraph(para([t("word")]), 300, c, blocked);
    const line = moved.lines[0]!;
    expect(texts(line)[0]!.x).toBe(0);
    expect(line.height).toBeGreaterThan(40);
    expect(texts(line)[0]!.y).toBeCloseTo(line.baseline, 5);
  });

  it("lays a right-to-left paragraph out from the right, first word rightmost, numbers left to right", async () => {
    const out = layoutParagraph(para([t("שלום עולם 123", { rtl: true })], { bidi: true }), 300, await ctx());
    const items = [...texts(out.lines[0]!)].sort((a, b) => a.x - b.x);
    expect(right(items.at(-1)!)).toBeCloseTo(300, 2);
    // Words in visual order (the number leftmost, שלום rightmost), each word's text in logical order (paint reverses it).
    expect(items.map((i) => i.text.trim())).toEqual(["123", "עולם", "שלום"]);
  });

  it("keeps Hebrew words in visual order inside a left-to-right paragraph", async () => {
    const line = layoutParagraph(para([t("Name: שלום עולם end")]), 400, await ctx()).lines[0]!;
    const words = [...texts(line)].sort((a, b) => a.x - b.x).map((i) => i.text.trim());
    expect(words).toEqual(["Name:", "עולם", "שלום", "end"]);
  });

  it("finishes on hostile input: zero width, thousands of tabs, a huge unbroken word", async () => {
    const c = await ctx();
    const zero = layoutParagraph(para([t("abc def")]), 0, c);
    expect(zero.lines.map(lineText).join("")).toBe("abcdef");
    const tabs = layoutParagraph(para([...Array.from({ length: 3000 }, () => tab), t("end")]), 400, c);
    expect(tabs.lines.flatMap((l) => texts(l)).map((i) => i.text)).toEqual(["end"]);
    const huge = layoutParagraph(para([t("x".repeat(50_000))]), 468, c);
    expect(huge.lines.length).toBeGreaterThan(100);
    expect(huge.lines.every((l) => texts(l).every((i) => right(i) <= 468.01))).toBe(true);
  });

  it("breaks an unbreakable word in work linear in its length: twice the word, twice the units, every character drawn once", async () => {
    const work = async (n: number) => {
      const c = await ctx();
      const out = layoutParagraph(para([t("x".repeat(n))]), 468, c);
      const drawn = out.lines.flatMap((l) => texts(l)).reduce((sum, i) => sum + i.text.length, 0);
      expect(drawn).toBe(n);
      expect(out.lines.every((l) => texts(l).every((i) => right(i) <= 468.01))).toBe(true);
      return c.budget.used;
    };
    const small = await work(100_000);
    const large = await work(200_000);
    // Quadratic breaking (each line re-measuring the rest of the word) would take 4x; and at a few
    // units per character, a 1,000,000-character paragraph stays far inside maxLayoutWork.
    expect(large / small).toBeLessThan(2.2);
    expect(large).toBeLessThan(200_000 * 2);
  });

  it("refuses a paragraph of more than LIMITS.paragraph.maxChars characters with 422 render_limit", async () => {
    const over = para([
      t("x".repeat(LIMITS.paragraph.maxChars / 2)),
      t("y".repeat(LIMITS.paragraph.maxChars / 2 + 1), { bold: true }),
    ]);
    const c = await ctx();
    let err: unknown;
    try {
      layoutParagraph(over, 468, c);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LimitExceeded);
    expect((err as LimitExceeded).code).toBe("render_limit");
    expect(c.budget.used).toBe(0); // refused before any piece was measured
  });
});
