/**
 * Chinese, Japanese and Korean text against LibreOffice: the same small DOCX rendered by Signet and
 * by `soffice --convert-to pdf` (same font files: Droid Sans Fallback for CJK), read back with
 * `pdftotext`. Expected lines and positions come from LibreOffice only: CJK lines have no spaces, so
 * pdftotext's "words" are whole lines and a line broken one character differently is a miss.
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

const have = await libreOfficeAvailable();
const DOC_DEFAULTS_LANG = `<w:lang w:val="en-US" w:eastAsia="en-US" w:bidi="ar-SA"/>`;

const ZH =
  "水仙为我国十大名花之一，我国民间的请供佳品，每过新年，人们都喜欢清供水仙，点缀做为年花。因水仙只用清水供养而不需土壤来培植。" +
  "其根，如银丝，纤尘不染；其叶，碧绿葱翠传神；其花，有如金盏银台，高雅绝俗，婀娜多姿，清秀美丽，洁白可爱，清香馥郁，且花期长。";
const JA =
  "リーダーシップに係る発行・運営業務委託のリニューアルプロポーザル募集要項について、以下のとおり公募します。提出期限は平成三十年十月二十日です。";
const KO = "대한민국은 민주공화국이다. 대한민국의 주권은 국민에게 있고, 모든 권력은 국민으로부터 나온다.";

const LANG: Record<string, string> = { SimSun: "zh-CN", "MS Mincho": "ja-JP", "Malgun Gothic": "ko-KR" };
/** A run as Word writes East Asian text: one East Asian font for every slot, hint="eastAsia", its language. */
const cjk = (text: string, font: string, sizePt: number, lang = LANG[font]) =>
  `<w:r><w:rPr><w:rFonts w:ascii="${font}" w:eastAsia="${font}" w:hAnsi="${font}" w:hint="eastAsia"/><w:sz w:val="${sizePt * 2}"/>` +
  `${lang ? `<w:lang w:eastAsia="${lang}"/>` : ""}</w:rPr>` +
  `<w:t xml:space="preserve">${B.escapeXml(text)}</w:t></w:r>`;
const para = (runs: string) => B.p([runs], { spacing: { after: 0, line: 240, lineRule: "auto" } });

const DOC = B.buildDocx({
  body:
    para(cjk(ZH, "SimSun", 12)) +
    para(
      `${B.r("Latin text before ", { sizePt: 12 })}${cjk("中文和拉丁文混排。", "SimSun", 12)}${B.r(" and after.", { sizePt: 12 })}`,
    ) +
    // Latin letters and digits inside Chinese text get a fifth of the size on each side; punctuation does not.
    para(cjk("第1章介绍Signet的签名流程和3个接口.下一步", "SimSun", 12)) +
    para(cjk("第1章介绍Signet的签名流程和3个接口", "SimSun", 9, "en-US")) +
    para(cjk(JA, "MS Mincho", 11)) +
    // 40 ideographs of 11.5 pt take 460 of the 468 pt line: the comma after them hangs past the edge
    // in Chinese, and takes the last ideograph down with it when the language is not a CJK one.
    para(
      cjk("一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十，下一行。", "SimSun", 11.5),
    ) +
    para(
      cjk(
        "一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十，下一行。",
        "SimSun",
        11.5,
        "en-US",
      ),
    ) +
    // Full-width semicolon and question mark hang too; a closing bracket does not.
    para(
      cjk("一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十；下一行。", "SimSun", 11.5),
    ) +
    para(
      cjk("一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十？下一行。", "SimSun", 11.5),
    ) +
    para(
      cjk("一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十）下一行。", "SimSun", 11.5),
    ) +
    // ASCII ) after Latin letters is Latin, even in a Chinese-language run: it does not hang, and the
    // word ending the paragraph with it wraps (18 "abcd " and "abcdefg" fill 467 of the 468 pt line; ")" would end at 470).
    para(
      `<w:r><w:rPr><w:sz w:val="22"/><w:lang w:eastAsia="zh-CN"/></w:rPr><w:t xml:space="preserve">${"abcd ".repeat(18)}abcdefg)</w:t></w:r>`,
    ) +
    // Last: LibreOffice's Korean is drawn narrower (see below), so it would move what follows.
    para(cjk(KO, "Malgun Gothic", 11)) +
    B.sectPr(),
});

