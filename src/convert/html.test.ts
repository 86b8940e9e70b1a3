import { describe, expect, it } from "vitest";
import { htmlToModel } from "./html";
import type { Paragraph, Table } from "./model";

const paras = (html: string) => htmlToModel(html).blocks.filter((b): b is Paragraph => b.kind === "paragraph");
const text = (p: Paragraph) =>
  p.inlines.map((i) => (i.kind === "text" ? i.text : i.kind === "break" ? "\n" : "")).join("");

describe("HTML to the document model", () => {
  it("collapses white space as a browser does and drops scripts, styles and hidden elements", () => {
    const ps = paras(
      `<p>  Hello   <b> big </b>\n world  </p><script>alert(1)</script><p style="display:none">no</p><p hidden>no</p><p>a<br>  b</p>`,
    );
    expect(ps.map(text)).toEqual(["Hello big world", "a\nb"]);
  });

  it("takes the body's font and size as the document's, and formats only what differs", () => {
    const model = htmlToModel(
      `<style>body { font: 10pt Arial; font-family: Arial; font-size: 10pt } .red { color: #f00 }</style><p>plain <span class="red">red</span></p>`,
    );
    expect(model.base).toEqual({ font: "Arial", sizePt: 10 });
    const p = model.blocks[0] as Paragraph;
    expect(p.inlines.map((i) => (i.kind === "text" ? i.marks : null))).toEqual([{}, { color: "FF0000" }]);
  });

  it("turns margins into spacing and indents, and page-break-before into a page break", () => {
    const ps = paras(
      `<div style="margin-left: 36pt; margin-top: 12pt"><p style="margin: 0">in</p></div><p style="page-break-before: always; margin: 0">next</p>`,
    );
    expect(ps[0]!.props).toMatchObject({ indentLeftPt: 36, spaceBeforePt: 12 });
    expect(ps[1]!.props?.pageBreakBefore).toBe(true);
  });

  it("numbers lists with their list-style-type and start", () => {
    const ps = paras(`<ol start="4" style="list-style-type: lower-roman"><li>a</li><li>b<ul><li>c</li></ul></li></ol>`);
    expect(ps.map((p) => [text(p), p.list?.format, p.list?.level, p.list?.start])).toEqual([
      ["a", "lowerRoman", 0, 4],
      ["b", "lowerRoman", 0, 4],
      ["c", "bullet", 1, 1],
    ]);
  });

  it("reads tables with implied tbody, header cells, spans, widths and borders", () => {
    const t = htmlToModel(
      `<table border="1" style="width: 50%"><tr><th colspan="2">H</th></tr><tr><td rowspan="2" style="width: 72pt">a</td><td>b</td></tr><tr><td>c</td></tr></table>`,
    ).blocks[0] as Table;
    expect(t.kind).toBe("table");
    expect(t.widthShare).toBe(0.5);
    expect(t.rows.map((r) => r.cells.length)).toEqual([1, 2, 1]);
    expect(t.rows[0]!.cells[0]).toMatchObject({ header: true, colSpan: 2 });
    expect(t.rows[1]!.cells[0]).toMatchObject({ rowSpanBelow: 1, widthPt: 72 });
    expect(t.rows[1]!.cells[1]!.borders?.top).toEqual({ widthPt: 0.75, color: "808080", style: "single" });
  });
});
