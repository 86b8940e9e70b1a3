import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { apiKeyDigest, insertKeySql, mintApiKey, mintKeyId, revokeKeySql } from "../../scripts/lib/api-keys.mjs";
import { createApp } from "../../src/http/app";
import { BASE, corpusPdf, problem, signRequest } from "./helpers";

/**
 * API keys in D1 (the SQL of the npm run key:* scripts), the failed-authentication limit per
 * client address and the per-key limit. TEST_RATE_LIMIT_LOW is a real rate-limit binding
 * (limit 3 per 60 s, vitest.config.mts) put in place of the configured one.
 */

const app = createApp();
const LOW = env.TEST_RATE_LIMIT_LOW as RateLimit;
const LOW_LIMIT = 3;

/** An authenticated POST /v1/sign with an empty body: 400 once the key is accepted, 401 if not. */
function signCall(key: string | null, opts: { ip?: string; env?: Record<string, unknown> } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (opts.ip) headers["CF-Connecting-IP"] = opts.ip;
  return app.request(`${BASE}/v1/sign`, { method: "POST", headers, body: "{}" }, { ...env, ...opts.env });
}

async function createD1Key(name = "ops test") {
  const key = mintApiKey();
  const id = mintKeyId();
  await env.DB.exec(insertKeySql({ id, sha256: await apiKeyDigest(key), name, createdAt: new Date().toISOString() }));
  return { key, id };
}

const revoke = (id: string) => env.DB.prepare(revokeKeySql(id, new Date().toISOString())).all();

