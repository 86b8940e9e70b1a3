/**
 * The service's signing identity: its private key and certificate chain, read once
 * per isolate from `SIGNING_KEY` / `SIGNING_CERT` (the caller caches the result).
 */
import * as pkijs from "pkijs";
import { ConfigurationError } from "../errors";
import {
  DerError,
  TAG,
  algorithmIdentifier,
  children,
  decodeOid,
  expectTag,
  integerMagnitude,
  nullValue,
  octetString,
  oid,
  readDer,
  sequence,
  smallInteger,
  toArrayBuffer,
  toHex,
} from "./der";
import { formatName } from "./names";
import { OID } from "./oids";
import { parseCertificatesPem, parsePrivateKeyPem } from "./pem";
import { certificateParts, type CertificateParts } from "./x509";

export type KeyAlgorithm = "RSA" | "ECDSA";
export type NamedCurve = "P-256" | "P-384";

export interface SigningIdentity {
  /** Non-extractable WebCrypto key, usage `sign`. */
  privateKey: CryptoKey;
  keyAlgorithm: KeyAlgorithm;
  /** For ECDSA keys. */
  namedCurve?: NamedCurve;
  /** For RSA keys: modulus size in bits. */
  modulusLength?: number;
  /** Parsed chain, signer first. */
  certificates: pkijs.Certificate[];
  /** DER of each certificate, same order. */
  certificatesDer: Uint8Array[];
  /** SHA-256 of the signer certificate's DER, lowercase hex. */
  signerCertSha256: string;
  /** Readable subject of the signer certificate, e.g. `CN=Signet Development Signer, O=Signet (development)`. */
  signerSubject: string;
  /** Readable issuer of the signer certificate, same format. */
  signerIssuer: string;
  /** Last certificate of the chain (the signer itself when the chain has one certificate). */
  rootCertificate: pkijs.Certificate;
}

const MIN_RSA_BITS = 2048;

const CURVES: Record<string, NamedCurve> = {
  [OID.secp256r1]: "P-256",
  [OID.secp384r1]: "P-384",
};

interface KeyInfo {
  pkcs8: Uint8Array;
  keyAlgorithm: KeyAlgorithm;
  namedCurve?: NamedCurve;
  modulusLength?: number;
}

function bitLength(magnitude: Uint8Array): number {
  if (magnitude.length === 0 || (magnitude.length === 1 && magnitude[0] === 0)) return 0;
  return (magnitude.length - 1) * 8 + (32 - Math.clz32(magnitude[0]!));
}

function rsaModulusBits(rsaPrivateKey: Uint8Array): number {
  const seq = expectTag(readDer(rsaPrivateKey, 0, true), TAG.SEQUENCE, "RSAPrivateKey");
  const [, modulus] = children(seq);
  return bitLength(integerMagnitude(expectTag(modulus, TAG.INTEGER, "RSA modulus")));
}

function curveName(curveOid: string | null, where: string): NamedCurve {
  if (curveOid === null) throw new ConfigurationError(`${where}: the EC key does not name its curve (explicit parameters are not supported).`);
  const curve = CURVES[curveOid];
  if (!curve) {
    const hint = curveOid === OID.secp521r1 ? " (P-521)" : "";
    throw new ConfigurationError(`${where}: unsupported EC curve ${curveOid}${hint}; use P-256 or P-384.`);
  }
  return curve;
}

/** The curve OID inside an ECPrivateKey's `[0] parameters`, if present. */
function sec1Curve(ecPrivateKey: Uint8Array): string | null {
  const seq = expectTag(readDer(ecPrivateKey, 0, true), TAG.SEQUENCE, "ECPrivateKey");
  for (const field of children(seq)) {
    if (field.tag === 0xa0) {
      const inner = readDer(field.content, 0, true);
      return inner.tag === TAG.OID ? decodeOid(inner.content) : null;
    }
  }
  return null;
}

