/**
 * Font choice against LibreOffice: small documents naming families we do not ship, Hebrew and Arabic
 * in faces that lack them, symbols in a monospace face, and a package without styles, rendered by
 * Signet and by `soffice --convert-to pdf` under the harness's fontconfig. The face each character is
 * drawn with and where it goes (`mutool draw -F stext`) come from LibreOffice's PDF only. The rules are fontconfig's (src/render/fonts/fontconfig.ts; render-fontconfig.test.ts checks
 * them against `fc-match` over many more names).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import { convertWithLibreOffice, glyphFonts, libreOfficeAvailable } from "./support/libreoffice";

const have = await libreOfficeAvailable();
const TOLERANCE = 1;

const line = (text: string, font: string) =>
  B.p([B.r(text, { font, sizePt: 11 })], { spacing: { after: 0, line: 240, lineRule: "auto" } });
const rtlLine = (text: string, font: string) =>
  B.p([B.r(text, { font, sizePt: 11, rtl: true })], { bidi: true, spacing: { after: 0, line: 240, lineRule: "auto" } });
const withBidiLanguage = (lang: string) => B.DEFAULT_STYLES.replace('w:bidi="ar-SA"', `w:bidi="${lang}"`);
const HEBREW = "שלום עולם, זהו מסמך בעברית";
const ARABIC = "مرحبا بالعالم";

/** A font table entry of class roman whose name fontconfig does not know. */
const ROMAN_ENTRY = `<w:font w:name="Times New Roman Bold"><w:altName w:val="Times New Roman"/><w:charset w:val="00"/><w:family w:val="roman"/><w:pitch w:val="variable"/></w:font>`;

const ARABIC_SENTENCE = "الثعلب البني السريع يقفز فوق الكلب الكسول.";
const HEBREW_SENTENCE = "השועל החום הזריז קפץ מעל הכלב העצלן.";
const THEMED = `w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi" w:cstheme="minorBidi"`;
const themedLine = (text: string, fonts: string) =>
  `<w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:rPr><w:rFonts ${fonts}/><w:sz w:val="22"/></w:rPr><w:t>${text}</w:t></w:r></w:p>`;
