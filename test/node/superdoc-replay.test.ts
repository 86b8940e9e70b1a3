/**
 * A SuperDoc API client, replayed against `wrangler dev` with only the base URL and the key
 * changed: the calls of SuperDoc's API reference and backend guides, sent the way their clients send
 * them (axios and fetch with FormData for convert, a bare base64 string as `document`, the signed
 * document sent back to verify), each answered as SuperDoc's reference says (superdoc-api.md).
 * Outside tools check the results: pdftotext reads the converted and annotated PDFs, pdfsig accepts
 * the signature, openssl computes the key fingerprint verify/key reports.
 */
import axios from "axios";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pkg from "../../package.json";
import * as T from "../support/docx-templates";
import { partText } from "../support/docx-builder";
import { devSecrets, startService, type RunningService } from "./support/service";
import { nssDbTrusting, parsePdfsig, tool } from "./support/validators";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const work = mkdtempSync(join(tmpdir(), "signet-superdoc-replay-"));
let svc: RunningService;
let nssdb: string;

beforeAll(async () => {
  svc = await startService();
  nssdb = await nssDbTrusting(devSecrets().caPem);
}, 180_000);
afterAll(async () => svc?.stop());

async function pdfText(pdf: Uint8Array, name: string): Promise<string> {
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, pdf);
  const { code, out } = await tool("pdftotext", [file, "-"]);
  expect(code, out).toBe(0);
  return out.replace(/\s+/g, " ");
}

const auth = () => ({ Authorization: `Bearer ${svc.apiKey}` });
const base64Of = (dataUri: string) => dataUri.slice(dataUri.indexOf(",") + 1);

const template = () =>
  T.templateDocx({
    body: [
      T.para(
        T.text("Consulting agreement with "),
        T.wordText({ tag: "customer_name", placeholder: true }),
        T.text("."),
      ),
      T.para(T.text("Start date: "), T.wordDate({ tag: "start_date", format: "MMMM d, yyyy" })),
    ].join(""),
  });

