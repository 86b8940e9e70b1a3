/**
 * Signing with a key held in AWS KMS, through the loopback KMS of the global setup
 * (test/support/kms-server.ts: real keys, SigV4 checked with AWS's own signer). The worker is
 * called with a deployment's variables for the KMS key (SIGNING_KMS=aws, ...): the same app,
 * D1 and R2 as SELF, another configuration.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { kmsVars, type KmsFixtureInfo, type KmsFixtureKey } from "../support/kms-vars";
import { b64, corpusPdf, fromDataUri, signRequest } from "./helpers";

const kms = JSON.parse(env.TEST_KMS) as KmsFixtureInfo;
const SIMPLE = "pdf20examples__Simple_PDF_2.0_file.pdf";

async function call(path: string, body: unknown, vars: Record<string, string>, key: string | null = env.TEST_API_KEY) {
  return createApp().request(
    path,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    },
    { ...env, ...vars },
  );
}

async function kmsLog(): Promise<
  { action: string; keyId?: string; messageType?: string; algorithm?: string; verified: boolean; error?: string }[]
> {
  return (await fetch(`${kms.url}__test/log`)).json();
}

async function setBehaviour(key: KmsFixtureKey, behaviour: string) {
  const res = await fetch(`${kms.url}__test/behaviour`, {
    method: "POST",
    body: JSON.stringify({ keyId: key.keyId, behaviour }),
  });
  expect(res.status).toBe(200);
}

describe("signing with a key in AWS KMS (loopback KMS, SigV4 checked by @smithy/signature-v4)", () => {
  const cases: {
    name: string;
    key: () => KmsFixtureKey;
    extra?: Record<string, string>;
    algorithm: string;
    label: RegExp;
    digest: string;
  }[] = [
    {
      name: "RSA 2048, PKCS#1 v1.5",
      key: () => kms.keys.rsa,
      algorithm: "RSASSA_PKCS1_V1_5_SHA_256",
      label: /RSA/,
      digest: "SHA-256",
    },
    {
      name: "RSA 2048, PSS",
      key: () => kms.keys.rsa,
      extra: { AWS_KMS_SIGNING_ALGORITHM: "RSASSA_PSS_SHA_256" },
      algorithm: "RSASSA_PSS_SHA_256",
      label: /PSS/,
      digest: "SHA-256",
    },
    { name: "ECDSA P-256", key: () => kms.keys.p256, algorithm: "ECDSA_SHA_256", label: /ECDSA/, digest: "SHA-256" },
    {
      name: "ECDSA P-384 (SHA-384, the only digest KMS signs for it)",
      key: () => kms.keys.p384,
      algorithm: "ECDSA_SHA_384",
      label: /ECDSA/,
      digest: "SHA-384",
    },
  ];

  for (const c of cases) {
    it(`${c.name}: Sign with MessageType DIGEST, and /v1/verify finds the signature valid and trusted`, async () => {
      const vars = kmsVars(kms, c.key(), c.extra);
      const before = (await kmsLog()).length;
      const res = await call("/v1/sign", signRequest(await corpusPdf(SIMPLE), { eventId: `kms-${c.algorithm}` }), vars);
      const body = (await res.json()) as any;
      expect(res.status, JSON.stringify(body)).toBe(200);
      const calls = (await kmsLog()).slice(before);
      const signs = calls.filter((l) => l.action === "TrentService.Sign");
      expect(signs).toEqual([
        {
          action: "TrentService.Sign",
          keyId: c.key().arn,
          messageType: "DIGEST",
          algorithm: c.algorithm,
          verified: true,
        },
      ]);
      expect(calls.every((l) => l.verified)).toBe(true);

      const out = fromDataUri(body.document.base64);
      const report = (await (await call("/v1/verify", { document: { base64: b64(out) } }, vars, null)).json()) as any;
      expect(report.reason).toMatch(/All 1 signature\(s\) are intact/);
      expect(report.signers[0]).toMatchObject({
        intact: true,
        signatureValid: true,
        trusted: true,
        coverage: "entire_file",
        digestAlgorithm: c.digest,
      });
      expect(report.signers[0].signatureAlgorithm).toMatch(c.label);
      expect(report.signers[0].certificate.subject).toMatch(/Signet KMS Signer/);
    });
  }

  it("checks at start that the KMS key's public key is the certificate's: another key's certificate is 503 configuration_error", async () => {
    const vars = kmsVars(kms, { ...kms.keys.p256, chainPem: kms.keys.other.chainPem });
    const res = await call("/v1/sign", signRequest(await corpusPdf(SIMPLE)), vars);
    expect(res.status).toBe(503);
    const problem = (await res.json()) as any;
    expect(problem.code).toBe("configuration_error");
    expect(problem.detail).toMatch(
      /public key of the AWS KMS key .* is not the one in the first certificate of SIGNING_CERT/,
    );
  });

  it("a KMS that does not accept our SigV4 signature (wrong secret) is 502 signer_failed, and the server says why", async () => {
    const vars = kmsVars(kms, kms.keys.p256, { AWS_SECRET_ACCESS_KEY: "not-the-secret" });
    const res = await call("/v1/sign", signRequest(await corpusPdf(SIMPLE)), vars);
    expect(res.status).toBe(502);
    const problem = (await res.json()) as any;
    expect(problem.code).toBe("signer_failed");
    expect(problem.detail).toMatch(/GetPublicKey refused: HTTP 400 InvalidSignatureException/);
  });

  it("the loopback KMS itself rejects a request whose body changed after signing (its SigV4 check is not a no-op)", async () => {
    const { AwsClient } = await import("aws4fetch");
    const client = new AwsClient({
      accessKeyId: kms.accessKeyId,
      secretAccessKey: kms.secretAccessKey,
      service: "kms",
      region: kms.region,
      retries: 0,
    });
    const signed = await client.sign(kms.url, {
      method: "POST",
      headers: { "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "TrentService.GetPublicKey" },
      body: JSON.stringify({ KeyId: kms.keys.p256.arn }),
    });
    const genuine = await fetch(signed.clone());
    expect(genuine.status).toBe(200);
    const tampered = await fetch(kms.url, {
      method: "POST",
      headers: signed.headers,
      body: JSON.stringify({ KeyId: kms.keys.p384.arn }),
    });
    expect(tampered.status).toBe(400);
    expect(((await tampered.json()) as any).__type).toBe("InvalidSignatureException");
  });

  const failures: { behaviour: string; detail: RegExp; extra?: Record<string, string> }[] = [
    { behaviour: "fail", detail: /Sign refused: HTTP 500 KMSInternalException/ },
    { behaviour: "refuse", detail: /Sign refused: HTTP 400 DisabledException: .* is disabled/ },
    { behaviour: "hang", detail: /Sign did not answer within 1 s/, extra: { AWS_KMS_TIMEOUT_MS: "1000" } },
    { behaviour: "wrong-key", detail: /returned a signature that does not verify/ },
  ];
  for (const f of failures) {
    it(`a KMS whose Sign ${f.behaviour === "hang" ? "times out" : f.behaviour === "wrong-key" ? "answers with another key's signature" : f.behaviour === "fail" ? "fails" : "refuses"}: 502 signer_failed, nothing recorded in D1 or kept in R2`, async () => {
      const key = kms.keys.flaky;
      const eventId = `kms-failure-${f.behaviour}`;
      await setBehaviour(key, f.behaviour);
      try {
        const res = await call(
          "/v1/sign",
          signRequest(await corpusPdf(SIMPLE), { eventId }),
          kmsVars(kms, key, f.extra),
        );
        const problem = (await res.json()) as any;
        expect(res.status, JSON.stringify(problem)).toBe(502);
        expect(problem.code).toBe("signer_failed");
        expect(problem.detail).toMatch(f.detail);
      } finally {
        await setBehaviour(key, "ok");
      }
      const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM signing_events WHERE event_id = ?")
        .bind(eventId)
        .first<{ n: number }>();
      expect(rows?.n).toBe(0);
      const listed = await env.REPLAYS.list({ prefix: "replays/" });
      const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(eventId)))]
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
      expect(listed.objects.filter((o) => o.key.includes(digest))).toEqual([]);
    });
  }

  it("the same key signs again once the KMS is back (a failure is not cached)", async () => {
    const res = await call("/v1/sign", signRequest(await corpusPdf(SIMPLE)), kmsVars(kms, kms.keys.flaky));
    expect(res.status).toBe(200);
  });

  it("a KMS configuration that lacks a setting is 503 configuration_error naming it", async () => {
    const vars = kmsVars(kms, kms.keys.p256, { AWS_REGION: "" });
    const res = await call("/v1/sign", signRequest(await corpusPdf(SIMPLE)), vars);
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).detail).toMatch(/SIGNING_KMS=aws needs AWS_REGION/);
  });
});
