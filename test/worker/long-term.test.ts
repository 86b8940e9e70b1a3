/**
 * PAdES B-LT/B-LTA signing and long-term verification through the app in workerd, with the
 * revocation PKI of global-setup (its openssl ocsp responder, CRLs on the fixture server, the
 * /tsa/ltv time-stamp authority), reached over real loopback fetches.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { auditTrail, b64, corpusPdf, fromDataUri, signer } from "./helpers";

const pki = JSON.parse(env.TEST_REVOCATION_PKI) as {
  rootPem: string;
  signers: Record<"good" | "revoked", { keyPem: string; chainPem: string }>;
};
const app = createApp();

function call(path: string, body: unknown, vars: Record<string, string>) {
  return app.request(
    path,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${env.TEST_API_KEY}` },
      body: JSON.stringify(body),
    },
    { ...env, ALLOW_PRIVATE_URLS: "true", ...vars },
  );
}

const as = (who: "good" | "revoked", extra: Record<string, string> = {}) => ({
  SIGNING_KEY: pki.signers[who].keyPem,
  SIGNING_CERT: pki.signers[who].chainPem,
  TSA_URL: `${env.TEST_TSA_URL}/ltv`,
  ...extra,
});

async function sign(vars: Record<string, string>, level?: string) {
  const pdf = await corpusPdf("pdf20examples__Simple_PDF_2.0_file.pdf");
  return call(
    "/v1/sign",
    { document: { base64: b64(pdf) }, signer, auditTrail, ...(level ? { signature: { level } } : {}) },
    vars,
  );
}

describe("long-term signatures in workerd", () => {
  it("signs at B-LTA and verifies offline as B-LTA, TOTAL_PASSED, with every certificate's status from the DSS", async () => {
    const res = await sign(as("good"), "B-LTA");
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.signature.level).toBe("B-LTA");
    const verified = await call(
      "/v1/verify",
      { document: { base64: b64(fromDataUri(body.document.base64)) } },
      { TRUSTED_ROOTS: pki.rootPem },
    );
    const report = (await verified.json()) as any;
    expect(report.valid, report.reason).toBe(true);
    const s = report.signers[0];
    expect(
      [s.level, s.indication, s.subIndication],
      JSON.stringify(report.signers.map((x: any) => [x.fieldName, x.revision, x.revocation])),
    ).toEqual(["B-LTA", "TOTAL_PASSED", null]);
    expect(s.revocation.length).toBeGreaterThanOrEqual(3);
    expect(s.revocation.every((r: any) => r.status === "good" && r.source === "dss")).toBe(true);
    expect(report.signers.map((x: any) => x.kind)).toEqual(["signature", "timestamp"]);
  });

  it("online revocation finds a revoked signer: REVOKED_NO_POE, while valid keeps its meaning", async () => {
    const res = await sign(as("revoked"), "B-T");
    expect(res.status).toBe(200);
    const pdf = fromDataUri(((await res.json()) as any).document.base64);
    const online = (await (
      await call(
        "/v1/verify",
        { document: { base64: b64(pdf) } },
        { TRUSTED_ROOTS: pki.rootPem, VERIFY_ONLINE_REVOCATION: "true" },
      )
    ).json()) as any;
    const s = online.signers[0];
    expect(s.revocation[0]).toMatchObject({ status: "revoked", source: "ocsp", chain: "signer" });
    expect(s.subIndication).toBe("REVOKED_NO_POE");
    expect(online.valid).toBe(true); // intact, valid, trusted: revocation is reported beside `valid`
  });

  it("answers 422 signature_level_unavailable for a level above B-B without a time-stamp authority, 400 for an unknown level", async () => {
    const noTsa = await sign({ ...as("good"), TSA_URL: "" }, "B-LT");
    expect(noTsa.status).toBe(422);
    expect(((await noTsa.json()) as any).code).toBe("signature_level_unavailable");
    const unknown = await sign(as("good"), "B-XL");
    expect(unknown.status).toBe(400);
  });

  it("documents the new fields in the OpenAPI document", async () => {
    const doc = (await (await app.request("/openapi.json", {}, env)).json()) as any;
    const signerSchema = doc.components.schemas.VerifiedSigner.properties;
    expect(Object.keys(signerSchema)).toEqual(
      expect.arrayContaining(["level", "indication", "subIndication", "revocation"]),
    );
    expect(doc.components.schemas.SignRequest.properties.signature).toBeDefined();
  });
});
