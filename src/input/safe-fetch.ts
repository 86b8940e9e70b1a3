/**
 * Fetching caller-supplied URLs without becoming a proxy into places we must not reach.
 *
 * - `https:` only (`http:` too when private URLs are allowed); no userinfo.
 * - The host must be public (see address.ts) unless private URLs are allowed.
 * - Redirects are followed by hand (`redirect: "manual"`): each Location is resolved against the
 *   current URL and checked again; more than `maxRedirects` hops is `fetch_failed`.
 * - One deadline covers everything (connect, headers, redirects, body): `fetch_timeout`.
 * - Content-Length above the cap is refused before reading; the body is read with a running cap
 *   (`remote_too_large`) and the stream cancelled when it is exceeded.
 * - Only a fixed User-Agent and Accept are sent: no caller headers, no cookies, no credentials.
 * - Error messages name the status or the rule that failed, never the runtime's internal error text.
 */
import { openBodyReader } from "../util/body-reader";
import { FetchFailed, InvalidRequest, LimitExceeded, UrlForbidden } from "../errors";
import { LIMITS } from "../limits";
import { classifyHost } from "./address";
import { formatBytes } from "./base64";

export const USER_AGENT = "Signet/0.1";

export interface UrlCheckOptions {
  allowPrivate: boolean;
  /** The service's own host (name or host:port); refused unless private URLs are allowed. */
  selfHost?: string;
}

export interface FetchOptions extends UrlCheckOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Accept header; defaults to `*\/*`. */
  accept?: string;
  /** A POST body and its media type (OCSP requests); redirects are then not followed. */
  post?: { body: Uint8Array; contentType: string };
  /** Injected fetch (tests, service bindings); defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface FetchedResource {
  bytes: Uint8Array;
  contentType: string | null;
  finalUrl: string;
}

/** Counts URLs fetched for one request (documents and images together). */
export class UrlBudget {
  private used = 0;
  constructor(readonly max: number = LIMITS.maxUrlsPerRequest) {}
  /** Reserves one URL; throws InvalidRequest `invalid_request` when the budget is spent. */
  take(): void {
    if (this.used >= this.max) {
      throw new InvalidRequest("invalid_request", `at most ${this.max} URLs per request`, { maxUrls: this.max });
    }
    this.used++;
  }
  get count(): number {
    return this.used;
  }
}

/**
 * Checks that a URL may be fetched: scheme, userinfo, and (unless private URLs are allowed) the host.
 * Throws UrlForbidden `url_forbidden`. Used for the caller's URL and again for every redirect target.
 */
export function assertFetchableUrl(url: URL, opts: UrlCheckOptions): void {
  const scheme = url.protocol;
  if (scheme !== "https:" && !(scheme === "http:" && opts.allowPrivate)) {
    throw new UrlForbidden(
      opts.allowPrivate
        ? `Only https: and http: URLs can be fetched, not ${scheme}.`
        : `Only https: URLs can be fetched, not ${scheme}.`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new UrlForbidden("URLs with a user name or password are not fetched.");
  }
  if (opts.allowPrivate) return;
  const host = classifyHost(url.hostname, { selfHost: opts.selfHost });
  if (!host.publicAddress) {
    throw new UrlForbidden(
      `The URL's host ${host.kind === "ipv6" ? `[${host.normalized}]` : host.normalized} is not a public address (${host.reason ?? "not public"}).`,
    );
  }
}

/** Parses and checks a caller-supplied URL (400 when it is not a URL at all, 422 when forbidden). */
export function parseFetchableUrl(raw: string, opts: UrlCheckOptions): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidRequest("invalid_request", "The URL is not a valid absolute URL.");
  }
  assertFetchableUrl(url, opts);
  return url;
}

class Timeout extends Error {}

/** Rejects with Timeout as soon as the signal aborts, whatever the wrapped promise does. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => {});
    return Promise.reject(new Timeout());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Timeout());
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? new Timeout() : e);
      },
    );
  });
}

function cancelBody(res: Response): void {
  try {
    res.body?.cancel().catch(() => {});
  } catch {
    // already locked or consumed
  }
}

function remoteTooLarge(maxBytes: number): LimitExceeded {
  return new LimitExceeded(
    "remote_too_large",
    `The remote document is larger than the limit of ${formatBytes(maxBytes)} (${maxBytes} bytes).`,
    { maxBytes },
  );
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches a URL under the rules above. Throws UrlForbidden, FetchFailed (`fetch_failed`,
 * `fetch_timeout`), LimitExceeded (`remote_too_large`) or InvalidRequest (unparseable URL).
 */
