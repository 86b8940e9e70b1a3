/**
 * POST /v1/convert through the worker: every way SuperDoc's clients send a document (multipart as
 * FormData, JSON, raw body), every source (DOCX, Markdown, HTML) and target (PDF, DOCX), and the
 * errors a careless or hostile caller meets.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DocxPackage } from "../../src/docx/package";
import * as T from "../support/docx-templates";
import { dataUri, makePng } from "../support/png-images";
import { readZipDirectory } from "../../src/docx/zip";
import { PdfReader } from "../../src/pdf/reader";
import { linkedTemplate } from "../support/linked-template";
import { b64, BASE, fromDataUri, latin1, problem } from "./helpers";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const auth = () => ({ Authorization: `Bearer ${env.TEST_API_KEY}` });

const MARKDOWN = `# Quarterly report

Revenue grew **38 %** and costs fell *slightly*; see [the dashboard](https://example.com/q3).

- [x] close the books
- [ ] audit
  1. nested step

| Item | Amount |
|---|---:|
| Hosting | 1,200 |

> A quote with a footnote[^1].

\`\`\`
code line 1
code line 2
\`\`\`

[^1]: The footnote text.
`;

function convert(query: string, body: BodyInit, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}/v1/convert${query}`, { method: "POST", headers: { ...auth(), ...headers }, body });
}

function form(text: string | Uint8Array, name: string, type: string): FormData {
  const fd = new FormData();
  fd.append("file", new Blob([text], { type }), name);
  return fd;
}

async function docxParts(res: Response): Promise<DocxPackage> {
  if (res.status !== 200) expect.fail(`${res.status}: ${await res.text()}`);
  expect(res.headers.get("content-type")).toBe(DOCX_TYPE);
  return DocxPackage.open(new Uint8Array(await res.arrayBuffer()));
}

describe("POST /v1/convert from Markdown", () => {
  it("turns multipart Markdown into a PDF body with its content type and file name", async () => {
    const res = await convert("?from=md", form(MARKDOWN, "report.md", "text/markdown"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="report.pdf"');
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(latin1(pdf.subarray(0, 5))).toBe("%PDF-");
    const reader = PdfReader.open(pdf);
    expect(reader.pages().length).toBe(1);
  });

  it("writes a DOCX in Word's built-in styles with real numbering, a table style, a footnote and a hyperlink", async () => {
    const pkg = await docxParts(await convert("?from=markdown&to=docx", form(MARKDOWN, "report.md", "text/markdown")));
    const doc = pkg.readXml("word/document.xml");
    expect(doc).toContain('<w:pStyle w:val="Heading1"/>');
    expect(doc).toContain('<w:pStyle w:val="Quote"/>');
    expect(doc).toContain('<w:pStyle w:val="SourceCode"/>');
    expect(doc).toContain('<w:tblStyle w:val="TableGrid"/>');
    expect(doc).toMatch(/<w:numPr><w:ilvl w:val="1"\/><w:numId w:val="\d+"\/><\/w:numPr>/);
    expect(doc).toContain("\u2612 close the books");
    expect(doc).toContain('<w:footnoteReference w:id="1"/>');
    expect(doc).toMatch(/<w:hyperlink r:id="rIdLink1">/);
    expect(pkg.readXml("word/_rels/document.xml.rels")).toContain(
      'Target="https://example.com/q3" TargetMode="External"',
    );
    const numbering = pkg.readXml("word/numbering.xml");
    expect(numbering).toContain('<w:numFmt w:val="bullet"/>');
    expect(numbering).toContain('<w:numFmt w:val="decimal"/>');
    expect(pkg.readXml("word/footnotes.xml")).toContain("The footnote text.");
    const styles = pkg.readXml("word/styles.xml");
    for (const name of [
      "heading 1",
      "heading 6",
      "Title",
      "Quote",
      "List Paragraph",
      "Hyperlink",
      "Table Grid",
      "Source Code",
    ])
      expect(styles).toContain(`<w:name w:val="${name}"/>`);
  });

  it("answers JSON {document: {base64, contentType}} to a client that accepts only JSON, and takes a JSON document", async () => {
    const res = await SELF.fetch(`${BASE}/v1/convert?from=md&to=docx`, {
      method: "POST",
      headers: { ...auth(), "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ document: { base64: `data:text/markdown;base64,${btoa("# Hi\n\nText.")}` } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.document.contentType).toBe(DOCX_TYPE);
    expect(body.document.base64).toMatch(new RegExp(`^data:${DOCX_TYPE.replace(/\./g, "\\.")};base64,`));
    expect(body.warnings).toEqual([]);
    expect(DocxPackage.open(fromDataUri(body.document.base64)).readXml("word/document.xml")).toContain(">Hi<");
  });

  it("sends the document itself to axios' default Accept (application/json, text/plain, */*)", async () => {
    const res = await convert("?from=md", "# Hi", {
      "Content-Type": "text/markdown",
      Accept: "application/json, text/plain, */*",
    });
    expect(res.headers.get("content-type")).toBe("application/pdf");
  });

  it("embeds a data-URI picture and a fetched one; a relative one is its alt text and a warning", async () => {
    const png = dataUri(makePng(40, 20));
    const md = `![logo](${png}) ![remote](${env.FIXTURE_BASE_URL}/png) ![missing](docs/logo.png)`;
    const res = await convert("?from=md&to=docx", md, { "Content-Type": "text/markdown" });
    expect(res.headers.get("x-signet-warnings")).toBe("1");
    const pkg = await docxParts(res);
    expect(pkg.entries.filter((e) => e.name.startsWith("word/media/")).map((e) => e.name)).toEqual([
      "word/media/image1.png",
      "word/media/image2.png",
    ]);
    expect(pkg.readXml("word/document.xml")).toContain("[missing]");
  });
});

