/**
 * Signet's verifier over ../shared/corpus/pdf-signed (PDFs signed by Adobe, iText, PDFBox,
 * pyHanko, DSS, OpenSSL-based tools...), compared with pdfsig per signature by field name
 * (scripts/verify-agreement.ts computes it and states its denominator), and the published
 * attack samples of the corpus judged as they must be. Every disagreement with pdfsig is
 * listed below with its reason, and the reason is checked.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  computeAgreement,
  CORPUS,
  describeRow,
  pdfsigAvailable,
  type Agreement,
  type AgreementRow,
} from "../../scripts/verify-agreement";
import { SignetError } from "../../src/errors";
import { PdfReader } from "../../src/pdf/reader";
import { evaluateByteRange } from "../../src/pdf/verify/byte-range";
import { findSignatureFields } from "../../src/pdf/verify/fields";
import { verifyPdf } from "../../src/pdf/verify/verify-pdf";

const hasCorpus = existsSync(CORPUS);
const hasPdfsig = pdfsigAvailable();
const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;
const tmp = mkdtempSync(join(tmpdir(), "signet-verify-corpus-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const read = (file: string) => new Uint8Array(readFileSync(join(CORPUS, file)));

/** OpenSSL's verdict on one signature's CMS over its signed bytes (signature and digest only, no chain). */
function opensslVerdict(file: string, field: string): boolean | null {
  if (!hasOpenssl) return null;
  const bytes = read(file);
  const reader = PdfReader.open(bytes);
  const f = findSignatureFields(reader).find((x) => x.fieldName === field);
  if (!f) return null;
  const range = evaluateByteRange(reader, f.sig);
  if (!range.ranges || !range.contents) return null;
  const [a, b, c, d] = range.ranges;
  writeFileSync(join(tmp, "sig.der"), range.contents);
  writeFileSync(join(tmp, "data.bin"), Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]));
  const r = spawnSync(
    "openssl",
    [
      "cms",
      "-verify",
      "-binary",
      "-noverify",
      "-inform",
      "DER",
      "-in",
      join(tmp, "sig.der"),
      "-content",
      join(tmp, "data.bin"),
      "-out",
      "/dev/null",
    ],
    {
      encoding: "utf8",
    },
  );
  const out = `${r.stdout}${r.stderr}`;
  if (/Verification successful/.test(out)) return true;
  if (/Verification failure|verify error|signature failure|digest failure/i.test(out)) return false;
  return null;
}

type Check = (row: AgreementRow) => boolean;
const hasProblem =
  (...codes: string[]): Check =>
  (row) =>
    codes.every((code) => row.signer?.problems.some((p) => p.code === code) ?? false);
const opensslAgrees: Check = (row) => opensslVerdict(row.file, row.field) === row.ours;

/**
 * Every signature where Signet and pdfsig disagree, why, and the check that the reason holds.
 * Signet says "not valid" where pdfsig misses an attack (pdfsig checks the CMS over the byte
 * ranges, never what the ranges leave out or how the file continues); Signet says "valid" where
 * pdfsig's NSS backend fails a signature that OpenSSL verifies.
 */
const EXPLAINED: Record<string, { why: string; check: Check }> = {
  "itext__SignatureWrappingAttackTest__siwa.pdf [Signature1]": {
    why: "signature wrapping: the unsigned gap holds more than /Contents (pdfsig only hashes the ranges)",
    check: hasProblem("byte_range_gap_mismatch"),
  },
  "mkl-pdfbox2__siwa_B.pdf [Signature1]": {
    why: "signature wrapping (PDF-Insecurity sample B)",
    check: hasProblem("byte_range_gap_mismatch"),
  },
  "mkl-pdfbox2__siwa_C.pdf [Signature1]": {
    why: "signature wrapping (PDF-Insecurity sample C)",
    check: hasProblem("byte_range_gap_mismatch"),
  },
  "mkl-pdfbox2__siwa_D.pdf [Signature1]": {
    why: "signature wrapping (PDF-Insecurity sample D)",
    check: hasProblem("byte_range_gap_mismatch"),
  },
  "mkl-pdfbox2__siwa_E.pdf [Signature1]": {
    why: "signature wrapping (PDF-Insecurity sample E)",
    check: hasProblem("byte_range_gap_mismatch"),
  },
  "pyhanko__coverage-anomalies__signature-gap-too-big.pdf [Sig1]": {
    why: "the gap is wider than the /Contents string (pyHanko's coverage anomaly)",
    check: hasProblem("byte_range_gap_mismatch"),
  },
  "pyhanko__coverage-anomalies__weird-byterange.pdf [Sig1]": {
    why: "/ByteRange [0 10 20 30] leaves almost the whole file, /Contents included, outside the ranges",
    check: hasProblem("byte_range_gap_mismatch"),
  },
  "pyhanko__coverage-anomalies__one-byterange.pdf [Sig1]": {
    why: "/ByteRange has two numbers instead of four",
    check: hasProblem("byte_range_invalid"),
  },
  "pyhanko__coverage-anomalies__tail-uncovered.pdf [Sig1]": {
    why: "the ranges stop before the end of the revision they sign: the tail is unsigned",
    check: (row) => row.signer?.coverage === "partial" && hasProblem("coverage_partial")(row),
  },
  "dss__pades-spoofing-replaced-reason.pdf [Signature1]": {
    why: "the signature dictionary was replaced in a later revision (DSS's spoofing sample): the /Contents shown is not the signed one",
    check: hasProblem("signature_dictionary_rewritten"),
  },
  "itext__DocumentRevisionsValidatorIntegrationTest__lockedSignatureFieldModified.pdf [Signature2]": {
    why: "the signature dictionary was rewritten after signing (iText's locked-field test)",
    check: hasProblem("signature_dictionary_rewritten"),
  },
  "dss__pades-enveloping-cms.pdf [Signature1]": {
    why: "the CMS encapsulates the signed bytes (eContent = byte ranges) and its message digest matches; pdfsig treats any eContent as an embedded SHA-1 digest",
    check: (row) => row.ours === true,
  },
  "itext__extensions__sample-brainpoolP384r1-sha384.pdf [Signature]": {
    why: "brainpool: OpenSSL verifies it; NSS lacks the curve",
    check: opensslAgrees,
  },
  "mkl-itext5__sampleECDSA.pdf [Signature1]": {
    why: "OpenSSL verifies it; pdfsig's NSS does not",
    check: opensslAgrees,
  },
};

