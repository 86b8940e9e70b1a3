/**
 * Algorithm identifiers understood by the verifier, and hashing: WebCrypto for SHA-1/2,
 * @noble/hashes for what WebCrypto lacks (SHA-224, SHA-3, SHAKE256, MD5, RIPEMD-160).
 */
import { md5, ripemd160, sha1 as nobleSha1 } from "@noble/hashes/legacy.js";
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from "@noble/hashes/sha2.js";
import { sha3_224, sha3_256, sha3_384, sha3_512, shake256 } from "@noble/hashes/sha3.js";
import { toArrayBuffer } from "../der";

/** Hash algorithms by their usual names. SHAKE256 means 512 bits of output (RFC 8419, Ed448). */
export type DigestName =
  | "MD5"
  | "SHA-1"
  | "SHA-224"
  | "SHA-256"
  | "SHA-384"
  | "SHA-512"
  | "SHA-512/224"
  | "SHA-512/256"
  | "SHA3-224"
  | "SHA3-256"
  | "SHA3-384"
  | "SHA3-512"
  | "SHAKE256"
  | "RIPEMD-160";

export const DIGEST_OIDS: Record<string, DigestName> = {
  "1.2.840.113549.2.5": "MD5",
  "1.3.14.3.2.26": "SHA-1",
  "2.16.840.1.101.3.4.2.4": "SHA-224",
  "2.16.840.1.101.3.4.2.1": "SHA-256",
  "2.16.840.1.101.3.4.2.2": "SHA-384",
  "2.16.840.1.101.3.4.2.3": "SHA-512",
  "2.16.840.1.101.3.4.2.5": "SHA-512/224",
  "2.16.840.1.101.3.4.2.6": "SHA-512/256",
  "2.16.840.1.101.3.4.2.7": "SHA3-224",
  "2.16.840.1.101.3.4.2.8": "SHA3-256",
  "2.16.840.1.101.3.4.2.9": "SHA3-384",
  "2.16.840.1.101.3.4.2.10": "SHA3-512",
  "2.16.840.1.101.3.4.2.12": "SHAKE256",
  "2.16.840.1.101.3.4.2.18": "SHAKE256", // id-shake256-len (the length parameter must be 512)
  "1.3.36.3.2.1": "RIPEMD-160",
};

export const DIGEST_OID_BY_NAME: Partial<Record<DigestName, string>> = Object.fromEntries(
  Object.entries(DIGEST_OIDS)
    .filter(([o]) => o !== "2.16.840.1.101.3.4.2.18")
    .map(([o, n]) => [n, o]),
);

/** Digest output sizes in bytes. */
export const DIGEST_SIZE: Record<DigestName, number> = {
  MD5: 16,
  "SHA-1": 20,
  "SHA-224": 28,
  "SHA-256": 32,
  "SHA-384": 48,
  "SHA-512": 64,
  "SHA-512/224": 28,
  "SHA-512/256": 32,
  "SHA3-224": 28,
  "SHA3-256": 32,
  "SHA3-384": 48,
  "SHA3-512": 64,
  SHAKE256: 64,
  "RIPEMD-160": 20,
};

const WEBCRYPTO_DIGESTS = new Set<DigestName>(["SHA-1", "SHA-256", "SHA-384", "SHA-512"]);

export function isWebCryptoDigest(name: DigestName): boolean {
  return WEBCRYPTO_DIGESTS.has(name);
}

interface IncrementalHash {
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
}

function nobleHasher(name: DigestName): IncrementalHash {
  switch (name) {
    case "MD5":
      return md5.create();
    case "SHA-1":
      return nobleSha1.create();
    case "SHA-224":
      return sha224.create();
    case "SHA-256":
      return sha256.create();
    case "SHA-384":
      return sha384.create();
    case "SHA-512":
      return sha512.create();
    case "SHA-512/224":
      return sha512_224.create();
    case "SHA-512/256":
      return sha512_256.create();
    case "SHA3-224":
      return sha3_224.create();
    case "SHA3-256":
      return sha3_256.create();
    case "SHA3-384":
      return sha3_384.create();
    case "SHA3-512":
      return sha3_512.create();
    case "SHAKE256":
      return shake256.create({ dkLen: 64 });
    case "RIPEMD-160":
      return ripemd160.create();
  }
}

