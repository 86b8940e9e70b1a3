import type { Context } from "hono";
import type { Env } from "../../config";
import { LIMITS } from "../../limits";
import type { AppEnv } from "../context";
import { problemResponse } from "../problem";

/**
 * Rate limiting with the Workers rate-limit bindings of wrangler.toml. A binding only
 * answers "over or not" for one more request; it neither peeks nor says when its window
 * ends, so a 429's `Retry-After` is the longest period a binding can have.
 *
 * When a binding is absent (workerd run without it) a per-isolate sliding window takes
 * its place: best effort, but never unlimited. `RATE_LIMITS=off` switches both off.
 */

export type Limiter = "apiKey" | "anonymous" | "authFailures";

const BINDINGS: Record<Limiter, "RATE_LIMIT_API_KEY" | "RATE_LIMIT_ANONYMOUS" | "RATE_LIMIT_AUTH_FAILURES"> = {
  apiKey: "RATE_LIMIT_API_KEY",
  anonymous: "RATE_LIMIT_ANONYMOUS",
  authFailures: "RATE_LIMIT_AUTH_FAILURES",
};

const FALLBACK_PER_MINUTE: Record<Limiter, number> = {
  apiKey: LIMITS.rateLimits.apiKeyRequestsPerMinute,
  anonymous: LIMITS.verify.anonymousRequestsPerMinute,
  authFailures: LIMITS.rateLimits.authFailuresPerMinute,
};

/** A sliding one-minute window per client, kept in the isolate (the fallback without a binding). */
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

const fallbacks = new Map<Limiter, WindowLimiter>();

/**
 * Counts one request against `key` under `limiter`. Returns 0 when it may go ahead,
 * else the seconds to put in `Retry-After`. A binding that fails lets the request
 * through (an outage of the limiter must not take the service down) and says so in the log.
 */
export async function takeRateLimit(c: Context<AppEnv>, limiter: Limiter, key: string): Promise<number> {
  if (!c.get("config").rateLimitsEnabled) return 0;
  const binding = (c.env as Env | undefined)?.[BINDINGS[limiter]];
  if (binding) {
    try {
      const { success } = await binding.limit({ key });
      return success ? 0 : LIMITS.rateLimits.retryAfterSeconds;
    } catch (err) {
      console.error(
        JSON.stringify({
          level: "error",
          requestId: c.get("requestId"),
          message: `rate limiter ${limiter} failed`,
          error: String(err),
        }),
      );
      return 0;
    }
  }
  let fallback = fallbacks.get(limiter);
  if (!fallback) {
    fallback = new WindowLimiter(FALLBACK_PER_MINUTE[limiter], LIMITS.verify.maxTrackedClients);
    fallbacks.set(limiter, fallback);
  }
  const waitMs = fallback.take(key, Date.now());
  return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
}

/** The client's address as Cloudflare reports it; null when unknown (not behind Cloudflare). */
export function clientAddress(c: Context<AppEnv>): string | null {
  return c.req.header("cf-connecting-ip")?.trim() || null;
}

/** 429 `rate_limited` problem with `Retry-After`. */
export function rateLimited(c: Context<AppEnv>, retryAfterSeconds: number, detail: string): Response {
  return problemResponse(c, "rate_limited", detail, { headers: { "Retry-After": String(retryAfterSeconds) } });
}

/**
 * Client addresses known to be over the failed-authentication limit, until when. The binding
 * cannot be asked without counting, so an isolate learns it from the failure that went over and
 * then refuses that address before checking its key until the period has passed.
 */
export class BlockedClients {
  private readonly until = new Map<string, number>();
  constructor(private readonly max: number) {}

  /** Seconds left on the block, 0 when not blocked. */
  remaining(client: string, now: number): number {
    const end = this.until.get(client);
    if (end === undefined) return 0;
    if (end <= now) {
      this.until.delete(client);
      return 0;
    }
    return Math.max(1, Math.ceil((end - now) / 1000));
  }

  block(client: string, now: number, seconds: number): void {
    this.until.delete(client);
    this.until.set(client, now + seconds * 1000);
    if (this.until.size > this.max) this.until.delete(this.until.keys().next().value!);
  }
}
