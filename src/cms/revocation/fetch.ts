/**
 * Fetching revocation data from the addresses certificates name, under the document URL
 * rules (input/safe-fetch: https only unless private URLs are allowed, public hosts,
 * redirects re-checked, per-fetch timeout, byte caps) plus a count and an overall time
 * budget per request (LIMITS.revocation).
 */
import { SignetError } from "../../errors";
import { fetchPublicResource } from "../../input/safe-fetch";
import { LIMITS } from "../../limits";

export interface RevocationFetcher {
  /** POSTs a DER OCSPRequest; resolves with the response body. */
  ocsp(url: string, request: Uint8Array): Promise<Uint8Array>;
  /** GETs a CRL (or a certificate from an AIA caIssuers address). */
  get(url: string, maxBytes: number): Promise<Uint8Array>;
}

export class RevocationFetchError extends Error {}

export interface FetcherOptions {
  allowPrivateUrls: boolean;
  /** Per-fetch timeout (the document URL timeout). */
  timeoutMs: number;
  selfHost?: string;
  fetch?: typeof fetch;
  maxFetches?: number;
  totalTimeoutMs?: number;
}

/** A fetcher with its own budget: one per signing or verification request. */
export function createRevocationFetcher(opts: FetcherOptions): RevocationFetcher {
  let left = opts.maxFetches ?? LIMITS.revocation.maxFetches;
  const deadline = Date.now() + (opts.totalTimeoutMs ?? LIMITS.revocation.totalTimeoutMs);
  const run = async (url: string, maxBytes: number, post?: { body: Uint8Array; contentType: string }) => {
    if (left-- <= 0)
      throw new RevocationFetchError(
        `more than ${opts.maxFetches ?? LIMITS.revocation.maxFetches} revocation addresses in one request`,
      );
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new RevocationFetchError("the time for fetching revocation data is used up");
    try {
      const res = await fetchPublicResource(url, {
        allowPrivate: opts.allowPrivateUrls,
        selfHost: opts.selfHost,
        maxBytes,
        timeoutMs: Math.min(opts.timeoutMs, remaining),
        maxRedirects: LIMITS.maxRedirects,
        accept: post ? "application/ocsp-response" : "*/*",
        fetch: opts.fetch,
        post,
      });
      return res.bytes;
    } catch (err) {
      if (err instanceof SignetError) throw new RevocationFetchError(`${redact(url)}: ${err.message}`);
      throw err;
    }
  };
  return {
    ocsp: (url, request) =>
      run(url, LIMITS.revocation.maxOcspBytes, { body: request, contentType: "application/ocsp-request" }),
    get: (url, maxBytes) => run(url, maxBytes),
  };
}

/** An address without its query (responders sometimes carry tokens there). */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid address)";
  }
}
