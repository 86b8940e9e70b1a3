import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { startService, type RunningService } from "./service";

/**
 * Signing and verifying through the real service with the revocation PKI of global-setup
 * (test/support/revocation-pki.ts) and its time-stamp authority (`/tsa/ltv`).
 */

const CORPUS = new URL("../../../../shared/corpus/", import.meta.url).pathname;
export const PLAIN_PDF = readFileSync(join(CORPUS, "pdf-plain/pdf20examples__Simple_PDF_2.0_file.pdf"));
export const pki = inject("revocationPki");
export const ltvTsaUrl = `${inject("tsaUrl")}/ltv`;
export const fixtureBaseUrl = inject("fixtureBaseUrl");

export type PkiSigner = "good" | "revoked" | "expired" | "revocable";

const services = new Map<string, RunningService>();

/** A running service (one per signer and settings), reused across tests of a file. */
export async function serviceFor(
  signer: PkiSigner | "dev",
  extra: Record<string, string> = {},
): Promise<RunningService> {
  const key = JSON.stringify([signer, extra]);
  let svc = services.get(key);
  if (!svc) {
    const identity: Record<string, string> =
      signer === "dev" ? {} : { SIGNING_KEY: pki.signers[signer].keyPem, SIGNING_CERT: pki.signers[signer].chainPem };
    svc = await startService({ ...identity, TSA_URL: ltvTsaUrl, ALLOW_PRIVATE_URLS: "true", ...extra });
    services.set(key, svc);
  }
  return svc;
}

export async function stopServices(): Promise<void> {
  for (const s of services.values()) await s.stop();
  services.clear();
}

export async function signWith(
  svc: RunningService,
  level: string | undefined,
  pdf: Uint8Array = PLAIN_PDF,
  extra: Record<string, unknown> = {},
) {
  const res = await fetch(`${svc.baseUrl}/v1/sign`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify({
      document: { base64: Buffer.from(pdf).toString("base64") },
      signer: { name: "Ada Lovelace", email: "ada@example.com" },
      auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
      ...(level ? { signature: { level } } : {}),
      ...extra,
    }),
  });
  const body = (await res.json()) as any;
  // A 500 carries no details by design: put the worker's log in the failure message instead.
  if (res.status === 500) body.workerLog = svc.log().split("\n").slice(-40).join("\n");
  return {
    status: res.status,
    body,
    pdf: res.status === 200 ? Buffer.from(body.document.base64.split(",")[1], "base64") : null,
  };
}

export async function verifyWith(svc: RunningService, pdf: Uint8Array) {
  const res = await fetch(`${svc.baseUrl}/v1/verify`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ document: { base64: Buffer.from(pdf).toString("base64") } }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Revokes a signer of the PKI now (index, CRL, OCSP responder). */
export async function revoke(name: PkiSigner): Promise<void> {
  const res = await fetch(`${fixtureBaseUrl}/pki/revoke/${name}`, { method: "POST" });
  if (!res.ok) throw new Error(`revoking ${name}: HTTP ${res.status}`);
}
