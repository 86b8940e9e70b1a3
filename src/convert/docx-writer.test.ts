import { describe, expect, it } from "vitest";
import { unzipSync, strFromU8 } from "fflate";
import { htmlToModel } from "./html";
import { markdownToModel } from "./markdown";
import { browserTheme, WORD_THEME, writeDocx } from "./docx-writer";

const documentXml = (docx: Uint8Array) => strFromU8(unzipSync(docx)["word/document.xml"]!);

describe("DOCX writer", () => {
  it("writes the same bytes for the same document", () => {
    const model = markdownToModel("# A\n\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\nc[^1]\n\n[^1]: d");
    expect(writeDocx(model, WORD_THEME, new Map())).toEqual(
      writeDocx(
        markdownToModel("# A\n\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\nc[^1]\n\n[^1]: d"),
        WORD_THEME,
        new Map(),
      ),
    );
  });

  it("merges rowspan cells vertically and spans columns on the table grid", () => {
    const { base, ...model } = htmlToModel(
      `<table><tr><td rowspan="2">a</td><td>b</td></tr><tr><td>c</td></tr><tr><td colspan="2">d</td></tr></table>`,
    );
    const xml = documentXml(writeDocx(model, browserTheme(base.font, base.sizePt), new Map()));
    expect(xml.match(/<w:vMerge w:val="restart"\/>/g)).toHaveLength(1);
    expect(xml.match(/<w:vMerge\/>/g)).toHaveLength(1);
    expect(xml).toContain('<w:gridSpan w:val="2"/>');
    expect(xml.match(/<w:gridCol /g)).toHaveLength(2);
  });

  it("keeps given column widths and gives the rest by content, within the text width", () => {
    const { base, ...model } = htmlToModel(
      `<table style="width:100%"><tr><td style="width:72pt">x</td><td>a long description of the item</td><td>9</td></tr></table>`,
    );
    const xml = documentXml(writeDocx(model, browserTheme(base.font, base.sizePt), new Map()));
    const cols = [...xml.matchAll(/<w:gridCol w:w="(\d+)"\/>/g)].map((m) => Number(m[1]));
    expect(cols.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(9360 + cols.length);
    expect(cols[1]!).toBeGreaterThan(cols[2]!);
  });

  it("shows a picture it could not get as its alt text", () => {
    const xml = documentXml(writeDocx(markdownToModel("![the logo](logo.png)"), WORD_THEME, new Map()));
    expect(xml).toContain("[the logo]");
    expect(xml).not.toContain("<w:drawing>");
  });
});
