import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { AppEnv } from "../context";

/**
 * One JSON line per request on stdout (Workers Logs / `wrangler tail` / `wrangler dev`).
 * It says what happened and how big, never what was in it: no document bytes, no key
 * (only the first 12 hex characters of its SHA-256), no signer data, no path parameters
 * (the route pattern, so evidence references and hashes stay out of the logs).
 * A 500 carries the error message and stack here, and only here.
 * This is the only module under src/ that writes with console.log (scripts/lint.mjs).
 */

export interface AccessLogLine {
  time: string;
  level: "info" | "warn" | "error";
  requestId: string;
  method: string;
  route: string;
  operation: string | null;
  status: number;
  durationMs: number;
  requestBytes: number | null;
  /** Bytes of the large base64 values (documents, images of 1 MiB and more) decoded while the body streamed in. */
  decodedBytesIn?: number;
  documentBytesOut?: number;
  keyId?: string;
  code?: string;
  error?: string;
  stack?: string;
}

const OPERATIONS: Record<string, string> = {
  "POST /v1/sign": "sign",
  "POST /v1/annotate": "annotate",
  "POST /v1/verify": "verify",
  "GET /v1/verify/key": "verify.key",
  "GET /v1/verify/ref/:ref": "verify.ref",
  "GET /v1/verify/hash/:sha256": "verify.hash",
};

export const accessLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  await next();
  console.log(JSON.stringify(await logLine(c, performance.now() - started)));
});

async function logLine(c: Context<AppEnv>, elapsedMs: number): Promise<AccessLogLine> {
  const status = c.res.status;
  const route = routePath(c, -1) || "*";
  const declared = c.req.header("content-length");
  const line: AccessLogLine = {
    time: new Date().toISOString(),
    level: status >= 500 ? "error" : status >= 400 ? "warn" : "info",
    requestId: c.get("requestId"),
    method: c.req.method,
    route,
    operation: OPERATIONS[`${c.req.method} ${route}`] ?? null,
    status,
    // Workers advance the clock only across I/O, so this is the time spent waiting plus CPU seen at I/O.
    durationMs: Math.round(elapsedMs * 10) / 10,
    requestBytes: declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : null,
  };
  let decoded = 0;
  for (const value of c.get("preDecoded")?.values() ?? []) decoded += value.bytes?.length ?? 0;
  if (decoded > 0) line.decodedBytesIn = decoded;
  const out = c.get("documentBytesOut");
  if (out !== undefined) line.documentBytesOut = out;
  const keyId = c.get("keyId");
  if (keyId) line.keyId = keyId.slice(0, 12);
  if (c.res.headers.get("content-type")?.startsWith("application/problem+json")) {
    line.code = await problemCode(c.res);
  }
  if (status >= 500 && c.error) {
    line.error = `${c.error.name}: ${c.error.message}`;
    if (c.error.stack) line.stack = c.error.stack;
  }
  return line;
}

/** The `code` of a problem+json response (small bodies), read from a clone so the caller still gets it. */
async function problemCode(res: Response): Promise<string | undefined> {
  try {
    const body = (await res.clone().json()) as { code?: unknown };
    return typeof body.code === "string" ? body.code : undefined;
  } catch {
    return undefined;
  }
}
