/**
 * Test-only helpers for src/cms tests (not imported by the service): identities made with
 * the development PKI, and small DER/PEM utilities.
 */
import { createDevPki } from "../../scripts/lib/pki.mjs";
import { loadSigningIdentity, type SigningIdentity } from "../../src/cms/signing-identity";

export type IdentityKind = "RSA" | "P-256" | "P-384";

export interface TestIdentity {
  keyPem: string;
  certPem: string;
  caPem: string;
  identity: SigningIdentity;
}

const cache = new Map<IdentityKind, Promise<TestIdentity>>();

/** A dev CA + signer of the given kind (cached per test file). */
export function testIdentity(kind: IdentityKind): Promise<TestIdentity> {
  let p = cache.get(kind);
  if (!p) {
    p = (async () => {
      const pki = await createDevPki(
        kind === "RSA" ? { signerKeyType: "RSA" } : { signerKeyType: "ECDSA", namedCurve: kind, caKeyType: "ECDSA" },
      );
      const identity = await loadSigningIdentity(pki.signingKeyPem, pki.signingCertPem);
      return { keyPem: pki.signingKeyPem, certPem: pki.signingCertPem, caPem: pki.caCertificatePem, identity };
    })();
    cache.set(kind, p);
  }
  return p;
}

/** The development PKI's builders (scripts/lib/pki.mjs), for tests beside modules, which import nothing from scripts/. */
export {
  certificateDer,
  createRootCa,
  createSigningCertificate,
  exportPrivateKeyPem,
  generateKeyPair,
} from "../../scripts/lib/pki.mjs";

export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

export function pemBody(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
}
