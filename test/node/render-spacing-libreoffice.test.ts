/**
 * Paragraph spacing against LibreOffice. Automatic paragraph spacing (w:beforeAutospacing / w:afterAutospacing, what HTML-born and many
 * Chinese documents use) against LibreOffice: 14 pt between ordinary paragraphs, none between the
 * items of a list. Expected positions come from LibreOffice's PDF of the same DOCX.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import {
  convertWithLibreOffice,
  libreOfficeAvailable,
  pdfFonts,
  wordBoxes,
  type PageWords,
} from "./support/libreoffice";
import { makePng } from "../support/png-images";

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
  numbering: B.numberingPart(
    B.numbering({
      numId: 1,
      levels: [
        { fmt: "bullet", text: "•" },
        { fmt: "bullet", text: "o" },
      ],
    }),
  ),
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
      const dist = (c: { xMin: number; yMin: number }) =>
        Math.max(Math.abs(c.xMin - w.xMin), Math.abs(c.yMin - w.yMin));
      const o = ours[0]!.words.filter((c) => c.text === w.text).sort((a, b) => dist(a) - dist(b))[0];
      if (!o || Math.abs(o.yMin - w.yMin) > 1 || Math.abs(o.xMin - w.xMin) > 1)
        misses.push(`${w.text} LibreOffice (${w.xMin}, ${w.yMin}) ours ${o ? `(${o.xMin}, ${o.yMin})` : "missing"}`);
    }
    expect(misses).toEqual([]);
  });
});

describe.skipIf(!have)("proportional line spacing against LibreOffice", () => {
  it("1.15 lines of Times New Roman 11 pt stay in step over a long paragraph (whole twips, truncated)", async () => {
    const words = Array.from({ length: 700 }, (_, i) => `word${i}`).join(" ");
    const doc = B.buildDocx({
      body: B.p(words, {
        spacing: { after: 0, line: 276, lineRule: "auto" },
        run: { font: "Times New Roman", sizePt: 11 },
      }),
    });
    const lineTops = async (pdf: Uint8Array) => [
      ...new Set((await wordBoxes(pdf))[0]!.words.map((w) => Math.round(w.yMin * 100) / 100)),
    ];
    const ourTops = await lineTops(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
    const loTops = await lineTops(await convertWithLibreOffice(doc));
    expect(ourTops.length).toBe(loTops.length);
    // The distance from the first line to the last: 0.05 pt a line too many would add 2 pt over ~45 lines.
    const span = (tops: number[]) => tops[tops.length - 1]! - tops[0]!;
    expect(Math.abs(span(ourTops) - span(loTops))).toBeLessThan(0.3);
  }, 120_000);
});

describe.skipIf(!have)("single line heights against LibreOffice", () => {
  // vcl rounds the ascender, descender and line gap to pixels of its 8640 dpi reference device and
  // Writer converts ascent plus descent to twips in one: at these sizes a line is 1 twip taller
  // than the font units give (Tinos 10 pt 11.55 pt, not 11.50), 1.45 pt over 30 lines.
  it.each([
    ["Times New Roman", 10],
    ["Arial", 10.5],
    ["Cambria", 9.5],
    ["Calibri", 15.5],
  ])(
    "30 single-spaced lines of %s %s pt take LibreOffice's height",
    async (font, size) => {
      const doc = B.buildDocx({
        body:
          Array.from({ length: 30 }, (_, i) =>
            B.p(`Line${i} text`, { spacing: { after: 0, line: 240, lineRule: "auto" }, run: { font, sizePt: size } }),
          ).join("") + B.sectPr({ margins: { top: 720, bottom: 720 } }),
      });
      const firstToLast = async (pdf: Uint8Array) => {
        const words = (await wordBoxes(pdf))[0]!.words;
        const y = (t: string) => words.find((w) => w.text === t)!.yMin;
        return y("Line29") - y("Line0");
      };
      const ours = await firstToLast(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
      const theirs = await firstToLast(await convertWithLibreOffice(doc));
      expect(Math.abs(ours - theirs)).toBeLessThan(0.3);
    },
    120_000,
  );
});

describe.skipIf(!have)("fractional measures against LibreOffice", () => {
  it("cuts a plain number to whole units: w:sz 28.8 is 14 pt, 23.5 is 11.5 pt, 27. is 13.5 pt", async () => {
    const sizes = ["28.8", "33.6", "24.0", "23.5", "21.4", "27."];
    const doc = B.buildDocx({
      body: sizes
        .map((v, i) => B.p([B.r(`Word${i}wide`, { extra: `<w:sz w:val="${v}"/><w:szCs w:val="${v}"/>` })]))
        .join(""),
    });
    const widths = async (pdf: Uint8Array) =>
      (await wordBoxes(pdf))[0]!.words.filter((w) => w.text.startsWith("Word")).map((w) => w.xMax - w.xMin);
    const ours = await widths(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
    const theirs = await widths(await convertWithLibreOffice(doc));
    expect(theirs).toHaveLength(sizes.length);
    ours.forEach((w, i) => expect(Math.abs(w - theirs[i]!)).toBeLessThan(0.5));
  }, 120_000);
});

/** Each LibreOffice word → how far (pt) our nearest same-text word is; a word we lack gets Infinity. */
function offsets(
  loWords: { text: string; xMin: number; yMin: number }[],
  ourWords: { text: string; xMin: number; yMin: number }[],
) {
  return loWords.map((w) => {
    const dist = (c: { xMin: number; yMin: number }) => Math.max(Math.abs(c.xMin - w.xMin), Math.abs(c.yMin - w.yMin));
    const best = ourWords.filter((c) => c.text === w.text).sort((a, b) => dist(a) - dist(b))[0];
    return { text: w.text, dx: best ? best.xMin - w.xMin : Infinity, dy: best ? best.yMin - w.yMin : Infinity };
  });
}

