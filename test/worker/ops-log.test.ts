import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/http/app";
import { BASE, b64, corpusPdf, signer } from "./helpers";

/** The access log: one JSON line per request with what happened, never what was in it. */

const app = createApp();
let lines: string[] = [];
let errors: string[] = [];

beforeEach(() => {
  lines = [];
  errors = [];
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args.map(String).join(" ")));
});
afterEach(() => vi.restoreAllMocks());

function post(path: string, body: unknown, extraEnv: Record<string, unknown> = {}) {
  const text = JSON.stringify(body);
  return app.request(
    `${BASE}${path}`,
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Bearer ${env.TEST_API_KEY}`,
        "Content-Length": String(text.length),
      },
      body: text,
    },
    { ...env, ...extraEnv },
  );
}

function onlyLine() {
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe("access log", () => {
  it("logs a signing: operation, status, sizes, key digest prefix; no document, key or signer", async () => {
    const pdf = await corpusPdf("pdf20examples__Simple_PDF_2.0_file.pdf");
    const base64 = b64(pdf);
    const res = await post("/v1/sign", {
      document: { base64 },
      signer,
      auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
      metadata: { secretNote: "do-not-log-me" },
    });
    expect(res.status).toBe(200);
    const body = await res.text();
    const line = onlyLine();
    expect(line).toMatchObject({
      level: "info",
      method: "POST",
      route: "/v1/sign",
      operation: "sign",
      status: 200,
      requestId: res.headers.get("x-request-id"),
    });
    expect(typeof line.time).toBe("string");
    expect(line.durationMs).toBeGreaterThanOrEqual(0);
    expect(line.requestBytes).toBeGreaterThan(base64.length);
    expect(line.documentBytesOut).toBeGreaterThan(pdf.length);
    const digest = [
      ...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(env.TEST_API_KEY))),
    ]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    expect(line.keyId).toBe(digest.slice(0, 12));
    const logged = [...lines, ...errors].join("\n");
    for (const secret of [
      env.TEST_API_KEY,
      digest,
      base64.slice(100, 160),
      signer.name,
      signer.email,
      signer.ip,
      "do-not-log-me",
    ]) {
      expect(logged).not.toContain(secret);
    }
    expect(logged).not.toContain(body.slice(200, 260)); // nor the signed output
  });

  it("logs the size of a large document decoded while the body streamed in", async () => {
    // 1.5 MiB of PDF: above the 1 MiB pre-decode threshold. Its content does not matter here.
    const big = new Uint8Array(1536 * 1024).fill(0x20);
    big.set(new TextEncoder().encode("%PDF-1.7\n"));
    const res = await app.request(
      `${BASE}/v1/verify`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ document: { base64: b64(big) } }),
      },
      env,
    );
    expect(res.status).toBe(422);
    const line = onlyLine();
    expect(line).toMatchObject({ operation: "verify", decodedBytesIn: big.length, code: "pdf_unparseable" });
  });

  it("logs a problem's code, and the route pattern, not the reference asked for", async () => {
    const ref = "0123456789abcdef0123456789abcdef";
    const res = await app.request(`${BASE}/v1/verify/ref/${ref}`, {}, env);
    expect(res.status).toBe(404);
    const line = onlyLine();
    expect(line).toMatchObject({
      level: "warn",
      route: "/v1/verify/ref/:ref",
      operation: "verify.ref",
      status: 404,
      code: "not_found",
    });
    expect(lines[0]).not.toContain(ref);
  });

  it("logs a 401 without the presented key", async () => {
    const wrong = "sgn_" + "W".repeat(43);
    const res = await app.request(
      `${BASE}/v1/annotate`,
      { method: "POST", headers: { Authorization: `Bearer ${wrong}`, "Content-Type": "application/json" }, body: "{}" },
      env,
    );
    expect(res.status).toBe(401);
    const line = onlyLine();
    expect(line).toMatchObject({ operation: "annotate", status: 401, code: "unauthorized" });
    expect(line.keyId).toBeUndefined();
    expect(lines[0]).not.toContain(wrong);
  });

  it("a 500 puts the error and its stack in the log and nothing of it in the response", async () => {
    // A D1 binding that cannot prepare statements: signing fails inside the store.
    const res = await post(
      "/v1/sign",
      {
        document: { base64: b64(await corpusPdf("pdf20examples__Simple_PDF_2.0_file.pdf")) },
        signer,
        auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
        eventId: "e-500",
      },
      { DB: {} },
    );
    expect(res.status).toBe(500);
    const text = await res.text();
    const line = onlyLine();
    expect(line).toMatchObject({ level: "error", operation: "sign", status: 500, code: "internal_error" });
    expect(line.error).toMatch(/\w+Error: /);
    expect(String(line.stack)).toContain("at ");
    expect(text).not.toContain(String(line.error).split(": ").slice(1).join(": "));
    expect(text).not.toMatch(/\bat \S+ \(/);
  });
});
