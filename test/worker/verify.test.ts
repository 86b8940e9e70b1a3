import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { PdfRef, type PdfValue } from "../../src/pdf/model";
import { serializePdfValue } from "../../src/pdf/serialize";
import { PdfReader } from "../../src/pdf/reader";
import { PdfAssembler } from "../support/pdf-assembler";
import { appendUpdate, basePdf, makeSigner, manySignaturesPdf, signForTest } from "../support/signed-pdfs";
import { auditTrail, b64, BASE, corpusPdf, fromDataUri, post, problem, signer, signRequest } from "./helpers";

const SIMPLE = "pdf20examples__Simple_PDF_2.0_file.pdf";

const verify = (pdf: Uint8Array, opts: { key?: string | null; headers?: Record<string, string> } = {}) =>
  post("/v1/verify", { document: { base64: b64(pdf) } }, { key: null, ...opts });

async function report(pdf: Uint8Array): Promise<any> {
  const res = await verify(pdf);
  expect(res.status).toBe(200);
  return res.json();
}

async function signWithSignet(
  pdf: Uint8Array,
  extra: Record<string, unknown> = {},
): Promise<{ bytes: Uint8Array; body: any }> {
  const res = await post("/v1/sign", signRequest(pdf, extra));
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  return { bytes: fromDataUri(body.document.base64), body };
}

let once: { bytes: Uint8Array; body: any };

beforeAll(async () => {
  once = await signWithSignet(await corpusPdf(SIMPLE), { eventId: "evt-verify-1", metadata: { tenant: "acme" } });
});

