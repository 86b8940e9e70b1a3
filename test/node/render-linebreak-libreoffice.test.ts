/**
 * Where lines end against LibreOffice, for break rules beyond our UAX #14 subset's defaults: each
 * case is one paragraph set at several widths (right indents), and every paragraph must be cut
 * into the same lines as LibreOffice cuts it in its PDF of the same DOCX. The cases are paths and
 * addresses, where LibreOffice pulls a break after a solidus back to the whitespace before it
 * (i#17155), skips one when the character after the solidus is the first that does not fit, and,
 * across runs, looks again from the run before (Writer's underflow); the ellipsis (UAX #14 IN);
 * and quotation marks after a space (UAX #14 QU, where our opening-punctuation reading of them
 * kept the spaces after them from ending a line).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import { textLines } from "../../scripts/lib/fidelity-lines";
import * as B from "../support/docx-builder";
import { convertWithLibreOffice, libreOfficeAvailable, wordBoxes } from "./support/libreoffice";

const have = await libreOfficeAvailable();

interface Case {
  name: string;
  /** The paragraph's runs (raw w:r XML) or its text. */
  content: string | string[];
  /** Right indents, twips. */
  widths: number[];
}

const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, k) => from + k * step);
const blue = (t: string, font?: string) => B.r(t, { color: "0000FF", font, sizePt: font ? 9.5 : undefined });
const plain = (t: string, font?: string) => B.r(t, { font, sizePt: font ? 9.5 : undefined });
const eastAsian = (t: string, lang: string) =>
  `<w:r><w:rPr><w:rFonts w:eastAsia="SimSun"/><w:lang w:eastAsia="${lang}"/></w:rPr><w:t xml:space="preserve">${t}</w:t></w:r>`;
const FEES = "服务期限的投标报价元/年和其他价格元/月以及更多的费用元/日等等";

const CASES: Case[] = [
  {
    name: "an address after a space moves down whole, passing over its hyphen",
    content: "Lorem ipsum dolor sit at http://www.ecma-international.org/publications/standards/Ecma-376.htm or more",
    widths: range(1000, 6000, 500),
  },
  {
    name: "a path is chopped at the edge when the whitespace before it is on the line above",
    content:
      "Lorem ipsum dolor sit amet, the file is in C:/Users/some-user/Documents/Work-Files/Report-Drafts/final.docx today",
    widths: range(3000, 6500, 500),
  },
  {
    name: "a path without spaces before it breaks after a solidus, not at one before the edge",
    content:
      "C:/Program/Files/Common/Application-Data/Microsoft/Windows/Start-Menu/Programs/Accessories/Tools/More/Deep",
    widths: range(2000, 6000, 400),
  },
  {
    name: "a path cut into runs breaks at the hyphen before the run ending in a solidus",
    content: [
      plain("  <dcterms:created", "Consolas"),
      blue(" ", "Consolas"),
      plain('xsi:type="dcterms:W3CDTF">', "Consolas"),
      blue("2013-04-05T23:20:00Z", "Consolas"),
      plain("</", "Consolas"),
      blue("dcterms", "Consolas"),
      plain(":created>", "Consolas"),
    ],
    widths: [0, 300, 600],
  },
  {
    name: "an address run after a space run still moves down whole",
    content: [
      B.r("Lorem ipsum dolor sit at"),
      B.r(" "),
      blue("http://www.ecma-"),
      B.r("international.org/publications/standards/Ecma-376.htm or more"),
    ],
    widths: range(1000, 2500, 300),
  },
  {
    name: "a line may end after an ellipsis before a letter",
    content: "Heute heißen sie Phobien, Zwänge, Panikattacken\u2026die Götter sind zu Krankheiten geworden und mehr.",
    widths: range(4400, 5000, 100),
  },
  {
    name: "an ellipsis before a number",
    content: "Heute heißen sie Phobien, Zwänge, Panikattacken\u202612 Götter sind zu Krankheiten geworden und mehr.",
    widths: range(4400, 5000, 100),
  },
  {
    name: "an ellipsis after a space",
    content: "Heute heißen sie Phobien, Zwänge, Panikattacken \u2026die Götter sind zu Krankheiten geworden und mehr.",
    widths: range(4400, 5000, 100),
  },
  {
    name: "an ellipsis after a full stop",
    content: "Heute heißen sie Phobien, Zwänge, Panikattacken.\u2026die Götter sind zu Krankheiten geworden und mehr.",
    widths: range(4400, 5000, 100),
  },
  {
    name: "a line may end after the space following a quotation mark after a space",
    content: "Lorem ipsum dolor sit amet consectetur \u201C adipiscing elit sed \u00AB tempor \u00BB more",
    widths: range(4500, 5000, 100),
  },
  {
    name: "a closing quotation mark after a space may start a line",
    content:
      "Lorem ipsum dolor sit amet from \u201C spouse name \u201D and \u00AB other \u00BB more text \u201E third \u201C and more",
    widths: [1600, 1800, 3800, 4000, 4200, 5000, 5400, 5600, 5800],
  },
  {
    name: "Chinese text of a zh-CN run ends a line after a solidus at the edge",
    content: [eastAsian(FEES, "zh-CN")],
    widths: [3200, 3300, 5300, 5400],
  },
  {
    name: "the same text as en-US takes the opportunity before the solidus",
    content: [eastAsian(FEES, "en-US")],
    widths: [3200, 3300, 5300, 5400],
  },
];

const paragraphs = CASES.flatMap((c) => c.widths.map((w) => ({ c, w })));
const DOC = B.buildDocx({
  body: paragraphs
    .map(({ c, w }) => B.p(c.content, { keepLines: true, spacing: { after: 200 }, ind: { right: w } }))
    .join(""),
});

/** Each paragraph's lines (paragraphs are 10 pt apart, lines closer; keepLines keeps each on one page). */
async function paragraphLines(pdf: Uint8Array): Promise<string[][]> {
  const out: string[][] = [];
  for (const page of textLines(await wordBoxes(pdf))) {
    let prev = -Infinity;
    for (const l of page) {
      if (l.y - prev > 20) out.push([]);
      out.at(-1)!.push(l.text);
      prev = l.y;
    }
  }
  return out;
}

let ours: string[][];
let lo: string[][];
beforeAll(async () => {
  if (!have) return;
  [ours, lo] = await Promise.all([
    renderDocxToPdf(DOC, { fonts: nodeFontSource() }).then(paragraphLines),
    convertWithLibreOffice(DOC).then(paragraphLines),
  ]);
}, 180_000);

describe.skipIf(!have)("line breaks at a solidus, an ellipsis and spaced quotation marks against LibreOffice", () => {
  it("reads as many paragraphs from both PDFs as the document has", () => {
    expect(lo.length).toBe(paragraphs.length);
    expect(ours.length).toBe(paragraphs.length);
  });

  for (const c of CASES)
    it(`${c.name}: the same lines at every width`, () => {
      const differ: string[] = [];
      paragraphs.forEach(({ c: pc, w }, k) => {
        if (pc !== c) return;
        if (JSON.stringify(ours[k]) !== JSON.stringify(lo[k]))
          differ.push(`right indent ${w}: LibreOffice ${JSON.stringify(lo[k])}, ours ${JSON.stringify(ours[k])}`);
      });
      expect(differ).toEqual([]);
    });
});