/**
 * An incremental hasher for any DigestName (pure JS): for callers that stream bytes and
 * need an algorithm `crypto.DigestStream` lacks.
 */
export function createHasher(name: DigestName): { update(chunk: Uint8Array): void; digest(): Uint8Array } {
  const h = nobleHasher(name);
  return {
    update: (chunk) => void h.update(chunk),
    digest: () => h.digest(),
  };
}

/** Hash of `data` (WebCrypto where it can, else @noble/hashes). */
export async function hashBytes(name: DigestName, data: Uint8Array): Promise<Uint8Array> {
  if (WEBCRYPTO_DIGESTS.has(name)) return new Uint8Array(await crypto.subtle.digest(name, toArrayBuffer(data)));
  const h = nobleHasher(name);
  h.update(data);
  return h.digest();
}

/** Synchronous hash for MGF1 and similar (pure JS). */
export function hashSync(name: DigestName, data: Uint8Array): Uint8Array {
  const h = nobleHasher(name);
  h.update(data);
  return h.digest();
}

export type SignatureScheme = "RSA" | "RSA-PSS" | "ECDSA" | "ECDSA-plain" | "Ed25519" | "Ed448" | "DSA";

export interface SignatureAlgorithmInfo {
  scheme: SignatureScheme;
  /** Hash named by the algorithm; null when the SignerInfo digest algorithm decides (rsaEncryption, ecPublicKey). */
  hash: DigestName | null;
}