describe("POST /v1/verify on Signet's own output", () => {
  it("a signed document is valid, with the signer, evidence and document facts", async () => {
    const res = await verify(once.bytes);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const r = (await res.json()) as any;
    expect(r.valid).toBe(true);
    expect(r.reason).toBe("All 1 signature(s) are intact, cover the document and chain to a trusted root.");
    expect(r.signers).toHaveLength(1);
    const s = r.signers[0];
    expect(s).toMatchObject({
      kind: "signature",
      name: signer.name,
      email: signer.email,
      fieldName: "Signature1",
      subFilter: "ETSI.CAdES.detached",
      digestAlgorithm: "SHA-256",
      intact: true,
      signatureValid: true,
      trusted: true,
      coverage: "entire_file",
      modifications: "none",
      revision: PdfReader.open(once.bytes).revisions.length,
      signedAt: once.body.signature.signedAt.replace(/\.\d{3}Z$/, "Z"),
      signedAtSource: "claimed",
      timestamp: null,
      problems: [],
      eventId: "evt-verify-1",
      metadata: { tenant: "acme" },
    });
    expect(s.certificate.sha256).toBe(once.body.signature.certificateSha256);
    expect(s.auditTrail).toEqual(auditTrail);
    expect(r.signer).toEqual(s);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", once.bytes));
    expect(r.document).toMatchObject({
      sha256: [...digest].map((b) => b.toString(16).padStart(2, "0")).join(""),
      sizeBytes: once.bytes.length,
      pages: PdfReader.open(once.bytes).pages().length,
      revisions: PdfReader.open(once.bytes).revisions.length,
      signatureCount: 1,
      eventId: "evt-verify-1",
      auditTrail,
    });
  });

  it("a document signed twice by Signet is valid: the second signature adds a signature, its evidence inside it", async () => {
    const twice = await signWithSignet(once.bytes, {
      eventId: "evt-verify-2",
      signer: { name: "Grace Hopper", email: "grace@example.com" },
    });
    const r = await report(twice.bytes);
    expect(r.valid).toBe(true);
    expect(r.signers.map((s: any) => [s.name, s.coverage, s.modifications, s.eventId])).toEqual([
      [signer.name, "entire_revision", "signatures", "evt-verify-1"],
      ["Grace Hopper", "entire_file", "none", "evt-verify-2"],
    ]);
    expect(r.document.pages).toBe(PdfReader.open(once.bytes).pages().length);
    expect(r.signer.name).toBe("Grace Hopper");
    expect(r.document).toMatchObject({ signatureCount: 2, eventId: "evt-verify-2" });
  });

  it.each([
    "endesive__pdf-XRefStream.pdf",
    "qpdf__c-linearized.pdf",
    "pdfbox__form__AcroFormsBasicFields.pdf",
    "itext__PdfReaderTest__1000PagesDocumentWithFullCompression.pdf",
  ])("%s (xref streams, object streams, linearized, an existing form) signed twice stays valid", async (name) => {
    const first = await signWithSignet(await corpusPdf(name));
    const second = await signWithSignet(first.bytes);
    const r = await report(second.bytes);
    expect(r.reason).toBe("All 2 signature(s) are intact, cover the document and chain to a trusted root.");
    expect(r.signers.map((s: any) => [s.coverage, s.modifications])).toEqual([
      ["entire_revision", "signatures"],
      ["entire_file", "none"],
    ]);
  });

  it("a file attached to the document after a signature is a change to it (what Signet's countersignatures added until 2026-11-27)", async () => {
    const reader = PdfReader.open(once.bytes);
    const catalog = reader.catalog();
    const af = (reader.resolve(catalog.get("AF")) as PdfValue[]) ?? [];
    const attached = appendUpdate(once.bytes, [
      { num: 900, body: "<< /Type /EmbeddedFile /Length 2 >>\nstream\n{}\nendstream" },
      {
        num: 901,
        body: "<< /Type /Filespec /F (notes.json) /UF (notes.json) /AFRelationship /Supplement /EF << /F 900 0 R >> >>",
      },
      { num: reader.catalogRef().num, body: serializePdfValue(catalog.with({ AF: [...af, new PdfRef(901, 0)] })) },
    ]);
    const r = await report(attached);
    expect(r.valid).toBe(false);
    expect(r.signers[0].modifications).toBe("appended_pages");
    expect(r.reason).toBe(`Signature 1 by ${signer.name} is intact, but a file was attached after the last signature.`);
  });

  it("a page changed after Signet signed is caught, with the page named", async () => {
    const reader = PdfReader.open(once.bytes);
    const contents = reader.pages()[0]!.dict.get("Contents");
    const ref = Array.isArray(contents) ? contents[0] : contents;
    expect(ref).toBeInstanceOf(PdfRef);
    const evil = "BT /F1 24 Tf 72 700 Td (Pay Mallory) Tj ET";
    const changed = appendUpdate(once.bytes, [
      { num: (ref as PdfRef).num, body: `<< /Length ${evil.length} >>\nstream\n${evil}\nendstream` },
    ]);
    const r = await report(changed);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({
      intact: true,
      trusted: true,
      coverage: "entire_revision",
      modifications: "other",
    });
    expect(r.reason).toBe(`Signature 1 by ${signer.name} is intact, but page 1 was changed after signing.`);
  });

  it("a flipped byte in Signet's output breaks the signature", async () => {
    const bytes = once.bytes.slice();
    bytes[100] = bytes[100]! ^ 0x01;
    const r = await report(bytes);
    expect(r.valid).toBe(false);
    expect(r.signers[0].intact).toBe(false);
  });

  it("a document signed with another key is intact but not trusted", async () => {
    const mallory = await makeSigner("Mallory Example");
    const s = await signForTest(basePdf(), { signer: mallory });
    const r = await report(s.bytes);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ name: "Mallory Example", intact: true, signatureValid: true, trusted: false });
    expect(r.reason).toMatch(
      /^Signature 1 by Mallory Example is intact, but its certificate .* does not chain to a trusted root\.$/,
    );
  });

  it("an unsigned PDF is not valid", async () => {
    const r = await report(await corpusPdf(SIMPLE));
    expect(r).toMatchObject({ valid: false, reason: "The document has no signatures.", signer: null, signers: [] });
    expect(r.document.signatureCount).toBe(0);
  });

  it("fetches the document from a URL", async () => {
    const res = await post("/v1/verify", { document: { url: `${env.FIXTURE_BASE_URL}/pdf/${SIMPLE}` } }, { key: null });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).valid).toBe(false);
  });

  it("owner-password-only encrypted PDFs are read with the empty user password", async () => {
    const r = await report(await corpusPdf("qpdf__enc-R3_V2_O_master.pdf"));
    expect(r).toMatchObject({ valid: false, signers: [] });
    expect(r.document.pages).toBe(30);
    const aes = await report(await corpusPdf("qpdf__enc-XI-R6_V5_O_master.pdf"));
    expect(aes.document.pages).toBe(30);
    const aes128 = await report(await corpusPdf("qpdf__V4-aes.pdf"));
    expect(aes128.document.pages).toBe(30);
  });
});

