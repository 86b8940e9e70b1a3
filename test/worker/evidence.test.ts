import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { verificationQrPayload } from "../../src/operations/sign";
import { BASE, corpusPdf, fromDataUri, post, problem, signRequest } from "./helpers";

const SIMPLE = "pdf20examples__Simple_PDF_2.0_file.pdf";

const get = (path: string, headers: Record<string, string> = {}) => SELF.fetch(`${BASE}${path}`, { headers });

let signed: { body: any; bytes: Uint8Array; inputSha256: string };

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

beforeAll(async () => {
  const input = await corpusPdf(SIMPLE);
  const res = await post("/v1/sign", signRequest(input, { eventId: "evt-evidence-1" }));
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  signed = {
    body,
    bytes: fromDataUri(body.document.base64),
    inputSha256: hex(await crypto.subtle.digest("SHA-256", input)),
  };
});

describe("evidence reference of a signing event", () => {
  it("is 128 random bits (32 hex) in the sign response, recorded in D1, and new for every event", async () => {
    expect(signed.body.reference).toMatch(/^[0-9a-f]{32}$/);
    const row = await env.DB.prepare("SELECT reference FROM signing_events WHERE event_id = ?1")
      .bind("evt-evidence-1")
      .first<{ reference: string }>();
    expect(row?.reference).toBe(signed.body.reference);
    const other = (await (await post("/v1/sign", signRequest(await corpusPdf(SIMPLE)))).json()) as any;
    expect(other.reference).toMatch(/^[0-9a-f]{32}$/);
    expect(other.reference).not.toBe(signed.body.reference);
  });

  it("is replayed with the event: the same eventId and request give the same reference", async () => {
    const again = (await (
      await post("/v1/sign", signRequest(await corpusPdf(SIMPLE), { eventId: "evt-evidence-1" }))
    ).json()) as any;
    expect(again.reference).toBe(signed.body.reference);
    expect(again.sha256).toBe(signed.body.sha256);
  });

  it("is listed in the OpenAPI document of the sign response, with both lookups public", async () => {
    const doc = (await (await get("/openapi.json")).json()) as any;
    expect(doc.components.schemas.SignResponse.properties.reference).toBeTruthy();
    for (const path of ["/v1/verify/ref/{ref}", "/v1/verify/hash/{sha256}"]) {
      const op = doc.paths[path].get;
      expect(op.security).toEqual([{}, { bearerAuth: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "400", "404"]));
    }
  });

  it("goes in the QR code as PUBLIC_BASE_URL/verify#ref=..., or alone without a base URL or when too long", () => {
    const ref = "0123456789abcdef0123456789abcdef";
    expect(verificationQrPayload("https://sign.example.com", ref)).toBe(`https://sign.example.com/verify#ref=${ref}`);
    expect(verificationQrPayload(null, ref)).toBe(ref);
    expect(verificationQrPayload(`https://${"x".repeat(200)}.example`, ref)).toBe(ref);
  });
});

describe("GET /v1/verify/ref/{ref} and /v1/verify/hash/{sha256}", () => {
  const expected = () => ({
    signedBySignet: true,
    signedAt: signed.body.signature.signedAt,
    inputSha256: signed.inputSha256,
    outputSha256: signed.body.sha256,
    eventId: "evt-evidence-1",
  });

  it("answers a known reference without a key, with exactly the documented fields", async () => {
    const res = await get(`/v1/verify/ref/${signed.body.reference}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(await res.json()).toEqual(expected());
  });

  it("accepts the reference in upper case (typed from paper)", async () => {
    const res = await get(`/v1/verify/ref/${signed.body.reference.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).eventId).toBe("evt-evidence-1");
  });

  it("answers the output SHA-256, and not the input's", async () => {
    const res = await get(`/v1/verify/hash/${signed.body.sha256}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expected());
    expect(hex(await crypto.subtle.digest("SHA-256", signed.bytes))).toBe(signed.body.sha256);
    const input = await get(`/v1/verify/hash/${signed.inputSha256}`);
    expect(input.status).toBe(404);
  });

  it("404 not_found for an unknown reference or hash", async () => {
    for (const path of [`/v1/verify/ref/${"0".repeat(32)}`, `/v1/verify/hash/${"ab".repeat(32)}`]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect((await problem(res)).code).toBe("not_found");
    }
  });

  it("400 invalid_request for a malformed reference or hash", async () => {
    for (const path of [
      "/v1/verify/ref/short",
      `/v1/verify/ref/${"g".repeat(32)}`,
      `/v1/verify/ref/${"a".repeat(33)}`,
      `/v1/verify/ref/${encodeURIComponent("' OR 1=1 --")}`,
      "/v1/verify/hash/abc",
      `/v1/verify/hash/${"z".repeat(64)}`,
      `/v1/verify/hash/${"a".repeat(65)}`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      const p = await problem(res);
      expect(p.code).toBe("invalid_request");
      expect(p.errors?.[0]?.path).toMatch(/^(ref|sha256)$/);
    }
  });

  it("checks a key when one is sent: a wrong key is 401, the right one works", async () => {
    const wrong = await get(`/v1/verify/ref/${signed.body.reference}`, {
      Authorization: `Bearer sgn_${"x".repeat(43)}`,
    });
    expect(wrong.status).toBe(401);
    expect((await problem(wrong)).code).toBe("unauthorized");
    const right = await get(`/v1/verify/ref/${signed.body.reference}`, { Authorization: `Bearer ${env.TEST_API_KEY}` });
    expect(right.status).toBe(200);
  });

  it("with VERIFY_REQUIRES_AUTH=true both lookups need a key", async () => {
    const app = createApp();
    const locked = { ...env, VERIFY_REQUIRES_AUTH: "true" };
    for (const path of [`/v1/verify/ref/${signed.body.reference}`, `/v1/verify/hash/${signed.body.sha256}`]) {
      const anonymous = await app.request(`${BASE}${path}`, {}, locked);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const keyed = await app.request(
        `${BASE}${path}`,
        { headers: { Authorization: `Bearer ${env.TEST_API_KEY}` } },
        locked,
      );
      expect(keyed.status).toBe(200);
    }
  });

  it("rate-limits anonymous lookups per client address with Retry-After", async () => {
    const headers = { "CF-Connecting-IP": "198.51.100.77" };
    let limited: Response | null = null;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await get(`/v1/verify/hash/${"cd".repeat(32)}`, headers);
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(404);
    }
    expect(limited).not.toBeNull();
    expect((await problem(limited!)).code).toBe("rate_limited");
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await get(`/v1/verify/hash/${"cd".repeat(32)}`, { "CF-Connecting-IP": "198.51.100.78" })).status).toBe(404);
  });
});

describe("GET /verify and GET /", () => {
  it("serves the verification page with a nonce-based CSP and no outside resources", async () => {
    const res = await get("/verify");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy")!;
    const nonce = /script-src 'nonce-([\w-]+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).toContain("Nothing is uploaded anywhere except to this service");
    expect(html).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//); // no CDN, no outside links
    expect(html).not.toMatch(/\sstyle="/); // the CSP would block inline style attributes
    expect(new TextEncoder().encode(html).length).toBeLessThan(48 * 1024);
    // A fresh nonce per response.
    const again = (await get("/verify")).headers.get("content-security-policy")!;
    expect(again).not.toBe(csp);
  });

  it("/ offers the verification page and the API reference", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('href="/verify"');
    expect(html).toContain('href="/docs"');
  });
});
