import { expect } from "vitest";
import { env, SELF } from "cloudflare:test";

export const BASE = "https://signet.test";

export function b64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromDataUri(uri: string): Uint8Array {
  const comma = uri.indexOf(",");
  const bin = atob(uri.slice(comma + 1));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A corpus PDF (pdf-plain, or pdf-signed with `signed`), served to workerd by the loopback fixture server. */
export async function corpusPdf(name: string, opts: { signed?: boolean } = {}): Promise<Uint8Array> {
  const res = await fetch(`${env.FIXTURE_BASE_URL}/${opts.signed ? "pdf-signed" : "pdf"}/${encodeURIComponent(name)}`);
  if (!res.ok) throw new Error(`fixture ${name}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

export function post(
  path: string,
  body: unknown,
  opts: { key?: string | null; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...opts.headers };
  const key = opts.key === undefined ? env.TEST_API_KEY : opts.key;
  if (key) headers.Authorization = `Bearer ${key}`;
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const signer = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  ip: "203.0.113.7",
  userAgent: "Mozilla/5.0 (test)",
};

export const auditTrail = [
  { type: "ready", timestamp: "2026-11-21T09:59:00Z" },
  { type: "field_change", timestamp: "2026-11-21T09:59:10Z", data: { fieldId: "name", value: "A" } },
  { type: "field_change", timestamp: "2026-11-21T09:59:11Z", data: { fieldId: "name", value: "Ada" } },
  { type: "submit", timestamp: "2026-11-21T10:00:00+01:00", data: {} },
];

export function signRequest(pdf: Uint8Array, extra: Record<string, unknown> = {}) {
  return { document: { base64: b64(pdf) }, signer, auditTrail, ...extra };
}

export async function problem(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  return (await res.json()) as {
    code: string;
    status: number;
    detail: string;
    message: string;
    errors?: { path: string }[];
  };
}

export const latin1 = (bytes: Uint8Array) => {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
};
