import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { deflateSync, unzipSync } from "fflate";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { DocxTemplate } from "../../src/docx/template";
import * as T from "../support/docx-templates";
import { dataUri, makePng } from "../support/png-images";
import { partNames, partText } from "../support/docx-builder";
import * as B from "../support/docx-builder";
import { linkedTemplate } from "../support/linked-template";
import { readZipDirectory } from "../../src/docx/zip";
import { annotateDocument } from "../../src/operations/annotate";
import { b64, corpusPdf, fromDataUri, post, problem } from "./helpers";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const { template: contractTemplate, fields: contractFields, png } = T.sampleContract();

async function annotate(template: Uint8Array, fields: unknown[], query = "") {
  const res = await post(`/v1/annotate${query}`, { document: { base64: b64(template) }, fields });
  return res;
}

async function filled(template: Uint8Array, fields: unknown[], query = "") {
  const res = await annotate(template, fields, query);
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return { body, bytes: fromDataUri(body.document.base64) };
}

describe("POST /v1/annotate fills Word and SuperDoc content controls", () => {
  it("fills every type in body, table, header and footer and reports unmatched fields", async () => {
    const { body, bytes } = await filled(contractTemplate(), contractFields);
    expect(body.document.contentType).toBe(DOCX_TYPE);
    expect(body.document.base64.startsWith(`data:${DOCX_TYPE};base64,`)).toBe(true);
    expect(body.unmatched).toEqual([{ id: "missing" }, { group: "nobody" }]);

    const doc = partText(bytes, "word/document.xml");
    // Text: escaped, newline as a break, first-run formatting kept, placeholder flag and style gone, wrapper kept.
    expect(doc).toContain(
      '<w:t xml:space="preserve">Ada &amp; &lt;Lovelace&gt;</w:t><w:br/><w:t xml:space="preserve">Analytical Engines</w:t>',
    );
    expect(doc).toContain('<w:tag w:val="client_name"/>');
    expect(doc).toContain('<w:alias w:val="Client name"/>');
    expect(doc).not.toContain("showingPlcHdr");
    expect(doc).not.toContain("Click or tap");
    expect(doc).toContain('<w:text w:multiLine="1"/>');
    // Checkbox: Word state and symbol; a SuperDoc annotation gets the ballot box.
    expect(doc).toContain('<w14:checked w14:val="1"/>');
    expect(doc).toMatch(/<w:tag w:val="accept"\/>[\s\S]*?<w:t xml:space="preserve">\u2612<\/w:t>/);
    expect(doc).toMatch(/<w:fieldTypeShort w:val="checkbox"\/>[\s\S]*?<w:t xml:space="preserve">\u2610<\/w:t>/);
    // Dates: the control's picture, else options.format in the value's own offset.
    expect(doc).toContain('w:fullDate="2025-05-05T00:00:00Z"');
    expect(doc).toContain(">05/05/2025<");
    expect(doc).toContain(">May 5, 2025 14:30<");
    // Number with decimals; null text is empty; group fills body and header.
    expect(doc).toContain(">1234.50<");
    expect(doc).toMatch(
      /<w:tag w:val="notes"\/><\/w:sdtPr><w:sdtContent><w:p><w:pPr><w:jc w:val="center"\/><\/w:pPr><w:r>.*?<w:t xml:space="preserve"><\/w:t><\/w:r><\/w:p><\/w:sdtContent>/,
    );
    expect(doc).toContain(">Acme by id<");
    expect(partText(bytes, "word/header1.xml")).toContain(">Acme Corp<");
    expect(partText(bytes, "word/footer1.xml")).toContain(">42<");
    expect(doc).toContain(">AL<");
    // Table: header row kept, template row replaced by one row per value row.
    expect(doc).toContain(">Item<");
    expect(doc).not.toContain(">row value<");
    for (const v of ["Widget", "Gadget", "10.00", "true"]) expect(doc).toContain(`>${v}<`);
    expect(doc.match(/<w:tr>/g)!.length).toBe(1 + 2 + 1); // header + 2 rows + the signature/logo table
    // Typed signature: italic script run and a caption.
    expect(doc).toMatch(/<w:rFonts w:ascii="Brush Script MT"[^>]*\/><w:i\/><w:iCs\/>[\s\S]*?>Ada Lovelace</);
    expect(doc).toContain(">Signed electronically<");
    // Picture: 240 px wide, aspect kept (120x60 → 240x120 px), media, rel and content type written.
    expect(doc).toContain(`<wp:extent cx="${240 * 9525}" cy="${120 * 9525}"/>`);
    const rels = partText(bytes, "word/_rels/document.xml.rels");
    expect(rels).toMatch(
      /Id="rId10" Type="http:\/\/schemas.openxmlformats.org\/officeDocument\/2006\/relationships\/image" Target="media\/signet-image1.png"/,
    );
    expect(doc).toContain('r:embed="rId10"');
    expect(unzipSync(bytes)["word/media/signet-image1.png"]).toEqual(png);
  });

  it("gives the same bytes for the same template and fields, and copies untouched entries byte for byte", async () => {
    const template = contractTemplate();
    const a = await filled(template, contractFields);
    const b = await filled(template, contractFields);
    expect(b.body.document.base64).toBe(a.body.document.base64);
    const before = readZipDirectory(template);
    const after = readZipDirectory(a.bytes);
    for (const name of ["_rels/.rels", "word/media/placeholder.png", "[Content_Types].xml"]) {
      const x = before.find((e) => e.name === name)!;
      const y = after.find((e) => e.name === name)!;
      expect(a.bytes.subarray(y.dataStart, y.dataStart + y.compressedSize)).toEqual(
        template.subarray(x.dataStart, x.dataStart + x.compressedSize),
      );
      expect([y.dosDate, y.dosTime, y.crc32]).toEqual([x.dosDate, x.dosTime, x.crc32]);
    }
    expect(after.map((e) => e.name)).toEqual([...before.map((e) => e.name), "word/media/signet-image1.png"]);
  });

  it("returns the template unchanged when no field matches", async () => {
    const template = contractTemplate();
    const { body, bytes } = await filled(template, [{ id: "nothing", type: "text", value: "x" }]);
    expect(body.unmatched).toEqual([{ id: "nothing" }]);
    expect(bytes).toEqual(template);
  });

  it("fills a filled document again (round trip)", async () => {
    const once = await filled(contractTemplate(), contractFields);
    const again = await filled(once.bytes, [
      { id: "client_name", type: "text", value: "Grace Hopper" },
      { id: "accept", type: "checkbox", value: false },
      { group: "party", type: "text", value: "Navy" },
      { id: "items", type: "table", value: [["Compiler", "1", "0"]] },
      { id: "logo", type: "image", value: dataUri(makePng(30, 30)) },
      { id: "sig", type: "signature", value: dataUri(png) },
    ]);
    expect(again.body.unmatched).toEqual([]);
    const doc = partText(again.bytes, "word/document.xml");
    expect(doc).toContain(">Grace Hopper<");
    expect(doc).not.toContain("Lovelace</w:t><w:br/>");
    expect(doc).toContain('<w14:checked w14:val="0"/>');
    expect(doc).toContain(">Navy<");
    expect(partText(again.bytes, "word/header1.xml")).toContain(">Navy<");
    // The table's last row is now the row written last time: it is the template again.
    expect(doc).toContain(">Compiler<");
    expect(doc).toContain(">Widget<");
    expect(doc).not.toContain(">Gadget<");
    // The logo fits the box of the picture written the first time (240x120 px): a square → 120x120.
    expect(doc).toContain(`<wp:extent cx="${120 * 9525}" cy="${120 * 9525}"/>`);
    const names = partNames(again.bytes);
    expect(names.filter((n) => n.startsWith("word/media/signet-image"))).toHaveLength(3);
    // Unique drawing ids.
    const ids = [...doc.matchAll(/<wp:docPr id="(\d+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("fetches image values from URLs and takes output_format as an alias of to", async () => {
    const { body, bytes } = await filled(
      contractTemplate(),
      [{ id: "logo", type: "image", value: `${env.FIXTURE_BASE_URL}/png` }],
      "?output_format=docx",
    );
    expect(body.unmatched).toEqual([]);
    const doc = partText(bytes, "word/document.xml");
    // A 1x1 picture fitted into the 200x100 px placeholder box.
    expect(doc).toContain(`<wp:extent cx="952500" cy="952500"/>`);
  });

  it("fills the content controls of corpus DOCX files", async () => {
    for (const name of [
      "openxmlsdk__SdtBlock__sdtContent.docx",
      "poi__Bug54849.docx",
      "easytemplatex__content_controls.docx",
      "openxmlsdk__Complex01.docx",
    ]) {
      const template = new Uint8Array(await (await fetch(`${env.FIXTURE_BASE_URL}/docx/${name}`)).arrayBuffer());
      const controls = DocxTemplate.open(template).controls.filter((c) => c.id && c.kind !== "docPart");
      expect(controls.length, name).toBeGreaterThan(0);
      const fields = controls.map((c, i) => ({
        id: c.id!,
        type: c.kind === "checkbox" ? "checkbox" : "text",
        value: c.kind === "checkbox" ? true : `SIGNET${i}X`,
      }));
      const res = await post("/v1/annotate", { document: { url: `${env.FIXTURE_BASE_URL}/docx/${name}` }, fields });
      expect(res.status, name).toBe(200);
      const body = (await res.json()) as any;
      expect(body.unmatched, name).toEqual([]);
      const out = DocxTemplate.open(fromDataUri(body.document.base64));
      const xml = out.parts.map((p) => p.xml).join("");
      const written = fields.filter((f) => f.type === "text" && xml.includes(`>${f.value}<`)).length;
      // Controls nested in another filled control go with their parent.
      expect(written, name).toBeGreaterThan(0);
      expect(out.controls.length, name).toBeLessThanOrEqual(DocxTemplate.open(template).controls.length);
    }
  });
});

describe("POST /v1/annotate query and field rules", () => {
  it("400 invalid_query for an unknown or conflicting output format", async () => {
    for (const q of ["?to=odt", "?output_format=html", "?to=docx&output_format=pdf", "?strict=maybe"]) {
      const res = await annotate(contractTemplate(), [], q);
      expect(res.status, q).toBe(400);
      expect((await problem(res)).code, q).toBe("invalid_query");
    }
  });

  it("to=pdf (and output_format=pdf) returns the filled document as a PDF, the same bytes every time", async () => {
    const fields = [{ id: "client_name", type: "text", value: "Ada Lovelace" }];
    const outputs: Uint8Array[] = [];
    for (const q of ["?to=pdf", "?output_format=PDF", "?to=pdf"]) {
      const res = await annotate(contractTemplate(), fields, q);
      expect(res.status, q).toBe(200);
      const body = (await res.json()) as { document: { base64: string; contentType: string } };
      expect(body.document.contentType).toBe("application/pdf");
      expect(body.document.base64.startsWith("data:application/pdf;base64,")).toBe(true);
      const bytes = Uint8Array.from(atob(body.document.base64.split(",")[1]!), (ch) => ch.charCodeAt(0));
      expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
      outputs.push(bytes);
    }
    expect(outputs[1]).toEqual(outputs[0]);
    expect(outputs[2]).toEqual(outputs[0]);
  });

  it("to=pdf draws Chinese, Japanese and Korean values with the CJK face served from the static assets", async () => {
    const res = await annotate(
      contractTemplate(),
      [{ id: "client_name", type: "text", value: "张伟 (Zhang Wei) 山田太郎 김민준" }],
      "?to=pdf",
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { document: { base64: string } };
    const doc = await PDFDocument.load(
      Uint8Array.from(atob(body.document.base64.split(",")[1]!), (ch) => ch.charCodeAt(0)),
    );
    const fonts = doc.getPage(0).node.Resources()!.lookup(PDFName.of("Font"), PDFDict);
    const names = fonts.keys().map((k) => String(fonts.lookup(k, PDFDict).get(PDFName.of("BaseFont"))));
    // The 4 MB face is fetched from the assets and subset only for documents with CJK text.
    expect(
      names.some((n) => /^\/[A-Z]{6}\+DroidSansFallback-Regular$/.test(n)),
      names.join(" "),
    ).toBe(true);
  });

  it("strict=true turns unmatched fields into 422 field_not_found naming them", async () => {
    const res = await annotate(
      contractTemplate(),
      [
        { id: "client_name", type: "text", value: "x" },
        { id: "ghost", type: "text", value: "x" },
        { group: "g", type: "text", value: "y" },
      ],
      "?strict=true",
    );
    expect(res.status).toBe(422);
    const p = await problem(res);
    expect(p.code).toBe("field_not_found");
    expect(p.detail).toContain('id "ghost"');
    expect(p.detail).toContain('group "g"');
    expect(p.errors!.map((e) => e.path)).toEqual(["fields.1", "fields.2"]);
  });

  it("400 for id and group together, neither, an unknown type, or a value of the wrong shape", async () => {
    const cases: [unknown, string][] = [
      [{ id: "a", group: "b", type: "text", value: "x" }, "fields.0"],
      [{ type: "text", value: "x" }, "fields.0"],
      [{ id: "a", type: "video", value: "x" }, "fields.0.type"],
      [{ id: "a", type: "date", value: "05/05/2025" }, "fields.0.value"],
      [{ id: "a", type: "checkbox", value: "yes" }, "fields.0.value"],
      [{ id: "a", type: "number", value: "12abc" }, "fields.0.value"],
      [{ id: "a", type: "table", value: [["ok"], "not a row"] }, "fields.0.value.1"],
      [
        { id: "a", type: "image", value: "x", options: { dimensions: { width: -3 } } },
        "fields.0.options.dimensions.width",
      ],
    ];
    for (const [field, path] of cases) {
      const res = await annotate(contractTemplate(), [field]);
      expect(res.status, JSON.stringify(field)).toBe(400);
      const p = await problem(res);
      expect(p.code).toBe("invalid_request");
      expect(
        p.errors!.map((e) => e.path),
        JSON.stringify(field),
      ).toContain(path);
    }
  });

  it("ignores unknown option keys and accepts SuperDoc value shapes", async () => {
    const { body, bytes } = await filled(contractTemplate(), [
      {
        id: "client_name",
        type: "text",
        value: true,
        options: { fontSize: 12, bottomLabel: { text: "x", color: "red" } },
      },
      { id: "ref", type: "text", value: null },
      { id: "accept", type: "checkbox", value: "TRUE" },
    ]);
    expect(body.unmatched).toEqual([]);
    expect(partText(bytes, "word/document.xml")).toContain(">true<");
  });

  it("keeps no formatting when keepTextNodeStyles is false", async () => {
    const { bytes } = await filled(contractTemplate(), [
      { id: "ref", type: "text", value: "plain", options: { keepTextNodeStyles: false } },
    ]);
    expect(partText(bytes, "word/footer1.xml")).toContain(
      '<w:sdtContent><w:r><w:t xml:space="preserve">plain</w:t></w:r></w:sdtContent>',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile and broken input

/** Patches the declared uncompressed size of an entry in both its local and central headers. */
function patchDeclaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const dv = new DataView(out.buffer);
  const nameBytes = new TextEncoder().encode(name);
  for (let i = 0; i + 46 < out.length; i++) {
    const sig = dv.getUint32(i, true);
    const isCentral = sig === 0x02014b50;
    const isLocal = sig === 0x04034b50;
    if (!isCentral && !isLocal) continue;
    const nameLen = dv.getUint16(i + (isCentral ? 28 : 26), true);
    const at = i + (isCentral ? 46 : 30);
    if (nameLen !== nameBytes.length || !nameBytes.every((b, k) => out[at + k] === b)) continue;
    dv.setUint32(i + (isCentral ? 24 : 22), size, true);
  }
  return out;
}

/** Renames an entry (same length) in its local and central headers. */
function renameEntry(zip: Uint8Array, from: string, to: string): Uint8Array {
  const out = zip.slice();
  const a = new TextEncoder().encode(from);
  const b = new TextEncoder().encode(to);
  for (let i = 0; i + a.length < out.length; i++) if (a.every((v, k) => out[i + k] === v)) out.set(b, i);
  return out;
}

describe("what annotate returns carries nothing that fetches or runs on opening", () => {
  it("strips a remote attached template, a mail-merge source and a linked picture (to=docx), keeping hyperlinks and the embedded picture", async () => {
    for (const fields of [[{ id: "client_name", type: "text", value: "Ada" }], []]) {
      const { bytes } = await filled(linkedTemplate(), fields);
      const files = unzipSync(bytes);
      const all = Object.entries(files)
        .map(([, v]) => new TextDecoder().decode(v))
        .join("\n");
      expect(all).not.toContain("attacker.example");
      const settings = partText(bytes, "word/settings.xml");
      expect(settings).not.toMatch(/attachedTemplate|mailMerge|rIdTpl|rIdData/);
      expect(settings).toContain("<w:defaultTabStop");
      const doc = partText(bytes, "word/document.xml");
      expect(doc).toContain(`<a:blip r:embed="rIdPic"/>`);
      expect(doc).toContain(`r:id="rIdLink"`);
      const rels = partText(bytes, "word/_rels/document.xml.rels");
      expect(rels).toContain("https://example.com/terms");
      expect(rels).not.toContain("rIdRemotePic");
    }
  });

  it("to=pdf renders the same template (the stripped references were never drawn)", async () => {
    const { bytes } = await filled(linkedTemplate(), [{ id: "client_name", type: "text", value: "Ada" }], "?to=pdf");
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
  });

  it("refuses a DTD in a part annotate only copies (settings, custom XML, a UTF-16 part), for to=docx as for to=pdf", async () => {
    const doctype = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "https://attacker.example/e">]>`;
    const utf16 = (text: string) => {
      const out = new Uint8Array(2 + text.length * 2);
      out.set([0xff, 0xfe]);
      for (let i = 0; i < text.length; i++) out[2 + 2 * i] = text.charCodeAt(i);
      return out;
    };
    const cases: Record<string, string | Uint8Array>[] = [
      { "word/settings.xml": `${doctype}<w:settings xmlns:w="${T.W_NS}"/>` },
      { "customXml/item1.xml": `${doctype}<data>&e;</data>` },
      { "customXml/item1.xml": utf16(`${doctype}<data>&e;</data>`) },
      { "word/glossary/anything.vml": `${doctype}<xml/>` },
    ];
    for (const extra of cases) {
      const template = B.buildDocx({
        body: B.p(
          `<w:sdt><w:sdtPr><w:tag w:val="client_name"/></w:sdtPr><w:sdtContent>${B.r("x")}</w:sdtContent></w:sdt>`,
        ),
        extra,
      });
      for (const query of ["", "?to=docx", "?to=pdf"]) {
        const res = await annotate(template, [{ id: "client_name", type: "text", value: "Ada" }], query);
        expect(res.status, `${Object.keys(extra)[0]} ${query}`).toBe(422);
        expect((await problem(res)).code).toBe("xml_doctype_forbidden");
      }
    }
  });
});

describe("POST /v1/annotate refuses hostile and broken input with a problem", () => {
  const refused = async (
    template: Uint8Array,
    fields: unknown[] = [{ id: "client_name", type: "text", value: "x" }],
  ) => {
    const res = await annotate(template, fields);
    const p = await problem(res);
    return { status: res.status, code: p.code, detail: p.detail };
  };

  it("422 xml_doctype_forbidden for a DOCTYPE, entities or a billion-laughs part", async () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><w:document xmlns:w="${T.W_NS}"><w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>`;
    const external = `<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><w:hdr xmlns:w="${T.W_NS}"><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:hdr>`;
    const cases: Record<string, string>[] = [
      { "word/document.xml": laughs },
      { "word/header1.xml": external },
      { "[Content_Types].xml": `<?xml version="1.0"?><!DOCTYPE Types><Types/>` },
    ];
    for (const extra of cases) {
      const r = await refused(
        T.templateDocx({ body: T.para(T.wordText({ tag: "client_name" })), header: T.para(T.text("h")), extra }),
      );
      expect(r.status, Object.keys(extra)[0]).toBe(422);
      expect(r.code).toBe("xml_doctype_forbidden");
    }
  });

  it("413 zip_limit for a zip bomb with honest headers and for one whose header lies", async () => {
    const zeros = new Uint8Array(24 * 1024 * 1024);
    const bomb = T.templateDocx({ body: "", extra: { "word/media/bomb.bin": zeros } });
    const honest = await refused(bomb);
    expect(honest.status).toBe(413);
    expect(honest.code).toBe("zip_limit");
    expect(honest.detail).toMatch(/zip bomb/);

    // document.xml declares 2 KB but inflates to 24 MB of XML.
    const bigXml = new TextEncoder().encode(
      `<?xml version="1.0"?><w:document xmlns:w="${T.W_NS}"><w:body>${"<w:p/>".repeat(4 * 1024 * 1024)}</w:body></w:document>`,
    );
    const lying = patchDeclaredSize(
      T.templateDocx({ body: "", extra: { "word/document.xml": bigXml } }),
      "word/document.xml",
      2048,
    );
    const r = await refused(lying);
    expect(r.status).toBe(413);
    expect(r.code).toBe("zip_limit");
    expect(r.detail).toMatch(/lies/);
    expect(deflateSync).toBeDefined();
  });

  it("422 docx_invalid for duplicate or unsafe entry names and corrupt parts", async () => {
    const template = T.templateDocx({
      body: T.para(T.wordText({ tag: "client_name" })),
      extra: { "word/documenX.xml": "<x/>" },
    });
    const dup = await refused(renameEntry(template, "word/documenX.xml", "word/document.xml"));
    expect([dup.status, dup.code]).toEqual([422, "docx_invalid"]);
    expect(dup.detail).toMatch(/two entries/);
    const caseDup = await refused(T.templateDocx({ body: "", extra: { "WORD/DOCUMENT.XML": "<x/>" } }));
    expect([caseDup.status, caseDup.code]).toEqual([422, "docx_invalid"]);
    const unsafe = await refused(
      renameEntry(
        T.templateDocx({ body: "", extra: { "word/aa/evil.xml": "<x/>" } }),
        "word/aa/evil.xml",
        "word/../evil.xml",
      ),
    );
    expect([unsafe.status, unsafe.code]).toEqual([422, "docx_invalid"]);
    const broken = await refused(
      T.templateDocx({ body: T.para(T.wordText({ tag: "client_name" })) + "<w:p><w:r><w:t>unclosed</w:r></w:p>" }),
    );
    expect([broken.status, broken.code]).toEqual([422, "docx_invalid"]);
  });

  it("415 for a PDF (or an image) as the template", async () => {
    const pdf = await corpusPdf("pdf20examples__Simple_PDF_2.0_file.pdf");
    const r = await refused(pdf);
    expect([r.status, r.code]).toEqual([415, "unsupported_document_type"]);
    expect(r.detail).toMatch(/Expected a DOCX document for annotate; the bytes look like a PDF document/);
    const img = await refused(png);
    expect([img.status, img.code]).toEqual([415, "unsupported_document_type"]);
  });

  it("422 image_invalid for an image that is not what it claims", async () => {
    const jpegHeader = new Uint8Array([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
      0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x20, 0x03,
    ]);
    const cases = [
      dataUri(jpegHeader, "image/png"), // a JPEG claiming to be a PNG
      dataUri(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"), "image/png"),
      dataUri(png, "image/webp"),
      dataUri(png.subarray(0, 20), "image/png"), // truncated before IHDR ends
      `${env.FIXTURE_BASE_URL}/text`, // a URL serving text
    ];
    for (const value of cases) {
      const r = await refused(contractTemplate(), [{ id: "logo", type: "image", value }]);
      expect([r.status, r.code], value.slice(0, 40)).toEqual([422, "image_invalid"]);
    }
  });

  it("422 url_forbidden for image URLs Signet must not fetch; 400 beyond 20 URLs", async () => {
    for (const value of ["file:///etc/passwd", "ftp://example.com/a.png", "https://user:pw@example.com/a.png"]) {
      const r = await refused(contractTemplate(), [{ id: "logo", type: "image", value }]);
      expect([r.status, r.code], value).toEqual([422, "url_forbidden"]);
    }
    // Without ALLOW_PRIVATE_URLS, loopback and private hosts are refused for images too.
    await expect(
      annotateDocument(
        {
          document: { base64: b64(contractTemplate()) },
          fields: [{ id: "logo", type: "image", value: "https://127.0.0.1/a.png" }],
        },
        { config: { maxDocumentBytes: 1 << 24, allowPrivateUrls: false }, format: "docx", strict: false },
      ),
    ).rejects.toMatchObject({ code: "url_forbidden" });
    const many = Array.from({ length: 21 }, (_, i) => ({
      id: `img${i}`,
      type: "image",
      value: `https://example.com/${i}.png`,
    }));
    const r = await refused(contractTemplate(), many);
    expect([r.status, r.code]).toEqual([400, "invalid_request"]);
  });

  it("is described in /openapi.json with its query parameters", async () => {
    const { SELF } = await import("cloudflare:test");
    const spec = (await (await SELF.fetch("https://signet.test/openapi.json")).json()) as any;
    const op = spec.paths["/v1/annotate"].post;
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(["output_format", "strict", "to"]);
    expect(op.requestBody.content["application/json"].schema).toBeDefined();
  });

  it("401 without a key", async () => {
    const res = await post(
      "/v1/annotate",
      { document: { base64: b64(contractTemplate()) }, fields: [] },
      { key: null },
    );
    expect(res.status).toBe(401);
  });
});
