import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FetchFailed, InvalidRequest, LimitExceeded, SignetError, UrlForbidden } from "../errors";
import { LIMITS } from "../limits";
import { fetchPublicResource, UrlBudget, type FetchOptions } from "./safe-fetch";

const BASE = env.FIXTURE_BASE_URL;
const LOCAL: FetchOptions = { allowPrivate: true, maxBytes: 1_000_000, timeoutMs: 5_000, maxRedirects: 3 };

async function failure(p: Promise<unknown>): Promise<SignetError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SignetError);
    return e as SignetError;
  }
  throw new Error("expected a failure");
}

/**
 * A network stand-in: requests to https://docs.example.com/ go to the fixture server, so the URL
 * rules see a public-looking host while the bytes come from loopback. Records every URL requested.
 */
function routedFetch(calls: string[]): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    calls.push(url.href);
    if (url.hostname !== "docs.example.com") throw new Error(`test network: no route to ${url.host}`);
    return fetch(`${BASE}${url.pathname}${url.search}`, init);
  }) as typeof fetch;
}

describe("fetchPublicResource against the loopback fixture server", () => {
  it("fetches a corpus PDF", async () => {
    const url = `${BASE}/pdf/pdf20examples__Simple_PDF_2.0_file.pdf`;
    const r = await fetchPublicResource(url, LOCAL);
    expect(new TextDecoder().decode(r.bytes.subarray(0, 8))).toBe("%PDF-2.0");
    expect(r.contentType).toBe("application/pdf");
    expect(r.finalUrl).toBe(url);
  });

  it("sends only a fixed User-Agent and Accept", async () => {
    const r = await fetchPublicResource(`${BASE}/headers`, { ...LOCAL, accept: "application/pdf" });
    const headers = JSON.parse(new TextDecoder().decode(r.bytes)) as Record<string, string>;
    expect(headers["user-agent"]).toBe("Signet/0.1");
    expect(headers.accept).toBe("application/pdf");
    expect(headers.cookie).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
  });

  it("refuses loopback and http: when private URLs are not allowed", async () => {
    const e = await failure(fetchPublicResource(`${BASE}/small.pdf`, { ...LOCAL, allowPrivate: false }));
    expect(e).toBeInstanceOf(UrlForbidden);
    const e2 = await failure(fetchPublicResource("https://127.0.0.1:1/small.pdf", { ...LOCAL, allowPrivate: false }));
    expect(e2.code).toBe("url_forbidden");
  });

  describe("redirects", () => {
    it("follows 3 hops and refuses a 4th", async () => {
      const ok = await fetchPublicResource(`${BASE}/redirect/3`, LOCAL);
      expect(ok.finalUrl).toBe(`${BASE}/redirect/0`);
      expect(new TextDecoder().decode(ok.bytes.subarray(0, 5))).toBe("%PDF-");
      const e = await failure(fetchPublicResource(`${BASE}/redirect/4`, LOCAL));
      expect(e).toBeInstanceOf(FetchFailed);
      expect(e.code).toBe("fetch_failed");
      expect(e.message).toMatch(/more than 3 times/);
    });

    it("handles every redirect status and absolute Locations", async () => {
      for (const status of [301, 302, 303, 307, 308]) {
        const r = await fetchPublicResource(`${BASE}/redirect/2?status=${status}&abs=1`, LOCAL);
        expect(r.finalUrl).toBe(`${BASE}/redirect/0?status=${status}&abs=1`);
      }
    });

    it("honours a smaller maxRedirects, and 0 means no redirect at all", async () => {
      await expect(fetchPublicResource(`${BASE}/redirect/1`, { ...LOCAL, maxRedirects: 0 })).rejects.toThrow(
        FetchFailed,
      );
      await fetchPublicResource(`${BASE}/redirect/0`, { ...LOCAL, maxRedirects: 0 });
    });

    it("treats a redirect without Location as a failure", async () => {
      const e = await failure(fetchPublicResource(`${BASE}/status/302`, LOCAL));
      expect(e.code).toBe("fetch_failed");
      expect(e.message).toMatch(/without a Location/);
    });

    it("re-checks every hop: a public first hop may not redirect to a private host", async () => {
      const strict: FetchOptions = { ...LOCAL, allowPrivate: false };
      // Sanity: the routed network works, including relative redirects.
      const calls: string[] = [];
      const ok = await fetchPublicResource("https://docs.example.com/redirect/2", {
        ...strict,
        fetch: routedFetch(calls),
      });
      expect(ok.finalUrl).toBe("https://docs.example.com/redirect/0");
      expect(calls).toHaveLength(3);

      const targets = [
        `${BASE}/small.pdf`,
        "https://127.0.0.1/small.pdf",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:7f00:1]/",
        "https://0x7f.1/",
        "https://localhost./",
        "https://user:pw@docs.example.com/small.pdf",
        "file:///etc/passwd",
        "https://signet.example.com/v1/sign",
      ];
      for (const target of targets) {
        const seen: string[] = [];
        const first = `https://docs.example.com/redirect-to?url=${encodeURIComponent(target)}`;
        const e = await failure(
          fetchPublicResource(first, { ...strict, selfHost: "signet.example.com", fetch: routedFetch(seen) }),
        );
        expect(e, target).toBeInstanceOf(UrlForbidden);
        expect(e.message).toMatch(/^A redirect pointed to a forbidden URL/);
        expect(seen, target).toEqual([first]);
      }
    });
  });

  describe("timeouts", () => {
    it("times out when the body never finishes", async () => {
      const e = await failure(fetchPublicResource(`${BASE}/slow`, { ...LOCAL, timeoutMs: 300 }));
      expect(e).toBeInstanceOf(FetchFailed);
      expect(e.code).toBe("fetch_timeout");
      expect(e.message).toBe("Fetching the URL took longer than 300 ms.");
    });

    it("times out when no headers ever come", async () => {
      const e = await failure(fetchPublicResource(`${BASE}/hang`, { ...LOCAL, timeoutMs: 300 }));
      expect(e.code).toBe("fetch_timeout");
      expect(e.message).toBe("Fetching the URL took longer than 300 ms.");
    });

    it("covers the whole redirect chain with one deadline", async () => {
      const e = await failure(
        fetchPublicResource(`${BASE}/redirect-to?url=${encodeURIComponent("/slow")}`, { ...LOCAL, timeoutMs: 300 }),
      );
      expect(e.code).toBe("fetch_timeout");
    });
  });

  describe("byte caps", () => {
    it("accepts a body of exactly the cap, with and without Content-Length", async () => {
      expect((await fetchPublicResource(`${BASE}/big?bytes=1000000`, LOCAL)).bytes.length).toBe(1_000_000);
      expect((await fetchPublicResource(`${BASE}/big-declared?bytes=1000000`, LOCAL)).bytes.length).toBe(1_000_000);
    });

    it("refuses a streamed body over the cap (no Content-Length)", async () => {
      const e = await failure(fetchPublicResource(`${BASE}/big?bytes=1000001`, LOCAL));
      expect(e).toBeInstanceOf(LimitExceeded);
      expect(e.code).toBe("remote_too_large");
      const e2 = await failure(fetchPublicResource(`${BASE}/big?bytes=300000000`, LOCAL));
      expect(e2.code).toBe("remote_too_large");
    });

    it("refuses a declared Content-Length over the cap before reading the body", async () => {
      const e = await failure(fetchPublicResource(`${BASE}/big-declared?bytes=300000000`, LOCAL));
      expect(e.code).toBe("remote_too_large");
      expect(e.message).toMatch(/limit of/);
      // With a stand-in response: the body stream is never pulled.
      let pulls = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          pulls++;
          c.enqueue(new Uint8Array(1024));
        },
      });
      const fake = (async () =>
        new Response(body, {
          headers: { "Content-Length": "5000000", "Content-Type": "application/pdf" },
        })) as unknown as typeof fetch;
      const e3 = await failure(
        fetchPublicResource("https://docs.example.com/x.pdf", { ...LOCAL, allowPrivate: false, fetch: fake }),
      );
      expect(e3.code).toBe("remote_too_large");
      expect(pulls).toBeLessThanOrEqual(1); // at most the stream's initial fill, never read by us
    });

    it("fetches 25 MiB within the document cap", async () => {
      const n = LIMITS.maxDocumentBytes;
      const r = await fetchPublicResource(`${BASE}/big?bytes=${n}`, { ...LOCAL, maxBytes: n, timeoutMs: 30_000 });
      expect(r.bytes.length).toBe(n);
      const e = await failure(
        fetchPublicResource(`${BASE}/big?bytes=${n + 1}`, { ...LOCAL, maxBytes: n, timeoutMs: 30_000 }),
      );
      expect(e.code).toBe("remote_too_large");
    });
  });

  describe("failures", () => {
    it("reports non-2xx statuses as fetch_failed with the status", async () => {
      for (const status of [400, 401, 403, 404, 410, 500, 502, 503]) {
        const e = await failure(fetchPublicResource(`${BASE}/status/${status}`, LOCAL));
        expect(e).toBeInstanceOf(FetchFailed);
        expect(e.code).toBe("fetch_failed");
        expect(e.details).toEqual({ status });
        expect(e.message).toBe(`The server answered ${status} for the URL.`);
      }
    });

    it("reports a refused connection without internal error text", async () => {
      const e = await failure(fetchPublicResource("http://127.0.0.1:1/x.pdf", LOCAL));
      expect(e.code).toBe("fetch_failed");
      expect(e.message).toBe("Could not connect to 127.0.0.1:1 to fetch the URL.");
      const thrower = (async () => {
        throw new Error("internal: socket 0xdeadbeef reset by peer");
      }) as unknown as typeof fetch;
      const e2 = await failure(fetchPublicResource("https://docs.example.com/", { ...LOCAL, fetch: thrower }));
      expect(e2.message).not.toMatch(/deadbeef|internal/);
    });

    it("refuses a string that is not a URL with invalid_request", async () => {
      const e = await failure(fetchPublicResource("not a url", LOCAL));
      expect(e).toBeInstanceOf(InvalidRequest);
      expect(e.code).toBe("invalid_request");
    });

    it("returns 2xx bodies whatever their type (typing is the sniffer's job)", async () => {
      const png = await fetchPublicResource(`${BASE}/png`, LOCAL);
      expect(png.contentType).toBe("image/png");
      expect(png.bytes[0]).toBe(0x89);
    });
  });
});

describe("UrlBudget", () => {
  it("allows 20 URLs per request and refuses the 21st", () => {
    const budget = new UrlBudget();
    for (let i = 0; i < LIMITS.maxUrlsPerRequest; i++) budget.take();
    expect(budget.count).toBe(20);
    let thrown: unknown;
    try {
      budget.take();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InvalidRequest);
    expect((thrown as InvalidRequest).code).toBe("invalid_request");
    expect((thrown as InvalidRequest).message).toBe("at most 20 URLs per request");
    expect(budget.count).toBe(20);
  });
});
