import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";
import { requireApiKey } from "./auth";
import { clientAddress, rateLimited, takeRateLimit } from "./rate-limit";

const apiKey = requireApiKey();

/**
 * Access for the public verification endpoints: open unless VERIFY_REQUIRES_AUTH=true.
 * A caller that sends a key must send a valid one (and is counted against that key's
 * limit); anonymous callers are rate-limited per client address (binding
 * RATE_LIMIT_ANONYMOUS), each endpoint family (`what`) in its own count.
 */
export function publicOrApiKey(what: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.get("config").verifyRequiresAuth || c.req.header("authorization") !== undefined) {
      return apiKey(c, next);
    }
    const ip = clientAddress(c);
    if (ip) {
      const wait = await takeRateLimit(c, "anonymous", `${what}|${ip}`);
      if (wait > 0) return rateLimited(c, wait, `Too many ${what} from your address; retry later or send an API key.`);
    }
    await next();
  });
}

/** OpenAPI security of these endpoints: no key (the empty requirement), or a bearer key. */
export const OPTIONAL_KEY: Record<string, string[]>[] = [{}, { bearerAuth: [] }];
