/**
 * Document property fields: which property a field names, and what parseDocx shows for it (the
 * property, the cached result, or the property where that result is empty), as LibreOffice 7.4 does.
 */
import { describe, expect, it } from "vitest";
import { strToU8, unzipSync, zipSync } from "fflate";
import { templateDocx } from "../../../test/support/docx-templates";
import { LIMITS } from "../../limits";
import { documentPropertyField, type DocProperties } from "./doc-properties";
import { parseDocx } from "./parse-docx";
import type { Paragraph } from "./types";

const props: DocProperties = {
  info: new Map([
    ["Title", "Current Title"],
    ["Author", "Ada Lovelace"],
    ["LastSavedBy", "Charles Babbage"],
  ]),
  user: new Map([
    ["Company", "Analytical Engines"],
    ["Email", "ada@example.com"],
    ["Subject", "User subject"],
  ]),
  editMinutes: 1447,
  lastPrinted: "2020-02-13T14:05:00Z",
};

/** Each instruction's expected result: [instruction, text, keepCached] or [instruction] for none. */
function expectResults(rows: [string, string?, boolean?][]): void {
  for (const [instr, text, keepCached] of rows)
    expect(documentPropertyField(instr, props), instr).toEqual(
      text === undefined ? undefined : { text, keepCached: keepCached ?? false },
    );
}

describe("documentPropertyField", () => {
  it("document information fields always show the property (empty when the document lacks it), without case switches", () => {
    expectResults([
      [" DOCPROPERTY Title \\* MERGEFORMAT ", "Current Title"],
      [" TITLE \\* Upper ", "Current Title"],
      [" DOCPROPERTY Keywords ", ""],
      [" REVNUM ", ""],
      [" DOCPROPERTY Template ", ""],
      [" EDITTIME ", "00:07"],
      [" DOCPROPERTY TotalEditingTime ", "00:07"],
      [" DOCPROPERTY LastPrinted ", "14:05"],
    ]);
  });

  it("AUTHOR, LASTSAVEDBY and user-defined properties keep a cached result; a user-defined name wins, matched case-sensitively", () => {
    expectResults([
      [" AUTHOR \\* Lower ", "ada lovelace", true],
      [" LASTSAVEDBY ", "Charles Babbage", true],
      [' DOCPROPERTY "Email" ', "ada@example.com", true],
      [" DOCPROPERTY Company \\* Upper ", "ANALYTICAL ENGINES", true],
      [" DOCPROPERTY Subject ", "User subject", true],
      [" DOCPROPERTY company "],
      [" DOCPROPERTY title "],
    ]);
  });

  it("leaves alone what it does not compute: other names, statistics, pictures, other fields", () => {
    expectResults([
      [" DOCPROPERTY Author "],
      [" DOCPROPERTY Words "],
      [' DOCPROPERTY Company \\# "0.00" '],
      [" PAGE "],
      [""],
    ]);
  });
});

const field = (instr: string, cached: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instr} </w:instrText></w:r>` +
  `<w:r><w:fldChar w:fldCharType="separate"/></w:r>${cached ? `<w:r><w:t>${cached}</w:t></w:r>` : ""}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;

/** A package whose docProps parts are found by their usual names (no package relationships). */
function withProps(body: string, core: string, custom = ""): Uint8Array {
  const files = unzipSync(templateDocx({ body }));
  files["docProps/core.xml"] = strToU8(
    `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">${core}</cp:coreProperties>`,
  );
  if (custom)
    files["docProps/custom.xml"] = strToU8(
      `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">${custom}</Properties>`,
    );
  return zipSync(files);
}

const texts = (docx: Uint8Array) =>
  parseDocx(docx)
    .sections.flatMap((s) => s.blocks)
    .map((b) => (b as Paragraph).inlines.map((i) => (i.type === "text" ? i.text : "")).join(""));

describe("parseDocx: property fields", () => {
  it("keeps a cached result, and shows the property where the result is empty", () => {
    const body =
      `<w:p><w:r><w:t xml:space="preserve">By </w:t></w:r>${field("AUTHOR", "Template Author")}</w:p>` +
      `<w:p><w:r><w:t xml:space="preserve">By </w:t></w:r>${field("AUTHOR", "")}</w:p>` +
      `<w:p><w:r><w:t xml:space="preserve">Mail </w:t></w:r>${field('DOCPROPERTY "Email"', "")}</w:p>` +
      `<w:p><w:fldSimple w:instr=" LASTSAVEDBY "/></w:p>` +
      `<w:p><w:fldSimple w:instr=" LASTSAVEDBY "><w:r><w:t>cached</w:t></w:r></w:fldSimple></w:p>`;
    const docx = withProps(
      body,
      "<dc:creator>Ada Lovelace</dc:creator><cp:lastModifiedBy>Charles Babbage</cp:lastModifiedBy><dcterms:modified>2026-11-21T10:00:00Z</dcterms:modified>",
      `<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Email"><vt:lpwstr>ada@example.com</vt:lpwstr></property>`,
    );
    expect(texts(docx)).toEqual([
      "By Template Author",
      "By Ada Lovelace",
      "Mail ada@example.com",
      "Charles Babbage",
      "cached",
    ]);
  });

  it("shows the property over a cached result for document information fields; keywords as a list", () => {
    const body =
      `<w:p>${field("DOCPROPERTY Title", "Old title")}</w:p>` +
      `<w:p>${field("KEYWORDS", "old")}</w:p>` +
      `<w:p>${field("DOCPROPERTY LastSavedBy", "Old Editor")}</w:p>`;
    const core =
      "<dc:title>Lease</dc:title><cp:keywords>rent;deposit  term</cp:keywords><cp:lastModifiedBy>Charles Babbage</cp:lastModifiedBy>";
    // Without a save date (dcterms:modified) LibreOffice shows no last editor.
    expect(texts(withProps(body, core))).toEqual(["Lease", "rent, deposit, term", ""]);
    expect(texts(withProps(body, core + "<dcterms:modified>2026-11-21T10:00:00Z</dcterms:modified>"))).toEqual([
      "Lease",
      "rent, deposit, term",
      "Charles Babbage",
    ]);
  });

  it("shows an empty result where the document does not state the property", () => {
    const docx = withProps(
      `<w:p><w:r><w:t xml:space="preserve">By </w:t></w:r>${field("AUTHOR", "")}</w:p>`,
      "<dc:creator>  </dc:creator>",
    );
    expect(texts(docx)).toEqual(["By "]);
  });

  it("bounds what it keeps: later custom properties and long values are cut", () => {
    const { maxProperties, maxValueLength } = LIMITS.render.docProperties;
    const many = Array.from(
      { length: maxProperties + 5 },
      (_, i) => `<property name="P${i}"><vt:lpwstr>v${i}</vt:lpwstr></property>`,
    ).join("");
    const long = `<property name="Long"><vt:lpwstr>${"x".repeat(maxValueLength + 100)}</vt:lpwstr></property>`;
    const body = `<w:p>${field("DOCPROPERTY Long", "")}</w:p><w:p>${field(`DOCPROPERTY P${maxProperties + 4}`, "")}</w:p>`;
    const [first, second] = texts(withProps(body, "", long + many));
    expect(first).toBe("x".repeat(maxValueLength));
    expect(second).toBe("");
  });
});
