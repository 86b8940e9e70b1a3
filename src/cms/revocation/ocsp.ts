/**
 * OCSP (RFC 6960): requests for one certificate, and responses read, matched and checked.
 *
 * - Requests name the certificate by a SHA-1 CertID (what RFC 5019 responders index by)
 *   and carry a nonce; they are unsigned.
 * - A response counts only when it is `successful`, of type id-pkix-ocsp-basic, and signed
 *   either by the issuing CA itself or by a responder certificate that the CA issued with
 *   id-kp-OCSPSigning (RFC 6960 4.2.2.2). Everything is bounded by the BER reader's budget.
 */
import { algorithmIdentifier, explicit, nullValue, octetString, oid, sequence, tlv, unsignedInteger } from "../der";
import { OID } from "../oids";
import { type DigestName, hashBytes } from "../verify/algorithms";
import {
  BerError,
  type BerNode,
  CLASS,
  U,
  expectNode,
  expectUniversal,
  parseBer,
  readBitString,
  readOctets,
  readOid,
  readTime,
  readUnsigned,
} from "../verify/ber";
import { type ParsedCertificate, namesEqual, tryParseCertificate } from "../verify/certificate";
import { digestFromAlgorithm, verifyCertificateSignature } from "../verify/signature";
import { LIMITS } from "../../limits";
import { REVOCATION_OID } from "./pointers";
import { bytesEqual } from "../../util/bytes";

export type CertStatus = "good" | "revoked" | "unknown";

export interface SingleResponse {
  hash: DigestName | null;
  issuerNameHash: Uint8Array;
  issuerKeyHash: Uint8Array;
  serial: Uint8Array;
  status: CertStatus;
  revocationTime: Date | null;
  /** CRLReason code, when given. */
  reason: number | null;
  thisUpdate: Date;
  nextUpdate: Date | null;
}

export interface OcspResponse {
  /** The whole OCSPResponse as received (what DSS /OCSPs and the CMS archival attribute hold). */
  der: Uint8Array;
  producedAt: Date;
  responderName: Uint8Array | null;
  responderKeyHash: Uint8Array | null;
  tbs: Uint8Array;
  signatureAlgorithm: BerNode;
  signature: Uint8Array;
  certificates: ParsedCertificate[];
  responses: SingleResponse[];
  nonce: Uint8Array | null;
}

export class OcspError extends Error {}

const STATUS_TEXT = [
  "successful",
  "malformedRequest",
  "internalError",
  "tryLater",
  "(unused)",
  "sigRequired",
  "unauthorized",
];
const MAX_RESPONSES = 64;
const MAX_CERTIFICATES = 8;

/** SHA-1 of the issuer's name and of its public key (the BIT STRING's value), as CertID wants. */
async function issuerHashes(
  issuer: ParsedCertificate,
  hash: DigestName,
): Promise<{ name: Uint8Array; key: Uint8Array }> {
  const key = readBitString(issuer.spki.child(1), "subjectPublicKey").bytes;
  return { name: await hashBytes(hash, issuer.subjectDer), key: await hashBytes(hash, key) };
}

/** A DER OCSPRequest for one certificate (SHA-1 CertID) with an id-pkix-ocsp-nonce extension. */
export async function encodeOcspRequest(
  cert: ParsedCertificate,
  issuer: ParsedCertificate,
  nonce: Uint8Array,
): Promise<Uint8Array> {
  const h = await issuerHashes(issuer, "SHA-1");
  const certId = sequence(
    algorithmIdentifier(OID.sha1, nullValue()),
    octetString(h.name),
    octetString(h.key),
    unsignedInteger(cert.serialNumber),
  );
  const nonceExtension = sequence(oid(REVOCATION_OID.ocspNonce), octetString(octetString(nonce)));
  const tbsRequest = sequence(sequence(sequence(certId)), explicit(2, sequence(nonceExtension)));
  return sequence(tbsRequest);
}

