import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ERROR_STATUS, type ErrorCode, type ErrorStatus, SignetError } from "../errors";

/**
 * The one place where errors become HTTP responses: RFC 9457 problem details
 * (`application/problem+json`) with the machine `code` of interface.md, and beside them
 * what SuperDoc's clients read: `message` (same text as `detail`), `error` (the HTTP reason
 * phrase) and, for field-level errors, `details: [{ field, issue }]`. Never a stack trace.
 * The status comes from the code, through `ERROR_STATUS` (src/errors.ts) only.
 */
const TITLES: Record<ErrorStatus, string> = {
  400: "Invalid request",
  401: "Unauthorized",
  404: "Not found",
  408: "Request timeout",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable content",
  429: "Too many requests",
  499: "Client closed request",
  500: "Internal error",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

/** HTTP reason phrases (RFC 9110), SuperDoc's `error` field. */
const REASON_PHRASES: Record<ErrorStatus, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  499: "Client Closed Request",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export interface ProblemFieldError {
  path: string;
  message: string;
}

export function problemResponse(
  c: Context,
  code: ErrorCode,
  detail: string,
  extra: { errors?: ProblemFieldError[]; headers?: Record<string, string>; status?: number } = {},
): Response {
  const status = extra.status ?? ERROR_STATUS[code];
  const body: Record<string, unknown> = {
    type: `/problems/${code}`,
    title: TITLES[status as ErrorStatus] ?? "Error",
    status,
    code,
    detail,
    message: detail,
    error: REASON_PHRASES[status as ErrorStatus] ?? "Error",
  };
  if (extra.errors?.length) {
    body.errors = extra.errors;
    body.details = extra.errors.map((e) => ({ field: e.path, issue: e.message }));
  }
  const requestId = c.get("requestId" as never) as string | undefined;
  if (requestId) body.requestId = requestId;
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/problem+json",
      ...extra.headers,
    },
  });
}

/** A zod validation failure as a 400 `invalid_request` with per-field errors. */
export function validationProblem(
  c: Context,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Response {
  const errors = issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
  const first = errors[0] ?? { path: "(body)", message: "Invalid request" };
  return problemResponse(c, "invalid_request", `${first.path}: ${first.message}`, { errors });
}

/** `app.onError`: domain errors keep their code; anything unexpected is a bare 500. */
export function handleError(err: unknown, c: Context): Response {
  if (err instanceof SignetError) {
    // Field-level detail (e.g. strict annotate's unmatched selectors) rides along as `errors`.
    const errors = Array.isArray(err.details?.errors) ? (err.details.errors as ProblemFieldError[]) : undefined;
    return problemResponse(c, err.code, err.message, { errors });
  }
  if (err instanceof HTTPException) {
    // Hono's JSON validator throws this for a body that is not JSON.
    if (err.status === 400) return problemResponse(c, "invalid_json", "The request body is not valid JSON.");
    return problemResponse(c, err.status === 404 ? "not_found" : "internal_error", err.message || "Error", {
      status: err.status,
    });
  }
  // Log the internals for operators; the caller gets none of them.
  console.error(JSON.stringify({ level: "error", requestId: c.get("requestId" as never), error: describe(err) }));
  return problemResponse(c, "internal_error", "An unexpected error occurred. Quote the request id when reporting it.");
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}\n${err.stack ?? ""}`;
  return String(err);
}
