/**
 * Signature verification for CMS signer infos and certificates.
 *
 * WebCrypto first (RSA PKCS#1 v1.5 and PSS with SHA-1/2, ECDSA P-256/384/521, Ed25519
 * where the runtime has it); otherwise our own code: RSA (PKCS#1 v1.5 and EMSA-PSS with
 * any hash and MGF1 hash) and DSA on BigInt, ECDSA on brainpool/secp256k1 and Ed448 (and
 * the rest when WebCrypto refuses a key) through @noble/curves.
 *
 * The result is `valid: null` only when the algorithm is not supported; a malformed
 * signature or key gives `valid: false`.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { ed448 } from "@noble/curves/ed448.js";
import { brainpoolP256r1, brainpoolP384r1, brainpoolP512r1 } from "@noble/curves/misc.js";
import { p256, p384, p521 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { algorithmIdentifier, nullValue, octetString, sequence, toArrayBuffer } from "../der";
import {
  CURVE_OIDS,
  type CurveName,
  DIGEST_OIDS,
  DIGEST_OID_BY_NAME,
  DIGEST_SIZE,
  type DigestName,
  KEY_OIDS,
  SIGNATURE_OIDS,
  type SignatureScheme,
  hashBytes,
  hashSync,
  isWebCryptoDigest,
} from "./algorithms";
import {
  BerError,
  type BerNode,
  U,
  bytesToBigInt,
  expectUniversal,
  parseBer,
  readBigInt,
  readBitString,
  readOid,
  readUnsigned,
} from "./ber";
import { bytesEqual, concatBytes } from "../../util/bytes";

export interface SignatureCheck {
  /** true/false: verified or not; null: algorithm (or key type) not supported. */
  valid: boolean | null;
  /** "RSA", "RSA-PSS", "ECDSA", "Ed25519", "Ed448", "DSA", or the OID when unknown. */
  algorithm: string | null;
  /** The hash the signature is computed with (null for EdDSA). */
  hash: DigestName | null;
  /** Why the result is null or false, when known. */
  detail?: string;
}

/** What was signed: the message itself, or (no signed attributes) only its digest. */
export type Signed = { message: Uint8Array } | { digest: Uint8Array };

export interface SignatureInput {
  /** SubjectPublicKeyInfo of the signer. */
  spki: BerNode;
  /** AlgorithmIdentifier of the signature. */
  algorithm: BerNode;
  /** Hash to use when the signature algorithm does not name one (rsaEncryption, ecPublicKey, DSA key OID). */
  fallbackHash: DigestName | null;
  signature: Uint8Array;
  /**
   * Hash to use instead of the one the signature algorithm names (OpenSSL hashes signed
   * attributes with the SignerInfo digest algorithm; some signers rely on that).
   */
  hashOverride?: DigestName;
}

interface PssParams {
  hash: DigestName;
  mgfHash: DigestName;
  saltLength: number;
}

const SCHEME_NAMES: Record<SignatureScheme, string> = {
  RSA: "RSA",
  "RSA-PSS": "RSA-PSS",
  ECDSA: "ECDSA",
  "ECDSA-plain": "ECDSA",
  Ed25519: "Ed25519",
  Ed448: "Ed448",
  DSA: "DSA",
};

// ---------------------------------------------------------------------------
// Small BigInt arithmetic

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  if (mod === 1n) return 0n;
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