export async function fetchPublicResource(url: string, opts: FetchOptions): Promise<FetchedResource> {
  let current = parseFetchableUrl(url, opts);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  const signal = controller.signal;
  const seconds = opts.timeoutMs % 1000 === 0 ? `${opts.timeoutMs / 1000} s` : `${opts.timeoutMs} ms`;
  try {
    for (let hop = 0; ; hop++) {
      // fetch's own parameter type (Node tools' typecheck sees the DOM's RequestInit, which takes no shared-buffer bytes).
      const init: Parameters<typeof fetch>[1] = opts.post
        ? {
            method: "POST",
            redirect: "manual",
            headers: { "User-Agent": USER_AGENT, Accept: opts.accept ?? "*/*", "Content-Type": opts.post.contentType },
            body: opts.post.body,
            signal,
          }
        : {
            method: "GET",
            redirect: "manual",
            headers: { "User-Agent": USER_AGENT, Accept: opts.accept ?? "*/*" },
            signal,
          };
      let res: Response;
      try {
        res = await raceAbort(opts.fetch ? opts.fetch(current.href, init) : fetch(current.href, init), signal);
      } catch (e) {
        if (e instanceof Timeout) throw e;
        throw new FetchFailed("fetch_failed", `Could not connect to ${current.host} to fetch the URL.`);
      }

      if (REDIRECT_STATUSES.has(res.status)) {
        cancelBody(res);
        const location = res.headers.get("location");
        if (!location) {
          throw new FetchFailed("fetch_failed", `The server answered ${res.status} without a Location header.`, {
            status: res.status,
          });
        }
        if (hop >= opts.maxRedirects || opts.post) {
          throw new FetchFailed("fetch_failed", `The URL redirected more than ${opts.maxRedirects} times.`, {
            maxRedirects: opts.maxRedirects,
          });
        }
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          throw new FetchFailed("fetch_failed", `The server answered ${res.status} with an invalid Location header.`, {
            status: res.status,
          });
        }
        try {
          assertFetchableUrl(next, opts);
        } catch (e) {
          if (e instanceof UrlForbidden) {
            throw new UrlForbidden(`A redirect pointed to a forbidden URL: ${e.message}`);
          }
          throw e;
        }
        current = next;
        continue;
      }

      if (res.status < 200 || res.status > 299) {
        cancelBody(res);
        throw new FetchFailed("fetch_failed", `The server answered ${res.status} for the URL.`, { status: res.status });
      }

      const declared = res.headers.get("content-length");
      let expected: number | null = null;
      if (declared !== null && /^\s*\d+\s*$/.test(declared)) {
        expected = Number(declared);
        if (expected > opts.maxBytes) {
          cancelBody(res);
          throw remoteTooLarge(opts.maxBytes);
        }
      }
      const bytes = await readCapped(res, opts.maxBytes, expected, signal);
      return { bytes, contentType: res.headers.get("content-type"), finalUrl: current.href };
    }
  } catch (e) {
    if (e instanceof Timeout || (signal.aborted && !(e instanceof LimitExceeded || e instanceof UrlForbidden))) {
      throw new FetchFailed("fetch_timeout", `Fetching the URL took longer than ${seconds}.`, {
        timeoutMs: opts.timeoutMs,
      });
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a body with a running cap. With a trusted Content-Length, reads straight into one buffer. */
async function readCapped(
  res: Response,
  maxBytes: number,
  expected: number | null,
  signal: AbortSignal,
): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0);
  const reader = openBodyReader(res.body);
  const stop = () => {
    reader.cancel().catch(() => {});
  };
  let buf = new Uint8Array(expected !== null ? expected : Math.min(maxBytes, 64 * 1024));
  let len = 0;
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await raceAbort(reader.read(), signal);
      } catch (e) {
        stop();
        if (e instanceof Timeout) throw e;
        throw new FetchFailed("fetch_failed", "The connection failed while reading the response body.");
      }
      if (step.done) break;
      const chunk = step.value;
      if (len + chunk.length > maxBytes) {
        stop();
        throw remoteTooLarge(maxBytes);
      }
      if (len + chunk.length > buf.length) {
        // Undeclared length (or more than declared): grow geometrically, never past the cap.
        const next = new Uint8Array(Math.min(maxBytes, Math.max(buf.length * 2, len + chunk.length)));
        next.set(buf.subarray(0, len));
        buf = next;
      }
      buf.set(chunk, len);
      len += chunk.length;
    }
  } finally {
    try {
      reader.releaseLock();
    } catch {
      // a pending read after cancel keeps the lock; nothing to release
    }
  }
  return len === buf.length ? buf : buf.slice(0, len);
}
