/**
 * Test-only builders for the verifier's tests (not imported by the service): keys of every
 * kind the verifier supports, certificates and CMS SignedData assembled byte by byte with
 * src/cms/der.ts, so tests control every field (algorithms, validity, CA flags, sid form,
 * attribute encoding).
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { ed448 } from "@noble/curves/ed448.js";
import { brainpoolP256r1 } from "@noble/curves/misc.js";
import {
  algorithmIdentifier,
  booleanValue,
  explicit,
  generalizedTime,
  nullValue,
  octetString,
  oid,
  readDer,
  sequence,
  setOf,
  smallInteger,
  tlv,
  toArrayBuffer,
  utf8String,
} from "../../src/cms/der";
import { OID } from "../../src/cms/oids";
import { attribute, ecdsaRawToDer } from "../../src/cms/signed-data";
import { DIGEST_OID_BY_NAME, type DigestName, hashBytes } from "../../src/cms/verify/algorithms";
import { concatBytes } from "../../src/util/bytes";

export interface TestKey {
  /** DER SubjectPublicKeyInfo. */
  spki: Uint8Array;
  /** Signature AlgorithmIdentifier (DER). */
  algorithm: Uint8Array;
  sign(data: Uint8Array): Promise<Uint8Array>;
}

function bitString(bytes: Uint8Array, unusedBits = 0): Uint8Array {
  return tlv(0x03, concatBytes([Uint8Array.of(unusedBits), bytes]));
}

export type KeyKind =
  "RSA" | "RSA-SHA1" | "RSA-PSS" | "P-256" | "P-384" | "P-521" | "Ed25519" | "Ed448" | "brainpoolP256r1";

export async function makeKey(kind: KeyKind): Promise<TestKey> {
  switch (kind) {
    case "RSA":
    case "RSA-SHA1": {
      const hash = kind === "RSA" ? "SHA-256" : "SHA-1";
      const pair = (await crypto.subtle.generateKey(
        { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: Uint8Array.of(1, 0, 1), hash },
        true,
        ["sign", "verify"],
      )) as CryptoKeyPair;
      return {
        spki: new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer),
        algorithm: algorithmIdentifier(
          kind === "RSA" ? OID.sha256WithRSAEncryption : "1.2.840.113549.1.1.5",
          nullValue(),
        ),
        sign: async (data) =>
          new Uint8Array(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", pair.privateKey, toArrayBuffer(data))),
      };
    }
    case "RSA-PSS": {
      const pair = (await crypto.subtle.generateKey(
        { name: "RSA-PSS", modulusLength: 2048, publicExponent: Uint8Array.of(1, 0, 1), hash: "SHA-256" },
        true,
        ["sign", "verify"],
      )) as CryptoKeyPair;
      const sha256 = algorithmIdentifier(OID.sha256);
      const params = sequence(
        explicit(0, sha256),
        explicit(1, sequence(oid("1.2.840.113549.1.1.8"), sha256)),
        explicit(2, smallInteger(32)),
      );
      return {
        spki: new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer),
        algorithm: algorithmIdentifier(OID.rsassaPss, params),
        sign: async (data) =>
          new Uint8Array(
            await crypto.subtle.sign({ name: "RSA-PSS", saltLength: 32 }, pair.privateKey, toArrayBuffer(data)),
          ),
      };
    }
    case "P-256":
    case "P-384":
    case "P-521": {
      const hash = kind === "P-256" ? "SHA-256" : kind === "P-384" ? "SHA-384" : "SHA-512";
      const sigOid =
        kind === "P-256" ? OID.ecdsaWithSHA256 : kind === "P-384" ? OID.ecdsaWithSHA384 : OID.ecdsaWithSHA512;
      const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: kind }, true, [
        "sign",
        "verify",
      ])) as CryptoKeyPair;
      return {
        spki: new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer),
        algorithm: algorithmIdentifier(sigOid),
        sign: async (data) =>
          ecdsaRawToDer(
            new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash }, pair.privateKey, toArrayBuffer(data))),
          ),
      };
    }
    case "Ed25519": {
      const { secretKey, publicKey } = ed25519.keygen();
      return {
        spki: sequence(algorithmIdentifier(OID.ed25519), bitString(publicKey)),
        algorithm: algorithmIdentifier(OID.ed25519),
        sign: async (data) => ed25519.sign(data, secretKey),
      };
    }
    case "Ed448": {
      const { secretKey, publicKey } = ed448.keygen();
      return {
        spki: sequence(algorithmIdentifier(OID.ed448), bitString(publicKey)),
        algorithm: algorithmIdentifier(OID.ed448),
        sign: async (data) => ed448.sign(data, secretKey),
      };
    }
    case "brainpoolP256r1": {
      const { secretKey } = brainpoolP256r1.keygen();
      const publicKey = brainpoolP256r1.getPublicKey(secretKey, false);
      return {
        spki: sequence(algorithmIdentifier(OID.ecPublicKey, oid("1.3.36.3.3.2.8.1.1.7")), bitString(publicKey)),
        algorithm: algorithmIdentifier(OID.ecdsaWithSHA256),
        sign: async (data) => brainpoolP256r1.sign(data, secretKey, { format: "der", lowS: false }),
      };
    }
  }
}