const key = (r: AgreementRow) => `${r.file} [${r.field}]`;

describe.skipIf(!hasCorpus || !hasPdfsig)("Signet verify vs pdfsig over the signed corpus", () => {
  let a: Agreement;
  beforeAll(async () => {
    a = await computeAgreement();
    const lines = [
      `pdfsig lists ${a.rows.length} signature fields in ${a.files} files; verdicts on ${a.rows.filter((r) => r.verdict !== null).length}; both list ${a.judged.length}`,
      `agreement ${a.agree.length}/${a.judged.length} = ${(a.rate * 100).toFixed(1)} %`,
      ...a.disagree.map((r) => `  DISAGREE ${describeRow(r)} — ${EXPLAINED[key(r)]?.why ?? "UNEXPLAINED"}`),
      ...a.unmatched.map((r) => `  UNMATCHED ${describeRow(r)}`),
    ];
    console.log(lines.join("\n"));
  }, 600_000);

  it("agrees with pdfsig on at least 95 % of the signatures where pdfsig reaches a verdict", () => {
    expect(a.judged.length).toBeGreaterThan(400);
    expect(a.rate).toBeGreaterThanOrEqual(0.95);
  });

  it("lists every signature pdfsig reaches a verdict on", () => {
    expect(a.unmatched.map(describeRow)).toEqual([]);
  });

  it("explains every disagreement, and each explanation holds", () => {
    expect(a.disagree.filter((r) => !EXPLAINED[key(r)]).map(describeRow)).toEqual([]);
    for (const r of a.disagree) expect(EXPLAINED[key(r)]!.check(r), `${key(r)}: ${EXPLAINED[key(r)]!.why}`).toBe(true);
    // No stale entries: each explained signature still disagrees.
    expect(Object.keys(EXPLAINED).filter((k) => !a.disagree.some((r) => key(r) === k))).toEqual([]);
  });
});

describe.skipIf(!hasCorpus)("the corpus's attack samples and every other file", () => {
  const verify = (file: string) => verifyPdf(read(file), { trustAnchors: [] });

  it("incremental saving attacks (PDF-Insecurity ISA samples) are modifications after signing", async () => {
    const files = readdirSync(CORPUS).filter((f) => /isa_[A-Z]\.pdf$|IncrementalSavingAttackTest__isa/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const r = await verify(f);
      expect(r.valid, f).toBe(false);
      expect(
        r.signers.some((s) => s.modifications === "other" || s.coverage === "partial" || s.coverage === "unclear"),
        f,
      ).toBe(true);
    }
  });

  it("signature wrapping samples are caught by the hole check", async () => {
    for (const f of readdirSync(CORPUS).filter((x) => /siwa/.test(x))) {
      const r = await verify(f);
      expect(r.valid, f).toBe(false);
      expect(r.signers[0]!.coverage, f).toBe("unclear");
    }
  });

  it("shadow attack samples are changes after signing", async () => {
    for (const f of [
      "mkl-itext5__hide-and-replace-shadow-file-signed-2.pdf",
      "mkl-itext5__hide-and-replace-shadow-file-signed-3.pdf",
      "dss__dss-2236__hide.pdf",
    ]) {
      const r = await verify(f);
      expect(r.valid, f).toBe(false);
      expect(r.signers[0]!.modifications, f).toBe("other");
    }
    // The replace sample fills a form field after the only signature.
    const replace = await verify("dss__dss-2236__replace.pdf");
    expect(replace.signers[0]!.modifications).toBe("form_filling");
    expect(replace.signers[0]!.problems.map((p) => p.code)).toContain("changed_after_last_signature");
  });

  it("a signed file encrypted with an owner password only (RC4 128) verifies through the decryption handler", async () => {
    const r = await verify("dss__encrypted.pdf");
    expect(r.signers[0]).toMatchObject({
      intact: true,
      signatureValid: true,
      coverage: "entire_file",
      modifications: "none",
    });
  });

  it("every file verifies or is refused with a problem code, never an internal error", async () => {
    const refused: string[] = [];
    for (const f of readdirSync(CORPUS).filter((x) => x.endsWith(".pdf"))) {
      try {
        const r = await verify(f);
        expect(typeof r.reason, f).toBe("string");
        expect(r.document.signatureCount, f).toBe(r.signers.length);
      } catch (e) {
        expect(e, f).toBeInstanceOf(SignetError);
        refused.push(`${f}: ${(e as SignetError).code}`);
      }
    }
    // Files needing a user password (or a public-key handler), and one that is not a PDF.
    expect(refused.length).toBeLessThanOrEqual(10);
    expect(refused.every((r) => /pdf_encrypted|pdf_unparseable/.test(r))).toBe(true);
  }, 300_000);
});