describe("GET /v1/verify/key", () => {
  it("returns the signing chain and the signer certificate's fingerprint, publicly", async () => {
    const res = await SELF.fetch(`${BASE}/v1/verify/key`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { certificates: string[]; sha256: string };
    expect(body.certificates.length).toBeGreaterThanOrEqual(1);
    for (const pem of body.certificates)
      expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
    expect(body.sha256).toBe(once.body.signature.certificateSha256);
  });
});

describe("OpenAPI", () => {
  it("documents /v1/verify and /v1/verify/key from the same schemas", async () => {
    const doc = (await (await SELF.fetch(`${BASE}/openapi.json`)).json()) as any;
    expect(doc.paths["/v1/verify"].post.requestBody.content["application/json"].schema.$ref).toBe(
      "#/components/schemas/VerifyRequest",
    );
    expect(doc.paths["/v1/verify/key"].get).toBeDefined();
    const signerSchema = doc.components.schemas.VerifiedSigner;
    expect(signerSchema.properties.coverage.enum).toEqual(["entire_file", "entire_revision", "partial", "unclear"]);
    expect(signerSchema.properties.modifications.enum).toEqual([
      "none",
      "signatures",
      "form_filling",
      "appended_pages",
      "annotations",
      "other",
    ]);
  });
});

describe("POST /v1/verify access and errors", () => {
  it("is public; a key that is sent must be valid", async () => {
    expect((await verify(once.bytes, { key: null })).status).toBe(200);
    expect((await verify(once.bytes, { key: env.TEST_API_KEY })).status).toBe(200);
    const bad = await verify(once.bytes, { key: `sgn_${"x".repeat(43)}` });
    expect(bad.status).toBe(401);
    expect((await problem(bad)).code).toBe("unauthorized");
  });

  it("requires a key with VERIFY_REQUIRES_AUTH=true, for the key lookup too", async () => {
    const app = createApp();
    const strict = { ...env, VERIFY_REQUIRES_AUTH: "true" };
    const body = JSON.stringify({ document: { base64: b64(once.bytes) } });
    const headers = { "Content-Type": "application/json" };
    const anonymous = await app.request("/v1/verify", { method: "POST", headers, body }, strict);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await app.request("/v1/verify/key", {}, strict)).status).toBe(401);
    const keyed = await app.request(
      "/v1/verify",
      { method: "POST", headers: { ...headers, Authorization: `Bearer ${env.TEST_API_KEY}` }, body },
      strict,
    );
    expect(keyed.status).toBe(200);
  });

  it("rate-limits anonymous calls per client address (429 with Retry-After), not keyed ones", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const call = (key?: string) =>
      SELF.fetch(`${BASE}/v1/verify`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "CF-Connecting-IP": ip,
          ...(key ? { Authorization: `Bearer ${key}` } : {}),
        },
        body: "{}",
      });
    // 30 a minute (binding RATE_LIMIT_ANONYMOUS); its window is aligned to the clock, so a
    // rollover during the loop may reset the count once: the 429 comes after 30 to 60 calls.
    const statuses: number[] = [];
    while (statuses.length < 61 && statuses.at(-1) !== 429) statuses.push((await call()).status);
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const limited = await call();
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await problem(limited)).code).toBe("rate_limited");
    expect((await call(env.TEST_API_KEY)).status).toBe(400);
  });

  it("415 for DOCX and images, 415 for a non-JSON body, 400 for schema violations", async () => {
    const docx = new Uint8Array(
      await (await fetch(`${env.FIXTURE_BASE_URL}/docx/openxmlsdk__SdtBlock__sdtContent.docx`)).arrayBuffer(),
    );
    const d = await verify(docx);
    expect(d.status).toBe(415);
    expect((await problem(d)).code).toBe("unsupported_document_type");
    const png = await verify(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    expect(png.status).toBe(415);
    const text = await post("/v1/verify", "x", { key: null, headers: { "Content-Type": "text/plain" } });
    expect(text.status).toBe(415);
    const schema = await post("/v1/verify", { document: {} }, { key: null });
    expect(schema.status).toBe(400);
    expect((await problem(schema)).code).toBe("invalid_request");
  });

  it("422 pdf_encrypted for a PDF that needs a user password", async () => {
    const res = await verify(await corpusPdf("qpdf__enc-R2_V1_U_view_O_master.pdf"));
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("pdf_encrypted");
  });
});

