/**
 * What a CMS signature needs from whoever holds the private key: a digest in, a signature value
 * out. The key may live in a Worker secret (local-key.ts) or in a cloud KMS (aws-kms.ts); the
 * CMS builder (signed-data.ts) and the PDF signer never see the difference.
 */
import {
  algorithmIdentifier,
  children,
  expectTag,
  explicit,
  integerMagnitude,
  nullValue,
  readDer,
  sequence,
  smallInteger,
  TAG,
} from "../der";
import { OID } from "../oids";

/** The SignerInfo's digest algorithm: it hashes the document's byte ranges and the signed attributes. */
export type DigestAlgorithm = "SHA-256" | "SHA-384";

export type SignatureScheme = "RSASSA-PKCS1-v1_5" | "RSASSA-PSS" | "ECDSA";

export interface DocumentSigner {
  readonly digestAlgorithm: DigestAlgorithm;
  readonly scheme: SignatureScheme;
  /** SignerInfo.signatureAlgorithm (DER AlgorithmIdentifier). */
  readonly signatureAlgorithm: Uint8Array;
  /** Upper bound of a signature value's length: sizes the `/Contents` placeholder without signing. */
  readonly maxSignatureLength: number;
  /**
   * Signs the DER of the signed attributes. `digest` is their hash under `digestAlgorithm`
   * (what a KMS signs); `signedAttributes` are the bytes themselves (what WebCrypto signs, as it
   * cannot sign a precomputed digest). Returns the signature value as CMS carries it (ECDSA: the
   * DER Ecdsa-Sig-Value).
   */
  sign(signedAttributes: Uint8Array, digest: Uint8Array): Promise<Uint8Array>;
}

export const DIGEST_OIDS: Record<DigestAlgorithm, string> = { "SHA-256": OID.sha256, "SHA-384": OID.sha384 };
export const DIGEST_LENGTHS: Record<DigestAlgorithm, number> = { "SHA-256": 32, "SHA-384": 48 };

/** The SignerInfo signature algorithm identifier of a scheme and digest. */
export function signatureAlgorithmIdentifier(scheme: SignatureScheme, digest: DigestAlgorithm): Uint8Array {
  const sha256 = digest === "SHA-256";
  if (scheme === "RSASSA-PKCS1-v1_5") {
    // NULL parameters (RFC 4055).
    return algorithmIdentifier(sha256 ? OID.sha256WithRSAEncryption : OID.sha384WithRSAEncryption, nullValue());
  }
  if (scheme === "ECDSA") return algorithmIdentifier(sha256 ? OID.ecdsaWithSHA256 : OID.ecdsaWithSHA384); // no parameters (RFC 5758)
  // RSASSA-PSS-params (RFC 4055): the digest for the message and MGF1, salt as long as the digest.
  const hash = algorithmIdentifier(DIGEST_OIDS[digest]);
  return algorithmIdentifier(
    OID.rsassaPss,
    sequence(
      explicit(0, hash),
      explicit(1, algorithmIdentifier(OID.mgf1, hash)),
      explicit(2, smallInteger(DIGEST_LENGTHS[digest])),
    ),
  );
}

/** Longest DER Ecdsa-Sig-Value for a curve of `fieldBytes`: two INTEGERs of fieldBytes + a sign byte. */
export function maxEcdsaDerLength(fieldBytes: number): number {
  const integer = 2 + fieldBytes + 1;
  return 2 + 2 * integer + (2 * integer > 127 ? 1 : 0);
}

/** r||s (each `half` bytes, as WebCrypto verifies) of a DER Ecdsa-Sig-Value. */
export function ecdsaDerToRaw(der: Uint8Array, half: number): Uint8Array {
  const [r, s] = children(expectTag(readDer(der, 0, true), TAG.SEQUENCE, "Ecdsa-Sig-Value"));
  const out = new Uint8Array(half * 2);
  for (const [i, node] of [r, s].entries()) {
    const magnitude = integerMagnitude(expectTag(node, TAG.INTEGER, "ECDSA integer"));
    if (magnitude.length > half) throw new Error("ECDSA integer longer than the curve");
    out.set(magnitude, i * half + half - magnitude.length);
  }
  return out;
}
