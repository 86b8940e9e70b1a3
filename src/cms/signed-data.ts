/**
 * Generic CMS SignedData (RFC 5652) assembly with one signer identified by
 * issuerAndSerialNumber, signed attributes, SHA-256 digests and WebCrypto keys.
 * Used for PAdES signatures (cades.ts) and by the test time-stamp authority.
 */
import {
  algorithmIdentifier,
  concatBytes,
  explicit,
  nullValue,
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
import { certificateParts } from "./x509";

export const SHA256_ALGORITHM = algorithmIdentifier(OID.sha256);

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

export interface SignatureAlgorithm {
  /** Encoded AlgorithmIdentifier for SignerInfo.signatureAlgorithm. */
  identifier: Uint8Array;
  params: SubtleCryptoSignAlgorithm;
  ecdsa: boolean;
}

/**
 * The signature algorithm for a key. Signed attributes are always hashed with SHA-256,
 * the SignerInfo digest algorithm: sha256WithRSAEncryption (NULL parameters, RFC 4055)
 * or ecdsa-with-SHA256 (no parameters, RFC 5758), for P-256 and P-384 alike, so that
 * every verifier (OpenSSL hashes signed attributes with the digestAlgorithm) agrees.
 */
export function signatureAlgorithmFor(key: CryptoKey): SignatureAlgorithm {
  const name = key.algorithm.name.toUpperCase();
  if (name === "RSASSA-PKCS1-V1_5") {
    const hash = (key.algorithm as CryptoKeyRsaKeyAlgorithm).hash?.name?.toUpperCase();
    if (hash && hash !== "SHA-256") throw new Error(`RSA key imported for ${hash}; SHA-256 is required`);
    return {
      identifier: algorithmIdentifier(OID.sha256WithRSAEncryption, nullValue()),
      params: { name: "RSASSA-PKCS1-v1_5" },
      ecdsa: false,
    };
  }
  if (name === "ECDSA") {
    return { identifier: algorithmIdentifier(OID.ecdsaWithSHA256), params: { name: "ECDSA", hash: "SHA-256" }, ecdsa: true };
  }
  throw new Error(`unsupported signing key algorithm ${key.algorithm.name}`);
}

export interface SignedDataOptions {
  /** eContentType; `id-data` for a detached document signature. */
  contentType: string;
  /** Encapsulated content; omit for a detached signature. */
  content?: Uint8Array;
  /** SHA-256 of the content (detached or encapsulated). */
  contentDigest: Uint8Array;
  /** DER certificates to include, signer first (order kept); none: the field is omitted. */
  certificates: readonly Uint8Array[];
  /** Signer certificate (identifies the signer: issuerAndSerialNumber). Defaults to certificates[0]. */
  signerCertificate?: Uint8Array;
  privateKey: CryptoKey;
  /** Signed attributes besides content-type and message-digest (encoded Attribute TLVs). */
  extraSignedAttributes?: readonly Uint8Array[];
  /** Unsigned attributes, computed from the signature value (e.g. a signature time-stamp). */
  unsignedAttributes?: (signatureValue: Uint8Array) => Promise<readonly Uint8Array[]>;
}

/** DER ContentInfo(SignedData) with exactly one SignerInfo. */
export async function buildSignedData(opts: SignedDataOptions): Promise<Uint8Array> {
  if (opts.contentDigest.length !== 32) throw new Error("contentDigest must be a SHA-256 digest (32 bytes)");
  const signerCert = opts.signerCertificate ?? opts.certificates[0];
  if (!signerCert) throw new Error("a signer certificate is required");
  const signer = certificateParts(signerCert);
  const alg = signatureAlgorithmFor(opts.privateKey);

  const signedAttrsSet = setOf(
    attribute(OID.contentType, oid(opts.contentType)),
    attribute(OID.messageDigest, octetString(opts.contentDigest)),
    ...(opts.extraSignedAttributes ?? []),
  );
  // The signature covers the DER of the attributes as a SET OF (tag 0x31).
  const rawSignature = new Uint8Array(await crypto.subtle.sign(alg.params, opts.privateKey, toArrayBuffer(signedAttrsSet)));
  const signatureValue = alg.ecdsa ? ecdsaRawToDer(rawSignature) : rawSignature;

  const unsigned = opts.unsignedAttributes ? await opts.unsignedAttributes(signatureValue) : [];

  const signerInfo = sequence(
    smallInteger(1), // version 1: issuerAndSerialNumber
    sequence(signer.issuer, signer.serialNumber),
    SHA256_ALGORITHM,
    tlv(0xa0, readDer(signedAttrsSet).content), // [0] IMPLICIT SignedAttributes
    alg.identifier,
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
    setOf(SHA256_ALGORITHM),
    encapContentInfo,
    // [0] IMPLICIT CertificateSet: kept in the given order (signer first), as most signers do.
    ...(opts.certificates.length ? [tlv(0xa0, concatBytes(opts.certificates))] : []),
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), explicit(0, signedData));
}
