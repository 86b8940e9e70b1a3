import type { Config } from "../config";
import { parseCertificatesPem, toPem } from "../cms/pem";
import { parseCertificate, summarizeCertificate } from "../cms/verify/certificate";
import { certificateParts } from "../cms/x509";
import { OID } from "../cms/oids";
import { ConfigurationError } from "../errors";
import type { PreDecodedValues } from "../input/base64";
import { loadDocumentFor, type DocumentInput } from "../input/document";
import { createRevocationFetcher } from "../cms/revocation/fetch";
import type { VerifyReport } from "../pdf/verify/status";
import { verifyPdf } from "../pdf/verify/verify-pdf";
import { sha256Hex } from "../util/bytes";
import type { VerifyRequestBody } from "../contract/verify";

/**
 * The verification operation: document in (base64 or URL, PDF only), report out.
 * Trust anchors are `TRUSTED_ROOTS` plus the root of the service's own signing
 * chain (always trusted), parsed once per isolate. Knows nothing of HTTP.
 */

/** The validated request (src/contract/verify.ts); its document may also be bytes from a binary request. */
export type VerifyInput = Omit<VerifyRequestBody, "document"> & { document: DocumentInput };

export interface VerifySecrets {
  trustedRootsPem: string | undefined;
  signingCertPem: string | undefined;
}

export interface VerifyDeps {
  config: Config;
  secrets: VerifySecrets;
  selfHost?: string;
  /** Large base64 values the HTTP edge decoded while the body streamed in. */
  preDecoded?: PreDecodedValues;
}

export async function verifyDocument(input: VerifyInput, deps: VerifyDeps): Promise<VerifyReport> {
  const anchors = trustAnchors(deps.secrets);
  const pdf = await loadDocumentFor("verify", ["pdf"], input.document, deps);
  const onlineRevocation = deps.config.verifyOnlineRevocation
    ? createRevocationFetcher({
        allowPrivateUrls: deps.config.allowPrivateUrls,
        timeoutMs: deps.config.fetchTimeoutMs,
        selfHost: deps.selfHost,
      })
    : undefined;
  return verifyPdf(pdf.bytes, { trustAnchors: anchors, onlineRevocation });
}

export interface VerificationKey {
  /** The service's signing chain as PEM, signer first. */
  certificates: string[];
  /** SHA-256 of the signer certificate (DER), lowercase hex. */
  sha256: string;
  // SuperDoc's fields (superdoc-api.md), about the signer certificate:
  /** `v<year of validFrom>-<first 8 hex of sha256>`: changes whenever the key is rotated. */
  version: string;
  /** `RSA-SHA256` or `ECDSA-SHA256`: how Signet signs with this key. */
  algorithm: string;
  /** The public key (SubjectPublicKeyInfo) as PEM. */
  publicKey: string;
  /** SHA-256 of the certificate as upper-case hex pairs joined by ":". */
  fingerprint: string;
  validFrom: string;
  validTo: string;
  /** The issuer's distinguished name. */
  issuer: string;
}

/** `GET /v1/verify/key`: what users add to other validators' trust stores. */
export async function verificationKey(secrets: VerifySecrets): Promise<VerificationKey> {
  if (!secrets.signingCertPem) throw new ConfigurationError("Signing is not configured: SIGNING_CERT is not set.");
  const chain = parseCertificatesPem(secrets.signingCertPem, "SIGNING_CERT");
  const signer = chain[0]!;
  const sha256 = await sha256Hex(signer);
  const parts = certificateParts(signer);
  const summary = summarizeCertificate(await parseCertificate(signer));
  return {
    certificates: chain.map((der) => toPem("CERTIFICATE", der)),
    sha256,
    version: `v${summary.notBefore.slice(0, 4)}-${sha256.slice(0, 8)}`,
    // Signet signs with SHA-256 whatever the key (cms/signing-identity.ts).
    algorithm: parts.publicKeyAlgorithm === OID.rsaEncryption ? "RSA-SHA256" : "ECDSA-SHA256",
    publicKey: toPem("PUBLIC KEY", parts.subjectPublicKeyInfo),
    fingerprint: sha256.toUpperCase().match(/../g)!.join(":"),
    validFrom: summary.notBefore,
    validTo: summary.notAfter,
    issuer: summary.issuer,
  };
}

// Parsed once per isolate (per secret values).
let anchorCache: { source: string; anchors: Uint8Array[] } | null = null;

function trustAnchors(secrets: VerifySecrets): Uint8Array[] {
  const source = `${secrets.trustedRootsPem ?? ""}\u0000${secrets.signingCertPem ?? ""}`;
  if (anchorCache?.source === source) return anchorCache.anchors;
  const anchors: Uint8Array[] = [];
  if (secrets.trustedRootsPem?.trim()) anchors.push(...parseCertificatesPem(secrets.trustedRootsPem, "TRUSTED_ROOTS"));
  if (secrets.signingCertPem?.trim()) {
    // The service's own root (the last certificate of its chain) is always trusted.
    const chain = parseCertificatesPem(secrets.signingCertPem, "SIGNING_CERT");
    anchors.push(chain[chain.length - 1]!);
  }
  anchorCache = { source, anchors };
  return anchors;
}
