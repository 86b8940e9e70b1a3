import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseDocx } from "../../src/render/model/parse-docx";
import type { Block, Inline } from "../../src/render/model/types";

/**
 * The document model against every DOCX of ../shared/corpus/docx (never copied into the repo):
 * each file parses without an exception, and the words a reader sees in word/document.xml
 * (its w:t text, read here with a plain regex, not with our parser) are in the model.
 */

const DOCX = fileURLToPath(new URL("../../../shared/corpus/docx", import.meta.url));
const files = readdirSync(DOCX)
  .filter((f) => f.endsWith(".docx"))
  .sort();

/** Words of a part, joining w:t runs within each paragraph (tabs and breaks split words); moved-away and deleted text left out. */
function xmlWords(parts: Record<string, Uint8Array>, name: string | undefined): Set<string> {
  if (!name || !parts[name]) return new Set();
  const xml = new TextDecoder()
    .decode(parts[name]!)
    .replace(/<w:moveFrom\b[^>]*>[\s\S]*?<\/w:moveFrom>/g, "")
    .replace(/<w:del\b[^>]*>[\s\S]*?<\/w:del>/g, "")
    // The Fallback repeats the Choice (text boxes as VML): one copy is enough.
    .replace(/<mc:Fallback>[\s\S]*?<\/mc:Fallback>/g, "")
    // A data-bound plain-text control shows its store's value, not the text Word cached in it: the
    // words its cached text is part of are not looked for (marked with U+0000).
    .replace(
      /<w:sdtPr>(?:(?!<\/w:sdtPr>)[\s\S])*<w:dataBinding\b(?:(?!<\/w:sdtPr>)[\s\S])*<\/w:sdtPr>(?:<w:sdtEndPr\/>|<w:sdtEndPr>[\s\S]*?<\/w:sdtEndPr>)?<w:sdtContent>[\s\S]*?<\/w:sdtContent>/g,
      (control) =>
        /<w:text\b/.test(control) ? control.replace(/(<w:t(?:\s[^>]*)?>)[^<]*(<\/w:t>)/g, "$1\u0000$2") : control,
    );
  const words = new Set<string>();
  for (const segment of xml.split(/<w:p[\s>/]|<\/w:p>/)) {
    // A w:sym is a character the model maps from a symbol font: its words cannot be read from the XML.
    if (segment.includes("<w:sym ")) continue;
    let text = "";
    // Text of w:t (and of math, m:t); tabs, breaks, note references and objects separate words.
    const tokens =
      /<([wm]):t(?:\s[^>]*)?>([^<]*)<\/\1:t>|<w:(?:tab|ptab|br|cr|footnoteReference|endnoteReference)\b[^>]*\/>|<w:(?:object|drawing|pict)\b/g;
    for (const m of segment.matchAll(tokens)) text += m[2] ?? " ";
    for (const w of decode(text).split(/\s+/)) if (w && !w.includes("\u0000")) words.add(w);
  }
  return words;
}

function decode(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-f]+|#\d+);/gi, (_m, e: string) =>
    e === "lt"
      ? "<"
      : e === "gt"
        ? ">"
        : e === "amp"
          ? "&"
          : e === "quot"
            ? '"'
            : e === "apos"
              ? "'"
              : String.fromCodePoint(
                  e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10),
                ),
  );
}

/** Words of blocks (with text boxes, cells and cached field results). */
function modelWords(list: Block[]): Set<string> {
  const words = new Set<string>();
  const inlineText = (i: Inline): string => {
    // A symbol font's characters as the document has them (the model draws them mapped to Unicode).
    if (i.type === "text") return i.typed ?? i.text;
    if (i.type === "field") return i.fallback;
    // An equation reads inline with the text around it (its box carries its text as a paragraph).
    if (i.type === "box" && i.math)
      return i.blocks.map((b) => (b.type === "paragraph" ? b.inlines.map(inlineText).join("") : " ")).join("");
    if (i.type === "box") {
      blocks(i.blocks);
      // A group's text boxes are its parts.
      for (const part of i.parts ?? []) if (part.inline.type === "box") blocks(part.inline.blocks);
      return " ";
    }
    return " ";
  };
  const blocks = (list: Block[]) => {
    for (const b of list) {
      if (b.type === "paragraph") {
        for (const w of b.inlines.map(inlineText).join("").split(/\s+/)) if (w) words.add(w);
      } else for (const r of b.rows) for (const c of r.cells) blocks(c.blocks);
    }
  };
  blocks(list);
  return words;
}

function missingWords(expected: Set<string>, got: Set<string>): string[] {
  return [...expected].filter((w) => !got.has(w));
}

describe("document model on the DOCX corpus", () => {
  it("has documents to read", () => {
    expect(files.length).toBeGreaterThan(50);
  });

  for (const file of files) {
    it(`${file}: parses, and the body's words are in the model`, () => {
      const bytes = new Uint8Array(readFileSync(join(DOCX, file)));
      const model = parseDocx(bytes);
      expect(model.sections.length).toBeGreaterThan(0);
      for (const s of model.sections) {
        expect(s.pageWidth).toBeGreaterThan(0);
        expect(s.pageHeight).toBeGreaterThan(0);
      }
      for (const f of model.fontFamilies) expect(f.length).toBeGreaterThan(0);
      const parts = unzipSync(bytes);
      const expected = xmlWords(
        parts,
        Object.keys(parts).find((n) => /^word\/document\d*\.xml$/i.test(n)),
      );
      const got = modelWords(model.sections.flatMap((s) => s.blocks));
      const missing = missingWords(expected, got);
      if (expected.size) expect(got.size).toBeGreaterThan(0);
      // Word recall of the body text at least 98 %.
      expect(missing.length, `${file}: missing ${missing.slice(0, 10).join(" | ")}`).toBeLessThanOrEqual(
        Math.floor(expected.size * 0.02),
      );
      // The same for every header and footer the sections use.
      for (const [part, blocks] of model.headerFooters) {
        const want = xmlWords(parts, part);
        const lost = missingWords(want, modelWords(blocks));
        expect(lost.length, `${file} ${part}: missing ${lost.slice(0, 10).join(" | ")}`).toBeLessThanOrEqual(
          Math.floor(want.size * 0.02),
        );
      }
    });
  }
});