describe.skipIf(!have)("unknown families with a font-table alternate name, against LibreOffice", () => {
  it("draws them as LibreOffice does (Noto Sans), not in the alternate name's face, so lines break alike", async () => {
    const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
    const fontTable =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:fonts ${W}>` +
      `<w:font w:name="Times New Roman"><w:panose1 w:val="02020603050405020304"/><w:family w:val="roman"/><w:pitch w:val="variable"/></w:font>` +
      // As in real documents (hyperlink__632399964516872542_1, complex2010): Geneva with Arial as alternate, a decorative face with Courier New.
      `<w:font w:name="Geneva"><w:altName w:val="Arial"/><w:charset w:val="00"/><w:family w:val="auto"/><w:pitch w:val="variable"/></w:font>` +
      `<w:font w:name="Bremen Bd BT"><w:altName w:val="Courier New"/><w:panose1 w:val="00000000000000000000"/><w:family w:val="decorative"/><w:pitch w:val="variable"/></w:font>` +
      `</w:fonts>`;
    const text = (tag: string) => Array.from({ length: 60 }, (_, i) => `${tag}${i}`).join(" ");
    const doc = B.buildDocx({
      body:
        B.p(text("gen"), { run: { font: "Geneva", sizePt: 11 } }) +
        B.p(text("brm"), { run: { font: "Bremen Bd BT", sizePt: 12 } }),
      extra: { "word/fontTable.xml": fontTable },
    });
    const ourPdf = await renderDocxToPdf(doc, { fonts: nodeFontSource() });
    const loPdf = await convertWithLibreOffice(doc);
    const names = async (pdf: Uint8Array) =>
      [...new Set((await pdfFonts(pdf)).map((f) => f.name.replace(/-Regular$/, "")))].sort();
    expect(await names(ourPdf)).toEqual(await names(loPdf));
    const far = offsets((await wordBoxes(loPdf))[0]!.words, (await wordBoxes(ourPdf))[0]!.words).filter(
      (o) => !(Math.abs(o.dx) <= 2 && Math.abs(o.dy) <= 2),
    );
    expect(far).toEqual([]);
  }, 120_000);

  it("ignores the font table's fixed pitch, modern class and monospaced PANOSE (Noto Sans); Consolas by name is mono", async () => {
    const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
    const fontTable =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:fonts ${W}>` +
      // As in poi__stress004 (Literata: modern, variable pitch) and Word's own entries for fixed-pitch faces.
      `<w:font w:name="Literata"><w:panose1 w:val="00000000000000000000"/><w:charset w:val="00"/><w:family w:val="modern"/><w:notTrueType/><w:pitch w:val="variable"/></w:font>` +
      `<w:font w:name="Lucida Console"><w:panose1 w:val="020B0609040504020204"/><w:family w:val="modern"/><w:pitch w:val="fixed"/></w:font>` +
      `<w:font w:name="Consolas"><w:panose1 w:val="020B0609020204030204"/><w:family w:val="modern"/><w:pitch w:val="fixed"/></w:font>` +
      `</w:fonts>`;
    const text = (tag: string) => Array.from({ length: 40 }, (_, i) => `${tag}${i}`).join(" ");
    for (const font of ["Literata", "Lucida Console", "Consolas"]) {
      const doc = B.buildDocx({
        body: B.p(text("www"), { run: { font, sizePt: 11 } }),
        extra: { "word/fontTable.xml": fontTable },
      });
      const ourPdf = await renderDocxToPdf(doc, { fonts: nodeFontSource() });
      const loPdf = await convertWithLibreOffice(doc);
      const names = async (pdf: Uint8Array) =>
        [...new Set((await pdfFonts(pdf)).map((f) => f.name.replace(/-Regular$/, "")))].sort();
      expect(await names(ourPdf), font).toEqual(await names(loPdf));
      const far = offsets((await wordBoxes(loPdf))[0]!.words, (await wordBoxes(ourPdf))[0]!.words).filter(
        (o) => !(Math.abs(o.dx) <= 2 && Math.abs(o.dy) <= 2),
      );
      expect(far, font).toEqual([]);
    }
  }, 180_000);
});

