import { createMiddleware } from "hono/factory";
import { toHex } from "../../util/bytes";
import type { AppEnv } from "../context";
import { problemResponse } from "../problem";

const KEY_SHAPE = /^sgn_[0-9A-Za-z]{43}$/;

/**
 * Bearer API keys, stored only as SHA-256 digests (`API_KEY_HASHES`). Every
 * failure (no header, wrong scheme, malformed or unknown key) gets the same 401
 * after the same work: the presented value is always hashed and compared with
 * every configured digest in constant time. The key itself is never logged.
 * `when` decides per request whether a key is needed (default: always).
 */
export function requireApiKey(when: (c: { var: AppEnv["Variables"] }) => boolean = () => true) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!when(c)) {
      await next();
      return;
    }
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer +(\S+) *$/i.exec(header);
    const presented = match?.[1] ?? "";
    // Hash even malformed input so every path does the same work.
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(presented)));
    let accepted = false;
    for (const known of c.get("config").apiKeyHashes) {
      if (crypto.subtle.timingSafeEqual(digest, known)) accepted = true;
    }
    if (!accepted || !KEY_SHAPE.test(presented)) {
      return problemResponse(c, "unauthorized", "A valid API key is required: send Authorization: Bearer sgn_...", {
        headers: { "WWW-Authenticate": 'Bearer realm="signet"' },
      });
    }
    c.set("keyId", toHex(digest));
    await next();
  });
}
