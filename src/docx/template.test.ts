import { describe, expect, it } from "vitest";
import { matchesGroup, matchesId, scanControls } from "./controls";
import type { TemplateField } from "./fields";
import { DocxTemplate } from "./template";
import * as T from "../../test/support/docx-templates";
import { partText } from "../../test/support/docx-builder";

const W = `xmlns:w="${T.W_NS}"`;

function fillXml(template: Uint8Array, fields: TemplateField[], part = "word/document.xml"): string {
  const { segments } = DocxTemplate.open(template).fill(fields, new Map());
  const out = new Uint8Array(segments.reduce((n, s) => n + s.length, 0));
  let at = 0;
  for (const s of segments) (out.set(s, at), (at += s.length));
  return partText(out, part);
}

describe("content-control discovery", () => {
  it("finds controls at every level, nested ones with their parent, with their properties", () => {
    const xml =
      `<w:document ${W}><w:body>${T.wordBlock({ tag: "b", alias: "Block", id: 7 })}` +
      T.para(T.wordText({ tag: "t", placeholder: true }), T.wordCheckbox({ tag: "c", checked: true })) +
      `<w:tbl><w:sdt><w:sdtPr><w:tag w:val="row"/></w:sdtPr><w:sdtContent><w:tr><w:sdt><w:sdtPr><w:tag w:val="cell"/></w:sdtPr><w:sdtContent><w:tc><w:p/></w:tc></w:sdtContent></w:sdt></w:tr></w:sdtContent></w:sdt></w:tbl>` +
      T.para(T.wordDate({ tag: "d", format: "d MMM", lid: "de-DE" })) +
      `</w:body></w:document>`;
    const cs = scanControls(xml, "p");
    expect(cs.map((c) => [c.tag, c.level, c.kind, c.parent])).toEqual([
      ["b", "block", "richText", -1],
      ["t", "inline", "text", -1],
      ["c", "inline", "checkbox", -1],
      ["row", "row", "richText", -1],
      ["cell", "cell", "richText", 3],
      ["d", "inline", "date", -1],
    ]);
    expect(cs[0]).toMatchObject({ id: "7", alias: "Block" });
    expect(cs[1]!.showingPlaceholder).toBe(true);
    expect(cs[2]!.checkbox).toMatchObject({ checked: true, checkedChar: "\u2612", checkedFont: "MS Gothic" });
    expect(cs[5]!.date).toEqual({ format: "d MMM", lid: "de-DE" });
  });

  it("resolves the WordprocessingML namespace by URI, not by prefix", () => {
    const xml = `<x:document xmlns:x="${T.W_NS}"><x:body><x:sdt><x:sdtPr><x:tag x:val="k"/></x:sdtPr><x:sdtContent><x:p/></x:sdtContent></x:sdt><other:sdt xmlns:other="urn:not-word"><other:sdtContent/></other:sdt></x:body></x:document>`;
    expect(scanControls(xml, "p").map((c) => [c.tag, c.prefix])).toEqual([["k", "x"]]);
  });

  it("matches ids and groups as interface.md says", () => {
    const [sdId, jsonTag, legacy, plain] = scanControls(
      `<w:p ${W}>${T.superdocStructured({ id: 42, group: "g" })}${T.superdocAnnotation({ fieldId: "f1", type: "text", group: "g2" })}${T.superdocLegacyAnnotation({ fieldId: "legacy", type: "text" })}${T.wordText({ tag: "plain" })}</w:p>`,
      "p",
    );
    expect([matchesId(sdId!, "42"), matchesGroup(sdId!, "g"), matchesId(sdId!, "g")]).toEqual([true, true, false]);
    expect([matchesId(jsonTag!, "f1"), matchesGroup(jsonTag!, "g2"), matchesId(jsonTag!, jsonTag!.tag!)]).toEqual([
      true,
      true,
      false,
    ]);
    expect([matchesId(legacy!, "legacy"), matchesGroup(legacy!, "legacy")]).toEqual([true, true]);
    expect([matchesId(plain!, "plain"), matchesGroup(plain!, "plain"), matchesId(plain!, "other")]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe("matching many fields against many controls", () => {
  it("finds, in document order, exactly the controls each field selects one by one", () => {
    // Mixed kinds: w:id, plain tags shared by several controls, SuperDoc JSON tags with groups.
    const body = Array.from({ length: 3_000 }, (_, i) =>
      T.para(
        i % 3 === 0
          ? T.wordText({ tag: `t${i % 50}`, id: i })
          : i % 3 === 1
            ? T.superdocAnnotation({ fieldId: `f${i % 70}`, type: "text", group: `g${i % 7}` })
            : T.superdocStructured({ id: i, group: `g${i % 5}` }),
      ),
    ).join("");
    const template = DocxTemplate.open(T.templateDocx({ body }));
    const fields: TemplateField[] = [
      ...Array.from({ length: 60 }, (_, k) => ({ id: `t${k}`, type: "text" as const, value: "x" })),
      ...Array.from({ length: 80 }, (_, k) => ({ id: `f${k}`, type: "text" as const, value: "x" })),
      ...Array.from({ length: 300 }, (_, k) => ({ id: String(k * 10), type: "text" as const, value: "x" })),
      ...Array.from({ length: 8 }, (_, k) => ({ group: `g${k}`, type: "text" as const, value: "x" })),
    ];
    const { matched, unmatched } = template.match(fields);
    const oneByOne = fields.map((f) =>
      template.controls.filter((c) => (f.id !== undefined ? matchesId(c, f.id) : matchesGroup(c, f.group!))),
    );
    expect(matched).toEqual(oneByOne);
    expect(unmatched).toEqual(oneByOne.flatMap((m, i) => (m.length ? [] : [i])));
    expect(matched.flat().length).toBeGreaterThan(2_000);
  });
});

describe("filling", () => {
  it("the last field for a control wins; a control inside a filled control goes with its parent", () => {
    const inner = T.wordText({ tag: "inner" });
    const template = T.templateDocx({
      body: `<w:sdt><w:sdtPr><w:tag w:val="outer"/></w:sdtPr><w:sdtContent>${T.para(inner)}</w:sdtContent></w:sdt>`,
    });
    const xml = fillXml(template, [
      { id: "outer", type: "text", value: "first" },
      { id: "inner", type: "text", value: "inner value" },
      { id: "outer", type: "text", value: "second" },
    ]);
    expect(xml).toContain(">second<");
    expect(xml).not.toContain(">first<");
    expect(xml).not.toContain("inner value");
  });

  it("keeps table structure for row- and cell-level controls", () => {
    const cell = (t: string) =>
      `<w:tc><w:tcPr><w:tcW w:w="100" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>${t}</w:t></w:r></w:p></w:tc>`;
    const template = T.templateDocx({
      body:
        `<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid><w:sdt><w:sdtPr><w:tag w:val="row"/></w:sdtPr><w:sdtContent><w:tr>${cell("a")}${cell("b")}</w:tr></w:sdtContent></w:sdt>` +
        `<w:tr><w:sdt><w:sdtPr><w:tag w:val="cell"/></w:sdtPr><w:sdtContent>${cell("c")}</w:sdtContent></w:sdt>${cell("d")}</w:tr></w:tbl><w:p/>`,
    });
    const xml = fillXml(template, [
      { id: "row", type: "text", value: "R" },
      { id: "cell", type: "text", value: "C" },
    ]);
    expect(xml).toContain(
      `<w:sdtContent><w:tr><w:tc><w:tcPr><w:tcW w:w="100" w:type="dxa"/></w:tcPr><w:p><w:r><w:t xml:space="preserve">R</w:t></w:r></w:p></w:tc><w:tc><w:tcPr><w:tcW w:w="100" w:type="dxa"/></w:tcPr><w:p></w:p></w:tc></w:tr></w:sdtContent>`,
    );
    expect(xml).toContain(
      `<w:sdtContent><w:tc><w:tcPr><w:tcW w:w="100" w:type="dxa"/></w:tcPr><w:p><w:r><w:t xml:space="preserve">C</w:t></w:r></w:p></w:tc></w:sdtContent>`,
    );
    expect(xml).toContain(">d<");
  });

  it("fills an empty or missing sdtContent, and leaves untouched text exactly as it was", () => {
    const keep = `<w:p><w:r><w:t xml:space="preserve">  spaced   text  </w:t></w:r></w:p>`;
    const template = T.templateDocx({
      body: `${keep}<w:p><w:sdt><w:sdtPr><w:tag w:val="e"/></w:sdtPr><w:sdtContent/></w:sdt><w:sdt><w:sdtPr><w:tag w:val="m"/></w:sdtPr></w:sdt></w:p>`,
    });
    const before = partText(template, "word/document.xml");
    const xml = fillXml(template, [
      { id: "e", type: "text", value: "E" },
      { id: "m", type: "text", value: "M" },
    ]);
    expect(xml).toContain(`<w:sdtContent><w:r><w:t xml:space="preserve">E</w:t></w:r></w:sdtContent>`);
    expect(xml).toContain(
      `<w:tag w:val="m"/></w:sdtPr><w:sdtContent><w:r><w:t xml:space="preserve">M</w:t></w:r></w:sdtContent></w:sdt>`,
    );
    // Everything before the first control, namespaces and mc:Ignorable included, is unchanged.
    const head = before.slice(0, before.indexOf("<w:sdt>"));
    expect(xml.startsWith(head)).toBe(true);
    expect(head).toContain('mc:Ignorable="w14 w15"');
  });

  it("writes the checkbox symbol in the state's font and drops the data binding", () => {
    const template = T.templateDocx({
      body: T.para(
        `<w:sdt><w:sdtPr><w:tag w:val="cb"/><w:dataBinding w:xpath="/a" w:storeItemID="{X}"/><w14:checkbox><w14:checkedState w14:val="F0FE" w14:font="Wingdings"/><w14:uncheckedState w14:val="F0A8" w14:font="Wingdings"/></w14:checkbox></w:sdtPr><w:sdtContent><w:r><w:t>o</w:t></w:r></w:sdtContent></w:sdt>`,
      ),
    });
    const xml = fillXml(template, [{ id: "cb", type: "checkbox", value: true }]);
    expect(xml).toContain(`<w14:checkbox><w14:checked w14:val="1"/>`);
    expect(xml).toContain(
      `<w:rFonts w:ascii="Wingdings" w:eastAsia="Wingdings" w:hAnsi="Wingdings" w:hint="eastAsia"/>`,
    );
    expect(xml).toContain("\uF0FE");
    expect(xml).not.toContain("dataBinding");
  });

  it("opens corpus-like edge cases: a Strict document's controls are found", () => {
    const strictNs = "http://purl.oclc.org/ooxml/wordprocessingml/main";
    const xml = `<w:document xmlns:w="${strictNs}"><w:body><w:p><w:sdt><w:sdtPr><w:tag w:val="s"/></w:sdtPr><w:sdtContent><w:r><w:t>x</w:t></w:r></w:sdtContent></w:sdt></w:p></w:body></w:document>`;
    expect(scanControls(xml, "p").map((c) => c.tag)).toEqual(["s"]);
  });
});
