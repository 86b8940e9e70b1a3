import { describe, expect, it } from "vitest";
import {
  applySplices,
  assertNoDtd,
  decodeEntities,
  dropForbiddenChars,
  escapeAttr,
  escapeText,
  parseElements,
  readAttributes,
  textOf,
} from "./xml";

describe("XML tokenizer", () => {
  it("keeps offsets of elements, attributes with '>' inside values, comments, CDATA and PIs", () => {
    const xml = `<?xml version="1.0"?><!-- c <x> --><a x='1>2' y="&quot;q&quot;"><b/><![CDATA[<not/>]]><c>t&amp;u</c></a>`;
    const [a] = parseElements(xml, "t");
    expect(a!.name).toBe("a");
    expect(a!.children.map((c) => c.name)).toEqual(["b", "c"]);
    expect(Object.fromEntries(readAttributes(xml, a!))).toEqual({ x: "1>2", y: '"q"' });
    expect(xml.slice(a!.children[1]!.start, a!.children[1]!.end)).toBe("<c>t&amp;u</c>");
    expect(textOf(xml, [a!], "c")).toBe("t&u");
  });

  it("refuses DOCTYPE and ENTITY declarations, and malformed markup", () => {
    expect(() => parseElements(`<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`, "p")).toThrow(
      expect.objectContaining({ code: "xml_doctype_forbidden" }),
    );
    expect(() => assertNoDtd(`<a><!ENTITY x "y"></a>`, "p")).toThrow(
      expect.objectContaining({ code: "xml_doctype_forbidden" }),
    );
    expect(() => assertNoDtd(`<a><!-- <!DOCTYPE in a comment --><![CDATA[<!ENTITY]]></a>`, "p")).not.toThrow();
    for (const bad of ["<a><b></a>", "<a>", "</a>", "<a x=1/>", "<a x='1/>"]) {
      expect(() => parseElements(bad, "p"), bad).toThrow(expect.objectContaining({ code: "docx_invalid" }));
    }
    expect(() => parseElements("<a>".repeat(300) + "</a>".repeat(300), "p")).toThrow(/deeper/);
  });

  it("never expands entities beyond the predefined ones and character references", () => {
    expect(decodeEntities("&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&custom;&#0;")).toBe(`<>&"'AB&custom;`);
  });

  it("escapes values and drops characters XML 1.0 forbids", () => {
    expect(escapeText("a<b>&c\u0000\u0008\uFFFE\uD800z😀")).toBe("a&lt;b&gt;&amp;cz😀");
    expect(escapeAttr(`"x'\n`)).toBe("&quot;x&apos;&#10;");
    expect(dropForbiddenChars("ok\t\n\r")).toBe("ok\t\n\r");
  });

  it("applies non-overlapping splices in one pass", () => {
    expect(
      applySplices("abcdef", [
        { start: 4, end: 5, text: "E" },
        { start: 0, end: 1, text: "A" },
        { start: 2, end: 2, text: "+" },
      ]),
    ).toBe("Ab+cdEf");
    expect(() =>
      applySplices("abc", [
        { start: 0, end: 2, text: "" },
        { start: 1, end: 3, text: "" },
      ]),
    ).toThrow(/overlapping/);
  });
});