/** Reads the key's algorithm from the PKCS#8 structure (legacy PKCS#1 / SEC1 keys are wrapped first). */
function describeKey(der: Uint8Array, format: "pkcs8" | "pkcs1-rsa" | "sec1-ec"): KeyInfo {
  const where = "SIGNING_KEY";
  if (format === "pkcs1-rsa") {
    const bits = rsaModulusBits(der);
    const pkcs8 = sequence(smallInteger(0), algorithmIdentifier(OID.rsaEncryption, nullValue()), octetString(der));
    return { pkcs8, keyAlgorithm: "RSA", modulusLength: bits };
  }
  if (format === "sec1-ec") {
    const curve = curveName(sec1Curve(der), where);
    const curveOid = curve === "P-256" ? OID.secp256r1 : OID.secp384r1;
    const pkcs8 = sequence(smallInteger(0), algorithmIdentifier(OID.ecPublicKey, oid(curveOid)), octetString(der));
    return { pkcs8, keyAlgorithm: "ECDSA", namedCurve: curve };
  }
  const info = expectTag(readDer(der, 0, true), TAG.SEQUENCE, "PrivateKeyInfo");
  const [version, algId, keyOctets] = children(info);
  expectTag(version, TAG.INTEGER, "PKCS#8 version");
  const algParts = children(expectTag(algId, TAG.SEQUENCE, "PKCS#8 AlgorithmIdentifier"));
  const algOid = decodeOid(expectTag(algParts[0], TAG.OID, "algorithm OID").content);
  const privateKey = expectTag(keyOctets, TAG.OCTET_STRING, "PKCS#8 privateKey");
  switch (algOid) {
    case OID.rsaEncryption:
      return { pkcs8: der, keyAlgorithm: "RSA", modulusLength: rsaModulusBits(privateKey.content) };
    case OID.ecPublicKey: {
      const params = algParts[1];
      const curveOid = params?.tag === TAG.OID ? decodeOid(params.content) : sec1Curve(privateKey.content);
      return { pkcs8: der, keyAlgorithm: "ECDSA", namedCurve: curveName(curveOid, where) };
    }
    case OID.rsassaPss:
      throw new ConfigurationError(`${where} is an RSA-PSS-only key; use a plain RSA (rsaEncryption) or ECDSA P-256/P-384 key.`);
    case OID.ed25519:
    case OID.ed448:
      throw new ConfigurationError(`${where} is an EdDSA key; PAdES signing needs RSA (2048+) or ECDSA P-256/P-384.`);
    default:
      throw new ConfigurationError(`${where} has an unsupported key algorithm (${algOid}); use RSA (2048+) or ECDSA P-256/P-384.`);
  }
}

function importParams(key: { keyAlgorithm: KeyAlgorithm; namedCurve?: NamedCurve }): SubtleCryptoImportKeyAlgorithm {
  return key.keyAlgorithm === "RSA"
    ? { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }
    : { name: "ECDSA", namedCurve: key.namedCurve! };
}

/** WebCrypto parameters for signing/verifying with this identity's key. */
export function signParams(keyAlgorithm: KeyAlgorithm): SubtleCryptoSignAlgorithm {
  return keyAlgorithm === "RSA" ? { name: "RSASSA-PKCS1-v1_5" } : { name: "ECDSA", hash: "SHA-256" };
}

function describeCertKey(parts: CertificateParts): string {
  if (parts.publicKeyAlgorithm === OID.rsaEncryption) return "an RSA public key";
  if (parts.publicKeyAlgorithm === OID.ecPublicKey) {
    const curve = parts.publicKeyCurve ? CURVES[parts.publicKeyCurve] ?? parts.publicKeyCurve : "unnamed curve";
    return `an EC public key (${curve})`;
  }
  return `a public key of algorithm ${parts.publicKeyAlgorithm}`;
}

function parseChain(certPem: string): { der: Uint8Array[]; parts: CertificateParts[]; parsed: pkijs.Certificate[] } {
  const der = parseCertificatesPem(certPem, "SIGNING_CERT");
  const parts: CertificateParts[] = [];
  const parsed: pkijs.Certificate[] = [];
  der.forEach((d, i) => {
    try {
      parts.push(certificateParts(d));
      parsed.push(pkijs.Certificate.fromBER(toArrayBuffer(d)));
    } catch (e) {
      const why = e instanceof DerError ? `: ${e.message}` : "";
      throw new ConfigurationError(`SIGNING_CERT: certificate #${i + 1} is not a readable X.509 certificate${why}.`);
    }
  });
  return { der, parts, parsed };
}

/**
 * Imports `SIGNING_KEY` (PKCS#8 PEM; PKCS#1 / SEC1 PEM also accepted) and `SIGNING_CERT`
 * (PEM chain, signer first) and checks that they belong together.
 * Throws ConfigurationError with an operator-readable message otherwise.
 */
