/**
 * The words a reader finds and copies, against LibreOffice: small documents rendered by Signet and
 * by `soffice --convert-to pdf` with the same font files, read back word by word with
 * `pdftotext -bbox`. Expected words come only from LibreOffice's PDF (or, where we decided to
 * differ, from the document itself, said so in the case): each case compares the multiset of
 * words, so a word run on into its neighbour, split, or with different text is a miss.
 */
import { describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import { convertWithLibreOffice, libreOfficeAvailable, wordBoxes } from "./support/libreoffice";

const have = await libreOfficeAvailable();

/** Every page's words, sorted (pdftotext's reading order is not what we compare). */
async function words(pdf: Uint8Array): Promise<string[]> {
  return (await wordBoxes(pdf)).flatMap((p) => p.words.map((w) => w.text.normalize("NFKC"))).sort();
}

async function bothWords(docx: Uint8Array): Promise<{ ours: string[]; lo: string[] }> {
  const [ours, lo] = await Promise.all([renderDocxToPdf(docx, { fonts: nodeFontSource() }).then(words), convertWithLibreOffice(docx).then(words)]);
  return { ours, lo };
}

describe.skipIf(!have)("words a reader copies, against LibreOffice", () => {
  it("an Arabic word followed by digits reads as two words, as typed (text written in logical order)", async () => {
    const run = { font: "Times New Roman", sizePt: 16 } as const;
    const docx = B.buildDocx({
      body:
        // Not a bidi paragraph: the digits after Arabic letters are drawn left of them.
        B.p("وثيقة تجربة123456789", { run }) +
        B.p("ثيقة تجربة1234567ثيقة تجربة123456789", { run }) +
        // A bidi paragraph with a number and a Latin word inside.
        B.p("تجربة 2026 وثيقة Signet تجربة", { bidi: true, run: { ...run, rtl: true } }) +
        B.sectPr(),
    });
    const { ours, lo } = await bothWords(docx);
    expect(lo).toContain("123456789");
    expect(ours).toEqual(lo);
  }, 180_000);
});
