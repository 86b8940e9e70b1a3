import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { LIMITS } from "../../limits";
import { verificationKey, verifyDocument } from "../../operations/verify";
import type { AppEnv } from "../context";
import { requireApiKey } from "../middleware/auth";
import { documentBase64, jsonBody } from "../middleware/json-body";
import { problemResponse } from "../problem";
import { Problem } from "../schemas";
import { VerifyKeyResponse, VerifyRequest, VerifyResponse } from "../schemas-verify";

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: Problem } },
});

/**
 * Public unless VERIFY_REQUIRES_AUTH=true. A caller that sends a key must send a
 * valid one; anonymous callers are rate-limited per client address.
 */
const apiKey = requireApiKey();
const verifyAccess = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("config").verifyRequiresAuth || c.req.header("authorization") !== undefined) {
    const denied = await apiKey(c, next);
    if (denied) return denied;
    return;
  }
  const ip = c.req.header("cf-connecting-ip");
  if (ip) {
    const wait = anonymousLimiter.take(ip, Date.now());
    if (wait > 0) {
      return problemResponse(c, "rate_limited", "Too many verification requests from your address; retry later or send an API key.", {
        headers: { "Retry-After": String(Math.ceil(wait / 1000)) },
      });
    }
  }
  await next();
});

/** A sliding one-minute window per client address, in the isolate. */
class WindowLimiter {
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

const anonymousLimiter = new WindowLimiter(LIMITS.verify.anonymousRequestsPerMinute, LIMITS.verify.maxTrackedClients);

/** OpenAPI: no key needed (the empty requirement), or a bearer key. */
const OPTIONAL_KEY: Record<string, string[]>[] = [{}, { bearerAuth: [] }];

export const verifyRoute = createRoute({
  method: "post",
  path: "/v1/verify",
  summary: "Verify the signatures of a PDF",
  description:
    "Checks every signature of a PDF: byte-range structure (the unsigned gap must be exactly the signature value), the CMS signature and certificate chain, what the signatures cover, and what later revisions changed (reject-by-default, object by object), then says whether the document is valid and why. A PDF whose signatures fail is not an error: the answer is 200 with `valid: false`. Public unless VERIFY_REQUIRES_AUTH=true.",
  security: OPTIONAL_KEY,
  middleware: [verifyAccess, jsonBody(documentBase64)] as const,
  request: { body: { required: true, content: { "application/json": { schema: VerifyRequest } } } },
  responses: {
    200: { description: "The verification report", content: { "application/json": { schema: VerifyResponse } } },
    400: problem("Malformed JSON or schema violation"),
    401: problem("API key required (VERIFY_REQUIRES_AUTH=true) or an invalid key sent"),
    413: problem("Body or document too large"),
    415: problem("Not JSON, or not a PDF (DOCX, images)"),
    422: problem("Unreadable PDF (pdf_unparseable, also for files beyond the work limits) or encrypted with a user password (pdf_encrypted)"),
    429: problem("Too many anonymous requests from one address"),
    502: problem("Fetching the document failed"),
    504: problem("Fetching the document timed out"),
  },
});

export const verifyKeyRoute = createRoute({
  method: "get",
  path: "/v1/verify/key",
  summary: "The service's signing certificate chain",
  description:
    "The certificate chain Signet signs with (PEM, signer first) and the signer certificate's SHA-256 fingerprint, to add to other validators' trust stores. Public unless VERIFY_REQUIRES_AUTH=true.",
  security: OPTIONAL_KEY,
  middleware: [verifyAccess] as const,
  responses: {
    200: { description: "The signing chain", content: { "application/json": { schema: VerifyKeyResponse } } },
    401: problem("API key required (VERIFY_REQUIRES_AUTH=true) or an invalid key sent"),
    503: problem("The service has no signing certificate configured"),
  },
});

export function registerVerifyRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(verifyRoute, async (c) => {
    const input = c.req.valid("json");
    const report = await verifyDocument(input, {
      config: c.get("config"),
      secrets: { trustedRootsPem: c.env.TRUSTED_ROOTS, signingCertPem: c.env.SIGNING_CERT },
      selfHost: new URL(c.req.url).hostname,
      preDecoded: c.get("preDecoded"),
    });
    return c.json(report, 200, { "X-Request-Id": c.get("requestId") });
  });
  app.openapi(verifyKeyRoute, async (c) => {
    const key = await verificationKey({ trustedRootsPem: c.env.TRUSTED_ROOTS, signingCertPem: c.env.SIGNING_CERT });
    return c.json(key, 200, { "X-Request-Id": c.get("requestId") });
  });
}
