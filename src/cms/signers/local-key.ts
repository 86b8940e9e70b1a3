/**
 * The signer whose key is a Worker secret (`SIGNING_KEY`, PKCS#8 PEM; PKCS#1 / SEC1 accepted),
 * imported once per isolate as a non-extractable WebCrypto key. RSA keys sign with
 * RSASSA-PKCS1-v1_5 and ECDSA keys (P-256, P-384) with ECDSA, both over SHA-256.
 */
import { ConfigurationError } from "../../errors";
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
} from "../der";
import { OID } from "../oids";
import { parsePrivateKeyPem } from "../pem";
import { ecdsaRawToDer } from "../signed-data";
import type { CertificateParts } from "../x509";
import { maxEcdsaDerLength, signatureAlgorithmIdentifier, type DocumentSigner } from "./signer";

export type KeyAlgorithm = "RSA" | "ECDSA";
export type NamedCurve = "P-256" | "P-384";

export const CURVES: Record<string, NamedCurve> = {
  [OID.secp256r1]: "P-256",
  [OID.secp384r1]: "P-384",
};

export interface LocalKey {
  signer: DocumentSigner;
  keyAlgorithm: KeyAlgorithm;
  namedCurve?: NamedCurve;
  modulusLength?: number;
  /** Throws ConfigurationError unless the certificate holds this key's public key. */
  checkCertificate(parts: CertificateParts): Promise<void>;
}

const MIN_RSA_BITS = 2048;
const WHERE = "SIGNING_KEY";

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

function curveName(curveOid: string | null): NamedCurve {
  if (curveOid === null)
    throw new ConfigurationError(
      `${WHERE}: the EC key does not name its curve (explicit parameters are not supported).`,
    );
  const curve = CURVES[curveOid];
  if (!curve) {
    const hint = curveOid === OID.secp521r1 ? " (P-521)" : "";
    throw new ConfigurationError(`${WHERE}: unsupported EC curve ${curveOid}${hint}; use P-256 or P-384.`);
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
  if (format === "pkcs1-rsa") {
    const bits = rsaModulusBits(der);
    const pkcs8 = sequence(smallInteger(0), algorithmIdentifier(OID.rsaEncryption, nullValue()), octetString(der));
    return { pkcs8, keyAlgorithm: "RSA", modulusLength: bits };
  }
  if (format === "sec1-ec") {
    const curve = curveName(sec1Curve(der));
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
      return { pkcs8: der, keyAlgorithm: "ECDSA", namedCurve: curveName(curveOid) };
    }
    case OID.rsassaPss:
      throw new ConfigurationError(
        `${WHERE} is an RSA-PSS-only key; use a plain RSA (rsaEncryption) or ECDSA P-256/P-384 key.`,
      );
    case OID.ed25519:
    case OID.ed448:
      throw new ConfigurationError(`${WHERE} is an EdDSA key; PAdES signing needs RSA (2048+) or ECDSA P-256/P-384.`);
    default:
      throw new ConfigurationError(
        `${WHERE} has an unsupported key algorithm (${algOid}); use RSA (2048+) or ECDSA P-256/P-384.`,
      );
  }
}

function importParams(key: { keyAlgorithm: KeyAlgorithm; namedCurve?: NamedCurve }): SubtleCryptoImportKeyAlgorithm {
  return key.keyAlgorithm === "RSA"
    ? { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }
    : { name: "ECDSA", namedCurve: key.namedCurve! };
}

function signParams(keyAlgorithm: KeyAlgorithm): SubtleCryptoSignAlgorithm {
  return keyAlgorithm === "RSA" ? { name: "RSASSA-PKCS1-v1_5" } : { name: "ECDSA", hash: "SHA-256" };
}

/**
 * A signer over a WebCrypto private key (RSASSA-PKCS1-v1_5 imported for SHA-256, or ECDSA):
 * SHA-256 digests, the signed attributes hashed by WebCrypto itself.
 */
export function webCryptoSigner(privateKey: CryptoKey, maxSignatureLength: number): DocumentSigner {
  const name = privateKey.algorithm.name.toUpperCase();
  const ecdsa = name === "ECDSA";
  if (!ecdsa && name !== "RSASSA-PKCS1-V1_5")
    throw new Error(`unsupported signing key algorithm ${privateKey.algorithm.name}`);
  const hash = ecdsa ? null : (privateKey.algorithm as CryptoKeyRsaKeyAlgorithm).hash?.name?.toUpperCase();
  if (hash && hash !== "SHA-256") throw new Error(`RSA key imported for ${hash}; SHA-256 is required`);
  const scheme = ecdsa ? "ECDSA" : "RSASSA-PKCS1-v1_5";
  return {
    digestAlgorithm: "SHA-256",
    scheme,
    signatureAlgorithm: signatureAlgorithmIdentifier(scheme, "SHA-256"),
    maxSignatureLength,
    async sign(signedAttributes) {
      const params = ecdsa ? { name: "ECDSA", hash: "SHA-256" } : { name: "RSASSA-PKCS1-v1_5" };
      const raw = new Uint8Array(await crypto.subtle.sign(params, privateKey, toArrayBuffer(signedAttributes)));
      return ecdsa ? ecdsaRawToDer(raw) : raw;
    },
  };
}