function modInverse(a: bigint, m: bigint): bigint | null {
  let [r0, r1] = [((a % m) + m) % m, m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) return null;
  return ((s0 % m) + m) % m;
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

function i2osp(n: bigint, length: number): Uint8Array | null {
  const out = new Uint8Array(length);
  let v = n;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return v === 0n ? out : null;
}

// ---------------------------------------------------------------------------
// Algorithm parameters

/** The hash named by an AlgorithmIdentifier of a digest (null when unknown). */
export function digestFromAlgorithm(node: BerNode | undefined): DigestName | null {
  try {
    const id = readOid(expectUniversal(node, U.SEQUENCE, "AlgorithmIdentifier").child(0));
    // Some signers put a signature algorithm (sha1WithRSAEncryption, ...) where a digest
    // algorithm belongs; like OpenSSL and NSS, take the hash it names.
    const name = DIGEST_OIDS[id] ?? SIGNATURE_OIDS[id]?.hash ?? null;
    if (id === "2.16.840.1.101.3.4.2.18") {
      // id-shake256-len: only the 512-bit output of RFC 8419 is supported.
      const len = node!.child(1);
      if (!len || Number(readBigInt(len)) !== 512) return null;
    }
    return name;
  } catch {
    return null;
  }
}

function pssParams(params: BerNode | undefined): PssParams | null {
  let hash: DigestName | null = "SHA-1";
  let mgfHash: DigestName | null = "SHA-1";
  let saltLength = 20;
  if (params && params.isUniversal(U.SEQUENCE)) {
    for (const p of params.children) {
      if (p.isContext(0)) hash = digestFromAlgorithm(p.child(0));
      else if (p.isContext(1)) {
        const mgf = expectUniversal(p.child(0), U.SEQUENCE, "maskGenAlgorithm");
        if (readOid(mgf.child(0)) !== "1.2.840.113549.1.1.8") return null; // only MGF1
        mgfHash = digestFromAlgorithm(mgf.child(1));
      } else if (p.isContext(2)) {
        const v = readBigInt(p.child(0));
        if (v > 1024n) return null;
        saltLength = Number(v);
      } else if (p.isContext(3)) {
        if (readBigInt(p.child(0)) !== 1n) return null;
      }
    }
  }
  if (!hash || !mgfHash) return null;
  return { hash, mgfHash, saltLength };
}

function keyKind(oid: string): "RSA" | "EC" | "Ed25519" | "Ed448" | "DSA" | null {
  switch (oid) {
    case KEY_OIDS.rsaEncryption:
    case KEY_OIDS.rsassaPss:
      return "RSA";
    case KEY_OIDS.ecPublicKey:
      return "EC";
    case KEY_OIDS.ed25519:
      return "Ed25519";
    case KEY_OIDS.ed448:
      return "Ed448";
    case KEY_OIDS.dsa:
      return "DSA";
    default:
      return null;
  }
}

const SCHEME_KEY: Record<SignatureScheme, ReturnType<typeof keyKind>> = {
  RSA: "RSA",
  "RSA-PSS": "RSA",
  ECDSA: "EC",
  "ECDSA-plain": "EC",
  Ed25519: "Ed25519",
  Ed448: "Ed448",
  DSA: "DSA",
};

interface AlgorithmChoice {
  scheme: SignatureScheme;
  name: string;
  hash: DigestName | null;
  pss?: PssParams;
}

/**
 * Which scheme and hash a signature uses. `unsupported` when the algorithm is unknown or
 * its hash cannot be determined.
 */
export function signatureAlgorithm(
  algorithm: BerNode,
  fallbackHash: DigestName | null,
): AlgorithmChoice | { unsupported: string } {
  let id: string;
  try {
    id = readOid(expectUniversal(algorithm, U.SEQUENCE, "AlgorithmIdentifier").child(0));
  } catch {
    return { unsupported: "unreadable signature algorithm" };
  }
  const info = SIGNATURE_OIDS[id];
  if (!info) return { unsupported: `signature algorithm ${id}` };
  const name = SCHEME_NAMES[info.scheme];
  if (info.scheme === "RSA-PSS") {
    let pss: PssParams | null;
    try {
      pss = pssParams(algorithm.child(1));
    } catch {
      pss = null;
    }
    if (!pss) return { unsupported: "RSA-PSS parameters" };
    return { scheme: "RSA-PSS", name, hash: pss.hash, pss };
  }
  if (info.scheme === "Ed25519" || info.scheme === "Ed448") return { scheme: info.scheme, name, hash: null };
  const hash = info.hash ?? fallbackHash;
  if (!hash) return { unsupported: `${name} without a known hash algorithm` };
  return { scheme: info.scheme, name, hash };
}

// ---------------------------------------------------------------------------
// RSA

function rsaKey(keyBytes: Uint8Array): { n: bigint; e: bigint } {
  const seq = expectUniversal(parseBer(keyBytes), U.SEQUENCE, "RSAPublicKey");
  return { n: readBigInt(seq.child(0), "modulus"), e: readBigInt(seq.child(1), "publicExponent") };
}

/** Bounds that keep BigInt arithmetic on hostile keys cheap. */
const MAX_RSA_BITS = 16384;
const MAX_RSA_EXPONENT_BITS = 64;
const MAX_DSA_P_BITS = 4096;

function rsaOpen(key: { n: bigint; e: bigint }, signature: Uint8Array): { em: Uint8Array; k: number } | null {
  const k = Math.ceil(bitLength(key.n) / 8);
  if (signature.length > k || k < 64) return null;
  if (bitLength(key.n) > MAX_RSA_BITS || bitLength(key.e) > MAX_RSA_EXPONENT_BITS) return null;
  const s = bytesToBigInt(signature);
  if (s >= key.n) return null;
  const em = i2osp(modPow(s, key.e, key.n), k);
  return em ? { em, k } : null;
}

function pkcs1DigestInfos(hash: DigestName, digest: Uint8Array): Uint8Array[] {
  const oid = DIGEST_OID_BY_NAME[hash];
  if (!oid) return [];
  return [
    sequence(algorithmIdentifier(oid, nullValue()), octetString(digest)),
    sequence(algorithmIdentifier(oid), octetString(digest)),
  ];
}

function rsaPkcs1Verify(
  key: { n: bigint; e: bigint },
  hash: DigestName,
  digest: Uint8Array,
  signature: Uint8Array,
): boolean {
  const opened = rsaOpen(key, signature);
  if (!opened) return false;
  const { em } = opened;
  if (em[0] !== 0x00 || em[1] !== 0x01) return false;
  let i = 2;
  while (i < em.length && em[i] === 0xff) i++;
  if (i - 2 < 8 || em[i] !== 0x00) return false;
  const t = em.subarray(i + 1);
  return pkcs1DigestInfos(hash, digest).some((d) => bytesEqual(d, t));
}

function mgf1(hash: DigestName, seed: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let filled = 0;
  for (let counter = 0; filled < length; counter++) {
    const c = Uint8Array.of((counter >>> 24) & 0xff, (counter >>> 16) & 0xff, (counter >>> 8) & 0xff, counter & 0xff);
    const block = hashSync(hash, concatBytes([seed, c]));
    out.set(block.subarray(0, Math.min(block.length, length - filled)), filled);
    filled += block.length;
  }
  return out;
}

/** RSASSA-PSS verification (RFC 8017 9.1.2) for any hash / MGF1 hash. */
function rsaPssVerify(
  key: { n: bigint; e: bigint },
  params: PssParams,
  mHash: Uint8Array,
  signature: Uint8Array,
): boolean {
  const modBits = bitLength(key.n);
  const opened = rsaOpen(key, signature);
  if (!opened) return false;
  const emBits = modBits - 1;
  const emLen = Math.ceil(emBits / 8);
  let em = opened.em;
  if (em.length > emLen) {
    if (em[0] !== 0) return false;
    em = em.subarray(em.length - emLen);
  }
  const hLen = DIGEST_SIZE[params.hash];
  const sLen = params.saltLength;
  if (mHash.length !== hLen || emLen < hLen + sLen + 2) return false;
  if (em[emLen - 1] !== 0xbc) return false;
  const maskedDb = em.subarray(0, emLen - hLen - 1);
  const h = em.subarray(emLen - hLen - 1, emLen - 1);
  const zeroBits = 8 * emLen - emBits;
  const topMask = (0xff << (8 - zeroBits)) & 0xff;
  if ((maskedDb[0]! & topMask) !== 0) return false;
  const dbMask = mgf1(params.mgfHash, h, maskedDb.length);
  const db = new Uint8Array(maskedDb.length);
  for (let i = 0; i < db.length; i++) db[i] = maskedDb[i]! ^ dbMask[i]!;
  db[0]! &= ~topMask & 0xff;
  const psLen = emLen - hLen - sLen - 2;
  for (let i = 0; i < psLen; i++) if (db[i] !== 0) return false;
  if (db[psLen] !== 0x01) return false;
  const salt = db.subarray(db.length - sLen);
  const hPrime = hashSync(params.hash, concatBytes([new Uint8Array(8), mHash, salt]));
  return bytesEqual(h, hPrime);
}

// ---------------------------------------------------------------------------
// ECDSA

const NOBLE_CURVES: Record<CurveName, typeof p256> = {
  "P-256": p256,
  "P-384": p384,
  "P-521": p521,
  brainpoolP256r1,
  brainpoolP384r1,
  brainpoolP512r1,
  secp256k1,
};

const WEBCRYPTO_CURVES = new Set<CurveName>(["P-256", "P-384", "P-521"]);

function curveOrderBytes(curve: CurveName): number {
  return NOBLE_CURVES[curve].Point.Fn.BYTES;
}

/** r and s from a DER Ecdsa-Sig-Value / Dss-Sig-Value, or from plain r||s. */
function readRs(signature: Uint8Array, plain: boolean): { r: bigint; s: bigint } | null {
  try {
    if (plain) {
      if (signature.length === 0 || signature.length % 2 !== 0) return null;
      const half = signature.length / 2;
      return { r: bytesToBigInt(signature.subarray(0, half)), s: bytesToBigInt(signature.subarray(half)) };
    }
    const seq = expectUniversal(parseBer(signature), U.SEQUENCE, "signature");
    if (seq.end !== signature.length || seq.children.length !== 2) return null;
    const rNode = seq.child(0)!;
    const sNode = seq.child(1)!;
    // Negative integers are not valid signature components.
    if (rNode.content[0]! & 0x80 || sNode.content[0]! & 0x80) return null;
    return { r: bytesToBigInt(readUnsigned(rNode)), s: bytesToBigInt(readUnsigned(sNode)) };
  } catch {
    return null;
  }
}

async function ecdsaVerify(
  spki: BerNode,
  keyBytes: Uint8Array,
  curve: CurveName,
  hash: DigestName,
  signed: Signed,
  rs: { r: bigint; s: bigint },
): Promise<boolean> {
  const size = curveOrderBytes(curve);
  const r = i2osp(rs.r, size);
  const s = i2osp(rs.s, size);
  if (!r || !s || rs.r === 0n || rs.s === 0n) return false;
  const raw = concatBytes([r, s]);
  if ("message" in signed && WEBCRYPTO_CURVES.has(curve) && isWebCryptoDigest(hash)) {
    let key: CryptoKey | null = null;
    try {
      key = await crypto.subtle.importKey(
        "spki",
        toArrayBuffer(spki.bytes),
        { name: "ECDSA", namedCurve: curve },
        false,
        ["verify"],
      );
    } catch {
      key = null; // e.g. a compressed point: noble below
    }
    if (key)
      return crypto.subtle.verify({ name: "ECDSA", hash }, key, toArrayBuffer(raw), toArrayBuffer(signed.message));
  }
  const digest = "message" in signed ? await hashBytes(hash, signed.message) : signed.digest;
  try {
    return NOBLE_CURVES[curve].verify(raw, digest, keyBytes, { prehash: false, lowS: false, format: "compact" });
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// DSA

function dsaVerify(
  params: BerNode | undefined,
  keyBytes: Uint8Array,
  digest: Uint8Array,
  rs: { r: bigint; s: bigint },
): boolean | null {
  if (!params || !params.isUniversal(U.SEQUENCE)) return null; // parameters inherited from the issuer: not supported
  const p = readBigInt(params.child(0));
  const q = readBigInt(params.child(1));
  const g = readBigInt(params.child(2));
  const y = readBigInt(parseBer(keyBytes));
  if (bitLength(p) > MAX_DSA_P_BITS || bitLength(q) > 512) return null;
  const { r, s } = rs;
  if (r <= 0n || r >= q || s <= 0n || s >= q) return false;
  const qBits = bitLength(q);
  let z = bytesToBigInt(digest);
  const hBits = digest.length * 8;
  if (hBits > qBits) z >>= BigInt(hBits - qBits);
  const w = modInverse(s, q);
  if (w === null) return false;
  const u1 = (z * w) % q;
  const u2 = (r * w) % q;
  const v = ((modPow(g, u1, p) * modPow(y, u2, p)) % p) % q;
  return v === r;
}

// ---------------------------------------------------------------------------

let webCryptoEd25519: boolean | undefined;

async function ed25519Verify(
  spki: BerNode,
  keyBytes: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean> {
  if (signature.length !== 64 || keyBytes.length !== 32) return false;
  if (webCryptoEd25519 !== false) {
    try {
      const key = await crypto.subtle.importKey("spki", toArrayBuffer(spki.bytes), { name: "Ed25519" }, false, [
        "verify",
      ]);
      webCryptoEd25519 = true;
      return await crypto.subtle.verify({ name: "Ed25519" }, key, toArrayBuffer(signature), toArrayBuffer(message));
    } catch {
      webCryptoEd25519 = false;
    }
  }
  try {
    return ed25519.verify(signature, message, keyBytes, { zip215: false });
  } catch {
    return false;
  }
}

/** The hash a signature over `algorithm` is computed with (to ask for the matching content digest). */
export function signatureHash(algorithm: BerNode, fallbackHash: DigestName | null): DigestName | null {
  const choice = signatureAlgorithm(algorithm, fallbackHash);
  return "unsupported" in choice ? null : choice.hash;
}

export async function verifySignature(input: SignatureInput, signed: Signed): Promise<SignatureCheck> {
  const choice = signatureAlgorithm(input.algorithm, input.fallbackHash);
  if ("unsupported" in choice)
    return { valid: null, algorithm: null, hash: null, detail: `unsupported ${choice.unsupported}` };
  if (input.hashOverride && choice.hash && choice.scheme !== "RSA-PSS") choice.hash = input.hashOverride;
  const { scheme, name, hash } = choice;
  const result = (valid: boolean | null, detail?: string): SignatureCheck => ({
    valid,
    algorithm: name,
    hash,
    ...(detail ? { detail } : {}),
  });

  let keyOid: string;
  let keyParams: BerNode | undefined;
  let keyBytes: Uint8Array;
  try {
    const alg = expectUniversal(input.spki.child(0), U.SEQUENCE, "key AlgorithmIdentifier");
    keyOid = readOid(alg.child(0));
    keyParams = alg.child(1);
    const bits = readBitString(input.spki.child(1), "subjectPublicKey");
    keyBytes = bits.bytes;
  } catch {
    return result(false, "unreadable public key");
  }
  const kind = keyKind(keyOid);
  if (!kind) return result(null, `unsupported public key algorithm ${keyOid}`);
  if (SCHEME_KEY[scheme] !== kind) return result(false, `a ${kind} key cannot make a ${name} signature`);

  if ((scheme === "Ed25519" || scheme === "Ed448") && !("message" in signed)) {
    return result(null, `${name} signatures need signed attributes here`);
  }
  if ("digest" in signed && hash && signed.digest.length !== DIGEST_SIZE[hash])
    return result(false, "digest length mismatch");

  try {
    switch (scheme) {
      case "RSA": {
        const key = rsaKey(keyBytes);
        if ("message" in signed && isWebCryptoDigest(hash!) && keyOid === KEY_OIDS.rsaEncryption) {
          const k = Math.ceil(bitLength(key.n) / 8);
          let cryptoKey: CryptoKey | null = null;
          try {
            cryptoKey = await crypto.subtle.importKey(
              "spki",
              toArrayBuffer(input.spki.bytes),
              { name: "RSASSA-PKCS1-v1_5", hash: hash! },
              false,
              ["verify"],
            );
          } catch {
            cryptoKey = null; // small or unusual keys: BigInt below
          }
          if (cryptoKey && input.signature.length <= k) {
            const sig = new Uint8Array(k);
            sig.set(input.signature, k - input.signature.length);
            return result(
              await crypto.subtle.verify(
                { name: "RSASSA-PKCS1-v1_5" },
                cryptoKey,
                toArrayBuffer(sig),
                toArrayBuffer(signed.message),
              ),
            );
          }
        }
        const digest = "message" in signed ? await hashBytes(hash!, signed.message) : signed.digest;
        return result(rsaPkcs1Verify(key, hash!, digest, input.signature));
      }
      case "RSA-PSS": {
        const key = rsaKey(keyBytes);
        const pss = choice.pss!;
        const digest = "message" in signed ? await hashBytes(pss.hash, signed.message) : signed.digest;
        return result(rsaPssVerify(key, pss, digest, input.signature));
      }
      case "ECDSA":
      case "ECDSA-plain": {
        let curveOid: string | null = null;
        try {
          curveOid = readOid(keyParams);
        } catch {
          curveOid = null;
        }
        const curve = curveOid ? CURVE_OIDS[curveOid] : undefined;
        if (!curve) return result(null, `unsupported elliptic curve ${curveOid ?? "(explicit parameters)"}`);
        const rs = readRs(input.signature, scheme === "ECDSA-plain");
        if (!rs) return result(false, "malformed ECDSA signature value");
        return result(await ecdsaVerify(input.spki, keyBytes, curve, hash!, signed, rs));
      }
      case "Ed25519":
        return result(
          await ed25519Verify(input.spki, keyBytes, input.signature, (signed as { message: Uint8Array }).message),
        );
      case "Ed448": {
        if (input.signature.length !== 114 || keyBytes.length !== 57) return result(false);
        try {
          return result(ed448.verify(input.signature, (signed as { message: Uint8Array }).message, keyBytes));
        } catch {
          return result(false);
        }
      }
      case "DSA": {
        const rs = readRs(input.signature, false);
        if (!rs) return result(false, "malformed DSA signature value");
        const digest = "message" in signed ? await hashBytes(hash!, signed.message) : signed.digest;
        const v = dsaVerify(keyParams, keyBytes, digest, rs);
        return v === null ? result(null, "DSA key without domain parameters") : result(v);
      }
    }
  } catch (e) {
    if (e instanceof BerError) return result(false, "malformed public key or signature");
    throw e;
  }
}

/** True when `cert` (its TBS and signature) was signed by the holder of `issuerSpki`. */
export async function verifyCertificateSignature(
  tbs: Uint8Array,
  algorithm: BerNode,
  signature: Uint8Array,
  issuerSpki: BerNode,
): Promise<SignatureCheck> {
  return verifySignature({ spki: issuerSpki, algorithm, fallbackHash: null, signature }, { message: tbs });
}

/** RSA modulus size in bits (null for other keys or an unreadable key). */
export function rsaModulusBits(spki: BerNode): number | null {
  try {
    const alg = expectUniversal(spki.child(0), U.SEQUENCE, "key AlgorithmIdentifier");
    if (keyKind(readOid(alg.child(0))) !== "RSA") return null;
    return bitLength(rsaKey(readBitString(spki.child(1)).bytes).n);
  } catch {
    return null;
  }
}
