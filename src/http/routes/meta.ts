import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { docsPage } from "../docs-page";
import { landingPage } from "../pages/verify-page";
import { htmlPage } from "./verify-page";

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Signet",
    version: "1.0.0",
    description:
      "Open e-signature document service: PAdES signing, DOCX template filling and signature verification. Errors are RFC 9457 problem details (`application/problem+json`) with a machine `code`.",
  },
};

export function registerMetaRoutes(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "API key `sgn_...` (stored by the service as a SHA-256 digest only).",
  });
  app.doc31("/openapi.json", OPENAPI_INFO);
  app.get("/docs", (c) => c.html(docsPage()));
  app.get("/healthz", (c) => c.json({ ok: true }));
  // People who type the bare address get a choice: check a document, or read the API reference.
  app.get("/", (c) => htmlPage(c, (nonce) => landingPage({ nonce })));
}