function readSingleResponse(node: BerNode): SingleResponse {
  const [certId, statusNode, thisUpdate, ...rest] = node.children;
  const id = expectUniversal(certId, U.SEQUENCE, "CertID").children;
  let status: CertStatus;
  let revocationTime: Date | null = null;
  let reason: number | null = null;
  if (statusNode?.is(CLASS.CONTEXT, 0)) status = "good";
  else if (statusNode?.is(CLASS.CONTEXT, 1)) {
    status = "revoked";
    const info = statusNode.children; // [1] IMPLICIT RevokedInfo
    revocationTime = readTime(info[0], "revocationTime");
    const r = info[1]?.isContext(0) ? info[1].child(0) : undefined;
    if (r?.isUniversal(U.ENUMERATED) && r.content.length === 1) reason = r.content[0]!;
  } else if (statusNode?.is(CLASS.CONTEXT, 2)) status = "unknown";
  else throw new BerError("expected a CertStatus");
  const next = rest.find((n) => n.isContext(0));
  return {
    hash: digestFromAlgorithm(expectUniversal(id[0], U.SEQUENCE, "hashAlgorithm")),
    issuerNameHash: readOctets(id[1], "issuerNameHash"),
    issuerKeyHash: readOctets(id[2], "issuerKeyHash"),
    serial: readUnsigned(id[3], "serialNumber"),
    status,
    revocationTime,
    reason,
    thisUpdate: readTime(thisUpdate, "thisUpdate"),
    nextUpdate: next ? readTime(next.child(0), "nextUpdate") : null,
  };
}

/** Reads an OCSPResponse; throws OcspError when it is not a successful basic response. */
export async function parseOcspResponse(der: Uint8Array): Promise<OcspResponse> {
  try {
    const root = expectUniversal(parseBer(der), U.SEQUENCE, "OCSPResponse");
    const statusNode = expectUniversal(root.child(0), U.ENUMERATED, "responseStatus");
    const status = statusNode.content.length === 1 ? statusNode.content[0]! : -1;
    if (status !== 0) throw new OcspError(`the OCSP responder answered ${STATUS_TEXT[status] ?? `status ${status}`}`);
    const bytes = expectUniversal(
      expectNode(root.child(1), CLASS.CONTEXT, 0, "responseBytes").child(0),
      U.SEQUENCE,
      "ResponseBytes",
    );
    if (readOid(bytes.child(0)) !== REVOCATION_OID.ocspBasic)
      throw new OcspError("the OCSP response is not a basic response");
    const basic = expectUniversal(parseBer(readOctets(bytes.child(1), "response")), U.SEQUENCE, "BasicOCSPResponse");
    const [tbsNode, sigAlg, sigValue, certsNode] = basic.children;
    const tbs = expectUniversal(tbsNode, U.SEQUENCE, "ResponseData");
    const fields = tbs.children;
    let i = fields[0]?.isContext(0) ? 1 : 0;
    const responderId = fields[i++]!;
    let responderName: Uint8Array | null = null;
    let responderKeyHash: Uint8Array | null = null;
    if (responderId.isContext(1))
      responderName = expectUniversal(responderId.child(0), U.SEQUENCE, "responder Name").bytes;
    else if (responderId.isContext(2)) responderKeyHash = readOctets(responderId.child(0), "responder KeyHash");
    else throw new BerError("expected a ResponderID");
    const producedAt = readTime(fields[i++], "producedAt");
    const list = expectUniversal(fields[i++], U.SEQUENCE, "responses").children;
    if (list.length > MAX_RESPONSES) throw new OcspError(`the OCSP response holds more than ${MAX_RESPONSES} statuses`);
    let nonce: Uint8Array | null = null;
    const extNode = fields[i];
    if (extNode?.isContext(1)) {
      for (const ext of expectUniversal(extNode.child(0), U.SEQUENCE, "responseExtensions").children) {
        if (readOid(ext.child(0)) !== REVOCATION_OID.ocspNonce) continue;
        const value = readOctets(ext.children[ext.children.length - 1], "nonce");
        // RFC 8954: the nonce is an OCTET STRING inside extnValue; some responders put it bare.
        try {
          const inner = parseBer(value);
          nonce = inner.isUniversal(U.OCTET_STRING) && inner.end === value.length ? inner.content : value;
        } catch {
          nonce = value;
        }
      }
    }
    const certificates: ParsedCertificate[] = [];
    if (certsNode?.isContext(0)) {
      for (const c of expectUniversal(certsNode.child(0), U.SEQUENCE, "certs").children.slice(0, MAX_CERTIFICATES)) {
        const parsed = await tryParseCertificate(c.bytes.slice());
        if (parsed) certificates.push(parsed);
      }
    }
    return {
      der,
      producedAt,
      responderName,
      responderKeyHash,
      tbs: tbs.bytes,
      signatureAlgorithm: expectUniversal(sigAlg, U.SEQUENCE, "signatureAlgorithm"),
      signature: readBitString(sigValue, "signature").bytes,
      certificates,
      responses: list.map(readSingleResponse),
      nonce,
    };
  } catch (err) {
    if (err instanceof BerError || err instanceof RangeError)
      throw new OcspError(`the OCSP response is malformed (${err.message})`);
    throw err;
  }
}

