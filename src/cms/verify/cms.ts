/**
 * Reading CMS SignedData (RFC 5652) and checking one SignerInfo: signer certificate,
 * content-type and message-digest attributes, the signature over the DER SET OF signed
 * attributes (or over the content digest when there are none), ESS signing-certificate.
 */
import { OID } from "../oids";
import { type DigestName, hashBytes } from "./algorithms";
import {
  BerError,
  type BerNode,
  CLASS,
  U,
  expectNode,
  expectUniversal,
  parseBer,
  readOctets,
  readOid,
  readSmallInt,
  readTime,
  readUnsigned,
  toDer,
  withSetTag,
} from "./ber";
import { type ParsedCertificate, namesEqual, tryParseCertificate } from "./certificate";
import {
  type SignatureCheck,
  digestFromAlgorithm,
  signatureAlgorithm,
  signatureHash,
  verifySignature,
} from "./signature";
import { bytesEqual } from "../../util/bytes";

export const MAX_CERTIFICATES = 64;

export interface SignerIdentifier {
  issuer?: Uint8Array;
  serial?: Uint8Array;
  subjectKeyId?: Uint8Array;
}

export interface Attribute {
  type: string;
  values: BerNode[];
}

export interface SignerInfo {
  version: number;
  sid: SignerIdentifier;
  digestAlgorithm: BerNode;
  digestName: DigestName | null;
  signedAttrs: BerNode | null;
  signedAttributes: Attribute[];
  signatureAlgorithm: BerNode;
  signature: Uint8Array;
  unsignedAttributes: Attribute[];
}

export interface SignedData {
  /** The ContentInfo element (trailing bytes after it excluded). */
  end: number;
  eContentType: string;
  eContent: Uint8Array | null;
  certificates: ParsedCertificate[];
  signerInfos: SignerInfo[];
}

function readAttributes(node: BerNode): Attribute[] {
  return node.children.map((a) => {
    const seq = expectUniversal(a, U.SEQUENCE, "Attribute");
    const type = readOid(seq.child(0), "attribute type");
    const values = expectUniversal(seq.child(1), U.SET, "attribute values").children;
    return { type, values };
  });
}

function readSignerInfo(node: BerNode): SignerInfo {
  const parts = expectUniversal(node, U.SEQUENCE, "SignerInfo").children;
  let i = 0;
  const version = readSmallInt(parts[i++], "SignerInfo version");
  const sidNode = parts[i++];
  let sid: SignerIdentifier;
  if (sidNode?.isUniversal(U.SEQUENCE)) {
    sid = {
      issuer: expectUniversal(sidNode.child(0), U.SEQUENCE, "issuer").bytes,
      serial: readUnsigned(sidNode.child(1), "serialNumber"),
    };
  } else if (sidNode?.isContext(0)) {
    sid = { subjectKeyId: sidNode.stringValue() };
  } else {
    throw new BerError("expected a SignerIdentifier");
  }
  const digestAlgorithm = expectUniversal(parts[i++], U.SEQUENCE, "digestAlgorithm");
  let signedAttrs: BerNode | null = null;
  if (parts[i]?.isContext(0)) signedAttrs = parts[i++]!;
  const signatureAlgorithm = expectUniversal(parts[i++], U.SEQUENCE, "signatureAlgorithm");
  const signature = readOctets(parts[i++], "signature");
  let unsigned: BerNode | null = null;
  if (parts[i]?.isContext(1)) unsigned = parts[i++]!;
  return {
    version,
    sid,
    digestAlgorithm,
    digestName: digestFromAlgorithm(digestAlgorithm),
    signedAttrs,
    signedAttributes: signedAttrs ? readAttributes(signedAttrs) : [],
    signatureAlgorithm,
    signature,
    unsignedAttributes: unsigned ? readAttributes(unsigned) : [],
  };
}