describe.skipIf(!have)("table row heights against LibreOffice", () => {
  it("a row's minimum or exact height includes the border above it: rows under 0.5 pt rules stay in step", async () => {
    const run = { font: "Arial", sizePt: 9 };
    const tight = { after: 0, line: 240, lineRule: "auto" as const };
    for (const rule of ["atLeast", "exact"] as const) {
      const rows = Array.from({ length: 20 }, (_, i) => [
        B.p(`row${i}`, { run, spacing: tight }),
        B.p(`v${i * 7}`, { run, spacing: tight }),
      ]);
      // 13 pt rows (trHeight 260) with single 0.5 pt borders, text 9 pt: the text fits, the height rules.
      const doc = B.buildDocx({
        body: B.p("Before") + B.table(rows, { widths: [2000, 2000], rowHeight: { h: 260, rule } }) + B.p("After"),
      });
      const ours = (await wordBoxes(await renderDocxToPdf(doc, { fonts: nodeFontSource() })))[0]!.words;
      const lo = (await wordBoxes(await convertWithLibreOffice(doc)))[0]!.words;
      const top = (words: typeof lo, text: string) => words.find((w) => w.text === text)!.yMin;
      // 20 rows 0.5 pt too tall would put the last row 10 pt low.
      const pitch = (words: typeof lo) => top(words, "row19") - top(words, "row0");
      expect(Math.abs(pitch(ours) - pitch(lo)), rule).toBeLessThan(0.3);
      const far = offsets(lo, ours).filter((o) => !(Math.abs(o.dx) <= 1 && Math.abs(o.dy) <= 1));
      expect(far, rule).toEqual([]);
    }
  }, 180_000);
});

/** A floating picture (wp:anchor) `w` x `h` pt, top-and-bottom wrap, `down` pt below its paragraph's top. */
function stackedPicture(w: number, h: number, down: number): string {
  const [cx, cy, off] = [w, h, down].map((v) => Math.round(v * 12700));
  return (
    `<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
    `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>${off}</wp:posOffset></wp:positionV>` +
    `<wp:extent cx="${cx}" cy="${cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapTopAndBottom/><wp:docPr id="5" name="Picture 5"/>` +
    `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="5" name="p"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="rIdImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm>` +
    `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`
  );
}

