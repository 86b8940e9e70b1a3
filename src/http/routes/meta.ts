import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { version as SERVICE_VERSION } from "../../../package.json";
import type { AppEnv } from "../context";
import { landingPage } from "../pages/verify-page";
import { htmlPage } from "./verify-page";

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Signet",
    version: "1.0.0",
    description:
      "Open e-signature document service: PAdES signing, DOCX template filling, conversion of DOCX, Markdown and HTML to PDF or DOCX, and signature verification. Wire-compatible with the SuperDoc API: change the base URL and the key. Errors are RFC 9457 problem details (`application/problem+json`) with a machine `code`, and SuperDoc's `error`, `message` and `details`. To try a call, paste your API key (`sgn_...`) under Authentication.",
  },
};

/** When this isolate answered its first health check (workerd's clock reads 0 at module scope). */
let isolateStarted: number | undefined;

export const HealthResponse = z
  .object({
    status: z.literal("healthy"),
    timestamp: z
      .string()
      .openapi({ description: "The service's clock (ISO 8601).", example: "2026-11-27T10:00:00.000Z" }),
    version: z.string().openapi({ description: "Signet's version.", example: SERVICE_VERSION }),
    instance: z
      .object({
        startTime: z.string().openapi({ description: "When this instance started (ISO 8601)." }),
        uptime: z.number().openapi({ description: "Seconds since then." }),
      })
      .openapi({ description: "The Worker isolate that answered." }),
  })
  .openapi("HealthResponse", { description: "SuperDoc's health shape." });

export const healthRoute = createRoute({
  method: "get",
  path: "/v1/health",
  summary: "Health check (SuperDoc's shape)",
  description: 'Answers 200 while the service runs. `GET /healthz` answers `{"ok":true}` for load balancers.',
  responses: { 200: { description: "The service is up", content: { "application/json": { schema: HealthResponse } } } },
});

export function registerMetaRoutes(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "API key `sgn_...` (stored by the service as a SHA-256 digest only).",
  });
  app.doc31("/openapi.json", OPENAPI_INFO);
  app.get("/healthz", (c) => c.json({ ok: true }));
  app.openapi(healthRoute, (c) => {
    const now = Date.now();
    isolateStarted ??= now;
    return c.json({
      status: "healthy" as const,
      timestamp: new Date(now).toISOString(),
      version: SERVICE_VERSION,
      instance: {
        startTime: new Date(isolateStarted).toISOString(),
        uptime: Math.round((now - isolateStarted) / 1000),
      },
    });
  });
  // People who type the bare address get a choice: check a document, or read the API reference.
  app.get("/", (c) => htmlPage(c, (nonce) => landingPage({ nonce })));
}
