/**
 * The renderer's memory budget through the real HTTP edge: the corpus's largest document (14.6 MiB
 * of XML, 180 pages) renders in the isolate, a DOCX with more XML than LIMITS.render.maxXmlBytes
 * is refused with 413 `zip_limit` (checked from the ZIP directory before any part is inflated),
 * and the worker keeps answering.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { strToU8, unzipSync, zipSync } from "fflate";
import { PDFDocument } from "pdf-lib";
import * as T from "../support/docx-templates";
import { LIMITS } from "../../src/limits";
import { buildDocx, p, pageBreak, sectPr } from "../support/docx-builder";
import { b64, fromDataUri, post, problem, signRequest } from "./helpers";

const corpusDocx = async (name: string) =>
  new Uint8Array(await (await fetch(`${env.FIXTURE_BASE_URL}/docx/${name}`)).arrayBuffer());

/** The same package with word/document.xml replaced (the other parts kept). */
function withDocumentXml(docx: Uint8Array, xml: string): Uint8Array {
  const files = unzipSync(docx);
  files["word/document.xml"] = strToU8(xml);
  return zipSync(files, { level: 6 });
}

/** A body of distinct numbered clauses (varied text, so it deflates like a real document, not like a bomb). */
function clauses(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const para = p(
      `Clause ${i}: the party ${(i * 7919) % 100_003} shall deliver item ${(i * 104_729) % 1_000_003} by day ${i % 365}.`,
    );
    parts.push(para);
    size += para.length;
  }
  return parts.join("");
}

async function expectTooBigToRender(res: Response) {
  expect(res.status).toBe(413);
  const prob = await problem(res);
  expect(prob.code).toBe("zip_limit");
  expect(prob.detail).toMatch(/too big to render/);
}

async function expectRendersPdf(res: Response): Promise<PDFDocument> {
  expect(res.status).toBe(200);
  const body = (await res.json()) as { document: { base64: string } };
  const pdf = fromDataUri(body.document.base64);
  expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
  return PDFDocument.load(pdf, { updateMetadata: false });
}

describe("DOCX rendering stays within the isolate's memory", () => {
  it("renders the corpus's 12.6 MB document.xml (bug65649, 180 pages in LibreOffice), then the next request", async () => {
    const big = await corpusDocx("poi__bug65649.docx");
    const pdf = await expectRendersPdf(
      await post("/v1/annotate?to=pdf", { document: { base64: b64(big) }, fields: [] }),
    );
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(175);
    expect(pdf.getPageCount()).toBeLessThanOrEqual(185);
    // The same isolate still works: a normal template renders right after.
    const { template } = T.sampleContract();
    await expectRendersPdf(
      await post("/v1/annotate?to=pdf", {
        document: { base64: b64(template()) },
        fields: [{ id: "client_name", type: "text", value: "Ada" }],
      }),
    );
  });

  it("a built document with more body XML than the limit is refused by annotate and by sign; a smaller one of the same kind renders", async () => {
    const base = buildDocx({ body: p("placeholder") });
    const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`;
    const tail = `</w:body></w:document>`;
    const over = withDocumentXml(base, head + clauses(LIMITS.render.maxXmlBytes) + tail);
    await expectTooBigToRender(await post("/v1/annotate?to=pdf", { document: { base64: b64(over) }, fields: [] }));
    await expectTooBigToRender(await post("/v1/sign", signRequest(over)));

    // The same clauses in a small document render (kept small so the test stays quick).
    const under = withDocumentXml(base, head + clauses(64 * 1024) + tail);
    await expectRendersPdf(await post("/v1/annotate?to=pdf", { document: { base64: b64(under) }, fields: [] }));
  });
});

describe("DOCX layout stops at its budgets with 422 render_limit, fast", () => {
  async function expectRenderLimit(res: Response, detail: RegExp) {
    const prob = await problem(res);
    expect(prob.code).toBe("render_limit");
    expect(res.status).toBe(422);
    expect(prob.detail).toMatch(detail);
  }

  it("a template of a few KB holding one word of 1,040,000 characters: annotate?to=pdf and sign refuse it (it took 180 s)", async () => {
    const docx = buildDocx({ body: p("x".repeat(1_040_000)) });
    expect(docx.length).toBeLessThan(8 * 1024);
    await expectRenderLimit(
      await post("/v1/annotate?to=pdf", { document: { base64: b64(docx) }, fields: [] }),
      /paragraph of more than 1000000 characters/,
    );
    await expectRenderLimit(await post("/v1/sign", signRequest(docx)), /paragraph of more than 1000000 characters/);
  });

  it("5,100 page breaks, in one run between characters or one per paragraph: 422 render_limit, not 500 and not a shortened PDF", async () => {
    const oneRun = buildDocx({
      body: p(["a", `<w:r>${`<w:br w:type="page"/><w:t>x</w:t>`.repeat(5_100)}</w:r>`, "b"]),
    });
    const paragraphs = buildDocx({
      body: Array.from({ length: 5_100 }, (_, i) => p([`page ${i}`, pageBreak()])).join(""),
    });
    for (const docx of [oneRun, paragraphs]) {
      await expectRenderLimit(
        await post("/v1/annotate?to=pdf", { document: { base64: b64(docx) }, fields: [] }),
        /more than 5000 pages/,
      );
    }
    await expectRenderLimit(await post("/v1/sign", signRequest(paragraphs)), /more than 5000 pages/);
  });

  it("5,100 page breaks with nothing between them in one run break once, as LibreOffice does: 2 pages", async () => {
    const docx = buildDocx({ body: p(["a", `<w:r>${`<w:br w:type="page"/>`.repeat(5_100)}</w:r>`, "b"]) });
    const pdf = await expectRendersPdf(
      await post("/v1/annotate?to=pdf", { document: { base64: b64(docx) }, fields: [] }),
    );
    expect(pdf.getPageCount()).toBe(2);
  });

  it("a 20-paragraph header on each of 4,990 pages runs out of layout work before the page limit", async () => {
    const header = Array.from({ length: 20 }, (_, i) =>
      p(`Header line ${i} with a few words to lay out on every page`),
    ).join("");
    const docx = buildDocx({
      body: Array.from({ length: 4_990 }, () => p([pageBreak()])).join("") + sectPr({ headers: { default: "rIdH1" } }),
      headers: { rIdH1: header },
    });
    await expectRenderLimit(
      await post("/v1/annotate?to=pdf", { document: { base64: b64(docx) }, fields: [] }),
      /units of layout work/,
    );
  });
});
