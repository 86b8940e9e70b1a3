/**
 * Generic CMS SignedData (RFC 5652) assembly with one signer identified by
 * issuerAndSerialNumber, signed attributes, and a DocumentSigner (signers/: a WebCrypto key or
 * a KMS key) that decides the digest (SHA-256, or SHA-384 for KMS P-384 keys) and the signature.
 * Used for PAdES signatures (cades.ts) and by the test time-stamp authority.
 */
import {
  algorithmIdentifier,
  explicit,
  octetString,
  oid,
  readDer,
  sequence,
  setOf,
  smallInteger,
  tlv,
  toArrayBuffer,
  unsignedInteger,
} from "./der";
import { OID } from "./oids";
import { DIGEST_LENGTHS, DIGEST_OIDS, type DocumentSigner } from "./signers/signer";
import { certificateParts } from "./x509";
import { concatBytes } from "../util/bytes";

/** An Attribute: SEQUENCE { type, SET OF value }. */
export function attribute(type: string, ...values: Uint8Array[]): Uint8Array {
  return sequence(oid(type), setOf(...values));
}

/**
 * The ESS signing-certificate-v2 attribute (RFC 5035) for a certificate: one ESSCertIDv2
 * with the SHA-256 certificate hash (hashAlgorithm omitted: SHA-256 is its DEFAULT)
 * and the issuerSerial of the certificate.
 */
export async function signingCertificateV2Attribute(certDer: Uint8Array): Promise<Uint8Array> {
  const parts = certificateParts(certDer);
  const certHash = new Uint8Array(await crypto.subtle.digest("SHA-256", toArrayBuffer(certDer)));
  const issuerSerial = sequence(
    sequence(explicit(4, parts.issuer)), // GeneralNames { directoryName [4] Name }
    parts.serialNumber,
  );
  const essCertIdV2 = sequence(octetString(certHash), issuerSerial);
  return attribute(OID.signingCertificateV2, sequence(sequence(essCertIdV2)));
}

/** DER ECDSA-Sig-Value from WebCrypto's fixed-size r||s. */
export function ecdsaRawToDer(raw: Uint8Array): Uint8Array {
  if (raw.length % 2 !== 0 || raw.length === 0) throw new Error("bad raw ECDSA signature length");
  const half = raw.length / 2;
  return sequence(unsignedInteger(raw.subarray(0, half)), unsignedInteger(raw.subarray(half)));
}

export interface SignedDataOptions {
  /** eContentType; `id-data` for a detached document signature. */
  contentType: string;
  /** Encapsulated content; omit for a detached signature. */
  content?: Uint8Array;
  /** Digest of the content (detached or encapsulated) under the signer's digest algorithm. */
  contentDigest: Uint8Array;
  /** DER certificates to include, signer first (order kept); none: the field is omitted. */
  certificates: readonly Uint8Array[];
  /** Signer certificate (identifies the signer: issuerAndSerialNumber). Defaults to certificates[0]. */
  signerCertificate?: Uint8Array;
  /** Holds the key: a digest in, a signature value out (signers/). */
  signer: DocumentSigner;
  /** Signed attributes besides content-type and message-digest (encoded Attribute TLVs). */
  extraSignedAttributes?: readonly Uint8Array[];
  /** Unsigned attributes, computed from the signature value (e.g. a signature time-stamp). */
  unsignedAttributes?: (signatureValue: Uint8Array) => Promise<readonly Uint8Array[]>;
}

/** DER ContentInfo(SignedData) with exactly one SignerInfo. */
export async function buildSignedData(opts: SignedDataOptions): Promise<Uint8Array> {
  const { signer } = opts;
  if (opts.contentDigest.length !== DIGEST_LENGTHS[signer.digestAlgorithm]) {
    throw new Error(
      `contentDigest must be a ${signer.digestAlgorithm} digest (${DIGEST_LENGTHS[signer.digestAlgorithm]} bytes)`,
    );
  }
  const signerCert = opts.signerCertificate ?? opts.certificates[0];
  if (!signerCert) throw new Error("a signer certificate is required");
  const signerParts = certificateParts(signerCert);
  const digestAlgorithm = algorithmIdentifier(DIGEST_OIDS[signer.digestAlgorithm]);

  const signedAttrsSet = setOf(
    attribute(OID.contentType, oid(opts.contentType)),
    attribute(OID.messageDigest, octetString(opts.contentDigest)),
    ...(opts.extraSignedAttributes ?? []),
  );
  // The signature covers the DER of the attributes as a SET OF (tag 0x31), hashed with the
  // SignerInfo's digest algorithm (as every verifier, OpenSSL included, hashes them).
  const attributesDigest = new Uint8Array(
    await crypto.subtle.digest(signer.digestAlgorithm, toArrayBuffer(signedAttrsSet)),
  );
  const signatureValue = await signer.sign(signedAttrsSet, attributesDigest);

  const unsigned = opts.unsignedAttributes ? await opts.unsignedAttributes(signatureValue) : [];

  const signerInfo = sequence(
    smallInteger(1), // version 1: issuerAndSerialNumber
    sequence(signerParts.issuer, signerParts.serialNumber),
    digestAlgorithm,
    tlv(0xa0, readDer(signedAttrsSet).content), // [0] IMPLICIT SignedAttributes
    signer.signatureAlgorithm,
    octetString(signatureValue),
    ...(unsigned.length ? [tlv(0xa1, readDer(setOf(...unsigned)).content)] : []), // [1] IMPLICIT UnsignedAttributes
  );

  const encapContentInfo =
    opts.content === undefined
      ? sequence(oid(opts.contentType))
      : sequence(oid(opts.contentType), explicit(0, octetString(opts.content)));

  // RFC 5652 5.1: version 1 for id-data with issuerAndSerialNumber, else 3.
  const version = opts.contentType === OID.data ? 1 : 3;
  const signedData = sequence(
    smallInteger(version),
    setOf(digestAlgorithm),
    encapContentInfo,
    // [0] IMPLICIT CertificateSet: kept in the given order (signer first), as most signers do.
    ...(opts.certificates.length ? [tlv(0xa0, concatBytes(opts.certificates))] : []),
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), explicit(0, signedData));
}
