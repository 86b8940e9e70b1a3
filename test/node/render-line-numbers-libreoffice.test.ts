/**
 * Line numbering (w:lnNumType, w:suppressLineNumbers, the "Line Number" character style) against
 * LibreOffice 7.4: minimal documents converted by both, the numbers' word boxes compared. What is
 * counted (empty paragraphs, headers, footnotes and footers yes, apart from the body; table cells,
 * the Header style and suppressed paragraphs no), where the
 * numbers go (right-aligned w:distance, else 0.5 cm, left of each text column, on the line's
 * baseline), countBy, w:start and the restarts per page and per section.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import { convertWithLibreOffice, glyphFonts, libreOfficeAvailable, wordBoxes, type PageWords } from "./support/libreoffice";

const have = await libreOfficeAvailable();
const words = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(" ");
const tight = { spacing: { after: 0 } };

const DOCS = {
  /** Default distance and restart (each page), countBy 1; what counts and what does not. */
  basics: B.buildDocx({
    body:
      B.p(words("aa", 40)) +
      B.p("") +
      B.p("Suppressed para", { extra: `<w:suppressLineNumbers/>` }) +
      B.p("Indented para", { ind: { left: 1440 } }) +
      B.p("Big font para", { run: { sizePt: 24 } }) +
      B.table(
        [
          ["cellA", "cellB"],
          ["cellC", "cellD"],
        ],
        { widths: [3000, 3000] },
      ) +
      B.p("After table") +
      B.p("Right aligned", { jc: "right" }) +
      B.p([B.r("Page one end"), B.pageBreak(), B.r("after break")]) +
      B.p("Second page para") +
      B.sectPr({ lineNumbers: { countBy: 1 }, headers: { default: "rIdH1" } }),
    headers: { rIdH1: B.p("Header text") },
  }),
  /** Every fifth line, 24 pt from the text, counting on across the page break from w:start + 1. */
  countBy: B.buildDocx({
    body:
      Array.from({ length: 60 }, (_, i) => B.p(`Line ${i}`, tight)).join("") +
      B.sectPr({ lineNumbers: { countBy: 5, distance: 480, restart: "continuous", start: 4 } }),
  }),
  /** newSection: each continuous section starts again at 1, a page break inside one does not. */
  sections: B.buildDocx({
    body:
      B.p("S1 one") +
      B.p("S1 two") +
      B.sectionBreak({ lineNumbers: { countBy: 1, restart: "newSection" } }) +
      B.p("S2 one") +
      B.p("S2 two") +
      B.sectionBreak({ type: "continuous", lineNumbers: { countBy: 1, restart: "newSection" } }) +
      B.p("S3 one") +
      B.p([B.r("S3 two"), B.pageBreak(), B.r("S3 three")]) +
      B.sectPr({ type: "continuous", lineNumbers: { countBy: 1, restart: "newSection" } }),
  }),
  /** Two columns: each column's lines numbered left of that column, the count running on. */
  columns: B.buildDocx({
    body: B.p(words("cc", 500)) + B.sectPr({ cols: { num: 2 }, lineNumbers: { countBy: 2 } }),
  }),
  /**
   * Headers, footnotes and footers count together, apart from the body, in that order on each page;
   * a paragraph in the Header style does not count.
   */
  parts: B.buildDocx({
    body:
      B.p(["Body one", B.footnoteRef(1)]) +
      B.p([B.r("Body two"), B.pageBreak(), B.r("Body three")]) +
      B.p(["Body four", B.footnoteRef(2)]) +
      B.sectPr({
        lineNumbers: { countBy: 1, restart: "continuous" },
        headers: { default: "rIdH1" },
        footers: { default: "rIdF1" },
      }),
    headers: { rIdH1: B.p("Hnormal one") + B.p("Hstyled", { style: "Header" }) + B.p("Hnormal two") },
    footers: { rIdF1: B.p("Fnormal") },
    footnotes: B.footnote(1, "Note one") + B.footnote(2, "Note two"),
  }),
  /** The "Line Number" style sets the numbers' font; a line smaller than the number shrinks it. */
  styled: B.buildDocx({
    styles:
      B.DEFAULT_STYLES +
      B.style({
        id: "LineNumber",
        type: "character",
        name: "Line Number",
        rPr: `<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/><w:sz w:val="16"/>`,
      }),
    body:
      B.p("Styled numbers") +
      B.p("Tiny", { run: { sizePt: 5 } }) +
      B.p("Third") +
      B.sectPr({ lineNumbers: { countBy: 1 } }),
  }),
};

type Name = keyof typeof DOCS;
const ours = {} as Record<Name, PageWords[]>;
const lo = {} as Record<Name, PageWords[]>;
const pdfs = {} as Record<Name, { ours: Uint8Array; lo: Uint8Array }>;

