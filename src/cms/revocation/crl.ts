/**
 * Certificate revocation lists (RFC 5280 5): read, matched to an issuer, signature checked,
 * and searched for one serial number. Delta CRLs and indirect CRLs (entries for other
 * issuers) are not used: a CRL counts for a certificate only when its issuer is the
 * certificate's issuer and it verifies with that issuer's key.
 */
import {
  BerError,
  type BerNode,
  U,
  expectUniversal,
  parseBer,
  readBitString,
  readOid,
  readTime,
  readUnsigned,
} from "../verify/ber";
import { type ParsedCertificate, namesEqual } from "../verify/certificate";
import { verifyCertificateSignature } from "../verify/signature";
import { REVOCATION_OID } from "./pointers";
import { bytesEqual } from "../../util/bytes";

export interface Crl {
  der: Uint8Array;
  issuerDer: Uint8Array;
  thisUpdate: Date;
  nextUpdate: Date | null;
  tbs: Uint8Array;
  signatureAlgorithm: BerNode;
  signature: Uint8Array;
  /** The revokedCertificates SEQUENCE (read lazily), or null when nothing is revoked. */
  revoked: BerNode | null;
}

export interface CrlEntry {
  revocationTime: Date;
  reason: number | null;
}

export class CrlError extends Error {}

/** CRLs hold one node per entry and field: allow large ones, still bounded. */
const CRL_LIMITS = { maxDepth: 32, maxNodes: 2_000_000 };

export function parseCrl(der: Uint8Array): Crl {
  try {
    const root = expectUniversal(parseBer(der, 0, CRL_LIMITS), U.SEQUENCE, "CertificateList");
    const [tbsNode, sigAlg, sigValue] = root.children;
    const tbs = expectUniversal(tbsNode, U.SEQUENCE, "TBSCertList");
    const f = tbs.children;
    let i = f[0]?.isUniversal(U.INTEGER) ? 1 : 0;
    expectUniversal(f[i++], U.SEQUENCE, "signature");
    const issuer = expectUniversal(f[i++], U.SEQUENCE, "issuer");
    const thisUpdate = readTime(f[i++], "thisUpdate");
    let nextUpdate: Date | null = null;
    if (f[i] && (f[i]!.isUniversal(U.UTC_TIME) || f[i]!.isUniversal(U.GENERALIZED_TIME)))
      nextUpdate = readTime(f[i++], "nextUpdate");
    const revoked = f[i]?.isUniversal(U.SEQUENCE) ? f[i]! : null;
    return {
      der,
      issuerDer: issuer.bytes,
      thisUpdate,
      nextUpdate,
      tbs: tbs.bytes,
      signatureAlgorithm: expectUniversal(sigAlg, U.SEQUENCE, "signatureAlgorithm"),
      signature: readBitString(sigValue, "signatureValue").bytes,
      revoked,
    };
  } catch (err) {
    if (err instanceof BerError || err instanceof RangeError)
      throw new CrlError(`the CRL is malformed (${err.message})`);
    throw err;
  }
}

/** The CRL's entry for a serial number, or null when the serial is not listed. */
export function findCrlEntry(crl: Crl, serial: Uint8Array): CrlEntry | null {
  if (!crl.revoked) return null;
  try {
    for (const entry of crl.revoked.children) {
      const [serialNode, dateNode, exts] = entry.children;
      if (!bytesEqual(readUnsigned(serialNode, "userCertificate"), serial)) continue;
      let reason: number | null = null;
      if (exts?.isUniversal(U.SEQUENCE)) {
        for (const ext of exts.children) {
          if (readOid(ext.child(0)) !== REVOCATION_OID.crlReason) continue;
          const value = parseBer(ext.children[ext.children.length - 1]!.content);
          if (value.isUniversal(U.ENUMERATED) && value.content.length === 1) reason = value.content[0]!;
        }
      }
      // removeFromCRL (8) only appears in delta CRLs: the certificate is not revoked.
      if (reason === 8) return null;
      return { revocationTime: readTime(dateNode, "revocationDate"), reason };
    }
    return null;
  } catch (err) {
    if (err instanceof BerError || err instanceof RangeError)
      throw new CrlError(`the CRL is malformed (${err.message})`);
    throw err;
  }
}

/** True when `issuer` issued the CRL (same name, signature verifies, may sign CRLs). */
export async function crlIssuedBy(crl: Crl, issuer: ParsedCertificate): Promise<boolean> {
  if (!namesEqual(crl.issuerDer, issuer.subjectDer)) return false;
  if (issuer.keyUsage && !issuer.keyUsage[6]) return false; // cRLSign
  const check = await verifyCertificateSignature(crl.tbs, crl.signatureAlgorithm, crl.signature, issuer.spki);
  return check.valid === true;
}
