import { OpenAPIHono } from "@hono/zod-openapi";

export function createApp() {
  const app = new OpenAPIHono();
  app.get("/healthz", (c) => c.json({ ok: true }));
  return app;
}
