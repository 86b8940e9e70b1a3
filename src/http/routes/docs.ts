import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { AppEnv } from "../context";
import { newNonce } from "./verify-page";

/**
 * `GET /docs`: Scalar's API reference of `/openapi.json`, with "try it" against this service.
 * Its script is served by Signet itself (`/docs/scalar.js`, copied from @scalar/api-reference
 * into the static assets by scripts/dev-setup.mjs): no CDN, no web fonts, no proxy, no telemetry,
 * so the page works offline and under a CSP that lets it talk to this origin only.
 */
export function docsCsp(nonce: string): string {
  return [
    "default-src 'none'",
    // The bundle and its initialisation carry the nonce; the bundle adds styles at run time.
    `script-src 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function registerDocsRoutes(app: OpenAPIHono<AppEnv>) {
  app.get("/docs", async (c, next) => {
    const nonce = newNonce();
    const reference = Scalar({
      url: "/openapi.json",
      cdn: "/docs/scalar.js",
      nonce,
      pageTitle: "Signet API reference",
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      showDeveloperTools: "never",
      agent: { disabled: true },
      mcp: { disabled: true },
      authentication: { preferredSecurityScheme: "bearerAuth" },
      defaultHttpClient: { targetKey: "js", clientKey: "fetch" },
    } as Parameters<typeof Scalar>[0]);
    const res = await reference(c as never, next);
    if (!(res instanceof Response)) return res;
    const headers = new Headers(res.headers);
    headers.set("Content-Security-Policy", docsCsp(nonce));
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Referrer-Policy", "no-referrer");
    headers.set("Cache-Control", "no-store");
    return new Response(res.body, { status: res.status, headers });
  });

  app.get("/docs/scalar.js", async (c) => {
    const asset = c.env.ASSETS ? await c.env.ASSETS.fetch(new Request("https://assets.local/docs/scalar.js")) : null;
    if (!asset?.ok) {
      await asset?.body?.cancel();
      return c.text("The API reference script is not installed (run npm ci; scripts/dev-setup.mjs copies it).", 503);
    }
    return new Response(asset.body, {
      headers: {
        "Content-Type": "application/javascript; charset=utf-8",
        "Cache-Control": "public, max-age=3600",
        "X-Content-Type-Options": "nosniff",
      },
    });
  });
}
