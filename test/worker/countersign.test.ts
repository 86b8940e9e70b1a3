/**
 * Documents with several signers: what Signet adds to an input that already carries signatures
 * (a signature field with the signer's evidence inside its appearance, nothing else), and how its
 * verifier judges the result, whoever signed first. The other signer is a second test CA here;
 * test/node/countersign-validators.test.ts repeats this with poppler as the first signer and checks
 * the output with pdfsig, mutool and a model of pyHanko's difference analysis.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { toPem } from "../../src/cms/pem";
import { createApp } from "../../src/http/app";
import type { PdfDict } from "../../src/pdf/model";
import { PdfReader } from "../../src/pdf/reader";
import { serializePdfValue } from "../../src/pdf/serialize";
import { appearanceFiles, fileSpecName } from "../../src/pdf/sign/inspect";
import { findSignatureFields } from "../../src/pdf/verify/fields";
import { basePdf, makeSigner, signForTest, type TestSigner } from "../support/signed-pdfs";
import { auditTrail, b64, corpusPdf, fromDataUri, latin1, post, problem, signer, signRequest } from "./helpers";

const ALLOWED = ["none", "signatures", "form_filling"];

let customer: TestSigner;
let first: Uint8Array;

beforeAll(async () => {
  customer = await makeSigner("Customer Signer");
  first = (await signForTest(basePdf(), { signer: customer, fieldName: "Customer" })).bytes;
});

async function sign(pdf: Uint8Array, extra: Record<string, unknown> = {}): Promise<{ bytes: Uint8Array; body: any }> {
  const res = await post("/v1/sign", signRequest(pdf, extra));
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  return { bytes: fromDataUri(body.document.base64), body };
}

/** /v1/verify of a deployment that also trusts the other signer's CA (TRUSTED_ROOTS). */
async function verifyTrusting(pdf: Uint8Array, roots: Uint8Array[]): Promise<any> {
  const res = await createApp().request(
    "/v1/verify",
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ document: { base64: b64(pdf) } }),
    },
    { ...env, TRUSTED_ROOTS: roots.map((r) => toPem("CERTIFICATE", r)).join("") },
  );
  expect(res.status).toBe(200);
  return res.json();
}

/** Object numbers an incremental update defines (its own cross-reference data, read by our reader). */
function updatedObjects(pdf: Uint8Array): number[] {
  const reader = PdfReader.open(pdf);
  return [...reader.revisions.at(-1)!.entries.keys()].sort((a, b) => a - b);
}

describe("a document another signer signed first, then Signet once and twice", () => {
  let once: { bytes: Uint8Array; body: any };
  let twice: { bytes: Uint8Array; body: any };

  beforeAll(async () => {
    once = await sign(first, { eventId: "evt-counter-1", metadata: { party: "supplier" } });
    twice = await sign(once.bytes, {
      eventId: "evt-counter-2",
      signer: { name: "Grace Hopper", email: "grace@example.com" },
    });
  });

  it("keeps every signature valid, with modifications at most form filling", async () => {
    const r = await verifyTrusting(twice.bytes, [customer.root]);
    expect(r.reason).toBe("All 3 signature(s) are intact, cover the document and chain to a trusted root.");
    expect(r.valid).toBe(true);
    expect(r.signers.map((s: any) => [s.name, s.coverage, s.modifications])).toEqual([
      ["Customer Signer", "entire_revision", "signatures"],
      [signer.name, "entire_revision", "signatures"],
      ["Grace Hopper", "entire_file", "none"],
    ]);
    for (const s of r.signers) expect(ALLOWED).toContain(s.modifications);
  });

  it("returns each Signet signer's evidence from its own signature, none for the other signer", async () => {
    const r = await verifyTrusting(twice.bytes, [customer.root]);
    expect(r.signers.map((s: any) => s.eventId)).toEqual([null, "evt-counter-1", "evt-counter-2"]);
    expect(r.signers[1]).toMatchObject({ metadata: { party: "supplier" }, auditTrail });
    expect(r.signers[2].auditTrail).toEqual(auditTrail);
    expect(r.document).toMatchObject({ eventId: "evt-counter-2", auditTrail, signatureCount: 3 });
    // Where a reader finds it: the signature field's widget appearance, /AF.
    const reader = PdfReader.open(twice.bytes);
    const names = findSignatureFields(reader).map((f) =>
      appearanceFiles(reader, f.field).map((spec) => fileSpecName(reader, spec)),
    );
    expect(names).toEqual([[], ["signet-audit.json"], ["signet-audit-2.json"]]);
  });

  it("adds no page and leaves the catalog as signed, and says why there is no certificate page", async () => {
    for (const [input, out] of [
      [first, once],
      [once.bytes, twice],
    ] as const) {
      expect(out.bytes.subarray(0, input.length)).toEqual(input);
      expect(PdfReader.open(out.bytes).pages().length).toBe(PdfReader.open(input).pages().length);
      // The catalog changes at most in /AcroForm (direct here, so it gains the new field).
      const withoutForm = (pdf: Uint8Array) =>
        serializePdfValue(PdfReader.open(pdf).catalog().with({ AcroForm: undefined }));
      expect(withoutForm(out.bytes)).toBe(withoutForm(input));
      expect(latin1(out.bytes.subarray(input.length))).not.toMatch(/\/EmbeddedFiles|\/Names[\s<]/);
      const sigFlags = (pdf: Uint8Array) => {
        const r = PdfReader.open(pdf);
        return (r.resolve(r.catalog().get("AcroForm")) as PdfDict).get("SigFlags");
      };
      expect(sigFlags(out.bytes)).toBe(sigFlags(input));
      expect(out.body.warnings).toHaveLength(1);
      expect(out.body.warnings[0]).toMatch(
        /^The document already carries (a signature|2 signatures): Signet did not append the certificate page/,
      );
    }
  });

  it("certificate.enabled: false changes nothing that is judged, only the warning", async () => {
    const without = await sign(first, { certificate: { enabled: false } });
    expect(without.body.warnings).toEqual([]);
    expect(updatedObjects(without.bytes)).toEqual(updatedObjects(once.bytes));
    const a = await verifyTrusting(once.bytes, [customer.root]);
    const b = await verifyTrusting(without.bytes, [customer.root]);
    expect(b.signers.map((s: any) => [s.coverage, s.modifications, s.valid])).toEqual(
      a.signers.map((s: any) => [s.coverage, s.modifications, s.valid]),
    );
    expect(b.valid).toBe(true);
  });

  it("a certified (DocMDP P2) document keeps its certification valid and gets the evidence too", async () => {
    const certified = (await signForTest(basePdf(), { signer: customer, docMdp: 2 })).bytes;
    const out = await sign(certified, { eventId: "evt-counter-p2" });
    const r = await verifyTrusting(out.bytes, [customer.root]);
    expect(r.valid).toBe(true);
    expect(r.signers.map((s: any) => [s.modifications, s.eventId])).toEqual([
      ["signatures", null],
      ["none", "evt-counter-p2"],
    ]);
  });
});

