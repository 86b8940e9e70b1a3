/**
 * Document property fields: which property a field names, and what parseDocx shows for it (the
 * cached result, or the document's property when that result is empty).
 */
import { describe, expect, it } from "vitest";
import { strToU8, unzipSync, zipSync } from "fflate";
import { templateDocx } from "../../../test/support/docx-templates";
import { LIMITS } from "../../limits";
import { documentPropertyField } from "./doc-properties";
import { parseDocx } from "./parse-docx";
import type { Paragraph } from "./types";

const props = new Map([
  ["AUTHOR", "Ada Lovelace"],
  ["COMPANY", "Analytical Engines"],
  ["EMAIL", "ada@example.com"],
]);

describe("documentPropertyField", () => {
  it("reads DOCPROPERTY names quoted or not, in any case, and the fields named after a property", () => {
    expect(documentPropertyField(' DOCPROPERTY "Email" ', props)).toBe("ada@example.com");
    expect(documentPropertyField(" DOCPROPERTY  company  \\* MERGEFORMAT ", props)).toBe("Analytical Engines");
    expect(documentPropertyField(" AUTHOR ", props)).toBe("Ada Lovelace");
  });

  it("applies text-case switches", () => {
    expect(documentPropertyField(" DOCPROPERTY Company \\* Upper ", props)).toBe("ANALYTICAL ENGINES");
    expect(documentPropertyField(" AUTHOR \\* Lower ", props)).toBe("ada lovelace");
  });

  it("leaves alone fields it cannot compute: unknown properties, pictures, other fields", () => {
    expect(documentPropertyField(" DOCPROPERTY Words ", props)).toBeUndefined();
    expect(documentPropertyField(' DOCPROPERTY Company \\# "0.00" ', props)).toBeUndefined();
    expect(documentPropertyField(" PAGE ", props)).toBeUndefined();
    expect(documentPropertyField("", props)).toBeUndefined();
  });
});

const field = (instr: string, cached: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instr} </w:instrText></w:r>` +
  `<w:r><w:fldChar w:fldCharType="separate"/></w:r>${cached ? `<w:r><w:t>${cached}</w:t></w:r>` : ""}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;

/** A package whose docProps parts are found by their usual names (no package relationships). */
function withProps(body: string, core: string, custom = ""): Uint8Array {
  const files = unzipSync(templateDocx({ body }));
  files["docProps/core.xml"] = strToU8(
    `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">${core}</cp:coreProperties>`,
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
      "<dc:creator>Ada Lovelace</dc:creator><cp:lastModifiedBy>Charles Babbage</cp:lastModifiedBy>",
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
