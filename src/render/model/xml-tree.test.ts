import { describe, expect, it } from "vitest";
import { SignetError } from "../../errors";
import { parseTree, parseTreeUtf8, type XNode } from "./xml-tree";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;

/** Names, `val`/`name` attributes, leaf text and children, as one string. */
function dump(n: XNode): string {
  const attrs = ["val", "name", "space"].map((a) => n.attr(a)).filter((v) => v !== undefined);
  const inner = n.children.length ? n.children.map(dump).join(",") : JSON.stringify(n.text());
  return `${n.name}[${attrs.join("|")}](${inner})`;
}

/** Body children as the stream sees them (each dropped after reading), then what stays of the tree. */
function readStreamed(
  parse: (stream: { depth: number; onComplete(node: XNode, parent: XNode): boolean }) => XNode,
): string[] {
  const seen: string[] = [];
  const root = parse({
    depth: 3,
    onComplete(node, parent) {
      if (parent.name !== "body" || node.name === "sectPr") return false;
      seen.push(dump(node));
      return true;
    },
  });
  seen.push(dump(root));
  return seen;
}

const tricky =
  `\uFEFF<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document ${W}>\n<!-- a comment with <w:p> and > inside --><w:body>` +
  `<w:p><w:r><w:t xml:space="preserve">Комитет по информатизации 😀 &amp; связи </w:t></w:r></w:p>` +
  `<w:p w:rsidR='00A1'><w:pPr><w:pStyle w:val="a>b"/></w:pPr><w:r><w:t><![CDATA[x < y && z > w]]></w:t></w:r></w:p>` +
  `text between <?pi some <thing> ?>` +
  `<w:tbl><w:tr><w:tc><w:p><w:r><w:t>ячейка</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>` +
  `<w:p/>` +
  `<w:sectPr><w:pgSz w:w="11906"/></w:sectPr></w:body></w:document>\n`;

const enc = (s: string) => new TextEncoder().encode(s);

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof SignetError ? e.code : String(e);
  }
  return undefined;
}

describe("parseTreeUtf8: a part read a window of bytes at a time", () => {
  it("gives the same elements, attributes and text as parsing the whole decoded part, for any window size", () => {
    const bytes = enc(tricky);
    const whole = readStreamed((s) => parseTree(new TextDecoder().decode(bytes), "word/document.xml", s));
    expect(whole).toHaveLength(5); // four body children, then the rest of the tree (with the section)
    expect(whole[4]).toContain("sectPr");
    expect(whole[0]).toContain("Комитет по информатизации 😀 & связи");
    // Windows of 1..40 bytes split every tag, comment, CDATA and multi-byte character somewhere.
    for (const window of [1, 2, 3, 5, 7, 13, 40, 1 << 20]) {
      expect(
        readStreamed((s) => parseTreeUtf8(bytes, "word/document.xml", s, window)),
        `window ${window}`,
      ).toEqual(whole);
    }
  });

  it("reads a long body in many segments (the default window) with every paragraph in order", () => {
    const paras = Array.from({ length: 20_000 }, (_, i) => `<w:p><w:r><w:t>Параграф ${i}</w:t></w:r></w:p>`).join("");
    const bytes = enc(`<w:document ${W}><w:body>${paras}</w:body></w:document>`);
    expect(bytes.length).toBeGreaterThan(4 * 256 * 1024);
    const texts: string[] = [];
    parseTreeUtf8(bytes, "word/document.xml", {
      depth: 3,
      onComplete(node) {
        texts.push(node.first("t")!.text());
        return true;
      },
    });
    expect(texts).toHaveLength(20_000);
    expect(texts[0]).toBe("Параграф 0");
    expect(texts[19_999]).toBe("Параграф 19999");
  });

  const refused: [string, string, string][] = [
    ["an unclosed element", `<w:document ${W}><w:body><w:p><w:r></w:p></w:body></w:document>`, "docx_invalid"],
    ["a body never closed", `<w:document ${W}><w:body><w:p/>`, "docx_invalid"],
    ["a stray end tag", `<w:document ${W}><w:body><w:p/></w:r></w:body></w:document>`, "docx_invalid"],
    ["a '<' inside a start tag", `<w:document ${W}><w:body><w:p <w:r/></w:body></w:document>`, "docx_invalid"],
    [
      "a DTD",
      `<!DOCTYPE d [<!ENTITY e "x">]><w:document ${W}><w:body><w:p/></w:body></w:document>`,
      "xml_doctype_forbidden",
    ],
    [
      "an entity declared in the body",
      `<w:document ${W}><w:body><w:p/><!ENTITY e "x"><w:p/></w:body></w:document>`,
      "xml_doctype_forbidden",
    ],
    [
      "nesting deeper than the limit",
      `<w:document ${W}><w:body>${"<w:p>".repeat(5000)}${"</w:p>".repeat(5000)}</w:body></w:document>`,
      "docx_invalid",
    ],
  ];
  for (const [what, xml, code] of refused) {
    it(`refuses ${what} with ${code}, as the whole-part parse does, for any window size`, () => {
      const stream = { depth: 3, onComplete: () => true };
      expect(codeOf(() => parseTree(xml, "word/document.xml", stream))).toBe(code);
      for (const window of [1, 4, 64, 1 << 20]) {
        expect(
          codeOf(() => parseTreeUtf8(enc(xml), "word/document.xml", stream, window)),
          `window ${window}`,
        ).toBe(code);
      }
    });
  }

  it("refuses bytes that are not UTF-8, and UTF-16", () => {
    const stream = { depth: 3, onComplete: () => true };
    const bad = enc(`<w:document ${W}><w:body><w:p><w:t>x</w:t></w:p></w:body></w:document>`);
    bad[60] = 0xff;
    expect(() => parseTreeUtf8(bad, "word/document.xml", stream, 16)).toThrow(/not valid UTF-8/);
    const utf16 = new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x61, 0x00, 0x2f, 0x00, 0x3e, 0x00]);
    expect(() => parseTreeUtf8(utf16, "word/document.xml", stream)).toThrow(/UTF-16/);
  });
});