/** Reads a ContentInfo holding SignedData. Throws BerError (or CmsError) when it is not one. */
export async function readSignedData(bytes: Uint8Array): Promise<SignedData> {
  const root = expectUniversal(parseBer(bytes), U.SEQUENCE, "ContentInfo");
  const contentType = readOid(root.child(0), "contentType");
  if (contentType !== OID.signedData) throw new CmsError(`the CMS content type is ${contentType}, not SignedData`);
  const explicit = expectNode(root.child(1), CLASS.CONTEXT, 0, "[0] content");
  const sd = expectUniversal(explicit.child(0), U.SEQUENCE, "SignedData").children;
  let i = 0;
  readSmallInt(sd[i++], "SignedData version");
  expectUniversal(sd[i++], U.SET, "digestAlgorithms");
  const encap = expectUniversal(sd[i++], U.SEQUENCE, "encapContentInfo");
  const eContentType = readOid(encap.child(0), "eContentType");
  let eContent: Uint8Array | null = null;
  const eContentNode = encap.child(1);
  if (eContentNode) {
    const inner = expectNode(eContentNode, CLASS.CONTEXT, 0, "[0] eContent").child(0);
    eContent = readOctets(inner, "eContent");
  }
  const certificates: ParsedCertificate[] = [];
  if (sd[i]?.isContext(0)) {
    const set = sd[i++]!;
    for (const c of set.children) {
      // Only plain X.509 certificates; attribute certificates and others are skipped.
      if (!c.isUniversal(U.SEQUENCE)) continue;
      if (certificates.length >= MAX_CERTIFICATES) break;
      const parsed = await tryParseCertificate(c.bytes.slice());
      if (parsed) certificates.push(parsed);
    }
  }
  if (sd[i]?.isContext(1)) i++; // revocation information: not read
  const signerInfosNode = expectUniversal(sd[i], U.SET, "signerInfos");
  const signerInfos = signerInfosNode.children.map(readSignerInfo);
  return { end: root.end, eContentType, eContent, certificates, signerInfos };
}

export class CmsError extends Error {}

function toDerOrNull(node: BerNode): Uint8Array | null {
  try {
    return toDer(node, true);
  } catch {
    return null;
  }
}

function keyIdentifierMatches(cert: ParsedCertificate, ski: Uint8Array, sha1OfKey: Uint8Array | null): boolean {
  if (cert.subjectKeyId && bytesEqual(cert.subjectKeyId, ski)) return true;
  return sha1OfKey !== null && bytesEqual(sha1OfKey, ski);
}

/** The certificate a SignerInfo names, among `certs`. */
export async function findSignerCertificate(
  si: SignerInfo,
  certs: readonly ParsedCertificate[],
): Promise<ParsedCertificate | null> {
  const { issuer, serial, subjectKeyId } = si.sid;
  if (issuer && serial) {
    return certs.find((c) => bytesEqual(c.serialNumber, serial) && namesEqual(c.issuerDer, issuer)) ?? null;
  }
  if (subjectKeyId) {
    for (const c of certs) {
      let sha1OfKey: Uint8Array | null = null;
      if (!c.subjectKeyId) {
        // RFC 5280 method (1): SHA-1 of the subjectPublicKey BIT STRING value.
        try {
          const bits = expectUniversal(c.spki.child(1), U.BIT_STRING, "subjectPublicKey").content.subarray(1);
          sha1OfKey = await hashBytes("SHA-1", bits);
        } catch {
          sha1OfKey = null;
        }
      }
      if (keyIdentifierMatches(c, subjectKeyId, sha1OfKey)) return c;
    }
  }
  return null;
}

export function attributeValues(attrs: readonly Attribute[], type: string): BerNode[][] {
  return attrs.filter((a) => a.type === type).map((a) => a.values);
}

export type EssCheck = { present: false } | { present: true; matches: boolean; detail: string | null };

/** ESS signing-certificate (v1, SHA-1) or signing-certificate-v2 against the signer certificate. */
export async function checkSigningCertificate(attrs: readonly Attribute[], cert: ParsedCertificate): Promise<EssCheck> {
  const v2 = attributeValues(attrs, OID.signingCertificateV2);
  const v1 = attributeValues(attrs, OID.signingCertificate);
  const values = v2[0] ?? v1[0];
  if (!values) return { present: false };
  const isV2 = v2.length > 0;
  try {
    const signingCertificate = expectUniversal(values[0], U.SEQUENCE, "SigningCertificate");
    const certs = expectUniversal(signingCertificate.child(0), U.SEQUENCE, "certs");
    const first = expectUniversal(certs.child(0), U.SEQUENCE, "ESSCertID");
    const fields = first.children;
    let j = 0;
    let hashName: DigestName | null = isV2 ? "SHA-256" : "SHA-1";
    if (isV2 && fields[0]?.isUniversal(U.SEQUENCE)) hashName = digestFromAlgorithm(fields[j++]);
    if (!hashName)
      return {
        present: true,
        matches: false,
        detail: "unsupported hash algorithm in the signing-certificate attribute",
      };
    const certHash = readOctets(fields[j++], "certHash");
    const actual = await hashBytes(hashName, cert.der);
    if (!bytesEqual(certHash, actual)) {
      return {
        present: true,
        matches: false,
        detail: "the certificate hash in the signing-certificate attribute is not the signer certificate's",
      };
    }
    const issuerSerial = fields[j];
    if (issuerSerial?.isUniversal(U.SEQUENCE)) {
      const serial = readUnsigned(issuerSerial.child(1), "serialNumber");
      const names = expectUniversal(issuerSerial.child(0), U.SEQUENCE, "GeneralNames").children;
      const dirName = names.find((n) => n.isContext(4));
      const issuerOk = !dirName || namesEqual(dirName.child(0)!.bytes, cert.issuerDer);
      if (!bytesEqual(serial, cert.serialNumber) || !issuerOk) {
        return {
          present: true,
          matches: false,
          detail: "the issuer and serial number in the signing-certificate attribute are not the signer certificate's",
        };
      }
    }
    return { present: true, matches: true, detail: null };
  } catch (e) {
    if (e instanceof BerError)
      return { present: true, matches: false, detail: "the signing-certificate attribute is malformed" };
    throw e;
  }
}