export async function loadSigningIdentity(keyPem: string, certPem: string): Promise<SigningIdentity> {
  const { der: keyDer, format } = parsePrivateKeyPem(keyPem, "SIGNING_KEY");
  let key: KeyInfo;
  try {
    key = describeKey(keyDer, format);
  } catch (e) {
    if (e instanceof ConfigurationError) throw e;
    throw new ConfigurationError(`SIGNING_KEY is not a readable private key${e instanceof DerError ? ` (${e.message})` : ""}.`);
  }
  if (key.keyAlgorithm === "RSA" && (key.modulusLength ?? 0) < MIN_RSA_BITS) {
    throw new ConfigurationError(`SIGNING_KEY is a ${key.modulusLength}-bit RSA key; at least ${MIN_RSA_BITS} bits are required.`);
  }

  let privateKey: CryptoKey;
  try {
    privateKey = await crypto.subtle.importKey("pkcs8", toArrayBuffer(key.pkcs8), importParams(key), false, ["sign"]);
  } catch (e) {
    throw new ConfigurationError(
      `SIGNING_KEY could not be imported as ${key.keyAlgorithm === "RSA" ? "an RSA" : `an ECDSA ${key.namedCurve}`} key` +
        `${e instanceof Error && e.message ? ` (${e.message})` : ""}.`,
    );
  }

  const chain = parseChain(certPem);
  const signerParts = chain.parts[0]!;
  const keyDescription = key.keyAlgorithm === "RSA" ? `an RSA key` : `an ECDSA ${key.namedCurve} key`;
  const certMatchesAlgorithm =
    key.keyAlgorithm === "RSA"
      ? signerParts.publicKeyAlgorithm === OID.rsaEncryption
      : signerParts.publicKeyAlgorithm === OID.ecPublicKey &&
        signerParts.publicKeyCurve !== null &&
        CURVES[signerParts.publicKeyCurve] === key.namedCurve;
  if (!certMatchesAlgorithm) {
    throw new ConfigurationError(
      `SIGNING_KEY is ${keyDescription} but the first certificate of SIGNING_CERT holds ${describeCertKey(signerParts)}; ` +
        `SIGNING_CERT must start with the certificate of SIGNING_KEY.`,
    );
  }

  // Proof that the key and the first certificate belong together: sign a probe and verify it.
  let publicKey: CryptoKey;
  try {
    publicKey = await crypto.subtle.importKey("spki", toArrayBuffer(signerParts.subjectPublicKeyInfo), importParams(key), false, ["verify"]);
  } catch {
    throw new ConfigurationError("SIGNING_CERT: the public key of the first certificate could not be imported.");
  }
  const probe = new TextEncoder().encode("Signet signing key check");
  const probeSignature = await crypto.subtle.sign(signParams(key.keyAlgorithm), privateKey, probe);
  const matches = await crypto.subtle.verify(signParams(key.keyAlgorithm), publicKey, probeSignature, probe);
  if (!matches) {
    throw new ConfigurationError(
      "SIGNING_KEY does not match the first certificate of SIGNING_CERT; the chain must start with the signer certificate of this key.",
    );
  }

  // The rest of the chain must follow issuer order, so relying parties can build the path.
  for (let i = 0; i + 1 < chain.parsed.length; i++) {
    const child = chain.parsed[i]!;
    const parent = chain.parsed[i + 1]!;
    let issued = child.issuer.isEqual(parent.subject);
    if (issued) {
      try {
        issued = await child.verify(parent);
      } catch {
        issued = false;
      }
    }
    if (!issued) {
      throw new ConfigurationError(
        `SIGNING_CERT: certificate #${i + 2} is not the issuer of certificate #${i + 1}; ` +
          `list the signer certificate first, then each issuer in order up to the root.`,
      );
    }
  }

  const fingerprint = new Uint8Array(await crypto.subtle.digest("SHA-256", toArrayBuffer(chain.der[0]!)));
  const readable = (nameDer: Uint8Array) => {
    try {
      return formatName(nameDer);
    } catch {
      return "(unreadable name)";
    }
  };

  return {
    privateKey,
    keyAlgorithm: key.keyAlgorithm,
    ...(key.namedCurve ? { namedCurve: key.namedCurve } : {}),
    ...(key.modulusLength ? { modulusLength: key.modulusLength } : {}),
    certificates: chain.parsed,
    certificatesDer: chain.der,
    signerCertSha256: toHex(fingerprint),
    signerSubject: readable(signerParts.subject),
    signerIssuer: readable(signerParts.issuer),
    rootCertificate: chain.parsed[chain.parsed.length - 1]!,
  };
}
