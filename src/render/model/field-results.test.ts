/**
 * Fields LibreOffice 7.4 computes on opening a DOCX (SEQ, REF, FORMDROPDOWN, IF ...): the rules
 * one by one, and what parseDocx shows for them.
 */
import { describe, expect, it } from "vitest";
import { strToU8 } from "fflate";
import { templateDocx } from "../../../test/support/docx-templates";
import { Bookmarks, dropdownResult, otherFieldResult, referenceTarget, sequenceField } from "./field-results";
import { parseDocx } from "./parse-docx";
import { parseTree } from "./xml-tree";
import type { Paragraph } from "./types";

describe("sequenceField", () => {
  it("counts per name in any case, restarts with \\r, repeats with \\c and ignores \\h", () => {
    const seq = new Map<string, number>();
    const shown = [
      " SEQ Figure \\* ARABIC ",
      " SEQ FIGURE \\* MERGEFORMAT ",
      " SEQ Figure \\c ",
      " SEQ Table \\h ",
      " SEQ CHAPTER \\h \\r 4",
      " SEQ Chapter \\* ROMAN ",
      " SEQ Chapter \\* alphabetic ",
      " SEQ Chapter \\* Roman ",
    ].map((instr) => sequenceField(instr, seq)?.text);
    expect(shown).toEqual(["1", "2", "2", "1", "4", "V", "f", "7"]);
  });

  it("leaves a SEQ without any switch to its cached result, uncounted", () => {
    const seq = new Map<string, number>();
    expect(sequenceField(" SEQ Figure ", seq)).toBeUndefined();
    expect(sequenceField(" SEQ Figure \\* ARABIC ", seq)?.text).toBe("1");
  });
});

describe("referenceTarget, dropdownResult, otherFieldResult", () => {
  it("reads a REF's bookmark and whether it shows the bookmark's text", () => {
    expect(referenceTarget(" REF _Ref123 \\h \\* MERGEFORMAT ")).toEqual({ name: "_Ref123", text: true });
    expect(referenceTarget(' REF "Mark" ')).toEqual({ name: "Mark", text: true });
    expect(referenceTarget(" REF _Ref123 \\r \\h ")).toEqual({ name: "_Ref123", text: false });
    expect(referenceTarget(" REF ")).toBeUndefined();
  });

  it("shows a drop-down's selected entry, else its first, else five en spaces", () => {
    const list = (xml: string) => parseTree(`<w:ddList xmlns:w="w">${xml}</w:ddList>`, "test");
    const entries = `<w:listEntry w:val="Select..."/><w:listEntry w:val="Approved"/>`;
    expect(dropdownResult(list(`<w:result w:val="1"/>${entries}`)).text).toBe("Approved");
    expect(dropdownResult(list(entries)).text).toBe("Select...");
    expect(dropdownResult(list(`<w:result w:val="7"/>${entries}`)).text).toBe("Select...");
    expect(dropdownResult(list("")).text).toBe("\u2002".repeat(5));
  });

  it("shows nothing for IF, ASK, SET and NEXT, and a MACROBUTTON's display text", () => {
    expect(otherFieldResult(' IF 1 = 1 "yes" "no" ')).toEqual({ text: "", keepCached: false });
    expect(otherFieldResult(" ask x ")?.text).toBe("");
    expect(otherFieldResult(" MACROBUTTON NoMacro Click here ")?.text).toBe("Click here ");
    expect(otherFieldResult(" MERGEFIELD Name ")).toBeUndefined();
  });
});

describe("Bookmarks", () => {
  it("knows names declared anywhere in document.xml, also one cut by a slice boundary", () => {
    const pad = " ".repeat((1 << 20) - 20);
    const xml = `<w:body>${pad}<w:bookmarkStart w:id="1" w:name="Across&amp;Slices"/><w:bookmarkStart w:name='Quoted' w:id="2"/></w:body>`;
    const marks = new Bookmarks(() => strToU8(xml));
    expect(marks.has("Across&Slices")).toBe(true);
    expect(marks.has("Quoted")).toBe(true);
    expect(marks.has("Missing")).toBe(false);
  });

  it("collects a bookmark's text up to its end or its paragraph's end", () => {
    const marks = new Bookmarks(() => undefined);
    marks.start("1", "A");
    marks.add("first ");
    expect(marks.text("A")).toBeUndefined();
    marks.add("para");
    marks.endParagraph();
    marks.add("second");
    expect(marks.text("A")).toBe("first para");
  });
});

const field = (instr: string, cached: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instr} </w:instrText></w:r>` +
  `<w:r><w:fldChar w:fldCharType="separate"/></w:r>${cached ? `<w:r><w:t>${cached}</w:t></w:r>` : ""}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;

const texts = (body: string) =>
  parseDocx(templateDocx({ body }))
    .sections.flatMap((s) => s.blocks)
    .map((b) => (b as Paragraph).inlines.map((i) => (i.type === "text" ? i.text : "")).join(""));

describe("parseDocx: computed fields", () => {
  it("fills a reference to a later bookmark once the document is read, keeping the text after it", () => {
    const body =
      `<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r>${field("REF Later \\h", "old")}<w:r><w:t xml:space="preserve"> below</w:t></w:r></w:p>` +
      `<w:p><w:fldSimple w:instr=" REF Gone "><w:r><w:t>Error! Reference source not found.</w:t></w:r></w:fldSimple></w:p>` +
      `<w:p><w:bookmarkStart w:id="1" w:name="Later"/><w:r><w:t>Governing law</w:t></w:r><w:bookmarkEnd w:id="1"/></w:p>`;
    expect(texts(body)).toEqual(["See Governing law below", "Error: Reference source not found", "Governing law"]);
  });

  it("does not count a SEQ inside a result LibreOffice drops", () => {
    const body =
      `<w:p>${field("IF 1 = 1", `</w:t></w:r>${field("SEQ Fig \\* ARABIC", "9")}<w:r><w:t>`)}</w:p>` +
      `<w:p>${field("SEQ Fig \\* ARABIC", "9")}</w:p>`;
    expect(texts(body)).toEqual(["", "1"]);
  });
});
