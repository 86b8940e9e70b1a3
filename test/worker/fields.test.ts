/** POST /v1/fields: a template's fields as the template builder sees them, in document order. */
import { describe, expect, it } from "vitest";
import * as T from "../support/docx-templates";
import { b64, post, problem } from "./helpers";

const template = () =>
  T.templateDocx({
    header: T.para(T.text("Ref: "), T.wordText({ tag: "ref", alias: "Reference", id: 11 })),
    body: [
      T.para(
        T.text("Between Acme and "),
        T.superdocStructured({ id: 1834567001, alias: "Party name", group: "party" }),
        T.text("."),
      ),
      T.para(
        T.text("Date: "),
        T.wordDate({ tag: "signed_on", alias: "Signing date", format: "d MMMM yyyy", placeholder: true }),
      ),
      T.para(T.wordCheckbox({ tag: "agree", checked: true }), T.text(" I agree")),
      T.tableWith([
        T.para(T.superdocAnnotation({ fieldId: "sig-1", type: "signature", label: "Signature", group: "signers" })),
      ]),
      T.para(T.superdocLegacyAnnotation({ fieldId: "legacy-1", type: "text", label: "Legacy" })),
      `<w:sdt><w:sdtPr><w:tag w:val="plan"/><w:dropDownList><w:listItem w:displayText="Basic" w:value="basic"/><w:listItem w:displayText="Pro" w:value="pro"/></w:dropDownList></w:sdtPr><w:sdtContent><w:p><w:r><w:t>Pro</w:t></w:r></w:p></w:sdtContent></w:sdt>`,
    ].join(""),
    footer: T.para(T.wordPicture({ tag: "logo" })),
  });

describe("POST /v1/fields", () => {
  it("lists every control in document order with its selectors, type, value and place", async () => {
    const res = await post("/v1/fields", { document: { base64: b64(template()) } });
    expect(res.status).toBe(200);
    const { fields } = (await res.json()) as any;
    expect(fields.map((f: any) => [f.tag ?? f.id, f.type, f.location])).toEqual([
      [JSON.stringify({ group: "party" }), "text", "body"],
      ["signed_on", "date", "body"],
      ["agree", "checkbox", "body"],
      [
        JSON.stringify({ fieldId: "sig-1", fieldTypeShort: "signature", displayLabel: "Signature", group: "signers" }),
        "signature",
        "table",
      ],
      ["legacy-1", "text", "body"],
      ["plan", "dropdown", "body"],
      ["ref", "text", "header"],
      ["logo", "picture", "footer"],
    ]);
    const [party, date, agree, sig, legacy, plan, ref, logo] = fields;
    expect(party).toMatchObject({
      id: "1834567001",
      alias: "Party name",
      group: "party",
      value: "Party name",
      superdoc: { group: "party" },
    });
    expect(date).toMatchObject({
      alias: "Signing date",
      placeholder: true,
      dateFormat: "d MMMM yyyy",
      value: "Click or tap to enter a date.",
    });
    expect(agree.value).toBe(true);
    expect(sig).toMatchObject({ fieldId: "sig-1", group: "signers", alias: "Signature", value: "{{Signature}}" });
    expect(legacy).toMatchObject({ fieldId: "legacy-1", superdoc: null });
    expect(plan).toMatchObject({
      options: [
        { text: "Basic", value: "basic" },
        { text: "Pro", value: "pro" },
      ],
      value: "Pro",
      level: "block",
    });
    expect(ref).toMatchObject({ id: "11", alias: "Reference", part: "word/header1.xml" });
    expect(logo.value).toBeNull();
  });

  it("names what annotate matches: filling a listed id changes that field's value", async () => {
    const doc = template();
    const filled = await post("/v1/annotate", {
      document: b64(doc),
      fields: [{ id: "1834567001", type: "text", value: "Ada" }],
    });
    const again = await post("/v1/fields", { document: ((await filled.json()) as any).document.base64 });
    const { fields } = (await again.json()) as any;
    expect(fields[0]).toMatchObject({ id: "1834567001", value: "Ada" });
  });

  it("refuses a PDF (415) and a request without a key (401)", async () => {
    const pdf = new TextEncoder().encode("%PDF-1.7\n%%EOF\n");
    const res = await post("/v1/fields", { document: { base64: b64(pdf) } });
    expect(res.status).toBe(415);
    expect((await problem(res)).code).toBe("unsupported_document_type");
    expect((await post("/v1/fields", { document: { base64: b64(template()) } }, { key: null })).status).toBe(401);
  });
});