/** The status the response gives for `cert` (issued by `issuer`), or null when it gives none. */
export async function findSingleResponse(
  resp: OcspResponse,
  cert: ParsedCertificate,
  issuer: ParsedCertificate,
): Promise<SingleResponse | null> {
  const hashes = new Map<DigestName, { name: Uint8Array; key: Uint8Array }>();
  for (const r of resp.responses) {
    if (!r.hash || !bytesEqual(r.serial, cert.serialNumber)) continue;
    let h = hashes.get(r.hash);
    if (!h) {
      h = await issuerHashes(issuer, r.hash);
      hashes.set(r.hash, h);
    }
    if (bytesEqual(h.name, r.issuerNameHash) && bytesEqual(h.key, r.issuerKeyHash)) return r;
  }
  return null;
}

export interface OcspSignerCheck {
  valid: boolean;
  /** The certificate that signed the response (the CA or its delegated responder). */
  responder: ParsedCertificate | null;
  problem: string | null;
}

async function responderMatches(resp: OcspResponse, cert: ParsedCertificate): Promise<boolean> {
  if (resp.responderName) return namesEqual(resp.responderName, cert.subjectDer);
  if (resp.responderKeyHash) return bytesEqual(resp.responderKeyHash, (await issuerHashes(cert, "SHA-1")).key);
  return false;
}

/**
 * Checks who signed the response: the issuer itself, or a responder certificate (from the
 * response or `pool`) issued by the issuer for OCSP signing; then the signature itself.
 */
export async function verifyOcspSigner(
  resp: OcspResponse,
  issuer: ParsedCertificate,
  pool: readonly ParsedCertificate[] = [],
): Promise<OcspSignerCheck> {
  let responder: ParsedCertificate | null = null;
  if (await responderMatches(resp, issuer)) responder = issuer;
  else {
    let tries = LIMITS.revocation.maxResponderCandidates;
    for (const cand of [...resp.certificates, ...pool]) {
      if (!(await responderMatches(resp, cand))) continue;
      if (!namesEqual(cand.issuerDer, issuer.subjectDer)) continue;
      if (!(cand.extKeyUsage ?? []).includes(REVOCATION_OID.kpOcspSigning)) continue;
      if (tries-- <= 0) break;
      const issued = await verifyCertificateSignature(
        cand.tbs,
        cand.signatureAlgorithm,
        cand.signatureValue,
        issuer.spki,
      );
      if (issued.valid === true) {
        responder = cand;
        break;
      }
    }
  }
  if (!responder)
    return {
      valid: false,
      responder: null,
      problem: "the OCSP response is not signed by the certificate's issuer or a responder it authorised",
    };
  const check = await verifyCertificateSignature(resp.tbs, resp.signatureAlgorithm, resp.signature, responder.spki);
  if (check.valid !== true)
    return { valid: false, responder, problem: "the OCSP response's signature does not verify" };
  return { valid: true, responder, problem: null };
}