describe("third-party signed corpus files countersigned by Signet", () => {
  // pyHanko (a widget in an indirect /Kids), iText (PAdES, DSS), endesive (Acrobat-made), and a
  // second signature pyHanko added after a /Extensions update.
  const FILES = [
    "pyhanko__separate-annots-kids-indir.pdf",
    "pyhanko__extensions-update-indirect.pdf",
    "itext__PdfASigningTest__cmp_signPdfCades.pdf",
    "endesive__pdf-acrobat.pdf",
  ];

  it.each(FILES)(
    "%s: every earlier signature keeps its verdict, with modifications at most form filling",
    async (name) => {
      const input = await corpusPdf(name, { signed: true });
      const before = (await (
        await post("/v1/verify", { document: { base64: b64(input) } }, { key: null })
      ).json()) as any;
      const out = await sign(input, { eventId: `evt-${name}` });
      const after = (await (
        await post("/v1/verify", { document: { base64: b64(out.bytes) } }, { key: null })
      ).json()) as any;
      expect(after.signers).toHaveLength(before.signers.length + 1);
      before.signers.forEach((s: any, i: number) => {
        const t = after.signers[i];
        expect(t.fieldName).toBe(s.fieldName);
        expect(ALLOWED).toContain(t.modifications);
        expect(t.problems.map((p: any) => p.code)).not.toContain("modified_after_signing");
        expect([t.intact, t.signatureValid, t.coverage === "partial"]).toEqual([
          s.intact,
          s.signatureValid,
          s.coverage === "partial",
        ]);
      });
      expect(after.signers.at(-1)).toMatchObject({
        modifications: "none",
        coverage: "entire_file",
        intact: true,
        signatureValid: true,
        eventId: `evt-${name}`,
      });
    },
  );
});

describe("verifier defects found by the same cross-check", () => {
  const verify = async (pdf: Uint8Array) =>
    (await (await post("/v1/verify", { document: { base64: b64(pdf) } }, { key: null })).json()) as any;

  it.each(["pyhanko__separate-annots-kids-indir.pdf", "pyhanko__extensions-update-indirect.pdf"])(
    "%s: the legitimate second signature is a signature, not other",
    async (name) => {
      const r = await verify(await corpusPdf(name, { signed: true }));
      expect(r.signers[0].modifications).toBe("signatures");
      expect(r.signers[0].problems.map((p: any) => p.code)).not.toContain("modified_after_signing");
    },
  );

  it("itext removeDSS: taking the DSS away after signatures is a change to them", async () => {
    const r = await verify(await corpusPdf("itext__DocumentRevisionsValidatorTest__removeDSS.pdf", { signed: true }));
    expect(r.valid).toBe(false);
    expect(r.signers.slice(1).map((s: any) => s.modifications)).toEqual(["other", "other"]);
    expect(r.signers[1].problems).toContainEqual(
      expect.objectContaining({ code: "modified_after_signing", message: expect.stringMatching(/DSS\) was removed/) }),
    );
  });

  it.each([
    "dss__dss-1420__PAdES-BpB-att-SHA256-SHA3_224withRSA.pdf",
    "dss__dss-1420__PAdES-BpB-att-SHA256-SHA3_256withRSA.pdf",
    "itext__SignatureValidatorIntegrationTest__revDataInTheSignatureContainer.pdf",
    "itext__TwoPhaseSigningTest__cmp_2PhaseCompleteCycleCMS.pdf",
    "mkl-itext5__form__prueba_xfa.pdf",
  ])("%s: a signature computed under another hash than its algorithm names is not valid", async (name) => {
    const r = await verify(await corpusPdf(name, { signed: true }));
    const s = r.signers.find((x: any) => x.problems.some((p: any) => p.code === "signature_algorithm_mismatch"));
    expect(s).toBeDefined();
    expect(s.signatureValid).toBe(false);
    expect(s.problems.find((p: any) => p.code === "signature_algorithm_mismatch").severity).toBe("error");
    expect(r.valid).toBe(false);
  });

  it("the first 300 bytes of a signed PDF (a header and a catalog cut short, no page tree) are 422 pdf_unparseable", async () => {
    const cut = (await corpusPdf("itext__extensions__sample-ed25519-sha512.pdf", { signed: true })).subarray(0, 300);
    expect(latin1(cut)).toContain("/Type /Catalog");
    const res = await post("/v1/verify", { document: { base64: b64(cut) } }, { key: null });
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("pdf_unparseable");
  });
});
