/**
 * East Asian list number formats against LibreOffice: kana and hangul letters that cycle, counted
 * Chinese numbers with 十 百 千 and 零, Korean digits and counting, the ten stems and twelve branches,
 * enclosed circles up to 50; full-width decimal in full-width digits only where the paragraph's
 * language has native digits. Each label is read from LibreOffice's PDF of the same DOCX
 * (`pdftotext -layout`).
 */
import { describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import { convertWithLibreOffice, libreOfficeAvailable, pdfText } from "./support/libreoffice";

const have = await libreOfficeAvailable();

const FORMATS = [
  "decimalEnclosedCircle",
  "ideographDigital",
  "japaneseCounting",
  "chineseCounting",
  "chineseCountingThousand",
  "taiwaneseCounting",
  "aiueo",
  "aiueoFullWidth",
  "iroha",
  "irohaFullWidth",
  "ganada",
  "chosung",
  "koreanDigital",
  "koreanCounting",
  "ideographTraditional",
  "ideographZodiac",
  "decimalFullWidth",
];
const NUMBERS = [1, 10, 12, 21, 36, 47, 48, 51, 101, 110, 1000, 1010];

// One list per format and number, each starting at that number, labelled "[%1]".
let numbering = "";
let nums = "";
let body = "";
let id = 1;
for (const fmt of FORMATS)
  for (const n of NUMBERS) {
    numbering +=
      `<w:abstractNum w:abstractNumId="${id}"><w:lvl w:ilvl="0"><w:start w:val="${n}"/><w:numFmt w:val="${fmt}"/>` +
      `<w:lvlText w:val="[%1]"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>`;
    nums += `<w:num w:numId="${id}"><w:abstractNumId w:val="${id}"/></w:num>`;
    body += B.p(`${fmt} ${n}`, { numId: id++ });
  }
const DOC = B.buildDocx({ body, numbering: numbering + nums });

// Full-width decimal labels: the language of the paragraph's first character that is not weak
// chooses full-width (Japanese, Arabic, Hebrew...) or ASCII digits (English, Russian).
const lang = (attrs: string) => ({ extra: `<w:lang ${attrs}/>` });
const ja = lang('w:eastAsia="ja-JP"');
const BY_LANGUAGE = [
  B.r("Hello"),
  B.r("こんにちは", ja),
  B.r("Hello", lang('w:val="ja-JP"')),
  B.r("こんにちは", lang('w:eastAsia="ko-KR"')),
  "",
  B.r(" こんにちは", ja), // a leading space is weak
  B.r("\u00a0こんにちは", ja),
  B.r("—こんにちは", ja), // so is general punctuation
  B.r("「こんにちは", ja), // CJK punctuation is East Asian
  B.r("1こんにちは", ja), // an ASCII digit is Latin
  B.r("(こんにちは", ja),
  B.r("\tこんにちは", ja), // a tab too
  B.r("こんにちは", ja) + B.r("Hello"),
  B.r("Hello") + B.r("こんにちは", ja),
  B.r("Привет", lang('w:val="ru-RU"')),
  B.r("مرحبا", { rtl: true, extra: '<w:lang w:bidi="ar-SA"/>' }),
  B.r("Hello", lang('w:val="he-IL"')),
  B.r("Hello", lang('w:val="th-TH"')),
];
const FULL_WIDTH_DOC = B.buildDocx({
  body: BY_LANGUAGE.map((content) => B.p(content, { numId: 1 })).join(""),
  numbering:
    `<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimalFullWidth"/>` +
    `<w:lvlText w:val="[%1]"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>` +
    `<w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>`,
});

const labels = async (pdf: Uint8Array) =>
  [...(await pdfText(pdf, { layout: true })).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]);

describe.skipIf(!have)("East Asian list numbers against LibreOffice", () => {
  it("writes every format's labels as LibreOffice does", async () => {
    const lo = await labels(await convertWithLibreOffice(DOC));
    const ours = await labels(await renderDocxToPdf(DOC, { fonts: nodeFontSource() }));
    expect(lo).toHaveLength(FORMATS.length * NUMBERS.length);
    expect(ours).toEqual(lo);
    // Spot checks, so the comparison cannot pass on two empty or decimal-only lists.
    expect(lo[FORMATS.indexOf("ideographDigital") * NUMBERS.length + NUMBERS.indexOf(101)]).toBe("一百零一");
    expect(lo[FORMATS.indexOf("iroha") * NUMBERS.length + NUMBERS.indexOf(48)]).toBe("ﾝ");
  }, 120_000);

  it("writes full-width decimal numbers in the digits of the paragraph's language", async () => {
    const lo = await labels(await convertWithLibreOffice(FULL_WIDTH_DOC));
    const ours = await labels(await renderDocxToPdf(FULL_WIDTH_DOC, { fonts: nodeFontSource() }));
    expect(lo).toHaveLength(BY_LANGUAGE.length);
    expect(ours).toEqual(lo);
    // Both kinds occur, so the comparison cannot pass on labels that are all ASCII or all full-width.
    expect(lo.slice(0, 3)).toEqual(["1", "２", "３"]);
  }, 120_000);
});
