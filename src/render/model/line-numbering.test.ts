/**
 * Line numbering in the model: w:lnNumType read as LibreOffice 7.4 imports it (one setting for
 * the whole document, the last numbering section's; start numbers on sections' first paragraphs),
 * the numbers' style and the paragraphs left out.
 */
import { describe, expect, it } from "vitest";
import * as B from "../../../test/support/docx-builder";
import { parseDocx } from "./parse-docx";
import type { Paragraph } from "./types";

describe("line numbering in the model", () => {
  it("is off without a w:lnNumType that has a w:countBy (LibreOffice needs one)", () => {
    expect(parseDocx(B.buildDocx({ body: B.p("x") })).lineNumbering).toBeUndefined();
    const noCount = B.buildDocx({ body: B.p("x") + B.sectPr({ lineNumbers: { distance: 720 } }) });
    expect(parseDocx(noCount).lineNumbering).toBeUndefined();
  });

  it("takes the last numbering section's settings for the whole document, 0.5 cm when w:distance is absent", () => {
    const m = parseDocx(
      B.buildDocx({
        body:
          B.p("one") +
          B.sectionBreak({ lineNumbers: { countBy: 5, distance: 480, restart: "continuous" } }) +
          B.p("two") +
          B.sectionBreak({ type: "continuous" }) +
          B.p("three") +
          B.sectPr({ type: "continuous", lineNumbers: { countBy: 2 } }),
      }),
    );
    expect(m.lineNumbering).toMatchObject({ countBy: 2, restartEachPage: true });
    expect(m.lineNumbering!.distance).toBeCloseTo(14.17, 2);
    expect(m.sections[0]!.lineNumbers).toEqual({ countBy: 5, start: 0, restart: "continuous", distance: 24 });
    expect(m.sections[1]!.lineNumbers).toBeUndefined();
  });

  it("starts a section again at w:start + 1, or at 1 for newSection once an earlier section numbers lines", () => {
    const m = parseDocx(
      B.buildDocx({
        body:
          B.p("one") +
          B.sectionBreak({ lineNumbers: { countBy: 1, restart: "newSection" } }) +
          B.p("two") +
          B.sectionBreak({ type: "continuous", lineNumbers: { countBy: 1, restart: "newSection" } }) +
          B.p("three") +
          B.sectPr({ type: "continuous", lineNumbers: { countBy: 1, start: 9, restart: "continuous" } }),
      }),
    );
    expect(m.sections.map((s) => s.lineNumberStart)).toEqual([undefined, 1, 10]);
    expect(m.lineNumbering!.restartEachPage).toBe(false);
  });

  it("draws the numbers in the style named Line Number over the document defaults, not in Word's lower-case name", () => {
    const styled = (name: string) =>
      parseDocx(
        B.buildDocx({
          styles:
            B.DEFAULT_STYLES +
            B.style({
              id: "LineNumber",
              type: "character",
              name,
              rPr: `<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/><w:sz w:val="16"/>`,
            }),
          body: B.p("x") + B.sectPr({ lineNumbers: { countBy: 1 } }),
        }),
      ).lineNumbering!.style;
    expect(styled("Line Number")).toMatchObject({ font: "Courier New", size: 8 });
    expect(styled("Line Numbering")).toMatchObject({ font: "Courier New", size: 8 });
    expect(styled("line number")).toMatchObject({ font: "Calibri", size: 11 });
  });

  it("leaves out paragraphs with w:suppressLineNumbers and in the Header and Footer styles", () => {
    const m = parseDocx(
      B.buildDocx({
        body:
          B.p("counted") +
          B.p("suppressed", { extra: `<w:suppressLineNumbers/>` }) +
          B.p("header style", { style: "Header" }) +
          B.sectPr({ lineNumbers: { countBy: 1 } }),
      }),
    );
    const paras = m.sections[0]!.blocks as Paragraph[];
    expect(paras.map((p) => p.style.suppressLineNumbers ?? false)).toEqual([false, true, true]);
  });
});
