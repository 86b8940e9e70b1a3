/**
 * The public PDF signature attack suites, run as they were published (test/data/attacks, see the
 * README there): the RUB-NDS pdf-attacker shadow-attack demos, where every manipulated file must
 * be invalid and every signed control valid, and the RUB-NDS PDF-Tester certification (DocMDP P2)
 * examples. The suites sign with self-signed demo keys; their certificates (taken from the signed
 * controls) are the trust anchors here, as the suites tell their users to trust them.
 *
 * Also the corpus's incremental-saving samples whose last revision only a rebuilding reader sees
 * (objects after %%EOF without a cross-reference section): Signet refuses to sign them, and when
 * another tool signs them anyway, the earlier tampering stays in the verdict.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCertificatesPem } from "../../src/cms/pem";
import { SignetError } from "../../src/errors";
import { PdfReader } from "../../src/pdf/reader";
import { inspectForSigning } from "../../src/pdf/sign/inspect";
import type { VerifyReport } from "../../src/pdf/verify/status";
import { makeSigner, signForTest, type TestSigner } from "../support/signed-pdfs";
import { verifyPdf } from "../../src/pdf/verify/verify-pdf";

const DATA = new URL("../data/attacks/", import.meta.url).pathname;
const ATTACKER = join(DATA, "pdf-attacker");
const TESTER = join(DATA, "pdf-tester");
const CORPUS = new URL("../../../shared/corpus/pdf-signed/", import.meta.url).pathname;

const anchors = (suite: string) =>
  parseCertificatesPem(readFileSync(join(suite, "signer-certificates.pem"), "utf8"), "test");
const read = (path: string) => new Uint8Array(readFileSync(path));

function pdfsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return pdfsUnder(p);
    return name.endsWith(".pdf") ? [p] : [];
  });
}

const errorCodes = (r: VerifyReport, i: number) =>
  r.signers[i]!.problems.filter((p) => p.severity === "error").map((p) => p.code);

describe("RUB-NDS pdf-attacker shadow-attack demos", () => {
  const files = pdfsUnder(ATTACKER);
  const trusted = anchors(ATTACKER);

  it("holds the suite: hide, replace and hide-and-replace, seven variants, each a signed control and its manipulated files", () => {
    expect(files.filter((f) => /\/3_[^/]*signed\.pdf$/.test(f))).toHaveLength(7);
    expect(files.filter((f) => /\/4_[^/]*manipulated[^/]*\.pdf$/.test(f))).toHaveLength(8);
  });

  it("every signed control (3_*signed) is valid: one signature over the whole file, nothing changed", async () => {
    for (const f of files.filter((x) => /\/3_[^/]*signed\.pdf$/.test(x))) {
      const r = await verifyPdf(read(f), { trustAnchors: trusted });
      const name = relative(ATTACKER, f);
      expect(r.valid, `${name}: ${r.reason}`).toBe(true);
      expect(r.signers[0], name).toMatchObject({
        coverage: "entire_file",
        modifications: "none",
        intact: true,
        trusted: true,
      });
    }
  });

  it("every manipulated file (4_*manipulated*) is invalid because of what changed after signing, the signature itself intact", async () => {
    for (const f of files.filter((x) => /\/4_[^/]*manipulated[^/]*\.pdf$/.test(x))) {
      const r = await verifyPdf(read(f), { trustAnchors: trusted });
      const name = relative(ATTACKER, f);
      expect(r.valid, name).toBe(false);
      // The signature still verifies and is trusted: only the difference analysis can catch these.
      expect(r.signers[0], name).toMatchObject({
        coverage: "entire_revision",
        intact: true,
        signatureValid: true,
        trusted: true,
      });
      expect(["other", "annotations"], name).toContain(r.signers[0]!.modifications);
      expect(
        errorCodes(r, 0).some((c) => c === "modified_after_signing" || c === "changed_after_last_signature"),
        name,
      ).toBe(true);
    }
  });

  it("hide, variant 1: a later cross-reference entry pointing into another object is a change, not a fallback to the signed object", async () => {
    for (const v of ["v1", "v2"]) {
      const r = await verifyPdf(
        read(
          join(
            ATTACKER,
            `hide/variant-1_hide-via-referenced-object/4_original-document-shadowed-signed-manipulated_${v}.pdf`,
          ),
        ),
        {
          trustAnchors: trusted,
        },
      );
      expect(r.signers[0]!.modifications, v).toBe("other");
      expect(r.reason, v).toMatch(/cross-reference entry of .* was pointed at bytes that are not that object/);
    }
  });

  it("hide, variant 2 (form via form): entries pointing into another object and past the end of the file are changes", async () => {
    const r = await verifyPdf(
      read(
        join(
          ATTACKER,
          "hide/variant-2_hide-via-referenced-object/hide-form-via-form/4_original-document-shadowed-signed-manipulated.pdf",
        ),
      ),
      {
        trustAnchors: trusted,
      },
    );
    expect(r.valid).toBe(false);
    expect(r.signers[0]!.modifications).toBe("other");
    expect(r.reason).toMatch(
      /cross-reference entry of form field "recipientname" was pointed at bytes that are not that object/,
    );
  });
});

describe("RUB-NDS PDF-Tester certification (DocMDP P2) examples", () => {
  const trusted = anchors(TESTER);
  const verify = (file: string) => verifyPdf(read(join(TESTER, file)), { trustAnchors: trusted });

  it("the certified NDA, and the NDA certified then signed by a second party, are valid", async () => {
    const certified = await verify("2/01_NDA_cert_p2_original.pdf");
    expect(certified.valid, certified.reason).toBe(true);
    const signed = await verify("2/02_NDA_cert_p2_sign_original.pdf");
    expect(signed.valid, signed.reason).toBe(true);
    expect(signed.signers.map((s) => s.modifications)).toEqual(["signatures", "none"]);
  });

  it("03: a visible signature field with a handwriting image and no signature, added after the certification, is not allowed", async () => {
    const r = await verify("2/03_NDA_cert_p2_sign_manipulate.pdf");
    expect(r.valid).toBe(false);
    expect(r.signers).toHaveLength(1);
    expect(r.signers[0]).toMatchObject({ intact: true, signatureValid: true, trusted: true, modifications: "other" });
    expect(r.reason).toContain(
      'unsigned signature field "Signature" was changed after signing, which the certification of signature 1 (DocMDP P2',
    );
  });

  it("04: an unsigned field painting over the page, then a 'countersignature' whose value is no signature, is not allowed", async () => {
    const r = await verify("2/04_NDA_cert_p2_sign_sign_manipulate.pdf");
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ intact: true, signatureValid: true, trusted: true, modifications: "other" });
    const messages = r.signers[0]!.problems.map((p) => p.message).join(" ");
    expect(messages).toMatch(/unsigned signature field/i);
  });

  it("example 1 (SHA-1 signatures): the controls fail only on the weak hash; the manipulated file on what changed", async () => {
    for (const f of ["1/01_Test_cert_p2_original.pdf", "1/02_Test_cert_p2_sign_original.pdf"]) {
      const r = await verify(f);
      expect(r.valid, f).toBe(false);
      expect(r.reason, f).toContain("SHA-1");
      for (const s of r.signers) expect(["none", "signatures", "form_filling"], f).toContain(s.modifications);
    }
    const manipulated = await verify("1/03_Test_cert_p2_sign_manipulate.pdf");
    expect(manipulated.signers[0]!.modifications).toBe("other");
    expect(manipulated.reason).toContain('unsigned signature field "Signature4" was changed after signing');
  });
});

describe.skipIf(!existsSync(CORPUS))(
  "incremental saving samples whose last revision only a rebuilding reader sees",
  () => {
    let other: TestSigner;
    beforeAll(async () => {
      other = await makeSigner("Another Tool");
    });

    for (const name of ["mkl-pdfbox2__isa_H.pdf", "mkl-pdfbox2__isa_I.pdf"]) {
      it(`${name}: Signet refuses to sign it, since viewers show objects appended after %%EOF that a signature would hide`, () => {
        const reader = PdfReader.open(read(join(CORPUS, name)));
        let error: unknown;
        try {
          inspectForSigning(reader);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(SignetError);
        expect((error as SignetError).code).toBe("pdf_unparseable");
        expect((error as SignetError).message).toContain("no cross-reference section lists");
      });

      it(`${name}: signed anyway by another tool, the certification signature still reports the appended objects`, async () => {
        const signed = await signForTest(read(join(CORPUS, name)), { signer: other });
        const r = await verifyPdf(signed.bytes, { trustAnchors: [other.root] });
        expect(r.valid).toBe(false);
        expect(r.signers).toHaveLength(2);
        expect(r.signers[0]!.modifications).toBe("other");
        expect(r.signers[0]!.problems.map((p) => p.message).join(" ")).toMatch(
          /objects that no cross-reference section lists were added/i,
        );
        expect(r.signers[1]).toMatchObject({ coverage: "entire_file", intact: true, trusted: true });
      });
    }
  },
);
