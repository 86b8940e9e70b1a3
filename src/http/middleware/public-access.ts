import { createMiddleware } from "hono/factory";
import { LIMITS } from "../../limits";
import type { AppEnv } from "../context";
import { problemResponse } from "../problem";
import { requireApiKey } from "./auth";

/** A sliding one-minute window per client address, kept in the isolate (best effort). */
export class WindowLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(
    private readonly perMinute: number,
    private readonly maxClients: number,
  ) {}

  /** 0 when the request may go ahead, else the milliseconds to wait. */
  take(client: string, now: number): number {
    const list = (this.hits.get(client) ?? []).filter((t) => now - t < 60_000);
    if (list.length >= this.perMinute) {
      this.hits.set(client, list);
      return 60_000 - (now - list[0]!);
    }
    list.push(now);
    this.hits.delete(client);
    this.hits.set(client, list);
    if (this.hits.size > this.maxClients) this.hits.delete(this.hits.keys().next().value!);
    return 0;
  }
}

const apiKey = requireApiKey();

/**
 * Access for the public verification endpoints: open unless VERIFY_REQUIRES_AUTH=true.
 * A caller that sends a key must send a valid one (and is not limited); anonymous
 * callers are rate-limited per client address, each endpoint family in its own window.
 */
export function publicOrApiKey(what: string) {
  const limiter = new WindowLimiter(LIMITS.verify.anonymousRequestsPerMinute, LIMITS.verify.maxTrackedClients);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.get("config").verifyRequiresAuth || c.req.header("authorization") !== undefined) {
      return apiKey(c, next);
    }
    const ip = c.req.header("cf-connecting-ip");
    if (ip) {
      const wait = limiter.take(ip, Date.now());
      if (wait > 0) {
        return problemResponse(c, "rate_limited", `Too many ${what} from your address; retry later or send an API key.`, {
          headers: { "Retry-After": String(Math.ceil(wait / 1000)) },
        });
      }
    }
    await next();
  });
}

/** OpenAPI security of these endpoints: no key (the empty requirement), or a bearer key. */
export const OPTIONAL_KEY: Record<string, string[]>[] = [{}, { bearerAuth: [] }];