export function name(cn: string, o = "Signet verify tests"): Uint8Array {
  return sequence(setOf(sequence(oid("2.5.4.10"), utf8String(o))), setOf(sequence(oid("2.5.4.3"), utf8String(cn))));
}

export interface CertOptions {
  subject: Uint8Array;
  key: TestKey;
  /** Issuer name and key; omit for self-signed. */
  issuer?: { name: Uint8Array; key: TestKey };
  notBefore?: Date;
  notAfter?: Date;
  ca?: boolean;
  pathLen?: number;
  /** KeyUsage bit numbers (0 digitalSignature, 1 nonRepudiation, 5 keyCertSign, 6 cRLSign). */
  keyUsage?: number[];
  extKeyUsage?: string[];
  serial?: number;
}

let serialCounter = 1000;

export async function makeCert(opts: CertOptions): Promise<Uint8Array> {
  const issuer = opts.issuer ?? { name: opts.subject, key: opts.key };
  const notBefore = opts.notBefore ?? new Date(Date.now() - 3600_000);
  const notAfter = opts.notAfter ?? new Date(Date.now() + 365 * 86400_000);
  const exts: Uint8Array[] = [];
  exts.push(
    sequence(
      oid("2.5.29.19"),
      booleanValue(true),
      octetString(
        sequence(
          ...(opts.ca ? [booleanValue(true)] : []),
          ...(opts.ca && opts.pathLen !== undefined ? [smallInteger(opts.pathLen)] : []),
        ),
      ),
    ),
  );
  const ku = opts.keyUsage ?? (opts.ca ? [5, 6] : [0, 1]);
  let bits = 0;
  for (const b of ku) bits |= 0x80 >> b;
  exts.push(sequence(oid("2.5.29.15"), booleanValue(true), octetString(bitString(Uint8Array.of(bits)))));
  if (opts.extKeyUsage)
    exts.push(
      sequence(oid("2.5.29.37"), booleanValue(true), octetString(sequence(...opts.extKeyUsage.map((o) => oid(o))))),
    );
  const ski = (await hashBytes("SHA-1", opts.key.spki)).subarray(0, 20);
  exts.push(sequence(oid("2.5.29.14"), octetString(octetString(ski))));
  const tbs = sequence(
    explicit(0, smallInteger(2)),
    smallInteger(opts.serial ?? serialCounter++),
    issuer.key.algorithm,
    issuer.name,
    sequence(generalizedTime(notBefore), generalizedTime(notAfter)),
    opts.subject,
    opts.key.spki,
    explicit(3, sequence(...exts)),
  );
  const signature = await issuer.key.sign(tbs);
  return sequence(tbs, issuer.key.algorithm, bitString(signature));
}

/** serialNumber INTEGER TLV and issuer Name TLV of a certificate we built. */
export function issuerAndSerial(cert: Uint8Array): { issuer: Uint8Array; serial: Uint8Array } {
  const [tbs] = childrenOf(readDer(cert));
  const f = childrenOf(tbs!);
  return { serial: f[1]!.bytes, issuer: f[3]!.bytes };
}