let ours: PageWords[];
let lo: PageWords[];
let ourPdf: Uint8Array;

beforeAll(async () => {
  if (!have) return;
  ourPdf = await renderDocxToPdf(DOC, { fonts: nodeFontSource() });
  ours = await wordBoxes(ourPdf);
  lo = await wordBoxes(await convertWithLibreOffice(DOC));
}, 180_000);

describe.skipIf(!have)("CJK text against LibreOffice", () => {
  it("draws CJK with Droid Sans Fallback, the face LibreOffice falls back to", async () => {
    const names = (await pdfFonts(ourPdf)).map((f) => f.name.replace(/^[A-Z]{6}\+/, ""));
    expect(names).toContain("DroidSansFallback-Regular");
  });

  it("breaks every line where LibreOffice does (hanging punctuation included)", () => {
    expect(ours.length).toBe(lo.length);
    const lines = (pages: PageWords[]) => pages.flatMap((pg) => pg.words.map((w) => w.text));
    expect(lines(ours)).toEqual(lines(lo));
  });

  it("places each line within 2 pt of LibreOffice's", () => {
    const misses: string[] = [];
    lo[0]!.words.forEach((w, i) => {
      const o = ours[0]!.words[i]!;
      // LibreOffice here finds no face for Korean (fontconfig offers DejaVu Sans for lang=ko) and
      // draws 0.6 em empty boxes; we draw Hangul with Droid Sans Fallback: only its wrapping compares.
      if (/[\uac00-\ud7af]/u.test(w.text)) return;
      const d = Math.max(Math.abs(o.xMin - w.xMin), Math.abs(o.yMin - w.yMin), Math.abs(o.xMax - w.xMax));
      if (d > 2)
        misses.push(
          `${w.text.slice(0, 12)}…: LibreOffice (${w.xMin}, ${w.yMin})-${w.xMax}, ours (${o.xMin}, ${o.yMin})-${o.xMax}`,
        );
    });
    expect(misses).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Chinese forbidden characters: with 40 ideographs filling the line (0.2 pt left), the character
// after them shows whether LibreOffice lets it start a line (︰ ～ ’ ” • · may not; … ・ may), hang
// (ASCII , and : after an ideograph do) or end a line (“ 〖 may not, in simplified Chinese; ASCII
// [ and { may not, as ( may not, in either); the lists differ between zh-CN and zh-TW.

const FULL_LINE = "一二三四五六七八九十".repeat(4);
const FORBIDDEN_DOC = B.buildDocx({
  body:
    ["zh-CN", "zh-TW"]
      .flatMap((lang) =>
        [..."︰～︱…・’”•·,:々"]
          .map((c) => para(cjk(FULL_LINE + c + "下一行。", "SimSun", 11.5, lang)))
          .concat([..."“〖（[{"].map((c) => para(cjk(FULL_LINE.slice(0, 39) + c + "下一行。", "SimSun", 11.5, lang)))),
      )
      .join("") + B.sectPr({ margins: { right: 12240 - 1440 - 9204 } }),
});

describe.skipIf(!have)("Chinese forbidden characters against LibreOffice", () => {
  it("breaks before and after them, and hangs marks, where LibreOffice does (zh-CN and zh-TW)", async () => {
    const [a, b] = await Promise.all([
      renderDocxToPdf(FORBIDDEN_DOC, { fonts: nodeFontSource() }),
      convertWithLibreOffice(FORBIDDEN_DOC),
    ]);
    // Lines as text (LibreOffice draws some of these marks with gaps that pdftotext takes for word breaks).
    const lines = (pages: PageWords[]) => {
      const out: string[] = [];
      let y = Number.NaN;
      for (const w of pages.flatMap((pg) => pg.words)) {
        if (Math.abs(w.yMin - y) > 3) out.push("");
        out[out.length - 1] += w.text;
        y = w.yMin;
      }
      return out;
    };
    expect(lines(await wordBoxes(a))).toEqual(lines(await wordBoxes(b)));
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// The line grid (w:docGrid type="lines"), which East Asian documents carry.

const GRID_TEXT = "A1 line one\nA2 line two\nA3 line three";
const gridPara = (tag: string, spacing: B.ParagraphProps["spacing"], extraPPr = "") =>
  B.p(GRID_TEXT.replace(/A/g, tag), { spacing: { after: 0, ...spacing }, run: { sizePt: 9 } }).replace(
    "<w:pPr>",
    `<w:pPr>${extraPPr}`,
  );
const GRID_DOC = B.buildDocx({
  body:
    gridPara("S", { line: 240, lineRule: "auto" }) +
    gridPara("L", { line: 315, lineRule: "atLeast" }) +
    gridPara("M", { line: 700, lineRule: "atLeast" }) +
    gridPara("E", { line: 200, lineRule: "exact" }) +
    gridPara("F", { line: 400, lineRule: "exact" }) +
    gridPara("D", { line: 360, lineRule: "auto" }) +
    gridPara("X", { line: 240, lineRule: "auto" }, `<w:snapToGrid w:val="0"/>`) +
    gridPara("Z", { line: 240, lineRule: "auto" }) +
    `<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>` +
    `<w:docGrid w:type="lines" w:linePitch="312"/></w:sectPr>`,
});

describe.skipIf(!have)("line grid against LibreOffice", () => {
  it("every line takes whole 15.6 pt grid lines: at-least and exact rules give way, 1.5 lines take 1.5 grid lines, snapToGrid off leaves the grid", async () => {
    const tops = async (pdf: Uint8Array) =>
      new Map(
        (await wordBoxes(pdf))[0]!.words.filter((w) => /^[A-Z]\d$/.test(w.text)).map((w) => [w.text, w.yMin] as const),
      );
    const ourTops = await tops(await renderDocxToPdf(GRID_DOC, { fonts: nodeFontSource() }));
    const loTops = await tops(await convertWithLibreOffice(GRID_DOC));
    expect([...ourTops.keys()]).toEqual([...loTops.keys()]);
    const misses = [...loTops]
      .filter(([w, y]) => Math.abs(ourTops.get(w)! - y) > 0.5)
      .map(([w, y]) => `${w}: LibreOffice ${y}, ours ${ourTops.get(w)}`);
    expect(misses).toEqual([]);
  }, 120_000);
});

// Indents in characters (w:firstLineChars, w:leftChars ...), which East Asian Word writes beside the
// same indent in twips.
describe.skipIf(!have)("indents given in characters and in twips, against LibreOffice", () => {
  it("the twips value wins where both are given", async () => {
    const para = (tag: string, ind: string) =>
      `<w:p><w:pPr><w:ind ${ind}/></w:pPr>${B.r(`${tag} text`, { sizePt: 12 })}</w:p>`;
    const doc = B.buildDocx({
      body:
        para("A", `w:firstLineChars="300" w:firstLine="930"`) +
        para("C", `w:leftChars="200" w:left="720"`) +
        para("E", `w:firstLineChars="0" w:firstLine="720"`) +
        para("F", `w:hangingChars="100" w:hanging="720" w:left="1440"`),
    });
    const lefts = async (pdf: Uint8Array) =>
      (await wordBoxes(pdf))[0]!.words
        .filter((w) => /^[A-Z]$/.test(w.text))
        .map((w) => `${w.text} ${Math.round(w.xMin)}`);
    expect(await lefts(await renderDocxToPdf(doc, { fonts: nodeFontSource() }))).toEqual(
      await lefts(await convertWithLibreOffice(doc)),
    );
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// Vertical writing (w:textDirection="tbRl").

describe.skipIf(!have)("vertical writing against LibreOffice", () => {
  it("sets each character upright down columns that run from the right, where LibreOffice does", async () => {
    const text =
      "蜀道难，噫吁嚱，危乎高哉！蜀道之难，难于上青天！蚕丛及鱼凫，开国何茫然！尔来四万八千岁，不与秦塞通人烟。西当太白有鸟道，可以横绝峨眉巅。";
    const doc = B.buildDocx({
      body:
        B.p([cjk(text, "SimSun", 14)]) +
        B.p([cjk("李白", "SimSun", 14)]) +
        `<w:sectPr><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:pgMar w:top="1800" w:right="1440" w:bottom="1800" w:left="1440" w:header="851" w:footer="992" w:gutter="0"/>` +
        `<w:textDirection w:val="tbRl"/></w:sectPr>`,
    });
    const chars = async (pdf: Uint8Array) => (await wordBoxes(pdf))[0]!.words;
    const ours = await chars(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
    const theirs = await chars(await convertWithLibreOffice(doc));
    // Every character of LibreOffice's page, in its reading order (punctuation copies as typed though
    // drawn in its vertical form), with its box within 2 pt of ours; punctuation within 5 pt
    // (LibreOffice keeps the horizontal comma, moved up).
    expect(ours.map((w) => w.text).join("")).toBe(theirs.map((w) => w.text).join(""));
    const misses = theirs
      .map((w, i) => [w, ours[i]!] as const)
      .filter(
        ([w, o]) => Math.max(Math.abs(o.xMin - w.xMin), Math.abs(o.yMin - w.yMin)) > (/\p{P}/u.test(w.text) ? 5 : 2),
      )
      .map(([w, o]) => `${w.text}: LibreOffice (${w.xMin}, ${w.yMin}), ours (${o.xMin}, ${o.yMin})`);
    expect(misses.slice(0, 8)).toEqual([]);
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// Glyph fallback inside a run: LibreOffice's PDF writes the run's own glyphs as one text run with
// gaps where a fallback face's glyphs go, and those glyphs after it, so pdftotext splits words there.

describe.skipIf(!have)("glyph fallback inside a run, against LibreOffice", () => {
  it("reads back the same words: quotes another face draws in Chinese text, a check box in Latin text", async () => {
    const doc = B.buildDocx({
      body:
        para(cjk("赢得了“天下水仙数漳州”之美称。", "宋体", 12)) +
        para(cjk("故六朝时称“雅蒜”、宋代称“天葱”。", "宋体", 9).replace("<w:sz ", `<w:spacing w:val="15"/><w:sz `)) +
        // → is in Carlito itself: no split; ☐ is DejaVu Sans's.
        para(B.r("Latin a→b and x☐y.", { sizePt: 12 })) +
        B.sectPr(),
    });
    const words = async (pdf: Uint8Array) => (await wordBoxes(pdf))[0]!.words;
    const ours = await words(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
    const theirs = await words(await convertWithLibreOffice(doc));
    expect(ours.map((w) => w.text)).toEqual(theirs.map((w) => w.text));
    const misses = theirs
      .map((w, i) => [w, ours[i]!] as const)
      .filter(([w, o]) => Math.abs(o.xMin - w.xMin) > 1)
      .map(([w, o]) => `${w.text}: LibreOffice ${w.xMin}, ours ${o.xMin}`);
    expect(misses).toEqual([]);
  }, 120_000);
});

// Hanging punctuation is a paragraph-body affair: in a table cell LibreOffice takes the ideograph
// before a comma that does not fit to the next line with it.
describe.skipIf(!have)("CJK punctuation at a table cell's edge, against LibreOffice", () => {
  it("does not hang in a cell; hangs in a paragraph of the same width", async () => {
    const run = (text: string) =>
      `<w:r><w:rPr><w:rFonts w:ascii="MS Mincho" w:eastAsia="MS Mincho" w:hAnsi="MS Mincho" w:hint="eastAsia"/><w:sz w:val="21"/><w:lang w:eastAsia="ja-JP"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const T = "実施方法等が具体的で、実現性があるか";
    const doc = B.buildDocx({
      body:
        B.table([[{ content: `<w:p><w:pPr><w:spacing w:after="0"/></w:pPr>${run(T)}</w:p>` }]], { widths: [2410] }) +
        `<w:p><w:pPr><w:spacing w:after="0"/><w:ind w:right="${9360 - 2410 + 216}"/></w:pPr>${run(T)}</w:p>` +
        B.sectPr(),
    });
    const lines = async (pdf: Uint8Array) =>
      (await wordBoxes(pdf))[0]!.words.map((w) => `${w.text} ${Math.round(w.xMax)}`);
    expect(await lines(await renderDocxToPdf(doc, { fonts: nodeFontSource() }))).toEqual(
      await lines(await convertWithLibreOffice(doc)),
    );
  }, 120_000);
});

// A run whose East Asian language no level sets (here not even docDefaults) has LibreOffice's
// fallback Asian language, simplified Chinese: a full stop past the edge hangs, as in a zh-CN run.
describe.skipIf(!have)("East Asian text without a language, against LibreOffice", () => {
  it("hangs a full stop past the right edge as simplified Chinese text does; w:eastAsia=en-US does not", async () => {
    const text = "この法律は、個人の尊厳と両性の本質的平等を旨として、解釈しなければならない。".repeat(3);
    const run = (lang: string) =>
      `<w:r><w:rPr><w:rFonts w:ascii="MS Mincho" w:eastAsia="MS Mincho" w:hAnsi="MS Mincho"/><w:sz w:val="24"/>${lang}</w:rPr><w:t>${text}</w:t></w:r>`;
    const para = (lang: string) =>
      `<w:p><w:pPr><w:spacing w:after="0"/><w:jc w:val="both"/><w:ind w:right="270"/></w:pPr>${run(lang)}</w:p>`;
    const doc = B.buildDocx({
      body: para("") + para(`<w:lang w:eastAsia="en-US"/>`) + B.sectPr(),
      styles: B.DEFAULT_STYLES.replace(DOC_DEFAULTS_LANG, ""),
    });
    // Where each line starts: the first paragraph's lines take their full stop along, the second's
    // leave it for the next line.
    const lineStarts = async (pdf: Uint8Array) =>
      (await wordBoxes(pdf))[0]!.words.filter((w) => w.xMin < 100).map((w) => w.text.slice(0, 3));
    const theirs = await lineStarts(await convertWithLibreOffice(doc));
    expect(theirs).toContain("い。こ");
    expect(await lineStarts(await renderDocxToPdf(doc, { fonts: nodeFontSource() }))).toEqual(theirs);
  }, 120_000);
});

// Latin text in East Asian families: LibreOffice ignores their font table entries (fixed pitch,
// roman or modern class) and draws it in Noto Serif for ＭＳ 明朝 and SimSun, Noto Sans Mono for
// NSimSun, Noto Sans for the others (MS Mincho too).
describe.skipIf(!have)("Latin text in East Asian font families, against LibreOffice", () => {
  it("draws it in the face LibreOffice picks, whatever the font table's pitch", async () => {
    const NS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
    const entry = (name: string, panose: string, charset: string, family: string, pitch: string) =>
      `<w:font w:name="${name}"><w:panose1 w:val="${panose}"/><w:charset w:val="${charset}"/><w:family w:val="${family}"/><w:pitch w:val="${pitch}"/></w:font>`;
    const fontTable =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:fonts ${NS}>` +
      entry("Calibri", "020F0502020204030204", "00", "swiss", "variable") +
      entry("ＭＳ 明朝", "02020609040205080304", "80", "roman", "fixed") +
      entry("ＭＳ ゴシック", "020B0609070205080204", "80", "modern", "fixed") +
      entry("宋体", "02010600030101010101", "86", "auto", "variable") +
      entry("SimSun", "02010600030101010101", "86", "auto", "variable") +
      entry("NSimSun", "02010609030101010101", "86", "modern", "fixed") +
      entry("MS Mincho", "02020609040205080304", "80", "roman", "fixed") +
      `</w:fonts>`;
    const fonts = ["ＭＳ 明朝", "ＭＳ ゴシック", "宋体", "SimSun", "NSimSun", "MS Mincho"];
    const run = (f: string) =>
      `<w:r><w:rPr><w:rFonts w:ascii="${f}" w:eastAsia="${f}" w:hAnsi="${f}"/><w:sz w:val="21"/><w:lang w:eastAsia="ja-JP"/></w:rPr><w:t xml:space="preserve">WEB Signet 123 日本</w:t></w:r>`;
    const doc = B.buildDocx({
      body: fonts.map((f) => `<w:p><w:pPr><w:spacing w:after="0"/></w:pPr>${run(f)}</w:p>`).join("") + B.sectPr(),
      extra: { "word/fontTable.xml": fontTable },
    });
    const ends = async (pdf: Uint8Array) =>
      (await wordBoxes(pdf))[0]!.words.map((w) => ({ text: w.text, xMax: w.xMax }));
    const ours = await ends(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
    const theirs = await ends(await convertWithLibreOffice(doc));
    expect(ours.map((w) => w.text)).toEqual(theirs.map((w) => w.text));
    const far = theirs.flatMap((w, i) =>
      Math.abs(ours[i]!.xMax - w.xMax) > 1 ? [`${w.text}: LibreOffice ${w.xMax}, ours ${ours[i]!.xMax}`] : [],
    );
    expect(far).toEqual([]);
  }, 120_000);
});

// Weak characters (symbols, math operators, arrows, general punctuation) take the script of the
// paragraph's last strong character before them, across runs: after East Asian text they are set
// with the run's East Asian font. That font is the face fontconfig gives its name (ＭＳ 明朝: Noto
// Serif; 宋体: Noto Sans), Droid Sans Fallback only drawing what it lacks, and LibreOffice's PDF
// writes that face's glyphs first, then each fallback face's: pdftotext reads "〒１２３", "−" and
// "４５６７" as three words, "□供应商" as one.
describe.skipIf(!have)("weak characters after East Asian text, against LibreOffice", () => {
  it("draws them with the East Asian font's face and reads back LibreOffice's words where LibreOffice has them", async () => {
    const mincho = (lang = "") =>
      `<w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:eastAsia="ＭＳ 明朝"/><w:sz w:val="24"/>${lang}`;
    const song = `<w:rFonts w:ascii="宋体" w:hAnsi="宋体" w:cs="宋体" w:eastAsia="宋体"/><w:sz w:val="24"/><w:lang w:eastAsia="zh-CN"/>`;
    const run = (rPr: string, text: string) =>
      `<w:r><w:rPr>${rPr}</w:rPr><w:t xml:space="preserve">${B.escapeXml(text)}</w:t></w:r>`;
    const line = (rPr: string, ...texts: string[]) =>
      `<w:p><w:pPr><w:spacing w:after="0" w:line="480" w:lineRule="exact"/></w:pPr>` +
      texts.map((t) => run(rPr, t)).join("") +
      `</w:p>`;
    const doc = B.buildDocx({
      body:
        line(mincho(), "〒１２３−４５６７") +
        line(mincho(), "１２３", "−４５６７") + // the weak − starts a run: the script is the paragraph's
        line(mincho(`<w:lang w:eastAsia="ja-JP"/>`), "〒１２３−４５６７") + // Droid is the Asian face here
        line(mincho(), "漢字※漢字℃漢字…漢字→漢字■漢字") +
        line(mincho(), "abc−漢字") + // after Latin text: Latin (Tinos)
        line(mincho(), "−漢字") + // at the paragraph's start: Latin too
        line(song, "标有“▲”、“", "★”的技术") +
        // As in the Chinese form this comes from: spaces in a Times New Roman run, then a run whose
        // text is a portion of its own (runs of equal properties would be one), its first fallback
        // face DejaVu Sans's (for □): so □ is written before 供应商.
        line(song, "□采购单位").replace(
          "</w:p>",
          run(
            `<w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:eastAsia="Times New Roman"/><w:sz w:val="24"/>`,
            "      ",
          ) +
            run(song.replace(`w:cs="宋体"`, `w:cs="Times New Roman"`), "□供应商") +
            "</w:p>",
        ) +
        B.sectPr(),
    });
    const words = async (pdf: Uint8Array) =>
      (await wordBoxes(pdf))[0]!.words.map((w) => ({ text: w.text, xMin: w.xMin, yMin: w.yMin }));
    const ours = await words(await renderDocxToPdf(doc, { fonts: nodeFontSource() }));
    const theirs = await words(await convertWithLibreOffice(doc));
    expect(theirs.map((w) => w.text)).toContain("−");
    expect(theirs.map((w) => w.text)).toContain("□供应商");
    const key = (w: { text: string; yMin: number }) => `${Math.round(w.yMin / 10)} ${w.text}`;
    expect(ours.map(key)).toEqual(theirs.map(key));
    const far = theirs.flatMap((w, i) =>
      Math.abs(ours[i]!.xMin - w.xMin) > 0.5 ? [`${w.text}: LibreOffice ${w.xMin}, ours ${ours[i]!.xMin}`] : [],
    );
    expect(far).toEqual([]);
  }, 120_000);
});
