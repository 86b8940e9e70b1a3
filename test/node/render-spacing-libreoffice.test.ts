/**
 * Paragraph spacing against LibreOffice. Automatic paragraph spacing (w:beforeAutospacing / w:afterAutospacing, what HTML-born and many
 * Chinese documents use) against LibreOffice: 14 pt between ordinary paragraphs, none between the
 * items of a list. Expected positions come from LibreOffice's PDF of the same DOCX.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import { convertWithLibreOffice, libreOfficeAvailable, wordBoxes, type PageWords } from "./support/libreoffice";

const have = await libreOfficeAvailable();
const auto = { spacing: { before: 100, after: 100, beforeAutospacing: true, afterAutospacing: true } };
const DOC = B.buildDocx({
  body:
    B.p("Heading paragraph", auto) +
    B.p("Ordinary paragraph", auto) +
    B.p("Item one", { ...auto, numId: 1, ilvl: 0 }) +
    B.p("Item two", { ...auto, numId: 1, ilvl: 0 }) +
    B.p("Item three nested", { ...auto, numId: 1, ilvl: 1 }) +
    B.p("After the list", auto) +
    B.p("Last paragraph", auto),
  numbering: B.numberingPart(B.numbering({ numId: 1, levels: [{ fmt: "bullet", text: "•" }, { fmt: "bullet", text: "o" }] })),
});

let ours: PageWords[];
let lo: PageWords[];
beforeAll(async () => {
  if (!have) return;
  ours = await wordBoxes(await renderDocxToPdf(DOC, { fonts: nodeFontSource() }));
  lo = await wordBoxes(await convertWithLibreOffice(DOC));
}, 120_000);

describe.skipIf(!have)("automatic paragraph spacing against LibreOffice", () => {
  it("puts every word within 1 pt of LibreOffice's: no auto spacing between list items", () => {
    const misses: string[] = [];
    for (const w of lo[0]!.words) {
      const dist = (c: { xMin: number; yMin: number }) => Math.max(Math.abs(c.xMin - w.xMin), Math.abs(c.yMin - w.yMin));
      const o = ours[0]!.words.filter((c) => c.text === w.text).sort((a, b) => dist(a) - dist(b))[0];
      if (!o || Math.abs(o.yMin - w.yMin) > 1 || Math.abs(o.xMin - w.xMin) > 1) misses.push(`${w.text} LibreOffice (${w.xMin}, ${w.yMin}) ours ${o ? `(${o.xMin}, ${o.yMin})` : "missing"}`);
    }
    expect(misses).toEqual([]);
  });
});

describe.skipIf(!have)("proportional line spacing against LibreOffice", () => {
  it("1.15 lines of Times New Roman 11 pt stay in step over a long paragraph (whole twips, truncated)", async () => {
    const words = Array.from({ length: 700 }, (_, i) => `word${i}`).join(" ");
    const doc = B.buildDocx({ body: B.p(words, { spacing: { after: 0, line: 276, lineRule: "auto" }, run: { font: "Times New Roman", sizePt: 11 } }) });
    const lineTops = async (pdf: Uint8Array) => [...new Set((await wordBoxes(pdf))[0]!.words.map((w) => Math.round(w.yMin * 100) / 100))];
    const ourTops = await lineTops(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
    const loTops = await lineTops(await convertWithLibreOffice(doc));
    expect(ourTops.length).toBe(loTops.length);
    // The distance from the first line to the last: 0.05 pt a line too many would add 2 pt over ~45 lines.
    const span = (tops: number[]) => tops[tops.length - 1]! - tops[0]!;
    expect(Math.abs(span(ourTops) - span(loTops))).toBeLessThan(0.3);
  }, 120_000);
});