function childrenOf(node: ReturnType<typeof readDer>) {
  const out: ReturnType<typeof readDer>[] = [];
  let offset = 0;
  while (offset < node.content.length) {
    const c = readDer(node.content, offset);
    out.push(c);
    offset = c.end;
  }
  return out;
}

export interface CmsOptions {
  key: TestKey;
  cert: Uint8Array;
  /** Certificates to include (default: [cert]). */
  certificates?: Uint8Array[];
  digest: DigestName;
  /** The message-digest attribute value (digest of the content, or of eContent, under `digest`). */
  contentDigest: Uint8Array;
  extraSignedAttributes?: Uint8Array[];
  /** Encapsulated content (adbe.pkcs7.sha1); the message digest is then over it. */
  eContent?: Uint8Array;
  eContentType?: string;
  /** Identify the signer by subjectKeyIdentifier (this value) instead of issuerAndSerialNumber. */
  subjectKeyId?: Uint8Array;
  /** Encode the [0] signed attributes differently from the DER SET that is signed. */
  encodeSignedAttributes?: (attrs: Uint8Array[]) => Uint8Array;
  /** Unsigned attributes computed from the signature value. */
  unsignedAttributes?: (signature: Uint8Array) => Promise<Uint8Array[]>;
  /** Change the signature value after signing. */
  tamperSignature?: boolean;
}

export async function makeCms(opts: CmsOptions): Promise<Uint8Array> {
  const digestOid = DIGEST_OID_BY_NAME[opts.digest]!;
  const digestAlg = algorithmIdentifier(digestOid);
  const contentType = opts.eContentType ?? OID.data;
  const attrs = [
    attribute(OID.contentType, oid(contentType)),
    attribute(OID.messageDigest, octetString(opts.contentDigest)),
    ...(opts.extraSignedAttributes ?? []),
  ];
  const signedSet = setOf(...attrs);
  let signature = await opts.key.sign(signedSet);
  if (opts.tamperSignature) {
    signature = signature.slice();
    signature[signature.length - 5]! ^= 0x01;
  }
  const unsigned = opts.unsignedAttributes ? await opts.unsignedAttributes(signature) : [];
  const encodedAttrs = opts.encodeSignedAttributes ? opts.encodeSignedAttributes(attrs) : signedSet;
  const { issuer, serial } = issuerAndSerial(opts.cert);
  const sid = opts.subjectKeyId ? tlv(0x80, opts.subjectKeyId) : sequence(issuer, serial);
  const signerInfo = sequence(
    smallInteger(opts.subjectKeyId ? 3 : 1),
    sid,
    digestAlg,
    tlv(0xa0, readDer(encodedAttrs).content),
    opts.key.algorithm,
    octetString(signature),
    ...(unsigned.length ? [tlv(0xa1, readDer(setOf(...unsigned)).content)] : []),
  );
  const encap = opts.eContent
    ? sequence(oid(contentType), explicit(0, octetString(opts.eContent)))
    : sequence(oid(contentType));
  const certs = opts.certificates ?? [opts.cert];
  const signedData = sequence(
    smallInteger(opts.subjectKeyId ? 3 : 1),
    setOf(digestAlg),
    encap,
    ...(certs.length ? [tlv(0xa0, concatBytes(certs))] : []),
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), explicit(0, signedData));
}

/**
 * Old-style PKCS#7 without signed attributes: an RSA PKCS#1 v1.5 signature straight over
 * the content (WebCrypto hashes `content` itself).
 */
export async function makeCmsWithoutAttributes(opts: {
  key: TestKey;
  cert: Uint8Array;
  content: Uint8Array;
}): Promise<Uint8Array> {
  const signature = await opts.key.sign(opts.content);
  const { issuer, serial } = issuerAndSerial(opts.cert);
  const digestAlg = algorithmIdentifier(OID.sha256);
  const signerInfo = sequence(
    smallInteger(1),
    sequence(issuer, serial),
    digestAlg,
    opts.key.algorithm,
    octetString(signature),
  );
  const signedData = sequence(
    smallInteger(1),
    setOf(digestAlg),
    sequence(oid(OID.data)),
    tlv(0xa0, opts.cert),
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), explicit(0, signedData));
}
