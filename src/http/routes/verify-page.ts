import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../context";
import { verifyPage } from "../pages/verify-page";

/**
 * `GET /verify`: the page people use to check a signed PDF (it calls
 * `POST /v1/verify` and the evidence lookups of this same service, nothing
 * else). Served with a strict Content-Security-Policy: inline style and script
 * only with this response's nonce, connections only to this origin.
 */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (ch) => (ch === "+" ? "-" : ch === "/" ? "_" : ""));
}

/** An HTML page with its nonce-based CSP and the usual hardening headers. */
export function htmlPage(c: Context<AppEnv>, render: (nonce: string) => string): Response {
  const nonce = newNonce();
  return c.html(render(nonce), 200, {
    "Content-Security-Policy": pageCsp(nonce),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
  });
}

export function registerVerifyPage(app: OpenAPIHono<AppEnv>) {
  app.get("/verify", (c) =>
    htmlPage(c, (nonce) => verifyPage({ nonce, maxDocumentBytes: c.get("config").maxDocumentBytes })),
  );
}