export const SIGNATURE_OIDS: Record<string, SignatureAlgorithmInfo> = {
  // RSA PKCS#1 v1.5
  "1.2.840.113549.1.1.1": { scheme: "RSA", hash: null }, // rsaEncryption
  "1.2.840.113549.1.1.4": { scheme: "RSA", hash: "MD5" },
  "1.2.840.113549.1.1.5": { scheme: "RSA", hash: "SHA-1" },
  "1.3.14.3.2.29": { scheme: "RSA", hash: "SHA-1" },
  "1.2.840.113549.1.1.14": { scheme: "RSA", hash: "SHA-224" },
  "1.2.840.113549.1.1.11": { scheme: "RSA", hash: "SHA-256" },
  "1.2.840.113549.1.1.12": { scheme: "RSA", hash: "SHA-384" },
  "1.2.840.113549.1.1.13": { scheme: "RSA", hash: "SHA-512" },
  "1.2.840.113549.1.1.15": { scheme: "RSA", hash: "SHA-512/224" },
  "1.2.840.113549.1.1.16": { scheme: "RSA", hash: "SHA-512/256" },
  "2.16.840.1.101.3.4.3.13": { scheme: "RSA", hash: "SHA3-224" },
  "2.16.840.1.101.3.4.3.14": { scheme: "RSA", hash: "SHA3-256" },
  "2.16.840.1.101.3.4.3.15": { scheme: "RSA", hash: "SHA3-384" },
  "2.16.840.1.101.3.4.3.16": { scheme: "RSA", hash: "SHA3-512" },
  "1.3.36.3.3.1.2": { scheme: "RSA", hash: "RIPEMD-160" },
  // RSASSA-PSS (hash from its parameters)
  "1.2.840.113549.1.1.10": { scheme: "RSA-PSS", hash: null },
  // ECDSA (DER Ecdsa-Sig-Value)
  "1.2.840.10045.2.1": { scheme: "ECDSA", hash: null }, // ecPublicKey used as a signature algorithm
  "1.2.840.10045.4.1": { scheme: "ECDSA", hash: "SHA-1" },
  "1.2.840.10045.4.3.1": { scheme: "ECDSA", hash: "SHA-224" },
  "1.2.840.10045.4.3.2": { scheme: "ECDSA", hash: "SHA-256" },
  "1.2.840.10045.4.3.3": { scheme: "ECDSA", hash: "SHA-384" },
  "1.2.840.10045.4.3.4": { scheme: "ECDSA", hash: "SHA-512" },
  "2.16.840.1.101.3.4.3.9": { scheme: "ECDSA", hash: "SHA3-224" },
  "2.16.840.1.101.3.4.3.10": { scheme: "ECDSA", hash: "SHA3-256" },
  "2.16.840.1.101.3.4.3.11": { scheme: "ECDSA", hash: "SHA3-384" },
  "2.16.840.1.101.3.4.3.12": { scheme: "ECDSA", hash: "SHA3-512" },
  // Plain ECDSA (BSI TR-03111: r || s)
  "0.4.0.127.0.7.1.1.4.1.1": { scheme: "ECDSA-plain", hash: "SHA-1" },
  "0.4.0.127.0.7.1.1.4.1.2": { scheme: "ECDSA-plain", hash: "SHA-224" },
  "0.4.0.127.0.7.1.1.4.1.3": { scheme: "ECDSA-plain", hash: "SHA-256" },
  "0.4.0.127.0.7.1.1.4.1.4": { scheme: "ECDSA-plain", hash: "SHA-384" },
  "0.4.0.127.0.7.1.1.4.1.5": { scheme: "ECDSA-plain", hash: "SHA-512" },
  "0.4.0.127.0.7.1.1.4.1.6": { scheme: "ECDSA-plain", hash: "RIPEMD-160" },
  "0.4.0.127.0.7.1.1.4.1.8": { scheme: "ECDSA-plain", hash: "SHA3-224" },
  "0.4.0.127.0.7.1.1.4.1.9": { scheme: "ECDSA-plain", hash: "SHA3-256" },
  "0.4.0.127.0.7.1.1.4.1.10": { scheme: "ECDSA-plain", hash: "SHA3-384" },
  "0.4.0.127.0.7.1.1.4.1.11": { scheme: "ECDSA-plain", hash: "SHA3-512" },
  // EdDSA
  "1.3.101.112": { scheme: "Ed25519", hash: null },
  "1.3.101.113": { scheme: "Ed448", hash: null },
  // DSA
  "1.2.840.10040.4.1": { scheme: "DSA", hash: null },
  "1.2.840.10040.4.3": { scheme: "DSA", hash: "SHA-1" },
  "2.16.840.1.101.3.4.3.1": { scheme: "DSA", hash: "SHA-224" },
  "2.16.840.1.101.3.4.3.2": { scheme: "DSA", hash: "SHA-256" },
  "2.16.840.1.101.3.4.3.3": { scheme: "DSA", hash: "SHA-384" },
  "2.16.840.1.101.3.4.3.4": { scheme: "DSA", hash: "SHA-512" },
};

/** Public key algorithm OIDs (SubjectPublicKeyInfo). */
export const KEY_OIDS = {
  rsaEncryption: "1.2.840.113549.1.1.1",
  rsassaPss: "1.2.840.113549.1.1.10",
  ecPublicKey: "1.2.840.10045.2.1",
  ed25519: "1.3.101.112",
  ed448: "1.3.101.113",
  dsa: "1.2.840.10040.4.1",
} as const;

export type CurveName =
  "P-256" | "P-384" | "P-521" | "brainpoolP256r1" | "brainpoolP384r1" | "brainpoolP512r1" | "secp256k1";

export const CURVE_OIDS: Record<string, CurveName> = {
  "1.2.840.10045.3.1.7": "P-256",
  "1.3.132.0.34": "P-384",
  "1.3.132.0.35": "P-521",
  "1.3.36.3.3.2.8.1.1.7": "brainpoolP256r1",
  "1.3.36.3.3.2.8.1.1.11": "brainpoolP384r1",
  "1.3.36.3.3.2.8.1.1.13": "brainpoolP512r1",
  "1.3.132.0.10": "secp256k1",
};

/** Hashes too weak to protect a signature: MD5 (error) and SHA-1 (see index.ts for severities). */
export function isWeakDigest(name: DigestName | null): boolean {
  return name === "MD5" || name === "SHA-1";
}