beforeAll(async () => {
  if (!have) return;
  // One conversion at a time: the machine's cores are shared.
  for (const name of Object.keys(DOCS) as Name[]) {
    const ourPdf = await renderDocxToPdf(DOCS[name], { fonts: nodeFontSource() });
    const loPdf = await convertWithLibreOffice(DOCS[name]);
    pdfs[name] = { ours: ourPdf, lo: loPdf };
    ours[name] = await wordBoxes(ourPdf);
    lo[name] = await wordBoxes(loPdf);
  }
}, 240_000);

/** The line numbers on each page: digit-only words left of the text (x below `textLeft` or in a column gap). */
function numbers(pages: PageWords[], isNumber: (x: number) => boolean) {
  return pages.map((p) =>
    p.words.filter((w) => /^\d+$/.test(w.text) && isNumber(w.xMax)).map((w) => ({ text: w.text, x: w.xMax, y: w.yMin })),
  );
}

/** LibreOffice's numbers missing from ours (same text, right edge and top within `tol` pt), and ours it lacks. */
function compare(name: Name, isNumber: (x: number) => boolean, tol = 1) {
  const theirs = numbers(lo[name], isNumber);
  const mine = numbers(ours[name], isNumber);
  const misses: string[] = [];
  theirs.forEach((page, i) => {
    const left = [...(mine[i] ?? [])];
    for (const n of page) {
      const k = left.findIndex((o) => o.text === n.text && Math.abs(o.x - n.x) <= tol && Math.abs(o.y - n.y) <= tol);
      if (k < 0) misses.push(`p${i + 1} ${n.text} at (${n.x}, ${n.y}) missing`);
      else left.splice(k, 1);
    }
    for (const o of left) misses.push(`p${i + 1} ${o.text} at (${o.x}, ${o.y}) extra`);
  });
  return { misses, count: theirs.flat().length };
}

const leftOfText = (x: number) => x < 70;

describe.skipIf(!have)("line numbering against LibreOffice", () => {
  it("numbers body lines and empty paragraphs 0.5 cm left of the column, not tables or suppressed paragraphs", () => {
    const { misses, count } = compare("basics", leftOfText);
    expect(misses).toEqual([]);
    // Page 2 starts again at 1 (w:restart absent is newPage), the header's count and the body's.
    expect(numbers(lo.basics, leftOfText)[1]!.map((n) => n.text)).toEqual(["1", "1", "2"]);
    expect(count).toBe(12);
  });

  it("shows every countBy-th number at w:distance, counting on across pages from w:start + 1", () => {
    const { misses, count } = compare("countBy", leftOfText);
    expect(count).toBe(12);
    expect(misses).toEqual([]);
  });

  it("starts each newSection section again at 1 and runs on across a page break inside one", () => {
    const { misses, count } = compare("sections", leftOfText);
    expect(count).toBe(7);
    expect(misses).toEqual([]);
  });

  it("numbers each column's lines left of that column", () => {
    // The second column starts at 324 pt: its numbers end 14 pt before it.
    const { misses, count } = compare("columns", (x) => x < 70 || (x > 300 && x < 322));
    expect(count).toBeGreaterThan(30);
    expect(misses).toEqual([]);
  });

  it("counts header, footnote and footer lines together, apart from the body's, skipping the Header style", () => {
    // The footer sits 1 pt higher than LibreOffice's (not a line-numbering matter): 1.5 pt.
    const { misses, count } = compare("parts", leftOfText, 1.5);
    expect(count).toBe(12);
    expect(misses).toEqual([]);
    expect(numbers(ours.parts, leftOfText).map((p) => p.map((n) => n.text).join(" "))).toEqual([
      "1 2 1 2 3 4",
      "5 6 3 4 7 8",
    ]);
  });

  it("draws the numbers in the Line Number style, shrunk to 17/20 of a line smaller than them", async () => {
    // Courier New (Cousine) has a deeper descent than LibreOffice writes: compare the right edges and glyph origins.
    const { misses } = compare("styled", leftOfText, 1.5);
    expect(misses).toEqual([]);
    const digits = async (pdf: Uint8Array) =>
      (await glyphFonts(pdf)).filter((g) => /\d/.test(g.c) && g.x < 70).map((g) => ({ font: g.font, size: g.size, y: g.y }));
    const mine = await digits(pdfs.styled.ours);
    const theirs = await digits(pdfs.styled.lo);
    // 8 pt, then 4.9 pt beside the 5 pt line (17/20 of its 5.75 pt), then 8 pt again.
    expect(mine.map((g) => [g.font, g.size])).toEqual([
      ["Cousine", 8],
      ["Cousine", 5],
      ["Cousine", 8],
    ]);
    expect(theirs.map((g) => [g.font, g.size])).toEqual(mine.map((g) => [g.font, g.size]));
    mine.forEach((g, i) => expect(Math.abs(g.y - theirs[i]!.y)).toBeLessThan(0.5));
  });
});