describe.skipIf(!have)(
  "a paragraph's stacked top-and-bottom pictures that run past the page bottom, against LibreOffice",
  () => {
    // 18 single-spaced lines, then a paragraph anchoring two 200 pt pictures, one at its top and one
    // 210 pt below: the first fits, the second runs past the bottom, and the paragraph's line must pass both.
    const tight = { spacing: { after: 0, line: 240, lineRule: "auto" as const } };
    const build = (anchorText: string) =>
      B.buildDocx({
        body:
          Array.from({ length: 18 }, (_, i) => B.p(`Filler${i + 1}`, tight)).join("") +
          B.p(
            [stackedPicture(400, 200, 0), stackedPicture(400, 200, 210), ...(anchorText ? [anchorText] : [])],
            tight,
          ) +
          B.p("", tight) +
          B.p("Nextpara", tight),
        media: { rIdImg: makePng(30, 20) },
      });
    const where = (pages: PageWords[], text: string) => {
      const page = pages.findIndex((p) => p.words.some((w) => w.text === text));
      return { page, y: page < 0 ? NaN : pages[page]!.words.find((w) => w.text === text)!.yMin };
    };

    it("an empty one stays with its pictures: only the paragraphs after it go to the next page", async () => {
      const doc = build("");
      const ours = await wordBoxes(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
      const lo = await wordBoxes(await convertWithLibreOffice(doc));
      const [o, l] = [where(ours, "Nextpara"), where(lo, "Nextpara")];
      expect(o.page).toBe(l.page);
      expect(Math.abs(o.y - l.y)).toBeLessThan(1);
    }, 120_000);

    it("one with text moves to the next page with its pictures, its line below both", async () => {
      const doc = build("Anchortext");
      const ours = await wordBoxes(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
      const lo = await wordBoxes(await convertWithLibreOffice(doc));
      for (const text of ["Anchortext", "Nextpara"]) {
        const [o, l] = [where(ours, text), where(lo, text)];
        expect(o.page, text).toBe(l.page);
        expect(Math.abs(o.y - l.y), text).toBeLessThan(1);
      }
    }, 120_000);
  },
);

describe.skipIf(!have)(
  "a paragraph with a picture that widow/orphan control moves to the next page, against LibreOffice",
  () => {
    it("its text wraps around the picture there: the second line goes below it", async () => {
      const tight = { spacing: { after: 0, line: 240, lineRule: "auto" as const } };
      const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
      // 47 lines leave room for one line of the two-line paragraph: orphan control takes it on, and
      // its picture (14.4 pt below its top, so not at the top) with it.
      const doc = B.buildDocx({
        body:
          Array.from({ length: 47 }, (_, i) => B.p(`Filler${i + 1}`, tight)).join("") +
          B.p([stackedPicture(400, 200, 14.4), words], tight) +
          B.p("Nextpara", tight),
        media: { rIdImg: makePng(30, 20) },
      });
      const ours = await wordBoxes(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
      const lo = await wordBoxes(await convertWithLibreOffice(doc));
      expect(ours.length).toBe(lo.length);
      const far = offsets(lo[1]!.words, ours[1]?.words ?? []).filter(
        (o) => !(Math.abs(o.dx) <= 1 && Math.abs(o.dy) <= 1),
      );
      expect(far).toEqual([]);
    }, 120_000);
  },
);

describe.skipIf(!have)("hidden paragraphs and automatic spacing in cells, against LibreOffice", () => {
  const tight = `<w:spacing w:before="0" w:after="0"/>`;
  const para = (runs: string, markHidden: boolean) =>
    `<w:p><w:pPr>${tight}${markHidden ? `<w:rPr><w:vanish/></w:rPr>` : ""}</w:pPr>${runs}</w:p>`;
  const run = (text: string, hidden = false) =>
    `<w:r>${hidden ? `<w:rPr><w:vanish/></w:rPr>` : ""}<w:t>${text}</w:t></w:r>`;
  const compare = async (doc: Uint8Array) => {
    const ours = (await wordBoxes(await renderDocxToPdf(doc, { fonts: nodeFontSource() })))[0]!.words;
    const lo = (await wordBoxes(await convertWithLibreOffice(doc)))[0]!.words;
    return offsets(lo, ours).filter((o) => !(Math.abs(o.dx) <= 1 && Math.abs(o.dy) <= 1));
  };

  it("a paragraph with nothing visible takes no room (hidden mark, or only hidden runs); visible text or an empty visible mark keeps its line", async () => {
    const body =
      para(run("L0"), false) +
      para("", true) +
      para(run("L1"), false) +
      para(run("gone", true), true) +
      para(run("L2"), false) +
      para(run("gone", true), false) +
      para(run("L3"), false) +
      para(run("Vis"), true) +
      para(run("L4"), false) +
      B.table([[para(run("C0"), false) + para("", true) + para(run("C1"), false)]], {
        widths: [4000],
        borders: false,
      }) +
      para("", false) +
      para(run("L5"), false);
    expect(await compare(B.buildDocx({ body }))).toEqual([]);
  }, 120_000);

  it("no automatic space before a paragraph that follows a table nested in a cell", async () => {
    const run12 = { font: "Times New Roman", sizePt: 12 };
    const auto = { spacing: { before: 100, after: 100, beforeAutospacing: true, afterAutospacing: true }, run: run12 };
    const zero = { spacing: { before: 0, after: 0 }, run: run12 };
    const cell =
      B.p("Head", zero) +
      B.table([[B.p("Inner", zero)]], { widths: [9355], borders: false }) +
      B.p("Below", auto) +
      B.p("Next", auto);
    const doc = B.buildDocx({ body: B.table([[cell]], { widths: [9355], borders: false }) + B.p("After", auto) });
    expect(await compare(doc)).toEqual([]);
  }, 120_000);
});

describe.skipIf(!have)("a line break after spaces that run past the right edge, against LibreOffice", () => {
  it("goes on a line of its own, so the text after it starts a line lower; spaces that fit change nothing", async () => {
    // Arial 10 pt 'x' is exactly 5 pt wide: 93 of them fill a 465 pt line (right indent 3 pt).
    const rp = `<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="20"/></w:rPr>`;
    const line = (tag: string, xs: number, spaces: number) =>
      `<w:p><w:pPr><w:spacing w:before="0" w:after="0"/><w:ind w:right="60"/></w:pPr><w:r>${rp}<w:t xml:space="preserve">${tag}${"x".repeat(xs - 1)}${" ".repeat(spaces)}</w:t></w:r>` +
      `<w:r>${rp}<w:br/><w:t>after${tag}</w:t></w:r></w:p>`;
    const body =
      line("x", 93, 0) +
      line("x", 92, 1) +
      line("x", 92, 2) +
      line("x", 93, 1) +
      `<w:p><w:r><w:t>End</w:t></w:r></w:p>`;
    const doc = B.buildDocx({ body });
    const ours = (await wordBoxes(await renderDocxToPdf(doc, { fonts: nodeFontSource() })))[0]!.words;
    const lo = (await wordBoxes(await convertWithLibreOffice(doc)))[0]!.words;
    const far = offsets(lo, ours).filter((o) => !(Math.abs(o.dx) <= 1 && Math.abs(o.dy) <= 1));
    expect(far).toEqual([]);
  }, 120_000);
});

describe.skipIf(!have)("line breaks after a vertical line, against LibreOffice", () => {
  it("a line may end after | (get|set, a|b|c) as after a hyphen between words", async () => {
    const rp = `<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="20"/></w:rPr>`;
    const para = (t: string) =>
      `<w:p><w:pPr><w:spacing w:before="0" w:after="0"/></w:pPr><w:r>${rp}<w:t xml:space="preserve">${t}</w:t></w:r></w:p>`;
    const doc = B.buildDocx({
      body: para(`${"x".repeat(86)} getxx|setContents end`) + para(`${"x".repeat(80)} a|b|c|d|e|f|g|h|i|j|k|l|m end`),
    });
    const ours = (await wordBoxes(await renderDocxToPdf(doc, { fonts: nodeFontSource() })))[0]!.words;
    const lo = (await wordBoxes(await convertWithLibreOffice(doc)))[0]!.words;
    expect(ours.map((w) => w.text)).toEqual(lo.map((w) => w.text));
    expect(offsets(lo, ours).filter((o) => !(Math.abs(o.dx) <= 1 && Math.abs(o.dy) <= 1))).toEqual([]);
  }, 120_000);
});

describe.skipIf(!have)("a table's place against its indent, against LibreOffice", () => {
  it("moves left by the table's own cell margin (w:tblCellMar), not by the first cell's w:tcMar", async () => {
    const table = (tag: string, tblMar: string, tcMar: string) =>
      `<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders><w:left w:val="single" w:sz="6" w:space="0" w:color="000000"/></w:tblBorders>${tblMar}</w:tblPr>` +
      `<w:tblGrid><w:gridCol w:w="4000"/><w:gridCol w:w="5000"/></w:tblGrid><w:tr>` +
      `<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/>${tcMar}</w:tcPr>${B.p(`${tag}a`)}</w:tc>` +
      `<w:tc><w:tcPr><w:tcW w:w="5000" w:type="dxa"/>${tcMar}</w:tcPr>${B.p(`${tag}b`)}</w:tc></w:tr></w:tbl>`;
    const zeroMargins = `<w:tblCellMar><w:left w:w="0" w:type="dxa"/><w:right w:w="0" w:type="dxa"/></w:tblCellMar>`;
    const body =
      B.p("Start") +
      table("A", zeroMargins, `<w:tcMar><w:left w:w="120" w:type="dxa"/><w:right w:w="120" w:type="dxa"/></w:tcMar>`) +
      B.p("x") +
      table("B", "", `<w:tcMar><w:left w:w="240" w:type="dxa"/></w:tcMar>`) +
      B.p("x") +
      table("C", "", "") +
      B.p("End");
    // Word 2010 compatibility (no compatibilityMode 15): tblInd is where the text starts.
    const doc = B.buildDocx({ body, settings: `<w:defaultTabStop w:val="720"/>` });
    const ours = (await wordBoxes(await renderDocxToPdf(doc, { fonts: nodeFontSource() })))[0]!.words;
    const lo = (await wordBoxes(await convertWithLibreOffice(doc)))[0]!.words;
    expect(offsets(lo, ours).filter((o) => !(Math.abs(o.dx) <= 1 && Math.abs(o.dy) <= 1))).toEqual([]);
  }, 120_000);
});