const randomIp = () => `203.0.113.${1 + Math.floor(Math.random() * 254)}`;
const randomIpV6 = () =>
  `2001:db8::${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;

/**
 * Calls until the first 429 (at most 2 x limit + 1 calls: the binding's window is aligned to the
 * clock, so one rollover may reset the count once). Returns the statuses seen before it and the 429.
 */
async function untilLimited(call: () => Response | Promise<Response>, limit: number) {
  const before: number[] = [];
  for (let i = 0; i < 2 * limit + 1; i++) {
    const res = await call();
    if (res.status === 429) return { before, limited: res };
    before.push(res.status);
  }
  return { before, limited: null };
}

describe("API keys in D1", () => {
  it("accepts a key created in D1, and refuses it from the next request once revoked", async () => {
    const { key, id } = await createD1Key();
    expect((await signCall(key)).status).toBe(400);
    const rows = await revoke(id);
    expect(rows.results).toHaveLength(1);
    const refused = await signCall(key);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await problem(refused)).code).toBe("unauthorized");
  });

  it("a key revoked after it was accepted: a whole signing request runs, but answers 401 and records nothing", async () => {
    // The key was accepted a moment ago, so this isolate checks it again beside the work, not before it.
    const { key, id } = await createD1Key();
    expect((await signCall(key)).status).toBe(400);
    await revoke(id);
    const eventId = `revoked-${mintKeyId()}`;
    const body = JSON.stringify(signRequest(await corpusPdf("pdf20examples__Simple_PDF_2.0_file.pdf"), { eventId }));
    const headers = { "Content-Type": "application/json", Authorization: `Bearer ${key}` };
    const res = await app.request(`${BASE}/v1/sign`, { method: "POST", headers, body }, env);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(res.headers.get("signet-result")).toBeNull();
    expect((await problem(res)).code).toBe("unauthorized");
    const recorded = await env.DB.prepare("SELECT COUNT(*) AS n FROM signing_events WHERE event_id = ?1")
      .bind(eventId)
      .first<{ n: number }>();
    expect(recorded!.n).toBe(0);
    // And the key stays refused.
    expect((await signCall(key)).status).toBe(401);
  });

  it("a key revoked in D1 stays refused even when the API_KEY_HASHES secret lists it", async () => {
    const { key, id } = await createD1Key();
    await revoke(id);
    const secretToo = { API_KEY_HASHES: `${env.API_KEY_HASHES as string},${await apiKeyDigest(key)}` };
    expect((await signCall(key, { env: secretToo })).status).toBe(401);
  });

  it("keys in the API_KEY_HASHES secret still work beside D1 keys; unknown keys do not", async () => {
    await createD1Key();
    expect((await signCall(env.TEST_API_KEY)).status).toBe(400);
    expect((await signCall(env.TEST_OTHER_API_KEY)).status).toBe(400);
    expect((await signCall(mintApiKey())).status).toBe(401);
  });

  it("keys from D1 and from the secret scope eventIds the same way (by the key's digest)", async () => {
    const { key } = await createD1Key();
    const res = await app.request(
      `${BASE}/v1/verify/hash/${"ab".repeat(32)}`,
      { headers: { Authorization: `Bearer ${key}` } },
      { ...env, VERIFY_REQUIRES_AUTH: "true" },
    );
    expect(res.status).toBe(404);
  });
});

describe("failed-authentication limit per client address", () => {
  it("answers 429 with Retry-After once an address is over, before even checking a valid key", async () => {
    const ip = randomIp();
    const limits = { RATE_LIMIT_AUTH_FAILURES: LOW };
    const { before, limited } = await untilLimited(() => signCall(mintApiKey(), { ip, env: limits }), LOW_LIMIT);
    expect(before.length).toBeGreaterThanOrEqual(LOW_LIMIT);
    expect(before.every((s) => s === 401)).toBe(true);
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await problem(limited!)).code).toBe("rate_limited");
    // The valid key from that address is refused too, without being checked...
    const blocked = await signCall(env.TEST_API_KEY, { ip, env: limits });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // ...while other addresses, and callers of the public endpoints without a key, go on.
    expect((await signCall(env.TEST_API_KEY, { ip: randomIpV6(), env: limits })).status).toBe(400);
  });

  it("counts failures only: many accepted requests from one address are not limited by it", async () => {
    // An address no other case blocked, and a key of its own: the whole suite's requests with the
    // shared test key count against that key's own (real, per-minute) limit.
    const ip = randomIpV6();
    const { key } = await createD1Key("failures only");
    const limits = { RATE_LIMIT_AUTH_FAILURES: LOW };
    for (let i = 0; i < 3 * LOW_LIMIT; i++) expect((await signCall(key, { ip, env: limits })).status).toBe(400);
  });

  it("without the binding, a per-isolate window of 20 failures a minute still applies", async () => {
    const ip = randomIpV6();
    const noBinding = { RATE_LIMIT_AUTH_FAILURES: undefined };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await signCall(null, { ip, env: noBinding })).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it("RATE_LIMITS=off switches it off", async () => {
    const ip = randomIp();
    const off = { RATE_LIMIT_AUTH_FAILURES: LOW, RATE_LIMITS: "off" };
    for (let i = 0; i < 3 * LOW_LIMIT; i++) expect((await signCall(mintApiKey(), { ip, env: off })).status).toBe(401);
  });
});

describe("per-key limit", () => {
  it("limits each API key on its own, on sign and on keyed verify, with 429 and Retry-After", async () => {
    const { key } = await createD1Key();
    const limits = { RATE_LIMIT_API_KEY: LOW };
    const { before, limited } = await untilLimited(() => signCall(key, { env: limits }), LOW_LIMIT);
    expect(before.length).toBeGreaterThanOrEqual(LOW_LIMIT);
    expect(before.every((s) => s === 400)).toBe(true);
    expect(limited).not.toBeNull();
    expect((await problem(limited!)).code).toBe("rate_limited");
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Keyed /v1/verify is limited by the same count.
    const verify = await untilLimited(
      () =>
        app.request(
          `${BASE}/v1/verify`,
          {
            method: "POST",
            headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
            body: "{}",
          },
          { ...env, ...limits },
        ),
      LOW_LIMIT,
    );
    expect(verify.limited).not.toBeNull();
    expect(verify.before.every((s) => s === 400)).toBe(true);
    // Another key is not affected.
    const other = await createD1Key();
    expect((await signCall(other.key, { env: limits })).status).toBe(400);
  });
});