/** A theme as Word writes it: Cambria for Latin text, the complex-script typeface empty, script fonts listed. */
const themeWithEmptyComplexFont = () => {
  const fonts = (arabic: string) =>
    `<a:latin typeface="Cambria"/><a:ea typeface=""/><a:cs typeface=""/><a:font script="Arab" typeface="${arabic}"/><a:font script="Hebr" typeface="${arabic}"/>`;
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="T">` +
    `<a:themeElements><a:clrScheme name="c"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1></a:clrScheme>` +
    `<a:fontScheme name="f"><a:majorFont>${fonts("Times New Roman")}</a:majorFont><a:minorFont>${fonts("Arial")}</a:minorFont></a:fontScheme>` +
    `<a:fmtScheme name="x"><a:fillStyleLst/><a:lnStyleLst/><a:effectStyleLst/><a:bgFillStyleLst/></a:fmtScheme></a:themeElements></a:theme>`
  );
};

const DOCS: Record<string, Uint8Array> = {
  // 45-latin.conf's serif (Constantia, Garamond) → Noto Serif; names fontconfig does not know → Noto
  // Sans, whatever the font table's class; DejaVu and Bitstream Vera by name.
  names: B.buildDocx({
    body: [
      ["Constantia", "Constantia sets the agreement in a serif face"],
      ["Garamond", "Garamond sets the agreement in a serif face too"],
      ["Book Antiqua", "Book Antiqua is unknown to the font list: Noto Sans"],
      ["Helvetica Neue", "Helvetica Neue is unknown as well, not Arial"],
      ["Times New Roman Bold", "Times New Roman Bold, of class roman: Noto Sans"],
      ["DejaVu Sans Mono", "DejaVu Sans Mono by name, 0123456789"],
      ["DejaVu Serif", "DejaVu Serif by name, Hamburgefonstiv"],
      ["Bitstream Vera Sans", "Bitstream Vera Sans answers to DejaVu Sans"],
      ["Consolas", "Consolas is monospace: Noto Sans Mono"],
    ]
      .map(([font, text]) => line(text!, font!))
      .join(""),
    extra: {
      "word/fontTable.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:fonts xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${ROMAN_ENTRY}</w:fonts>`,
    },
  }),
  // Hebrew in a sans-serif face that lacks it: DejaVu Sans (sans-serif's second face), whatever the language.
  hebrewInCalibri: B.buildDocx({
    body: rtlLine(HEBREW, "Calibri") + rtlLine(HEBREW, "David"),
    styles: withBidiLanguage("he-IL"),
  }),
  // In a serif face: Noto Sans Hebrew for Hebrew-language text, DejaVu Sans for Arabic-language text.
  hebrewInCambriaHe: B.buildDocx({
    body: rtlLine(HEBREW, "Cambria") + rtlLine(HEBREW, "Georgia") + rtlLine(ARABIC, "Cambria"),
    styles: withBidiLanguage("he-IL"),
  }),
  hebrewInCambriaAr: B.buildDocx({ body: rtlLine(HEBREW, "Cambria") + rtlLine(ARABIC, "Cambria") }),
  // LibreOffice asks fontconfig once for all the characters a run's face lacks, and fontconfig ranks
  // first the face that has the most of them: DejaVu Sans for eight symbols (DejaVu Serif lacks ★ ✓
  // ①), DejaVu Serif for Greek and ■ in a serif face (Noto Serif, first for Greek alone, lacks ■).
  serifFallbackSets: B.buildDocx({ body: line("a ■□●○◆★✓①", "Cambria") + line("a αβγ ■", "Cambria") }),
  // Italic Arabic: DejaVu Sans Oblique has no Arabic; the family ranks above the style, so upright
  // DejaVu Sans draws it (not Noto Sans Arabic, the next family).
  italicArabic: B.buildDocx({
    body: B.p([B.r(ARABIC, { font: "Calibri", sizePt: 11, rtl: true, i: true, extra: "<w:iCs/>" })], { bidi: true }),
  }),
  // Symbols and Arabic a monospace face lacks: DejaVu Sans Mono, monospace's second face.
  monoSymbols: B.buildDocx({ body: line("Status ★ done ✓ open ☐", "Courier New") + rtlLine(ARABIC, "Courier New") }),
  // Punctuation and spaces among letters a face lacks: LibreOffice falls back glyph by glyph, so the
  // run's face (Caladea) draws `, ( ) . !` and the spaces between Cyrillic or Greek words whose
  // letters Noto Serif draws.
  punctuationAmongFallbackLetters: B.buildDocx({
    body:
      line("Быстрая коричневая лисица, перепрыгнула (через) собаку.", "Cambria") +
      line("Η γρήγορη καφέ αλεπού πηδάει! 12 лисица; abc Быстрая def.", "Cambria"),
  }),
  // Runs whose complex-script font is a theme reference (w:cstheme) the theme leaves empty (a:cs
  // typeface="" and no w:themeFontLang bidi language to pick a script font): an empty name to
  // LibreOffice, even beside an explicit w:cs, so fontconfig's face for the text's language draws
  // Arabic and Hebrew, their spaces too (DejaVu Sans, 3.5 pt at 11 pt, not Caladea's 2.4 pt).
  emptyComplexThemeFont: B.buildDocx({
    body: [THEMED, `${THEMED} w:cs="Times New Roman"`]
      .flatMap((fonts) => [ARABIC_SENTENCE, HEBREW_SENTENCE].map((text) => themedLine(text, fonts)))
      .join(""),
    rels: [{ id: "rIdTheme", type: "theme", target: "theme/theme1.xml" }],
    extra: { "word/theme/theme1.xml": themeWithEmptyComplexFont() },
  }),
  // A package without a styles part: Calibri 11 pt (Word 2007's defaults), not Times New Roman 10 pt.
  noStyles: B.buildDocxWithoutStyles(
    `<w:p><w:r><w:t>A document without a styles part comes out in Calibri at eleven points, as in LibreOffice.</w:t></w:r></w:p><w:p><w:r><w:t>Second line.</w:t></w:r></w:p>`,
  ),
};

