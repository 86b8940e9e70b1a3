/**
 * Automatic text colour against LibreOffice: text whose colour is "auto" is drawn white over a dark
 * fill (a shaded table cell, paragraph shading, run shading) and black otherwise; a highlight does not
 * count, nor does text with a colour of its own. Expected colours come from LibreOffice's PDF of the
 * same DOCX, read with `mutool draw -F trace`.
 */
import { describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import { convertWithLibreOffice, libreOfficeAvailable, strokeColors, textColors } from "./support/libreoffice";

const have = await libreOfficeAvailable();

// Fills around LibreOffice's threshold (luminance 62: 3E3E3E dark, 404040 not) and saturated ones.
const CELL_FILLS = ["000000", "3E3E3E", "404040", "7F7F7F", "FF0000", "0000FF", "008000", "1F3864", "C00000"];
const shd = (fill: string) => `<w:shd w:val="clear" w:color="auto" w:fill="${fill}"/>`;

const DOC = B.buildDocx({
  body:
    B.table(
      CELL_FILLS.map((fill) => [{ content: `Cell${fill}`, shading: fill }]),
      { widths: [4000] },
    ) +
    ["000000", "404040", "1F3864"].map((fill) => B.p(`Para${fill}`, { shading: fill })).join("") +
    ["000000", "404040"]
      .map((fill) => `<w:p><w:r><w:rPr>${shd(fill)}</w:rPr><w:t>Run${fill}</w:t></w:r></w:p>`)
      .join("") +
    `<w:p><w:r><w:rPr><w:highlight w:val="black"/></w:rPr><w:t>Highlighted</w:t></w:r></w:p>` +
    B.p([B.r("Explicit", { color: "000000" })], { shading: "000000" }),
});

describe.skipIf(!have)("automatic text colour against LibreOffice", () => {
  it("draws auto-coloured text white over dark cell, paragraph and run fills, as LibreOffice does", async () => {
    const colourOf = async (pdf: Uint8Array) => {
      const map = new Map<string, string>();
      for (const { text, color } of await textColors(pdf))
        for (const word of text.match(/(Cell|Para|Run)[0-9A-F]{6}|Highlighted|Explicit/g) ?? []) map.set(word, color);
      return map;
    };
    const ours = await colourOf(await renderDocxToPdf(DOC, { fonts: nodeFontSource() }));
    const lo = await colourOf(await convertWithLibreOffice(DOC));
    expect(lo.size).toBe(CELL_FILLS.length + 7);
    expect(Object.fromEntries(ours)).toEqual(Object.fromEntries(lo));
    expect(lo.get("Cell3E3E3E")).toBe("1 1 1");
    expect(lo.get("Cell404040")).toBe("0 0 0");
  }, 120_000);

  it("underlines auto-coloured text over a dark cell in white, as its text", async () => {
    const doc = B.buildDocx({
      body: B.table([[{ content: B.p([B.r("Under", { u: "single" })]), shading: "000000" }]], {
        widths: [4000],
      }),
    });
    const white = async (pdf: Uint8Array) => (await strokeColors(pdf)).filter((c) => c === "1 1 1").length;
    expect(await white(await convertWithLibreOffice(doc))).toBe(1);
    expect(await white(await renderDocxToPdf(doc, { fonts: nodeFontSource() }))).toBe(1);
  }, 120_000);
});
