/**
 * Verification with revocation, levels and ETSI indications, through the real service:
 * files signed by it with the test PKI of global-setup, verified offline (the file's own
 * validation data) and online (VERIFY_ONLINE_REVOCATION=true: the openssl ocsp responder
 * and the CRLs of the fixture server).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pki, revoke, serviceFor, signWith, stopServices, verifyWith } from "./support/long-term";
import { nssDbTrusting, parsePdfsig, tool } from "./support/validators";

const work = mkdtempSync(join(tmpdir(), "signet-verify-ltv-"));
afterAll(stopServices);

/** A verifier that trusts the PKI's root, offline or online. */
const verifier = (online: boolean) =>
  serviceFor("good", { TRUSTED_ROOTS: pki.rootPem, ...(online ? { VERIFY_ONLINE_REVOCATION: "true" } : {}) });

describe("a B-LTA signature verified offline", () => {
  let report: any;
  let pdf: Buffer;
  beforeAll(async () => {
    const signed = await signWith(await serviceFor("good"), "B-LTA");
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    pdf = signed.pdf!;
    const r = await verifyWith(await verifier(false), pdf);
    expect(r.status).toBe(200);
    report = r.body;
  }, 240_000);

  it("is valid, level B-LTA, TOTAL_PASSED", () => {
    expect(report.valid, report.reason).toBe(true);
    const s = report.signers[0];
    expect(s.kind).toBe("signature");
    expect(s.level).toBe("B-LTA");
    expect(s.indication).toBe("TOTAL_PASSED");
    expect(s.subIndication).toBeNull();
  });

  it("reports every certificate of the signer's and the time-stamp authority's chains as good, from the DSS", () => {
    const rev = report.signers[0].revocation as any[];
    const subjects = rev.map((r) => `${r.chain}:${r.subject}`);
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^signer:.*Signet Test good/),
        expect.stringMatching(/^signer:.*Intermediate CA/),
        expect.stringMatching(/^timestamp:.*Signet Test tsa/),
      ]),
    );
    for (const r of rev) {
      expect(r.status).toBe("good");
      expect(r.source).toBe("dss");
      expect(r.thisUpdate).toMatch(/^\d{4}-/);
    }
    expect(rev.some((r) => r.producedAt !== null)).toBe(true); // OCSP for the leaves
    expect(rev.some((r) => r.producedAt === null)).toBe(true); // CRL for the intermediate
  });

  it("lists and verifies the document time-stamp", () => {
    const ts = report.signers[1];
    expect(ts.kind).toBe("timestamp");
    expect(ts.subFilter).toBe("ETSI.RFC3161");
    expect(ts.intact && ts.signatureValid && ts.trusted).toBe(true);
    expect(ts.level).toBeNull();
    expect(ts.indication).toBe("TOTAL_PASSED");
  });

  it("stays valid after a second Signet signature, for Signet and for pdfsig", async () => {
    // Without a certificate page: pages added after a signature fail it (EU DSS: FORMAT_FAILURE).
    const second = await signWith(await serviceFor("good"), "B-LTA", pdf, { certificate: { enabled: false } });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const r = await verifyWith(await verifier(false), second.pdf!);
    expect(r.body.valid, r.body.reason).toBe(true);
    const signatures = r.body.signers.filter((s: any) => s.kind === "signature");
    expect(signatures).toHaveLength(2);
    expect(signatures[0].intact && signatures[0].signatureValid).toBe(true);
    expect(signatures[0].indication).toBe("TOTAL_PASSED");
    expect(signatures[1].level).toBe("B-LTA");
    const file = join(work, "two-lta.pdf");
    writeFileSync(file, second.pdf!);
    const pdfsig = parsePdfsig((await tool("pdfsig", ["-nssdir", await nssDbTrusting(pki.rootPem), file])).out);
    expect(pdfsig.filter((s) => s.signed && s.validation === "Signature is Valid.").length).toBeGreaterThanOrEqual(2);
  });
});

describe("revoked and expired signers", () => {
  it("a signer revoked before signing: revoked (OCSP, online), INDETERMINATE / REVOKED_NO_POE", async () => {
    const signed = await signWith(await serviceFor("revoked"), "B-T");
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const r = await verifyWith(await verifier(true), signed.pdf!);
    const s = r.body.signers[0];
    const leaf = s.revocation.find((x: any) => x.chain === "signer" && /Signet Test revoked/.test(x.subject));
    expect(leaf).toMatchObject({ status: "revoked", source: "ocsp" });
    expect(Date.parse(leaf.revocationTime)).toBeLessThanOrEqual(Date.parse(s.signedAt));
    expect(s.indication).toBe("INDETERMINATE");
    expect(s.subIndication).toBe("REVOKED_NO_POE");
  });

  it("offline, without validation data in the file, the same signature is INDETERMINATE / TRY_LATER", async () => {
    const signed = await signWith(await serviceFor("revoked"), "B-T");
    const r = await verifyWith(await verifier(false), signed.pdf!);
    const s = r.body.signers[0];
    expect(s.level).toBe("B-T");
    expect(s.revocation.every((x: any) => x.source === "none" && x.status === "unknown")).toBe(true);
    expect(s.subIndication).toBe("TRY_LATER");
  });

  it("refuses to make B-LT with a revoked signing certificate", async () => {
    const signed = await signWith(await serviceFor("revoked"), "B-LT");
    expect(signed.status).toBe(503);
    expect(signed.body.code).toBe("configuration_error");
    expect(signed.body.detail).toMatch(/revoked/);
  });

  it("a certificate revoked after a time-stamp proved the signature existed stays valid (TOTAL_PASSED)", async () => {
    const signed = await signWith(await serviceFor("revocable"), "B-T");
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    // Revocation times have whole seconds: revoke a clear second after the time-stamp.
    await new Promise((r) => setTimeout(r, 1500));
    await revoke("revocable");
    const r = await verifyWith(await verifier(true), signed.pdf!);
    const s = r.body.signers[0];
    const leaf = s.revocation.find((x: any) => x.chain === "signer" && /Signet Test revocable/.test(x.subject));
    expect(leaf.status).toBe("revoked");
    expect(Date.parse(leaf.revocationTime)).toBeGreaterThan(Date.parse(s.timestamp.time));
    expect(s.indication).toBe("TOTAL_PASSED");
    expect(r.body.valid, r.body.reason).toBe(true);
  });

  it("an expired signer: OUT_OF_BOUNDS at the time-stamp", async () => {
    const signed = await signWith(await serviceFor("expired"), "B-T");
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const r = await verifyWith(await verifier(true), signed.pdf!);
    const s = r.body.signers[0];
    expect(s.indication).toBe("INDETERMINATE");
    expect(s.subIndication).toMatch(/^OUT_OF_BOUNDS_(NO_POE|NOT_REVOKED)$/);
    expect(r.body.valid).toBe(false);
  });
});
