import { describe, expect, it } from "vitest";
import { NO_FINDING, type RevocationFinding } from "../revocation/status";
import { parseCertificate, type ParsedCertificate } from "./certificate";
import { type IndicationFacts, etsiIndication } from "./indication";
import type { CertificateRevocation } from "./revocation";
import { makeCert, makeKey, name } from "../../../test/support/keys-certificates-cms";

const DAY = 86400_000;
const now = new Date();

async function cert(notBefore: Date, notAfter: Date): Promise<ParsedCertificate> {
  return parseCertificate(
    await makeCert({ subject: name("Indication Test"), key: await makeKey("P-256"), notBefore, notAfter }),
  );
}

function finding(status: "good" | "revoked", extra: Partial<RevocationFinding> = {}): RevocationFinding {
  return {
    ...NO_FINDING,
    status,
    source: "dss",
    kind: "ocsp",
    verified: true,
    thisUpdate: new Date(now.getTime() - DAY),
    nextUpdate: new Date(now.getTime() + DAY),
    ...extra,
  };
}

function facts(
  signer: ParsedCertificate,
  revocation: RevocationFinding,
  over: Partial<IndicationFacts> = {},
): IndicationFacts {
  const r: CertificateRevocation = {
    certificate: signer,
    chain: "signer",
    finding: revocation,
    embedded: [revocation],
    noCheck: false,
  };
  return {
    wellFormed: true,
    modificationsAllowed: true,
    signer,
    signingCertificateMismatch: false,
    intact: true,
    signatureValid: true,
    weakAlgorithm: false,
    anchored: true,
    chainConstraintProblem: false,
    revocation: [r],
    bestSignatureTime: null,
    now,
    ...over,
  };
}

describe("ETSI EN 319 102-1 indications", () => {
  it("passes a trusted, intact signature whose certificate is good", async () => {
    const c = await cert(new Date(now.getTime() - 10 * DAY), new Date(now.getTime() + 10 * DAY));
    expect(etsiIndication(facts(c, finding("good")))).toEqual({ indication: "TOTAL_PASSED", subIndication: null });
  });

  it("fails on the bytes and the signature value before anything else", async () => {
    const c = await cert(new Date(now.getTime() - 10 * DAY), new Date(now.getTime() + 10 * DAY));
    expect(etsiIndication(facts(c, finding("good"), { intact: false })).subIndication).toBe("HASH_FAILURE");
    expect(etsiIndication(facts(c, finding("good"), { signatureValid: false })).subIndication).toBe(
      "SIG_CRYPTO_FAILURE",
    );
    expect(etsiIndication(facts(c, finding("good"), { wellFormed: false })).subIndication).toBe("FORMAT_FAILURE");
    expect(etsiIndication(facts(c, finding("good"), { anchored: false }))).toEqual({
      indication: "INDETERMINATE",
      subIndication: "NO_CERTIFICATE_CHAIN_FOUND",
    });
  });

  it("a certificate revoked after the best-signature-time does not fail the signature; revoked before, it has no POE", async () => {
    const c = await cert(new Date(now.getTime() - 10 * DAY), new Date(now.getTime() + 10 * DAY));
    const revoked = finding("revoked", { revocationTime: new Date(now.getTime() - DAY) });
    expect(etsiIndication(facts(c, revoked, { bestSignatureTime: new Date(now.getTime() - 2 * DAY) })).indication).toBe(
      "TOTAL_PASSED",
    );
    expect(etsiIndication(facts(c, revoked))).toEqual({ indication: "INDETERMINATE", subIndication: "REVOKED_NO_POE" });
    expect(
      etsiIndication(facts(c, revoked, { bestSignatureTime: new Date(now.getTime() - DAY / 2) })).subIndication,
    ).toBe("REVOKED_NO_POE");
  });

  it("an expired certificate passes with a proof of existence inside its validity, and is OUT_OF_BOUNDS without", async () => {
    const c = await cert(new Date(now.getTime() - 10 * DAY), new Date(now.getTime() - 5 * DAY));
    const good = finding("good", {
      thisUpdate: new Date(now.getTime() - 7 * DAY),
      nextUpdate: new Date(now.getTime() - 6 * DAY),
    });
    expect(etsiIndication(facts(c, good, { bestSignatureTime: new Date(now.getTime() - 7 * DAY) })).indication).toBe(
      "TOTAL_PASSED",
    );
    expect(etsiIndication(facts(c, good)).subIndication).toBe("OUT_OF_BOUNDS_NO_POE");
  });

  it("without current revocation data the answer is TRY_LATER", async () => {
    const c = await cert(new Date(now.getTime() - 10 * DAY), new Date(now.getTime() + 10 * DAY));
    expect(etsiIndication(facts(c, NO_FINDING)).subIndication).toBe("TRY_LATER");
    const stale = finding("good", { nextUpdate: new Date(now.getTime() - DAY) });
    expect(etsiIndication(facts(c, stale)).subIndication).toBe("TRY_LATER");
  });
});
