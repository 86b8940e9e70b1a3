/**
 * The SuperDoc e-sign flow, replayed as its front end and backend example send it, over real HTTP
 * against `wrangler dev`: annotate a template-builder template to PDF (typed and drawn signatures,
 * checkboxes), sign the annotated PDF's data URI with a real audit trail (keystrokes, scrolls, a null
 * percent, two submits) and the certificate page, then verify the result. Outside tools check each
 * step: pdftotext reads the values and the certificate page, pdfsig accepts the signature.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as T from "../support/docx-templates";
import { dataUri, makePng } from "../support/png-images";
import { devSecrets, startService, type RunningService } from "./support/service";
import { nssDbTrusting, parsePdfsig, tool } from "./support/validators";

const work = mkdtempSync(join(tmpdir(), "signet-e2e-"));
let svc: RunningService;
let nssdb: string;

beforeAll(async () => {
  svc = await startService();
  nssdb = await nssDbTrusting(devSecrets().caPem);
}, 180_000);
afterAll(async () => svc?.stop());

async function post(path: string, body: unknown, auth = true): Promise<{ status: number; json: any }> {
  const res = await fetch(`${svc.baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(auth ? { Authorization: `Bearer ${svc.apiKey}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const pdfOf = (dataUri: string) => new Uint8Array(Buffer.from(dataUri.slice(dataUri.indexOf(",") + 1), "base64"));

async function pdftotext(pdf: Uint8Array, name: string, page?: number): Promise<string> {
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, pdf);
  const range = page === undefined ? [] : ["-f", String(page), "-l", String(page)];
  const { code, out } = await tool("pdftotext", [...range, file, "-"]);
  expect(code, out).toBe(0);
  return out.replace(/\s+/g, " ");
}

/** A template as SuperDoc's template builder leaves it: structured fields with numeric ids and groups, field annotations for signatures and checkboxes. */
function superdocTemplate(): Uint8Array {
  return T.templateDocx({
    body: [
      T.para(T.text("Mutual Non-Disclosure Agreement")),
      T.para(
        T.text("This agreement is made between Acme Corp and "),
        T.superdocStructured({ id: 1834567001, alias: "Party name", group: "party" }),
        T.text("."),
      ),
      T.para(T.text("Effective date: "), T.superdocStructured({ id: 1834567002, alias: "Date" })),
      T.para(
        T.text("The receiving party, "),
        T.superdocStructured({ id: 1834567003, alias: "Party name", group: "party" }),
        T.text(", keeps the information confidential."),
      ),
      T.para(T.superdocAnnotation({ fieldId: "agree-terms", type: "checkbox" }), T.text(" I agree to the terms")),
      T.para(T.superdocAnnotation({ fieldId: "agree-marketing", type: "checkbox" }), T.text(" Send me news")),
      T.para(T.text("Typed signature: "), T.superdocAnnotation({ fieldId: "sig-typed", type: "signature" })),
      T.para(T.text("Drawn signature: "), T.superdocAnnotation({ fieldId: "sig-drawn", type: "signature" })),
    ].join(""),
  });
}

/** What SuperDoc's e-sign component records while a person reads, types and submits. */
function auditTrail(): Record<string, unknown>[] {
  const t0 = Date.parse("2026-11-21T09:00:00Z");
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  const events: Record<string, unknown>[] = [{ type: "ready", timestamp: at(0) }];
  [10, 25, null, 50, 75, 100].forEach((percent, i) =>
    events.push({ type: "scroll", timestamp: at(2 + i), data: { percent } }),
  );
  const name = "Jane Doe";
  for (let i = 1; i <= name.length; i++)
    events.push({
      type: "field_change",
      timestamp: at(20 + i),
      data: { fieldId: "sig-typed", value: name.slice(0, i) },
    });
  events.push({ type: "field_change", timestamp: at(40), data: { fieldId: "agree-terms", value: true } });
  events.push({ type: "submit", timestamp: at(50), data: { attempt: 1 } });
  events.push({ type: "submit", timestamp: at(52), data: { attempt: 2 } });
  return events;
}

