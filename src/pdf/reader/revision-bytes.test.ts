import { describe, expect, it } from "vitest";
import { latin1Bytes } from "../../util/bytes";
import { appendUpdate, appendXrefOnly, basePdf, concat, latin1 } from "../../../test/support/signed-pdfs";
import { PdfReader } from "./reader";

/** basePdf(): catalog 1, page tree 2, pages 3 and 4, content streams 5 and 6, font 7, info 8. */

describe("entryResolves: does a cross-reference entry lead to its own object", () => {
  it("an ordinary entry, a free one and one never declared do; entries into another object or past the end do not", () => {
    const withFiller = appendUpdate(basePdf(), [{ num: 9, body: `<< /Filler (${"x".repeat(100)}) >>` }]);
    const inside = latin1(withFiller).lastIndexOf("/Filler") + 10;
    const bytes = appendXrefOnly(withFiller, [
      { num: 5, offset: inside },
      { num: 6, offset: withFiller.length + 10_000 },
    ]);
    const reader = PdfReader.open(bytes);
    expect(reader.entryResolves(3)).toBe(true);
    expect(reader.entryResolves(0)).toBe(true); // the free-list head
    expect(reader.entryResolves(99)).toBe(true); // not declared anywhere: nothing to resolve
    expect(reader.entryResolves(5)).toBe(false);
    expect(reader.entryResolves(6)).toBe(false);
    // The revision before still resolves both.
    expect(reader.entryResolves(5, 2)).toBe(true);
    expect(reader.entryResolves(6, 2)).toBe(true);
  });
});

describe("undeclaredObjects: object headers a revision's bytes hold that its section does not list", () => {
  it("reports an object written without an entry, not object-like text in a stream or a draft declared further on", () => {
    const text = "BT (9 0 obj << /Fake true >> endobj) Tj ET";
    const update = appendUpdate(basePdf(), [
      { num: 5, body: `<< /Length ${text.length} >>\nstream\n${text}\nendstream` },
      { num: 10, body: "<< /Draft 1 >>" },
      { num: 10, body: "<< /Draft 2 >>" },
    ]);
    // The same update with one more object spliced in before its cross-reference section.
    const at = latin1(update).lastIndexOf("\nxref\n") + 1;
    const hidden = "11 0 obj\n<< /Hidden true >>\nendobj\n";
    const reader = PdfReader.open(concat(update.subarray(0, at), hidden, update.subarray(at)));
    // The splice shifted the section: it is found again near where startxref points.
    expect(reader.revisions).toHaveLength(2);
    expect(reader.undeclaredObjects(2).map((h) => h.num)).toEqual([11]);
    expect(PdfReader.open(update).undeclaredObjects(2)).toEqual([]);
    expect(reader.undeclaredObjects(1)).toEqual([]);
  });
});

describe("appendedStructure: PDF structure after the newest revision", () => {
  it("finds an object appended after %%EOF, and ignores white-space, comments and other junk", () => {
    const base = basePdf();
    expect(PdfReader.open(base).appendedStructure()).toBe(-1);
    expect(PdfReader.open(concat(base, latin1Bytes("\r\n\x1a% a comment\ngarbage\n"))).appendedStructure()).toBe(-1);
    const appended = concat(base, latin1Bytes("5 0 obj\n<< /Length 0 >>\nstream\n\nendstream\nendobj\n"));
    expect(PdfReader.open(appended).appendedStructure()).toBe(base.length);
    const trailer = concat(base, latin1Bytes("trailer\n<< /Root 1 0 R >>\n"));
    expect(PdfReader.open(trailer).appendedStructure()).toBe(base.length);
  });
});