const results = new Map<string, { lo: Uint8Array; ours: Uint8Array }>();

beforeAll(async () => {
  if (!have) return;
  for (const [name, docx] of Object.entries(DOCS)) {
    results.set(name, {
      lo: await convertWithLibreOffice(docx),
      ours: await renderDocxToPdf(docx, { fonts: nodeFontSource() }),
    });
  }
}, 300_000);

/**
 * Each distinct letter or symbol → the faces drawing it (sorted). Spaces, digits and punctuation in
 * right-to-left text follow layout's rules for weak characters, not font choice: left out.
 */
async function facesByCharacter(pdf: Uint8Array): Promise<Record<string, string>> {
  const by = new Map<string, Set<string>>();
  for (const g of await glyphFonts(pdf))
    if (/[\p{L}\p{S}]/u.test(g.c)) by.set(g.c, (by.get(g.c) ?? new Set()).add(g.font));
  return Object.fromEntries([...by].map(([c, fonts]) => [c, [...fonts].sort().join(",")]));
}

/** LibreOffice's glyphs with no glyph of ours of the same text within TOLERANCE of its origin (baselines, not boxes: the fonts' declared descents differ). */
async function misplaced(ours: Uint8Array, lo: Uint8Array): Promise<string[]> {
  const pool = await glyphFonts(ours);
  const out: string[] = [];
  for (const g of await glyphFonts(lo)) {
    const i = pool.findIndex(
      (o) => o.c === g.c && Math.abs(o.x - g.x) <= TOLERANCE && Math.abs(o.y - g.y) <= TOLERANCE,
    );
    if (i < 0) out.push(`${g.c}@${g.x.toFixed(1)},${g.y.toFixed(1)}`);
    else pool.splice(i, 1);
  }
  return out;
}

describe.skipIf(!have)("font choice against LibreOffice", () => {
  for (const name of Object.keys(DOCS)) {
    it(`${name}: draws every character with the face LibreOffice draws it with`, async () => {
      const { lo, ours } = results.get(name)!;
      expect(await facesByCharacter(ours)).toEqual(await facesByCharacter(lo));
    });
  }

  it("noStyles: sets its text at LibreOffice's size on LibreOffice's baselines (Calibri 11 pt, single spacing)", async () => {
    // Not glyph by glyph: LibreOffice kerns a document without styles (its own default), we do not yet.
    const { lo, ours } = results.get("noStyles")!;
    const [mine, theirs] = [await glyphFonts(ours), await glyphFonts(lo)];
    expect([...new Set(mine.map((g) => `${g.font} ${g.size}`))]).toEqual([
      ...new Set(theirs.map((g) => `${g.font} ${g.size}`)),
    ]);
    const baselines = (glyphs: { y: number }[]) => [...new Set(glyphs.map((g) => g.y))];
    const [a, b] = [baselines(mine), baselines(theirs)];
    expect(a).toHaveLength(b.length);
    a.forEach((y, i) => expect(Math.abs(y - b[i]!)).toBeLessThanOrEqual(TOLERANCE));
  });

  it("punctuationAmongFallbackLetters: draws each glyph with LibreOffice's face, where LibreOffice draws it", async () => {
    const { lo, ours } = results.get("punctuationAmongFallbackLetters")!;
    const faces = async (pdf: Uint8Array) =>
      (await glyphFonts(pdf)).map((g) => `${g.c} ${g.font}`).sort((a, b) => a.localeCompare(b));
    expect(await faces(ours)).toEqual(await faces(lo));
    expect(await misplaced(ours, lo)).toEqual([]);
  });

  for (const name of ["names", "monoSymbols", "emptyComplexThemeFont"]) {
    it(`${name}: places every glyph within ${TOLERANCE} pt of LibreOffice's`, async () => {
      const { lo, ours } = results.get(name)!;
      expect(await misplaced(ours, lo)).toEqual([]);
    });
  }
});

/** A minimal package: content types, the relationship to document.xml, and document.xml alone. */