describe("POST /v1/convert from HTML", () => {
  it("applies <style> and inline CSS: fonts, colours, alignment, table borders and page breaks", async () => {
    const html = `<!doctype html><html><head><title>Invoice</title><style>
      body { font-family: Arial; font-size: 10pt }
      .total { font-weight: bold; color: #1f5fbf; text-align: right }
      table.items td { border: 1px solid #999; padding: 4px }
      #next { page-break-before: always }
    </style><script>document.write("no")</script></head><body>
      <h1>Invoice</h1><p class="total">Total: 120.00</p>
      <table class="items"><tr><td>Hosting</td><td style="width:72pt">120.00</td></tr></table>
      <p id="next" style="margin-left: 36pt">Second page</p></body></html>`;
    const pkg = await docxParts(
      await convert("?from=html&to=docx", html, { "Content-Type": "text/html; charset=utf-8" }),
    );
    const doc = pkg.readXml("word/document.xml");
    expect(doc).not.toContain("no</w:t>");
    expect(doc).toMatch(/<w:jc w:val="right"\/><\/w:pPr><w:r><w:rPr><w:b\/><w:bCs\/><w:color w:val="1F5FBF"\/>/);
    expect(doc).toContain('<w:top w:val="single" w:sz="6" w:space="0" w:color="999999"/>');
    expect(doc).toContain('<w:tcW w:w="1440" w:type="dxa"/>');
    expect(doc).toMatch(/<w:pageBreakBefore\/>.*<w:ind w:left="720"\/>.*Second page/);
    expect(pkg.readXml("word/styles.xml")).toContain(
      '<w:rFonts w:ascii="Arial" w:eastAsia="Arial" w:hAnsi="Arial" w:cs="Arial"/><w:sz w:val="20"/>',
    );
    expect(pkg.readXml("docProps/core.xml")).toContain("<dc:title>Invoice</dc:title>");
  });

  it("renders HTML to PDF from a raw body", async () => {
    const res = await convert("?from=html", "<p>Hello <b>world</b></p>", { "Content-Type": "text/html" });
    expect(res.status).toBe(200);
    expect(latin1(new Uint8Array(await res.arrayBuffer()).subarray(0, 5))).toBe("%PDF-");
  });
});