export interface SignerCheck {
  signerCertificate: ParsedCertificate | null;
  digestName: DigestName | null;
  /** The hash under which the signature itself is computed. */
  signatureHash: DigestName | null;
  signatureAlgorithm: string | null;
  /** message-digest (or, without signed attributes, the signature) matches the content. */
  intact: boolean | null;
  signatureValid: boolean | null;
  /** Machine code + message for what went wrong, in order of discovery. */
  failures: { code: string; message: string }[];
  /** Signed attributes were accepted only after re-encoding them as DER. */
  reencoded: boolean;
  /**
   * The signature value verifies only under the digest algorithm's hash, not under the hash its
   * signature algorithm names: not a valid signature (RFC 5652 §5.3, the value is computed with
   * the named algorithm), reported with this diagnosis.
   */
  hashLabelMismatch: boolean;
  ess: EssCheck;
  signingTime: Date | null;
  signatureCheck: SignatureCheck | null;
}

export interface SignerCheckOptions {
  /** Required value of the content-type attribute (the eContentType). */
  contentType: string;
  /**
   * Digest of the signed content under an algorithm (null when unavailable). For
   * encapsulated content this hashes eContent; for detached content, the document.
   */
  contentDigest: (alg: DigestName) => Promise<Uint8Array | null>;
  /** The content itself when encapsulated (signatures without signed attributes over it). */
  content: Uint8Array | null;
}

