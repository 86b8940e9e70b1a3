import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { LIMITS } from "../../limits";
import { ApiKeyStore } from "../../store/api-keys";
import { toHex } from "../../util/bytes";
import type { AppEnv } from "../context";
import { problemResponse } from "../problem";
import { Unauthorized } from "../../errors";
import { BlockedClients, clientAddress, rateLimited, takeRateLimit } from "./rate-limit";

const KEY_SHAPE = /^sgn_[0-9A-Za-z]{43}$/;

/** Addresses over the failed-authentication limit, per isolate (see BlockedClients). */
const blockedClients = new BlockedClients(LIMITS.rateLimits.maxBlockedClients);

/**
 * Bearer API keys, stored only as SHA-256 digests: first in D1 (`api_keys`, managed with
 * `npm run key:*`; a revoked key is refused), then in the `API_KEY_HASHES` secret.
 * Every failure (no header, wrong scheme, malformed, unknown or revoked key) gets the same
 * 401; the presented value is always hashed and compared with every configured digest in
 * constant time. The key itself is never logged.
 *
 * A key accepted in the last few minutes (RecentKeys, per isolate) is checked again on every
 * request, but in parallel with the work instead of before it: D1 is a round trip, which on
 * Cloudflare is often longer than signing a page. The request's answer and anything it records
 * wait for that check (`keyConfirmed`; the signing event is written only after it), so a key
 * revoked a moment ago still gets 401 and nothing is recorded for it.
 *
 * Rate limits: an address over the failed-authentication limit gets 429 before its key is
 * checked; an accepted key is counted against its own limit.
 * `when` decides per request whether a key is needed (default: always).
 */
export function requireApiKey(when: (c: { var: AppEnv["Variables"] }) => boolean = () => true) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!when(c)) {
      await next();
      return;
    }
    const ip = clientAddress(c);
    const rateLimits = c.get("config").rateLimitsEnabled;
    const blockedFor = ip && rateLimits ? blockedClients.remaining(ip, Date.now()) : 0;
    if (blockedFor > 0) return tooManyFailures(c, blockedFor);

    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer +(\S+) *$/i.exec(header);
    const presented = match?.[1] ?? "";
    // Hash even malformed input so every path does the same work.
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(presented)));
    const keyId = toHex(digest);
    // A key accepted a moment ago is confirmed beside the work (has() reads the state before this lookup updates it).
    const confirmed = isAccepted(c, presented, digest).then((accepted) => {
      if (accepted) recentKeys.remember(keyId, Date.now());
      else recentKeys.forget(keyId);
      return accepted;
    });
    if (!recentKeys.has(keyId, Date.now()) && !(await confirmed)) return refused(c, ip);
    c.set("keyId", keyId);
    c.set("keyConfirmed", async () => {
      if (!(await confirmed)) throw new Unauthorized(REFUSED);
    });
    const wait = await takeRateLimit(c, "apiKey", keyId);
    if (wait > 0) return rateLimited(c, wait, "Too many requests with this API key; retry later.");
    await next();
    if (!(await confirmed)) {
      // Revoked while the request was worked on: its answer is dropped unread.
      await c.res.body?.cancel().catch(() => {});
      c.res = undefined as unknown as Response; // not merged with the dropped answer's headers
      c.res = await refused(c, ip);
    }
  });
}

const REFUSED = "A valid API key is required: send Authorization: Bearer sgn_...";

/** 401 (or 429 once the address has failed too often). */
async function refused(c: Context<AppEnv>, ip: string | null): Promise<Response> {
  if (ip) {
    const wait = await takeRateLimit(c, "authFailures", ip);
    if (wait > 0) {
      blockedClients.block(ip, Date.now(), wait);
      return tooManyFailures(c, wait);
    }
  }
  return problemResponse(c, "unauthorized", REFUSED, {
    headers: { "WWW-Authenticate": 'Bearer realm="signet"' },
  });
}

/** Digests of keys accepted recently in this isolate, oldest first (a Map keeps insertion order). */
class RecentKeys {
  private readonly acceptedAt = new Map<string, number>();
  constructor(
    private readonly maxKeys: number,
    private readonly rememberMs: number,
  ) {}
  has(keyId: string, now: number): boolean {
    const at = this.acceptedAt.get(keyId);
    return at !== undefined && now - at < this.rememberMs;
  }
  remember(keyId: string, now: number): void {
    this.acceptedAt.delete(keyId);
    this.acceptedAt.set(keyId, now);
    if (this.acceptedAt.size > this.maxKeys) this.acceptedAt.delete(this.acceptedAt.keys().next().value!);
  }
  forget(keyId: string): void {
    this.acceptedAt.delete(keyId);
  }
}

const recentKeys = new RecentKeys(LIMITS.recentKeys.maxKeys, LIMITS.recentKeys.rememberMs);

/** D1 decides first (a revoked key stays refused even if the secret lists it); then the secret. */
async function isAccepted(c: Context<AppEnv>, presented: string, digest: Uint8Array): Promise<boolean> {
  const wellFormed = KEY_SHAPE.test(presented);
  if (wellFormed && c.env?.DB) {
    try {
      const stored = await new ApiKeyStore(c.env.DB).findByDigest(toHex(digest));
      if (stored) return !stored.revoked;
    } catch (err) {
      // No api_keys table yet (migration 0003 not applied) or D1 unavailable: the secret still works.
      console.error(
        JSON.stringify({
          level: "warn",
          requestId: c.get("requestId"),
          message: "api key lookup in D1 failed",
          error: String(err),
        }),
      );
    }
  }
  let accepted = false;
  for (const known of c.get("config").apiKeyHashes) {
    if (crypto.subtle.timingSafeEqual(digest, known)) accepted = true;
  }
  return accepted && wellFormed;
}

function tooManyFailures(c: Context<AppEnv>, seconds: number): Response {
  return rateLimited(c, seconds, "Too many failed authentications from your address; retry later.");
}
