import { describe, expect, it } from "vitest";
import { PdfReader } from "../../reader";
import { appendUpdate, basePdf } from "../../../../test/support/signed-pdfs";
import { PageIndexes } from "./page-index";

/** basePdf(): catalog 1, page tree 2 with pages 3 and 4 (contents 5 and 6). */
const contentEdit = (bytes: Uint8Array, text: string) =>
  appendUpdate(bytes, [{ num: 5, body: `<< /Length ${text.length} >>\nstream\n${text}\nendstream` }]);
const indexOf = (pages: PageIndexes, revision: number) => [...pages.of(revision)];

describe("page indexes per revision", () => {
  it("follow revisions that edit content, then a page appended, then pages reordered", () => {
    let bytes = basePdf();
    for (let i = 0; i < 3; i++) bytes = contentEdit(bytes, `BT (edit ${i}) Tj ET`);
    bytes = appendUpdate(bytes, [
      { num: 2, body: "<< /Type /Pages /Kids [3 0 R 4 0 R 20 0 R] /Count 3 >>" },
      { num: 20, body: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>" },
    ]);
    bytes = appendUpdate(bytes, [{ num: 2, body: "<< /Type /Pages /Kids [20 0 R 3 0 R 4 0 R] /Count 3 >>" }]);
    const pages = new PageIndexes(PdfReader.open(bytes));
    // In revision order, as the difference analysis asks: carried over where the structure holds.
    for (const r of [1, 2, 3, 4])
      expect(indexOf(pages, r), `revision ${r}`).toEqual([
        [3, 1],
        [4, 2],
      ]);
    expect(indexOf(pages, 5)).toEqual([
      [3, 1],
      [4, 2],
      [20, 3],
    ]);
    expect(indexOf(pages, 6)).toEqual([
      [20, 1],
      [3, 2],
      [4, 3],
    ]);
  });

  it("walk the tree again when a page becomes a page tree node", () => {
    const bytes = appendUpdate(basePdf(), [
      { num: 4, body: "<< /Type /Pages /Parent 2 0 R /Kids [21 0 R 22 0 R] /Count 2 >>" },
      { num: 21, body: "<< /Type /Page /Parent 4 0 R /MediaBox [0 0 100 100] >>" },
      { num: 22, body: "<< /Type /Page /Parent 4 0 R /MediaBox [0 0 100 100] >>" },
    ]);
    const pages = new PageIndexes(PdfReader.open(bytes));
    expect(indexOf(pages, 1)).toEqual([
      [3, 1],
      [4, 2],
    ]);
    expect(indexOf(pages, 2)).toEqual([
      [3, 1],
      [21, 2],
      [22, 3],
    ]);
  });

  it("walk the tree again when an indirect /Kids array changes", () => {
    const indirect = appendUpdate(basePdf(), [
      { num: 2, body: "<< /Type /Pages /Kids 30 0 R /Count 2 >>" },
      { num: 30, body: "[3 0 R 4 0 R]" },
    ]);
    const bytes = appendUpdate(indirect, [{ num: 30, body: "[4 0 R 3 0 R]" }]);
    const pages = new PageIndexes(PdfReader.open(bytes));
    expect(indexOf(pages, 2)).toEqual([
      [3, 1],
      [4, 2],
    ]);
    expect(indexOf(pages, 3)).toEqual([
      [4, 1],
      [3, 2],
    ]);
  });
});
