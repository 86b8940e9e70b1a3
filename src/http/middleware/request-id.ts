import { createMiddleware } from "hono/factory";
import { readConfig } from "../../config";
import type { AppEnv } from "../context";

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Echo a sane caller `X-Request-Id`, else mint one, on every response (the one place the header is
 * set: routes, problems and 404s get it here); also loads the config once.
 */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const given = c.req.header("x-request-id");
  const requestId = given && SANE_ID.test(given) ? given : crypto.randomUUID();
  c.set("requestId", requestId);
  c.set("config", readConfig(c.env));
  c.set("keyId", null);
  c.set("keyConfirmed", () => Promise.resolve());
  await next();
  c.res.headers.set("X-Request-Id", requestId);
});
