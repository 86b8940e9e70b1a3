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
import * as T from "../../src/docx/testing";
import { LIMITS } from "../../src/limits";
import { buildDocx, p } from "../support/docx-builder";
import { b64, fromDataUri, post, problem, signRequest } from "./helpers";

const corpusDocx = async (name: string) => new Uint8Array(await (await fetch(`${env.FIXTURE_BASE_URL}/docx/${name}`)).arrayBuffer());

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
    const para = p(`Clause ${i}: the party ${(i * 7919) % 100_003} shall deliver item ${(i * 104_729) % 1_000_003} by day ${i % 365}.`);
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
    const pdf = await expectRendersPdf(await post("/v1/annotate?to=pdf", { document: { base64: b64(big) }, fields: [] }));
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(175);
    expect(pdf.getPageCount()).toBeLessThanOrEqual(185);
    // The same isolate still works: a normal template renders right after.
    const { template } = T.sampleContract();
    await expectRendersPdf(await post("/v1/annotate?to=pdf", { document: { base64: b64(template()) }, fields: [{ id: "client_name", type: "text", value: "Ada" }] }));
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
