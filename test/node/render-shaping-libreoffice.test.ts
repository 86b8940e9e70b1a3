/**
 * Shaping against LibreOffice: small documents rendered by Signet (HarfBuzz in WebAssembly) and by
 * `soffice --convert-to pdf` (HarfBuzz in LibreOffice) with the same font files. Expected glyph
 * positions and copied text come only from LibreOffice's PDF.
 *
 * The kerning rule, measured here: LibreOffice 7.4 kerns a DOCX run only where w:kern is set to
 * anything but 0 (whatever its size: w:kern="28" kerns 11 pt text), docDefaults' w:kern included,
 * and every run of a package without a styles part (its own default). Ligatures are formed
 * whatever w14:ligatures says; character spacing does not turn kerning on.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import { convertWithLibreOffice, glyphFonts, libreOfficeAvailable, pdfText } from "./support/libreoffice";

const have = await libreOfficeAvailable();
/** LibreOffice places glyphs at its own device's pixels, Signet's PDF at the font's widths: a little apart. */
const TOLERANCE = 0.35;
const TEXT = "AVAVAV To Wa office fi";

const run = (props: B.RunProps) => B.p(B.r(TEXT, props));
const CASES: Record<string, Uint8Array> = {
  plain: B.buildDocx({ body: run({ font: "Calibri" }) + run({ font: "Times New Roman" }) }),
  kerned: B.buildDocx({
    body:
      run({ font: "Calibri", extra: `<w:kern w:val="28"/>` }) +
      run({ font: "Times New Roman", extra: `<w:kern w:val="1"/>` }),
  }),
  kernZero: B.buildDocx({ body: run({ font: "Calibri", extra: `<w:kern w:val="0"/>` }) }),
  docDefaults: B.buildDocx({
    body: run({ font: "Calibri" }),
    styles: B.DEFAULT_STYLES.replace(`<w:sz w:val="22"/>`, `<w:kern w:val="2"/><w:sz w:val="22"/>`),
  }),
  spacing: B.buildDocx({ body: run({ font: "Calibri", spacing: -10 }) }),
  ligaturesNone: B.buildDocx({ body: run({ font: "Calibri", extra: `<w14:ligatures w14:val="none"/>` }) }),
  noStyles: B.buildDocxWithoutStyles(`<w:p><w:r><w:t>${TEXT}</w:t></w:r></w:p>`),
  scripts: B.buildDocx({
    body:
      B.p(B.r("السلام عليكم ورحمة الله", { rtl: true }), { bidi: true }) +
      B.p(B.r("شَمْس وقَمَر", { rtl: true, font: "Times New Roman" }), { bidi: true }) +
      B.p(B.r("שָׁלוֹם עוֹלָם", { rtl: true }), { bidi: true }) +
      B.p(B.r("office efficient affluent", { font: "Calibri" })),
  }),
};

type Glyphs = Awaited<ReturnType<typeof glyphFonts>>;
const results = new Map<string, { lo: Glyphs; ours: Glyphs; loText: string; ourText: string }>();

beforeAll(async () => {
  if (!have) return;
  for (const [name, docx] of Object.entries(CASES)) {
    const [ours, lo] = [await renderDocxToPdf(docx, { fonts: nodeFontSource() }), await convertWithLibreOffice(docx)];
    results.set(name, {
      ours: await glyphFonts(ours),
      lo: await glyphFonts(lo),
      ourText: await pdfText(ours),
      loText: await pdfText(lo),
    });
  }
}, 300_000);

/**
 * Glyphs LibreOffice draws more than TOLERANCE pt away from ours: the letters of both, line by line
 * from left to right (marks left out: a PDF maps a cluster's marks to its glyphs its own way).
 */
function misplaced(name: string): string[] {
  // Left-to-right lines in drawing order (a ligature's letters share its origin), right-to-left ones by position.
  const rtl = (g: Glyphs[number]) => /[\u0590-\u08ff]/u.test(g.c);
  const letters = (gs: Glyphs) =>
    gs
      .filter((g) => /^[\p{L}\p{N}\p{P}]$/u.test(g.c))
      .sort((a, b) => Math.round(a.y) - Math.round(b.y) || (rtl(a) && rtl(b) ? a.x - b.x : 0));
  const lo = letters(results.get(name)!.lo);
  const ours = letters(results.get(name)!.ours);
  expect(ours.map((g) => g.c).join("")).toBe(lo.map((g) => g.c).join(""));
  return lo.flatMap((g, i) => {
    const o = ours[i]!;
    const d = Math.max(Math.abs(o.x - g.x), Math.abs(o.y - g.y));
    return d > TOLERANCE ? [`${i} "${g.c}": LibreOffice ${g.x.toFixed(2)}, ours ${o.x.toFixed(2)}`] : [];
  });
}

describe.skipIf(!have)("kerning and ligatures as LibreOffice applies them to DOCX", () => {
  for (const name of ["plain", "kerned", "kernZero", "docDefaults", "spacing", "ligaturesNone", "noStyles"]) {
    it(`${name}: every glyph where LibreOffice puts it`, () => {
      expect(misplaced(name)).toEqual([]);
    });
  }

  it("kerns only where LibreOffice does: AV is narrower with w:kern, in docDefaults and without a styles part", () => {
    const vAt = (name: string) => results.get(name)!.ours[1]!.x;
    expect(vAt("kerned")).toBeLessThan(vAt("plain") - 0.3);
    expect(vAt("docDefaults")).toBeCloseTo(vAt("kerned"), 2);
    expect(vAt("noStyles")).toBeCloseTo(vAt("kerned"), 2);
    expect(vAt("kernZero")).toBeCloseTo(vAt("plain"), 2);
  });

  it("copies ligatures as the letters typed", () => {
    for (const name of ["plain", "kerned"]) expect(results.get(name)!.ourText).toContain("office fi");
  });
});

describe.skipIf(!have)("scripts shaped as LibreOffice shapes them", () => {
  it("draws the same glyphs in the same order, Arabic marks and Hebrew points placed by GPOS, within the tolerance", () => {
    expect(misplaced("scripts")).toEqual([]);
  });

  it("gives the text LibreOffice's PDF gives (a lam-alef copies as LibreOffice's does, \"السالم\")", () => {
    const { loText, ourText } = results.get("scripts")!;
    // pdftotext's spaces around a mark placed by GPOS depend on the PDF's glyph widths: left out.
    const lines = (t: string) =>
      t
        .split("\n")
        .map((l) => l.replace(/\s+/g, ""))
        .filter(Boolean);
    expect(lines(ourText)).toEqual(lines(loText));
  });
});