/** The longest signature value a WebCrypto key of this shape gives (as CMS carries it). */
export function maxSignatureLengthOf(key: {
  keyAlgorithm: KeyAlgorithm;
  namedCurve?: NamedCurve;
  modulusLength?: number;
}): number {
  if (key.keyAlgorithm === "RSA") return Math.ceil((key.modulusLength ?? 4096) / 8);
  return maxEcdsaDerLength(key.namedCurve === "P-384" ? 48 : 32);
}

function describeCertKey(parts: CertificateParts): string {
  if (parts.publicKeyAlgorithm === OID.rsaEncryption) return "an RSA public key";
  if (parts.publicKeyAlgorithm === OID.ecPublicKey) {
    const curve = parts.publicKeyCurve ? (CURVES[parts.publicKeyCurve] ?? parts.publicKeyCurve) : "unnamed curve";
    return `an EC public key (${curve})`;
  }
  return `a public key of algorithm ${parts.publicKeyAlgorithm}`;
}

/** Imports `SIGNING_KEY`; throws ConfigurationError with an operator-readable message otherwise. */
export async function loadLocalKey(keyPem: string): Promise<LocalKey> {
  const { der: keyDer, format } = parsePrivateKeyPem(keyPem, WHERE);
  let key: KeyInfo;
  try {
    key = describeKey(keyDer, format);
  } catch (e) {
    if (e instanceof ConfigurationError) throw e;
    throw new ConfigurationError(
      `${WHERE} is not a readable private key${e instanceof DerError ? ` (${e.message})` : ""}.`,
    );
  }
  if (key.keyAlgorithm === "RSA" && (key.modulusLength ?? 0) < MIN_RSA_BITS) {
    throw new ConfigurationError(
      `${WHERE} is a ${key.modulusLength}-bit RSA key; at least ${MIN_RSA_BITS} bits are required.`,
    );
  }

  let privateKey: CryptoKey;
  try {
    privateKey = await crypto.subtle.importKey("pkcs8", toArrayBuffer(key.pkcs8), importParams(key), false, ["sign"]);
  } catch (e) {
    throw new ConfigurationError(
      `${WHERE} could not be imported as ${key.keyAlgorithm === "RSA" ? "an RSA" : `an ECDSA ${key.namedCurve}`} key` +
        `${e instanceof Error && e.message ? ` (${e.message})` : ""}.`,
    );
  }
  const keyDescription = key.keyAlgorithm === "RSA" ? "an RSA key" : `an ECDSA ${key.namedCurve} key`;

  return {
    signer: webCryptoSigner(privateKey, maxSignatureLengthOf(key)),
    keyAlgorithm: key.keyAlgorithm,
    ...(key.namedCurve ? { namedCurve: key.namedCurve } : {}),
    ...(key.modulusLength ? { modulusLength: key.modulusLength } : {}),
    async checkCertificate(parts) {
      const sameAlgorithm =
        key.keyAlgorithm === "RSA"
          ? parts.publicKeyAlgorithm === OID.rsaEncryption
          : parts.publicKeyAlgorithm === OID.ecPublicKey &&
            parts.publicKeyCurve !== null &&
            CURVES[parts.publicKeyCurve] === key.namedCurve;
      if (!sameAlgorithm) {
        throw new ConfigurationError(
          `${WHERE} is ${keyDescription} but the first certificate of SIGNING_CERT holds ${describeCertKey(parts)}; ` +
            `SIGNING_CERT must start with the certificate of ${WHERE}.`,
        );
      }
      // Proof that the key and the certificate belong together: sign a probe and verify it.
      let publicKey: CryptoKey;
      try {
        publicKey = await crypto.subtle.importKey(
          "spki",
          toArrayBuffer(parts.subjectPublicKeyInfo),
          importParams(key),
          false,
          ["verify"],
        );
      } catch {
        throw new ConfigurationError("SIGNING_CERT: the public key of the first certificate could not be imported.");
      }
      const probe = new TextEncoder().encode("Signet signing key check");
      const probeSignature = await crypto.subtle.sign(signParams(key.keyAlgorithm), privateKey, probe);
      if (!(await crypto.subtle.verify(signParams(key.keyAlgorithm), publicKey, probeSignature, probe))) {
        throw new ConfigurationError(
          `${WHERE} does not match the first certificate of SIGNING_CERT; the chain must start with the signer certificate of this key.`,
        );
      }
    },
  };
}