describe("SuperDoc e-sign flow end to end", () => {
  it("annotate to PDF, sign with the audit trail and certificate page, verify", async () => {
    const template = superdocTemplate();
    const drawn = dataUri(makePng(400, 120, [20, 20, 80]));

    // 1. Annotate: the backend example sends the document and the signer's fields.
    const annotated = await post("/v1/annotate?to=pdf", {
      document: { base64: Buffer.from(template).toString("base64") },
      fields: [
        { id: "1834567001", type: "text", value: "Jane Doe" },
        { group: "party", type: "text", value: "Jane Doe" },
        { id: 1834567002, type: "date", value: "2026-11-21", options: { format: "MMMM d, yyyy" } },
        { id: "agree-terms", type: "checkbox", value: true },
        { id: "agree-marketing", type: "checkbox", value: false },
        { id: "sig-typed", type: "signature", value: "Jane Doe" },
        { id: "sig-drawn", type: "signature", value: drawn, options: { dimensions: { width: 200 } } },
      ],
    });
    expect(annotated.status, JSON.stringify(annotated.json)).toBe(200);
    expect(annotated.json.document.contentType).toBe("application/pdf");
    expect(annotated.json.unmatched).toEqual([]);
    const annotatedPdf = pdfOf(annotated.json.document.base64);
    const annotatedText = await pdftotext(annotatedPdf, "annotated");
    for (const v of [
      "Mutual Non-Disclosure Agreement",
      "between Acme Corp and Jane Doe.",
      "The receiving party, Jane Doe,",
      "November 21, 2026",
      "☒ I agree to the terms",
      "☐ Send me news",
      "Typed signature:",
      "Drawn signature:",
    ]) {
      expect(annotatedText, v).toContain(v);
    }
    // The typed signature is set larger than its line's label, so pdftotext may read it out of order: count it.
    expect(annotatedText.match(/Jane Doe/g)).toHaveLength(3);
    expect(
      await tool("pdfimages", ["-list", join(work, "annotated.pdf")]).then((r) => r.out.trim().split("\n").length - 2),
    ).toBe(1);

    // 2. Sign: the annotated PDF goes back as its data URI, with the trail, the certificate page and metadata.
    const trail = auditTrail();
    const signed = await post("/v1/sign", {
      document: { base64: annotated.json.document.base64 },
      signer: {
        name: "Jane Doe",
        email: "jane@example.com",
        ip: "203.0.113.7",
        userAgent: "Mozilla/5.0 (SuperDoc e-sign)",
      },
      auditTrail: trail,
      eventId: "superdoc-e2e-1",
      certificate: { enable: true },
      metadata: { documentId: "nda-2026-11", superdoc: { version: "1.x" } },
    });
    expect(signed.status, JSON.stringify(signed.json)).toBe(200);
    expect(signed.json.warnings).toEqual([]);
    const signedPdf = pdfOf(signed.json.document.base64);
    const file = join(work, "signed.pdf");
    writeFileSync(file, signedPdf);

    const pdfsig = await tool("pdfsig", ["-nssdir", nssdb, file]);
    const sigs = parsePdfsig(pdfsig.out).filter((s) => s.signed);
    expect(sigs, pdfsig.out).toHaveLength(1);
    expect(pdfsig.out).toMatch(/Signature Validation: Signature is Valid/);
    expect(pdfsig.out).toMatch(/Total document signed/);

    // The certificate page reads well: the signer, the event and the collapsed trail.
    const pages = Number(/Pages:\s+(\d+)/.exec((await tool("pdfinfo", [file])).out)?.[1]);
    const certificate = await pdftotext(signedPdf, "certificate", pages);
    for (const v of [
      "Jane Doe",
      "jane@example.com",
      "203.0.113.7",
      "superdoc-e2e-1",
      "submit",
      "scroll",
      "field_change",
    ]) {
      expect(certificate, v).toContain(v);
    }

    // 3. Verify returns the audit trail exactly as sent.
    const verified = await post("/v1/verify", { document: { base64: signed.json.document.base64 } }, false);
    expect(verified.status).toBe(200);
    expect(verified.json.valid, verified.json.reason).toBe(true);
    expect(verified.json.signer).toMatchObject({
      name: "Jane Doe",
      email: "jane@example.com",
      eventId: "superdoc-e2e-1",
    });
    expect(verified.json.document.auditTrail).toEqual(trail);
    expect(verified.json.signers[0].metadata).toEqual({ documentId: "nda-2026-11", superdoc: { version: "1.x" } });
  }, 300_000);

  it("signs a DOCX directly: rendered, sealed, valid and total for pdfsig, the trail returned by verify", async () => {
    const docx = superdocTemplate();
    const signed = await post("/v1/sign", {
      document: {
        base64: `data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,${Buffer.from(docx).toString("base64")}`,
      },
      signer: { name: "Ada Lovelace", email: "ada@example.com" },
      auditTrail: [
        { type: "ready", timestamp: "2026-11-21T09:00:00Z" },
        { type: "submit", timestamp: "2026-11-21T09:01:00Z" },
      ],
    });
    expect(signed.status, JSON.stringify(signed.json)).toBe(200);
    const pdf = pdfOf(signed.json.document.base64);
    const file = join(work, "signed-docx.pdf");
    writeFileSync(file, pdf);
    const pdfsig = await tool("pdfsig", ["-nssdir", nssdb, file]);
    expect(pdfsig.out).toMatch(/Signature Validation: Signature is Valid/);
    expect(pdfsig.out).toMatch(/Total document signed/);
    const text = await pdftotext(pdf, "signed-docx");
    expect(text).toContain("Mutual Non-Disclosure Agreement");
    expect(text).toContain("Ada Lovelace");
    const verified = await post("/v1/verify", { document: { base64: signed.json.document.base64 } }, false);
    expect(verified.json.valid, verified.json.reason).toBe(true);
    expect(verified.json.document.auditTrail).toHaveLength(2);
  }, 300_000);
});
