/**
 * Border widths against LibreOffice: how much room a table or paragraph border of each Word style
 * takes, as LibreOffice converts w:sz per style (three widths for double and triple, two for thick
 * and the 3-D styles, the width plus a fixed gap for the thin-thick families). Expected positions
 * come from LibreOffice's PDF of the same DOCX (`pdftotext -bbox`).
 */
import { describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import { convertWithLibreOffice, libreOfficeAvailable, wordBoxes } from "./support/libreoffice";

const have = await libreOfficeAvailable();

const STYLES = [
  "single",
  "thick",
  "outset",
  "triple",
  "doubleWave",
  "thinThickSmallGap",
  "thickThinMediumGap",
  "thinThickLargeGap",
  "threeDEngrave",
];
const SIZES = [6, 24]; // eighths of a point: 0.75 pt and 3 pt
const CASES = STYLES.flatMap((style) => SIZES.map((size) => ({ style, size, id: `${style}${size}` })));
const unspaced = { spacing: { after: 0 } };
const sides = (style: string, size: number, names: string[]) =>
  names.map((n) => `<w:${n} w:val="${style}" w:color="000000" w:sz="${size}" w:space="0"/>`).join("");

/** One bordered one-cell table per case, each followed by a paragraph (so they stay apart). */
const TABLES = B.buildDocx({
  body:
    B.p("start", unspaced) +
    CASES.map(
      ({ style, size, id }) =>
        `<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/><w:tblBorders>${sides(style, size, ["top", "left", "bottom", "right"])}</w:tblBorders>` +
        `<w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/></w:tblCellMar></w:tblPr>` +
        `<w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>` +
        `${B.p(id, unspaced)}</w:tc></w:tr></w:tbl>${B.p(`after${id}`, unspaced)}`,
    ).join("") +
    B.sectPr({ margins: { top: 360, bottom: 360 } }),
});

/** One paragraph with a top and bottom border per case, each followed by a plain one. */
const PARAGRAPHS = B.buildDocx({
  body:
    B.p("start", unspaced) +
    CASES.map(
      ({ style, size, id }) =>
        `<w:p><w:pPr><w:pBdr>${sides(style, size, ["top", "bottom"])}</w:pBdr><w:spacing w:after="0"/></w:pPr>` +
        `<w:r><w:t>${id}</w:t></w:r></w:p>${B.p(`after${id}`, unspaced)}`,
    ).join("") +
    B.sectPr({ margins: { top: 360, bottom: 360 } }),
});

/** Each case's word and the word after it, as distances from the word before (pt). */
async function steps(pdf: Uint8Array): Promise<number[]> {
  const pages = await wordBoxes(pdf);
  expect(pages).toHaveLength(1);
  const y = (text: string) => pages[0]!.words.find((w) => w.text === text)!.yMin;
  let before = y("start");
  return CASES.flatMap(({ id }) => {
    const step = [y(id) - before, y(`after${id}`) - y(id)];
    before = y(`after${id}`);
    return step;
  });
}

describe.skipIf(!have)("border widths of each style against LibreOffice", () => {
  it.each([
    ["table", TABLES],
    ["paragraph", PARAGRAPHS],
  ])("%s borders take LibreOffice's room for every style at 0.75 and 3 pt", async (_kind, doc) => {
    const theirs = await steps(await convertWithLibreOffice(doc));
    const ours = await steps(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
    ours.forEach((step, i) => expect(Math.abs(step - theirs[i]!), CASES[i >> 1]!.id).toBeLessThan(0.2));
    // The styles differ in LibreOffice (single 3 pt against triple 3 pt: 6 pt more room each side).
    expect(theirs[CASES.findIndex((c) => c.id === "triple24") * 2]! - theirs[1 * 2]!).toBeGreaterThan(5);
  }, 120_000);
});