/** Checks one SignerInfo against its content and the certificates of the SignedData. */
export async function checkSigner(
  si: SignerInfo,
  certs: readonly ParsedCertificate[],
  opts: SignerCheckOptions,
): Promise<SignerCheck> {
  const out: SignerCheck = {
    signerCertificate: await findSignerCertificate(si, certs),
    digestName: si.digestName,
    signatureHash: signatureHash(si.signatureAlgorithm, si.digestName),
    signatureAlgorithm: null,
    intact: null,
    signatureValid: null,
    failures: [],
    reencoded: false,
    hashLabelMismatch: false,
    ess: { present: false },
    signingTime: null,
    signatureCheck: null,
  };
  const fail = (code: string, message: string) => out.failures.push({ code, message });
  const cert = out.signerCertificate;

  if (si.signedAttrs) {
    const attrs = si.signedAttributes;
    const ct = attributeValues(attrs, OID.contentType);
    const md = attributeValues(attrs, OID.messageDigest);
    let contentTypeOk = true;
    if (ct.length !== 1 || ct[0]!.length !== 1) {
      contentTypeOk = false;
      fail("cms_malformed", "The signed attributes must hold exactly one content-type.");
    } else {
      let value: string | null = null;
      try {
        value = readOid(ct[0]![0]);
      } catch {
        value = null;
      }
      if (value !== opts.contentType) {
        contentTypeOk = false;
        fail(
          "content_type_mismatch",
          `The signed content-type attribute (${value ?? "unreadable"}) is not the content type ${opts.contentType}.`,
        );
      }
    }
    let messageDigest: Uint8Array | null = null;
    if (md.length !== 1 || md[0]!.length !== 1) {
      fail("message_digest_missing", "The signed attributes must hold exactly one message-digest.");
    } else {
      try {
        messageDigest = readOctets(md[0]![0], "message-digest");
      } catch {
        fail("cms_malformed", "The message-digest attribute is not an OCTET STRING.");
      }
    }
    if (messageDigest) {
      if (!si.digestName) {
        fail("unsupported_algorithm", "The digest algorithm of the signature is not supported.");
      } else {
        const expected = await opts.contentDigest(si.digestName);
        if (!expected)
          fail("unsupported_algorithm", `The ${si.digestName} digest of the signed content is not available.`);
        else {
          out.intact = contentTypeOk && bytesEqual(messageDigest, expected);
          if (!bytesEqual(messageDigest, expected)) {
            fail(
              "digest_mismatch",
              "The signed bytes do not match the digest in the signature: the content was changed after signing.",
            );
          }
        }
      }
    } else {
      out.intact = false;
    }
    const signingTime = attributeValues(attrs, OID.signingTime)[0]?.[0];
    if (signingTime) {
      try {
        out.signingTime = readTime(signingTime, "signing-time");
      } catch {
        out.signingTime = null;
      }
    }

    if (cert) {
      const asReceived = withSetTag(si.signedAttrs);
      const input = {
        spki: cert.spki,
        algorithm: si.signatureAlgorithm,
        fallbackHash: si.digestName,
        signature: si.signature,
      };
      let check = asReceived ? await verifySignature(input, { message: asReceived }) : null;
      if (!check || check.valid === false) {
        // Signers that wrote BER or unsorted attributes still signed their DER encoding.
        let der: Uint8Array | null = null;
        try {
          der = toDer(si.signedAttrs, true);
        } catch {
          der = null;
        }
        if (der && (!asReceived || !bytesEqual(der, asReceived))) {
          const again = await verifySignature(input, { message: der });
          if (again.valid === true || !check) {
            out.reencoded = again.valid === true;
            check = again;
          }
        }
      }
      if (check?.valid === false && si.digestName && check.hash && check.hash !== si.digestName) {
        // Computed with the digest algorithm's hash under another signature algorithm's label:
        // OpenSSL and iText accept that, the named algorithm (pdfsig, pyHanko, DSS) does not.
        for (const message of [asReceived, out.reencoded ? null : toDerOrNull(si.signedAttrs)]) {
          if (!message) continue;
          const again = await verifySignature({ ...input, hashOverride: si.digestName }, { message });
          if (again.valid === true) {
            out.hashLabelMismatch = true;
            break;
          }
        }
      }
      // RFC 8419: EdDSA in CMS pairs Ed25519 with SHA-512 and Ed448 with SHAKE256 (512 bits).
      const required = check?.algorithm === "Ed25519" ? "SHA-512" : check?.algorithm === "Ed448" ? "SHAKE256" : null;
      if (check && required && si.digestName !== required) {
        check = {
          ...check,
          valid: null,
          detail: `${check.algorithm} with the ${si.digestName ?? "unknown"} digest algorithm (RFC 8419 requires ${required})`,
        };
      }
      out.signatureCheck = check;
      out.signatureValid = check!.valid;
      out.signatureAlgorithm = check!.algorithm;
      if (check!.hash) out.signatureHash = check!.hash;
      out.ess = await checkSigningCertificate(attrs, cert);
    }
  } else if (cert) {
    // No signed attributes: the signature is over the content itself (old PKCS#7).
    const input = {
      spki: cert.spki,
      algorithm: si.signatureAlgorithm,
      fallbackHash: si.digestName,
      signature: si.signature,
    };
    let check: SignatureCheck;
    if (opts.content) {
      check = await verifySignature(input, { message: opts.content });
    } else {
      const hash = out.signatureHash;
      const digest = hash ? await opts.contentDigest(hash) : null;
      if (!hash || !digest) {
        const choice = signatureAlgorithm(si.signatureAlgorithm, si.digestName);
        check = {
          valid: null,
          algorithm: "name" in choice ? choice.name : null,
          hash,
          detail: `digest ${hash ?? "algorithm"}`,
        };
      } else {
        check = await verifySignature(input, { digest });
      }
    }
    out.signatureCheck = check;
    out.signatureValid = check.valid;
    out.intact = check.valid;
    out.signatureAlgorithm = check.algorithm;
    if (check.valid === false) {
      fail(
        "signature_invalid",
        "The signature does not verify over the signed bytes (no signed attributes): the content or the signature was changed.",
      );
    }
  }

  if (!cert) {
    out.signatureValid = false;
    fail(
      "signer_certificate_missing",
      "The signer's certificate is not in the signature, so the signature cannot be checked.",
    );
  } else if (out.signatureCheck?.valid === null) {
    fail(
      "unsupported_algorithm",
      `The signature algorithm is not supported (${out.signatureCheck.detail ?? "unknown"}).`,
    );
  } else if (out.hashLabelMismatch) {
    fail(
      "signature_algorithm_mismatch",
      `The signature does not verify under the ${out.signatureHash ?? "hash"} its signature algorithm names, only under the ${si.digestName} of its digest algorithm: a signature must be computed with the algorithm it names (RFC 5652).`,
    );
  } else if (si.signedAttrs && out.signatureValid === false) {
    fail(
      "signature_invalid",
      "The signature over the signed attributes does not verify with the signer's certificate.",
    );
  }
  return out;
}
