/**
 * Equations inside workerd with the real fonts: OMML read into a math tree (model/math.ts) and set
 * by layout/objects/math.ts: italic variables, scripts smaller and shifted, fractions stacked about a bar,
 * n-ary limits, matrices in rows, and hostile nesting that stays bounded. Positions against
 * LibreOffice are checked in test/node/render-math-libreoffice.test.ts.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { assetFontSource } from "../../fonts/asset-source";
import { loadFontBook } from "../../fonts/font-book";
import type { FontBook } from "../../fonts/types";
import { LIMITS } from "../../../limits";
import type { DocumentModel, MathNode } from "../../model/types";
import { MATH_FAMILY, readMath } from "../../model/math";
import { parseTree } from "../../model/xml-tree";
import { runStyle } from "../../../../test/support/render-styles";
import { layoutMath, type MathBox } from "./math";
import type { PaintItem } from "../types";

const M = `xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"`;
const mr = (t: string) => `<m:r><m:t>${t}</m:t></m:r>`;
const omml = (inner: string, tag = "oMath") => readMath(parseTree(`<m:${tag} ${M}>${inner}</m:${tag}>`, "test.xml"));

let book: FontBook | undefined;
async function fonts(): Promise<FontBook> {
  if (!book) {
    const sample = {
      type: "paragraph",
      inlines: [
        { type: "text", text: "x", style: runStyle({ font: MATH_FAMILY }) },
        { type: "text", text: "x", style: runStyle({ font: MATH_FAMILY, italic: true }) },
      ],
      markStyle: runStyle({ font: MATH_FAMILY }),
      style: {},
    };
    const model = {
      sections: [{ blocks: [sample] }],
      headerFooters: new Map(),
      notes: new Map(),
      images: new Map(),
      evenAndOddHeaders: false,
      defaultTabStop: 36,
      fontFamilies: new Set([MATH_FAMILY]),
      fontTable: new Map(),
    } as unknown as DocumentModel;
    book = await loadFontBook(model, assetFontSource(env.ASSETS as Fetcher));
  }
  return book;
}

const set = async (node: MathNode): Promise<MathBox> =>
  layoutMath(node, runStyle({ font: MATH_FAMILY, size: 12 }), await fonts());
type Text = Extract<PaintItem, { kind: "text" }>;
const texts = (b: MathBox) => b.items.filter((i): i is Text => i.kind === "text");
const item = (b: MathBox, text: string) => {
  const found = texts(b).find((t) => t.text === text);
  if (!found)
    throw new Error(
      `no "${text}" in ${texts(b)
        .map((t) => t.text)
        .join(" ")}`,
    );
  return found;
};

describe("reading OMML", () => {
  it("reads scripts, fractions, n-ary operators, delimiters and matrices as structure", () => {
    const node = omml(
      `<m:sSup><m:e>${mr("x")}</m:e><m:sup>${mr("2")}</m:sup></m:sSup>` +
        `<m:f><m:num>${mr("a")}</m:num><m:den>${mr("b")}</m:den></m:f>` +
        `<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${mr("k=0")}</m:sub><m:sup>${mr("n")}</m:sup><m:e>${mr("k")}</m:e></m:nary>` +
        `<m:d><m:e><m:m><m:mr><m:e>${mr("1")}</m:e><m:e>${mr("0")}</m:e></m:mr><m:mr><m:e>${mr("0")}</m:e><m:e>${mr("1")}</m:e></m:mr></m:m></m:e></m:d>`,
    );
    expect(node.kind).toBe("row");
    const kinds = node.kind === "row" ? node.items.map((i) => i.kind) : [];
    expect(kinds).toEqual(["script", "fraction", "nary", "delimiter"]);
    const nary = node.kind === "row" ? node.items[2] : undefined;
    expect(nary).toMatchObject({ kind: "nary", op: "∑", limitsUnder: true, sub: { kind: "text", text: "k=0" } });
  });

  it("keeps the text of structure nested past the limit, instead of refusing the document", () => {
    let inner = mr("z");
    for (let i = 0; i < LIMITS.render.math.maxDepth * 3; i++)
      inner = `<m:f><m:num>${inner}</m:num><m:den>${mr("1")}</m:den></m:f>`;
    const node = omml(inner);
    const flat = JSON.stringify(node);
    expect(flat).toContain('"z');
    expect(flat.length).toBeLessThan(200_000);
  });
});

describe("setting equations", () => {
  it("draws single-letter variables in italic and digits upright", async () => {
    const box = await set(omml(mr("x") + mr("=") + mr("2")));
    expect(item(box, "x").face.id).toMatch(/Italic/);
    expect(item(box, "2").face.id).not.toMatch(/Italic/);
    // The relation has room on both sides.
    expect(item(box, "=").x).toBeGreaterThan(item(box, "x").x + item(box, "x").width + 1);
  });

  it("sets a superscript smaller and raised, a subscript smaller and lowered", async () => {
    const sup = await set(omml(`<m:sSup><m:e>${mr("x")}</m:e><m:sup>${mr("2")}</m:sup></m:sSup>`));
    const sub = await set(omml(`<m:sSub><m:e>${mr("x")}</m:e><m:sub>${mr("2")}</m:sub></m:sSub>`));
    expect(item(sup, "2").size).toBeCloseTo(12 * 0.6, 5);
    expect(item(sup, "2").y).toBeLessThan(-4);
    expect(item(sub, "2").y).toBeGreaterThan(2);
    expect(item(sup, "2").x).toBeGreaterThanOrEqual(item(sup, "x").x + item(sup, "x").width);
  });

  it("stacks a fraction: numerator above the bar, denominator below, both centred", async () => {
    const box = await set(omml(`<m:f><m:num>${mr("1")}</m:num><m:den>${mr("x+1")}</m:den></m:f>`));
    const bar = box.items.find((i): i is Extract<PaintItem, { kind: "line" }> => i.kind === "line")!;
    const num = item(box, "1");
    const den = texts(box).filter((t) => t.y > 0);
    expect(num.y).toBeLessThan(bar.y1);
    for (const d of den) expect(d.y).toBeGreaterThan(bar.y1);
    const denLeft = Math.min(...den.map((d) => d.x));
    const denRight = Math.max(...den.map((d) => d.x + d.width));
    expect(num.x + num.width / 2).toBeCloseTo((denLeft + denRight) / 2, 1);
    expect(box.descent).toBeGreaterThan(8); // the line must make room for the denominator
  });

  it("puts a sum's limits under and over the larger operator", async () => {
    const box = await set(
      omml(
        `<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${mr("i")}</m:sub><m:sup>${mr("n")}</m:sup><m:e>${mr("x")}</m:e></m:nary>`,
      ),
    );
    const op = item(box, "∑");
    expect(op.size).toBeGreaterThan(12);
    expect(item(box, "n").y).toBeLessThan(op.y - 10);
    expect(item(box, "i").y).toBeGreaterThan(op.y);
    expect(item(box, "x").x).toBeGreaterThan(op.x + op.width);
  });

  it("lays a matrix out in rows and columns between drawn delimiters", async () => {
    const box = await set(
      omml(
        `<m:d><m:e><m:m><m:mr><m:e>${mr("a")}</m:e><m:e>${mr("b")}</m:e></m:mr><m:mr><m:e>${mr("c")}</m:e><m:e>${mr("d")}</m:e></m:mr></m:m></m:e></m:d>`,
      ),
    );
    expect(item(box, "a").y).toBeCloseTo(item(box, "b").y, 5);
    expect(item(box, "c").y).toBeGreaterThan(item(box, "a").y + 10);
    expect(item(box, "b").x).toBeGreaterThan(item(box, "a").x + 5);
    // Tall content: the parentheses are strokes as tall as the matrix, left and right of it.
    const strokes = box.items.filter((i) => i.kind === "line");
    expect(strokes.length).toBeGreaterThan(8);
  });

  it("keeps every coordinate finite for a deeply nested equation", async () => {
    let inner = mr("z");
    for (let i = 0; i < 80; i++) inner = `<m:sSup><m:e>${inner}</m:e><m:sup>${mr("2")}</m:sup></m:sSup>`;
    const box = await set(omml(inner));
    expect(Number.isFinite(box.width) && Number.isFinite(box.ascent) && Number.isFinite(box.descent)).toBe(true);
    for (const it of box.items)
      for (const v of Object.values(it)) if (typeof v === "number") expect(Number.isFinite(v)).toBe(true);
  });
});
