/**
 * A key held in (the loopback) AWS KMS signs through `wrangler dev` configured as a deployment
 * would be (SIGNING_KMS=aws, AWS_* settings, SIGNING_CERT issued for the KMS key's public key),
 * and validators we did not write accept the output: pdfsig (trusting the test KMS CA), `mutool
 * sign -v`, `qpdf --check` and `openssl cms -verify`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { kmsVars, type KmsFixtureKey } from "../support/kms-vars";
import { startService, type RunningService } from "./support/service";
import { nssDbTrusting, parsePdfsig, signatures, tool } from "./support/validators";

const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "signet-kms-"));
const kms = inject("kms");

const KEYS: { name: string; key: KmsFixtureKey; extra?: Record<string, string>; hash: string; type: string }[] = [
  { name: "RSA 2048 PKCS#1 v1.5", key: kms.keys.rsa, hash: "SHA-256", type: "RSA" },
  {
    name: "RSA 2048 PSS",
    key: kms.keys.rsa,
    extra: { AWS_KMS_SIGNING_ALGORITHM: "RSASSA_PSS_SHA_256" },
    hash: "SHA-256",
    type: "RSA",
  },
  { name: "ECDSA P-256", key: kms.keys.p256, hash: "SHA-256", type: "ECDSA" },
  { name: "ECDSA P-384", key: kms.keys.p384, hash: "SHA-384", type: "ECDSA" },
];

let nssdb: string;
const caFile = join(work, "kms-ca.pem");
beforeAll(async () => {
  nssdb = await nssDbTrusting(kms.caPem);
  writeFileSync(caFile, kms.caPem);
}, 60_000);

describe.each(KEYS)("a document signed with the KMS key ($name) through wrangler dev", ({ name, key, extra, hash }) => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService(kmsVars(kms, key, extra));
  }, 180_000);
  afterAll(async () => svc?.stop());

  it("validates in pdfsig, mutool sign -v, qpdf --check and openssl cms -verify", async () => {
    const input = readFileSync(join(CORPUS, "pdf-plain/pdf20examples__Simple_PDF_2.0_file.pdf"));
    const res = await fetch(`${svc.baseUrl}/v1/sign`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
      body: JSON.stringify({
        document: { base64: input.toString("base64") },
        signer: { name: "Ada Lovelace", email: "ada@example.com" },
        auditTrail: [{ type: "submit", timestamp: "2026-11-27T10:00:00Z" }],
      }),
    });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    const file = join(work, `${name.replace(/\W+/g, "-")}.pdf`);
    writeFileSync(file, Buffer.from(body.document.base64.split(",")[1], "base64"));

    const pdfsig = await tool("pdfsig", ["-nssdir", nssdb, file]);
    const [sig] = parsePdfsig(pdfsig.out).filter((s) => s.signed);
    expect(sig, pdfsig.out).toMatchObject({
      validation: "Signature is Valid.",
      certificate: "Certificate is Trusted.",
      totalDocument: true,
    });
    expect(pdfsig.out).toContain(`Signing Hash Algorithm: ${hash}`);
    expect(pdfsig.out).toMatch(/Signer Certificate Common Name: Signet KMS Signer/);

    const mutool = await tool("mutool", ["sign", "-v", file]);
    if (extra?.AWS_KMS_SIGNING_ALGORITHM === "RSASSA_PSS_SHA_256") {
      // MuPDF 1.21 verifies through OpenSSL's PKCS7 API, which has no RSA-PSS: it says the same of
      // iText's reference PSS signature (that pdfsig and openssl accept).
      const reference = await tool("mutool", [
        "sign",
        "-v",
        join(CORPUS, "pdf-signed/itext__RSASSAPSSTest__cmp_simplePssSignature.pdf"),
      ]);
      expect(reference.out).toContain("Digest error: Unknown error.");
      expect(mutool.out).toContain("Digest error: Unknown error.");
    } else {
      expect(mutool.out).toContain("The document is unchanged since signing.");
      expect(mutool.out).not.toMatch(/Signature error|Digest error/i);
    }

    const qpdf = await tool("qpdf", ["--check", file]);
    expect(qpdf.code, qpdf.out).toBe(0);

    const [s] = signatures(readFileSync(file));
    writeFileSync(`${file}.p7s`, s!.cms);
    writeFileSync(`${file}.content`, s!.signed);
    const openssl = await tool("openssl", [
      "cms",
      "-verify",
      "-binary",
      "-inform",
      "DER",
      "-in",
      `${file}.p7s`,
      "-content",
      `${file}.content`,
      "-CAfile",
      caFile,
      "-purpose",
      "any",
      "-out",
      "/dev/null",
    ]);
    expect(openssl.out, openssl.out).toMatch(/Verification successful/);
  });
});
