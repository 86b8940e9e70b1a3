/**
 * DataStores on small packages: which bindings show a stored value and which keep the cached text
 * (unknown stores, XPath forms beyond Word's absolute steps, empty values, oversized parts).
 */
import { describe, expect, it } from "vitest";
import { strToU8, unzipSync, zipSync } from "fflate";
import { templateDocx } from "../../../test/support/docx-templates";
import { DocxPackage } from "../../docx/package";
import { DataStores } from "./data-binding";
import { parseTree, type XNode } from "./xml-tree";

const CORE_ID = "{6C3C8BC8-F283-45AE-878A-BAB7291924A1}";
const CUSTOM_ID = "{AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE}";

function stores(customItem: string): DataStores {
  const files = unzipSync(templateDocx({ body: "<w:p/>" }));
  files["docProps/core.xml"] = strToU8(
    `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The title</dc:title><dc:subject>  </dc:subject></cp:coreProperties>`,
  );
  files["customXml/item1.xml"] = strToU8(customItem);
  files["customXml/itemProps1.xml"] = strToU8(
    `<ds:datastoreItem ds:itemID="${CUSTOM_ID.toLowerCase()}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"/>`,
  );
  files["customXml/_rels/item1.xml.rels"] = strToU8(
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps" Target="itemProps1.xml"/></Relationships>`,
  );
  const rels = "word/_rels/document.xml.rels";
  files[rels] = strToU8(
    new TextDecoder()
      .decode(files[rels])
      .replace(
        "</Relationships>",
        `<Relationship Id="rC1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml" Target="../customXml/item1.xml"/></Relationships>`,
      ),
  );
  const pkg = DocxPackage.open(zipSync(files));
  return new DataStores(pkg, (name) => (pkg.has(name) ? parseTree(pkg.readXml(name), name) : undefined));
}

const binding = (xpath: string, store: string): XNode =>
  parseTree(
    `<w:dataBinding xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" w:xpath="${xpath}" w:storeItemID="${store}"/>`,
    "test",
  );

describe("data-bound content controls", () => {
  const s = stores(`<r xmlns="urn:t"><a>first</a><a>second</a><b/></r>`);

  it("read the core properties and a custom XML part found by its item id (any case)", () => {
    expect(s.value(binding("/ns1:coreProperties[1]/ns0:title[1]", CORE_ID))).toBe("The title");
    expect(s.value(binding("/ns0:r[1]/ns0:a[2]", CUSTOM_ID))).toBe("second");
    expect(s.value(binding("/ns0:r/ns0:a", CUSTOM_ID.toLowerCase()))).toBe("first");
  });

  it("keep the cached text for empty values, missing nodes, unknown stores and XPath beyond absolute steps", () => {
    expect(s.value(binding("/ns1:coreProperties[1]/ns0:subject[1]", CORE_ID))).toBeUndefined();
    expect(s.value(binding("/ns0:r[1]/ns0:b[1]", CUSTOM_ID))).toBeUndefined();
    expect(s.value(binding("/ns0:r[1]/ns0:a[3]", CUSTOM_ID))).toBeUndefined();
    expect(s.value(binding("/ns0:r[1]/ns0:a[1]", "{00000000-0000-0000-0000-000000000000}"))).toBeUndefined();
    expect(s.value(binding("ns0:r/ns0:a", CUSTOM_ID))).toBeUndefined();
    expect(s.value(binding("/ns0:r[1]/ns0:a[text()='x']", CUSTOM_ID))).toBeUndefined();
    expect(s.value(binding("//ns0:a", CUSTOM_ID))).toBeUndefined();
    expect(s.value(binding(`/ns0:r${"/ns0:a".repeat(400)}`, CUSTOM_ID))).toBeUndefined();
  });

  it("do not read a custom XML part past the store size limit", () => {
    // Incompressible text, so the package's own zip-bomb check does not refuse it first.
    let seed = 1;
    const noise = Array.from({ length: 1024 * 1024 + 10 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return String.fromCharCode(97 + (seed % 26));
    }).join("");
    const big = stores(`<r xmlns="urn:t"><a>${noise}</a></r>`);
    expect(big.value(binding("/ns0:r[1]/ns0:a[1]", CUSTOM_ID))).toBeUndefined();
  });
});