describe("POST /v1/convert from DOCX", () => {
  const docx = T.templateDocx({ body: T.para(T.text("Hello from Word")) });

  it("renders a DOCX sent as FormData to PDF", async () => {
    const res = await convert("?from=docx&to=pdf", form(docx, "letter.docx", DOCX_TYPE));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="letter.pdf"');
    expect(PdfReader.open(new Uint8Array(await res.arrayBuffer())).pages().length).toBe(1);
  });

  it("gives the DOCX back normalised: the same parts, content types first, fixed times", async () => {
    const res = await convert("?from=docx&to=docx", docx, { "Content-Type": DOCX_TYPE });
    const out = new Uint8Array(await res.clone().arrayBuffer());
    const pkg = await docxParts(res);
    expect(pkg.readXml("word/document.xml")).toContain("Hello from Word");
    const entries = readZipDirectory(out);
    expect(entries[0]!.name).toBe("[Content_Types].xml");
    expect(new Set(entries.map((e) => e.dosTime))).toEqual(new Set([0]));
  });

  it("gives a DOCX back without what would fetch or run on opening it (remote attached template, mail-merge source, linked picture), hyperlinks kept, as annotate does", async () => {
    const pkg = await docxParts(await convert("?from=docx&to=docx", linkedTemplate(), { "Content-Type": DOCX_TYPE }));
    for (const name of pkg.xmlPartNames()) expect(pkg.readXml(name), name).not.toContain("attacker.example");
    expect(pkg.readXml("word/settings.xml")).not.toMatch(/attachedTemplate|mailMerge/);
    expect(pkg.readXml("word/document.xml")).toContain(`<a:blip r:embed="rIdPic"/>`);
    expect(pkg.readXml("word/_rels/document.xml.rels")).toContain("https://example.com/terms");
    // A DTD in a part only carried over is refused as annotate refuses it.
    const withDtd = T.templateDocx({
      body: T.para(T.text("x")),
      extra: {
        "customXml/item1.xml": `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "https://attacker.example/e">]><x>&e;</x>`,
      },
    });
    expect((await problem(await convert("?from=docx&to=docx", withDtd, { "Content-Type": DOCX_TYPE }))).code).toBe(
      "xml_doctype_forbidden",
    );
  });

  it("accepts {document: base64} JSON, as SuperDoc's older backend guide sends it", async () => {
    const res = await SELF.fetch(`${BASE}/v1/convert?from=docx`, {
      method: "POST",
      headers: { ...auth(), "Content-Type": "application/json" },
      body: JSON.stringify({ document: b64(docx) }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
  });
});

describe("POST /v1/convert refuses", () => {
  it("a missing or unknown from/to with 400 invalid_query and details", async () => {
    for (const q of ["", "?from=pdf", "?from=md&to=png", "?from=md&from=html"]) {
      const res = await convert(q, "# x", { "Content-Type": "text/markdown" });
      expect(res.status, q).toBe(400);
      const p = (await res.json()) as any;
      expect(p.code).toBe("invalid_query");
      expect(p.details[0].field).toMatch(/^(from|to)$/);
    }
  });

  it("a request without a key (401), a multipart body without a file part (400), an unknown body type (415)", async () => {
    expect((await SELF.fetch(`${BASE}/v1/convert?from=md`, { method: "POST", body: "# x" })).status).toBe(401);
    const fd = new FormData();
    fd.append("file", "just text");
    const noFile = await convert("?from=md", fd);
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as any).details).toEqual([
      { field: "file", issue: "Required: the document as a file part" },
    ]);
    expect((await convert("?from=md", "x", { "Content-Type": "image/png" })).status).toBe(415);
  });

  it("a document that is not what from says: a PNG as Markdown, Markdown as DOCX, binary text", async () => {
    const png = makePng(2, 2);
    const a = await convert("?from=md", form(png, "x.md", "text/markdown"));
    expect(a.status).toBe(415);
    expect((await problem(a)).code).toBe("unsupported_document_type");
    expect((await convert("?from=docx", "# not a docx", { "Content-Type": "text/markdown" })).status).toBe(415);
    expect(
      (await convert("?from=html", new Uint8Array([0x3c, 0x70, 0, 0x3e]), { "Content-Type": "text/html" })).status,
    ).toBe(415);
  });

  it("a body over the cap with 413 before reading it, and a picture at a forbidden address with 422", async () => {
    const big = await convert("?from=md", "x", {
      "Content-Type": "text/markdown",
      "Content-Length": String(1e9),
    }).catch(() => null);
    if (big) expect(big.status).toBe(413);
    const { createApp } = await import("../../src/http/app");
    const strictEnv = { ...env, ALLOW_PRIVATE_URLS: "false" };
    const res = await createApp().request(
      `/v1/convert?from=md&to=docx`,
      {
        method: "POST",
        headers: { ...auth(), "Content-Type": "text/markdown" },
        body: "![x](https://127.0.0.1/a.png)",
      },
      strictEnv,
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).code).toBe("url_forbidden");
  });

  it("a source beyond the convert limits with 413 convert_limit; deep nesting is read flat below its depth cap", async () => {
    const many = "<p>x</p>".repeat(200_001);
    const res = await convert("?from=html&to=docx", many, { "Content-Type": "text/html" });
    expect(res.status).toBe(413);
    expect((await problem(res)).code).toBe("convert_limit");
    const codeLines = await convert("?from=md&to=docx", `\`\`\`\n${"x\n".repeat(60_000)}\`\`\`\n`, {
      "Content-Type": "text/markdown",
    });
    expect((await problem(codeLines)).code).toBe("convert_limit");
    const cells = `<table><tr>${`<td><pre>${"y\n".repeat(30_000)}</pre></td>`.repeat(2)}</tr></table>`;
    expect((await problem(await convert("?from=html&to=docx", cells, { "Content-Type": "text/html" }))).code).toBe(
      "convert_limit",
    );
    const deep = await convert("?from=html&to=docx", `${"<div>".repeat(100_000)}deep text`, {
      "Content-Type": "text/html",
    });
    expect((await docxParts(deep)).readXml("word/document.xml")).toContain("deep text");
  });
});

describe("OpenAPI", () => {
  it("documents /v1/convert with its multipart, JSON and raw bodies and binary or JSON answers", async () => {
    const doc = (await (await SELF.fetch(`${BASE}/openapi.json`)).json()) as any;
    const op = doc.paths["/v1/convert"].post;
    expect(Object.keys(op.requestBody.content)).toEqual(
      expect.arrayContaining(["multipart/form-data", "application/json", "text/markdown", "text/html", DOCX_TYPE]),
    );
    expect(Object.keys(op.responses["200"].content)).toEqual(
      expect.arrayContaining(["application/pdf", DOCX_TYPE, "application/json"]),
    );
    expect(op.parameters.map((p: any) => p.name)).toEqual(["from", "to"]);
  });
});