describe("hostile PDFs: 4xx or valid:false within the work limits, and the isolate stays healthy", () => {
  /** zlib data that inflates to `size` zero bytes, made in pieces (the test never holds the inflated bytes). */
  async function deflatedZeros(size: number): Promise<Uint8Array> {
    const cs = new CompressionStream("deflate");
    const writer = cs.writable.getWriter();
    const chunk = new Uint8Array(1 << 20);
    const done = (async () => {
      for (let n = 0; n < size; n += chunk.length) await writer.write(chunk);
      await writer.close();
    })();
    const out = new Uint8Array(await new Response(cs.readable).arrayBuffer());
    await done;
    return out;
  }

  function documentWith(
    objects: Record<number, string | Uint8Array>,
    catalog = "<< /Type /Catalog /Pages 2 0 R >>",
  ): Uint8Array {
    const pdf = new PdfAssembler();
    pdf.obj(1, catalog);
    pdf.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    pdf.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
    const nums = [1, 2, 3];
    for (const [n, body] of Object.entries(objects)) {
      pdf.obj(Number(n), body);
      nums.push(Number(n));
    }
    const xref = pdf.table(
      [{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor(nums)],
      `/Size ${Math.max(...nums) + 1} /Root 1 0 R`,
    );
    pdf.startxref(xref);
    return pdf.bytes();
  }

  async function expectRefusedOrInvalid(pdf: Uint8Array, label: string) {
    const res = await verify(pdf);
    if (res.status === 200) {
      expect(((await res.json()) as any).valid, label).toBe(false);
    } else {
      expect(res.status, label).toBeGreaterThanOrEqual(400);
      expect(res.status, label).toBeLessThan(500);
      expect((await problem(res)).code, label).toMatch(/^pdf_/);
    }
    // The isolate still verifies a real document afterwards.
    expect((await report(once.bytes)).valid, `${label}: healthy afterwards`).toBe(true);
  }

  it("990 incremental signatures made without a key: 422 pdf_too_complex naming the limit", async () => {
    const hostile = manySignaturesPdf(990);
    const res = await verify(hostile);
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const p = await problem(res);
    expect(p.code).toBe("pdf_too_complex");
    expect(p.detail).toContain("(limit verify.maxSignatures)");
    expect((await report(once.bytes)).valid, "healthy afterwards").toBe(true);
  });

  it("a cyclic page tree", async () => {
    await expectRefusedOrInvalid(await corpusPdf("pyhanko__circular-page-tree.pdf"), "cyclic page tree");
    // A signed document whose later revision makes the page tree cyclic.
    const reader = PdfReader.open(once.bytes);
    const pagesRef = reader.catalog().get("Pages") as PdfRef;
    const cyclic = appendUpdate(once.bytes, [
      { num: pagesRef.num, body: `<< /Type /Pages /Kids [${pagesRef.num} 0 R] /Count 1 >>` },
    ]);
    await expectRefusedOrInvalid(cyclic, "signed, then a cyclic page tree");
  });

  it("a flate bomb in an object stream", async () => {
    const bomb = await deflatedZeros(48 * 1024 * 1024);
    const pdf = new PdfAssembler();
    pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [20 0 R] >> >>");
    pdf.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    pdf.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
    pdf.stream(10, " /Type /ObjStm /N 1 /First 5 /Filter /FlateDecode", bomb);
    const xrefAt = pdf.length;
    const rows = [
      { num: 0, type: "f" as const, a: 0, b: 65535 },
      ...pdf.rowsFor([1, 2, 3, 10]),
      { num: 20, type: "c" as const, a: 10, b: 0 },
    ];
    pdf.xrefStream(11, [...rows, { num: 11, type: "n", a: xrefAt, b: 0 }], "/Size 21 /Root 1 0 R");
    pdf.startxref(xrefAt);
    await expectRefusedOrInvalid(pdf.bytes(), "flate bomb");
  });

  it("deep nesting", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    await expectRefusedOrInvalid(
      documentWith({ 4: deep }, "<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R /AcroForm << /Fields [4 0 R] >> >>"),
      "deep nesting",
    );
  });

  it("huge arrays", async () => {
    const huge = "[" + "0 ".repeat(1_500_000) + "]";
    await expectRefusedOrInvalid(
      documentWith({ 4: huge }, "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields 4 0 R >> >>"),
      "huge array",
    );
  });

  it("a truncated signed file", async () => {
    for (const keep of [0.5, 0.9, 0.999]) {
      await expectRefusedOrInvalid(
        once.bytes.subarray(0, Math.floor(once.bytes.length * keep)),
        `truncated to ${keep}`,
      );
    }
  });

  it("many revisions of changes after a signature", async () => {
    let pdf = once.bytes;
    for (let i = 0; i < 40; i++) pdf = appendUpdate(pdf, [{ num: 900 + i, body: `<< /N ${i} >>` }]);
    const r = await report(pdf);
    // Unreferenced new objects change nothing a viewer shows; after the last signature they are still harmless.
    expect(r.signers[0].modifications).toBe("none");
    expect(r.document.revisions).toBe(PdfReader.open(once.bytes).revisions.length + 40);
  });
});