describe("a SuperDoc client against Signet", () => {
  it("GET /v1/health answers {status: healthy, timestamp, version}", async () => {
    const res = await fetch(`${svc.baseUrl}/v1/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ status: "healthy", version: pkg.version });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  });

  it("convert from=docx with axios and FormData (the reference's Node example) returns the PDF as the body", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(template())], { type: DOCX_TYPE }), "agreement.docx");
    const res = await axios.post(`${svc.baseUrl}/v1/convert?from=docx`, form, {
      headers: auth(),
      responseType: "arraybuffer",
      validateStatus: () => true,
    });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    const pdf = new Uint8Array(res.data as ArrayBuffer);
    expect(await pdfText(pdf, "axios-docx")).toContain("Consulting agreement with");
  });

  it("convert from=md and from=html with fetch and FormData, to PDF and to DOCX", async () => {
    const md = new FormData();
    md.append(
      "file",
      new Blob(
        [
          "# Statement of Work\n\n1. **Discovery** workshop\n2. Delivery\n\n| Role | Days |\n|---|---:|\n| Engineer | 10 |\n",
        ],
        { type: "text/markdown" },
      ),
      "sow.md",
    );
    const pdfRes = await fetch(`${svc.baseUrl}/v1/convert?from=md&to=pdf`, {
      method: "POST",
      headers: auth(),
      body: md,
    });
    expect(pdfRes.status).toBe(200);
    expect(pdfRes.headers.get("content-type")).toBe("application/pdf");
    const text = await pdfText(new Uint8Array(await pdfRes.arrayBuffer()), "fetch-md");
    for (const s of ["Statement of Work", "1. Discovery workshop", "2. Delivery", "Role", "Days", "Engineer", "10"])
      expect(text).toContain(s);

    const html = new FormData();
    html.append(
      "file",
      new Blob(["<h1>Invoice</h1><p style='color:#c00'>Due: <b>EUR 120.00</b></p>"], { type: "text/html" }),
      "invoice.html",
    );
    const docxRes = await fetch(`${svc.baseUrl}/v1/convert?from=html&to=docx`, {
      method: "POST",
      headers: auth(),
      body: html,
    });
    expect(docxRes.status).toBe(200);
    expect(docxRes.headers.get("content-type")).toBe(DOCX_TYPE);
    const docx = new Uint8Array(await docxRes.arrayBuffer());
    expect(partText(docx, "word/document.xml")).toContain("EUR 120.00");
  });

  it("annotate with a bare base64 document (the backend guide), then sign the result, then verify it", async () => {
    // 1. Annotate: document as a bare base64 string, fields without type (the guide sends none).
    const annotated = await axios.post(
      `${svc.baseUrl}/v1/annotate?to=pdf`,
      {
        document: Buffer.from(template()).toString("base64"),
        fields: [
          { id: "customer_name", type: "text", value: "Contoso GmbH" },
          { id: "start_date", type: "date", value: "2026-12-01" },
        ],
      },
      { headers: auth(), validateStatus: () => true },
    );
    expect(annotated.status, JSON.stringify(annotated.data)).toBe(200);
    expect(annotated.data.document.contentType).toBe("application/pdf");
    const annotatedPdf = new Uint8Array(Buffer.from(base64Of(annotated.data.document.base64), "base64"));
    const text = await pdfText(annotatedPdf, "annotated");
    expect(text).toContain("Consulting agreement with Contoso GmbH.");
    expect(text).toContain("December 1, 2026");

    // 2. Sign: the demo server strips the data URI prefix and sends the signer, trail and certificate.enable.
    const signed = await axios.post(
      `${svc.baseUrl}/v1/sign`,
      {
        document: { base64: base64Of(annotated.data.document.base64) },
        signer: { name: "Jonas Becker", email: "jonas@contoso.example", ip: "203.0.113.9", userAgent: "Mozilla/5.0" },
        auditTrail: [
          { type: "ready", timestamp: "2026-11-27T09:00:00.000Z" },
          { type: "scroll", timestamp: "2026-11-27T09:00:05.000Z", data: { percent: 100 } },
          { type: "field_change", timestamp: "2026-11-27T09:00:09.000Z", data: { fieldId: "agree", value: true } },
          { type: "submit", timestamp: "2026-11-27T09:00:10.000Z" },
          { type: "submit", timestamp: "2026-11-27T09:00:10.500Z" },
        ],
        eventId: "superdoc-replay-1",
        certificate: { enable: true },
        metadata: { documentId: "agreement-7" },
      },
      { headers: auth(), validateStatus: () => true },
    );
    expect(signed.status, JSON.stringify(signed.data)).toBe(200);
    expect(signed.data.document.contentType).toBe("application/pdf");
    const signedPdf = new Uint8Array(Buffer.from(base64Of(signed.data.document.base64), "base64"));
    const file = join(work, "signed.pdf");
    writeFileSync(file, signedPdf);
    const pdfsig = await tool("pdfsig", ["-nssdir", nssdb, file]);
    expect(
      parsePdfsig(pdfsig.out).filter((s) => s.signed),
      pdfsig.out,
    ).toHaveLength(1);
    expect(pdfsig.out).toMatch(/Signature Validation: Signature is Valid/);

    // 3. Verify: public, {valid, reason, signer, signers, document}.
    const verified = await fetch(`${svc.baseUrl}/v1/verify`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ document: { base64: signed.data.document.base64 } }),
    });
    expect(verified.status).toBe(200);
    const report = (await verified.json()) as any;
    expect(report.valid, report.reason).toBe(true);
    expect(typeof report.reason).toBe("string");
    expect(report.signer).toMatchObject({ name: "Jonas Becker", email: "jonas@contoso.example" });
    expect(report.signers).toHaveLength(1);
    expect(report.document.sha256).toMatch(/^[0-9a-f]{64}$/);
  }, 180_000);

  it("GET /v1/verify/key answers SuperDoc's fields; the fingerprint is openssl's", async () => {
    const res = await fetch(`${svc.baseUrl}/v1/verify/key`);
    expect(res.status).toBe(200);
    const key = (await res.json()) as any;
    for (const f of ["version", "algorithm", "publicKey", "fingerprint", "validFrom", "validTo", "issuer"])
      expect(key[f], f).toBeTruthy();
    const certFile = join(work, "signer.pem");
    writeFileSync(certFile, key.certificates[0]);
    const fp = await tool("openssl", ["x509", "-in", certFile, "-noout", "-fingerprint", "-sha256"]);
    expect(fp.out.trim().split("=")[1]).toBe(key.fingerprint);
    const pub = await tool("openssl", ["x509", "-in", certFile, "-noout", "-pubkey"]);
    expect(pub.out.trim()).toBe(key.publicKey.trim());
    const end = await tool("openssl", ["x509", "-in", certFile, "-noout", "-enddate"]);
    expect(new Date(end.out.trim().replace("notAfter=", "")).toISOString()).toBe(
      key.validTo.replace(/\.\d{3}Z$/, ".000Z"),
    );
  });

  it("errors carry code, error (the reason phrase), message and details, as SuperDoc's clients read them", async () => {
    const res = await axios.post(
      `${svc.baseUrl}/v1/sign`,
      { document: { base64: "JVBERi0x" }, signer: { name: "A", email: "nope" }, auditTrail: [] },
      { headers: auth(), validateStatus: () => true },
    );
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ error: "Bad Request", code: "invalid_request" });
    expect(typeof res.data.message).toBe("string");
    expect(res.data.details.map((d: any) => d.field)).toEqual(expect.arrayContaining(["signer.email", "auditTrail"]));
    const unauth = await axios.post(`${svc.baseUrl}/v1/convert?from=md`, "# x", {
      headers: { "Content-Type": "text/markdown" },
      validateStatus: () => true,
    });
    expect(unauth.status).toBe(401);
    expect(unauth.data).toMatchObject({ error: "Unauthorized" });
  });
});
