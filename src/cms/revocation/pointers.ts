/**
 * Where a certificate says its revocation status and its issuer can be found (RFC 5280
 * 4.2.2.1 authorityInfoAccess, 4.2.1.13 cRLDistributionPoints) and whether it needs no
 * revocation check at all (RFC 6960 4.2.2.2.1 id-pkix-ocsp-nocheck, on delegated OCSP
 * responder certificates). Read from the TBSCertificate the verifier already parsed.
 */
import { BerError, type BerNode, CLASS, U, expectUniversal, parseBer, readOctets, readOid } from "../verify/ber";
import type { ParsedCertificate } from "../verify/certificate";

export const REVOCATION_OID = {
  authorityInfoAccess: "1.3.6.1.5.5.7.1.1",
  crlDistributionPoints: "2.5.29.31",
  ocspNoCheck: "1.3.6.1.5.5.7.48.1.5",
  adOcsp: "1.3.6.1.5.5.7.48.1",
  adCaIssuers: "1.3.6.1.5.5.7.48.2",
  ocspBasic: "1.3.6.1.5.5.7.48.1.1",
  ocspNonce: "1.3.6.1.5.5.7.48.1.2",
  kpOcspSigning: "1.3.6.1.5.5.7.3.9",
  crlReason: "2.5.29.21",
  /** Adobe's signed attribute carrying CRLs and OCSP responses inside the CMS. */
  adbeRevocationInfoArchival: "1.2.840.113583.1.1.8",
} as const;

export interface RevocationPointers {
  /** http(s) OCSP responder addresses (AIA id-ad-ocsp), in the certificate's order. */
  ocsp: string[];
  /** http(s) CRL addresses (full names of the distribution points). */
  crl: string[];
  /** http(s) addresses of the issuer's certificate (AIA id-ad-caIssuers). */
  caIssuers: string[];
  /** The certificate carries id-pkix-ocsp-nocheck. */
  ocspNoCheck: boolean;
}

const MAX_POINTERS = 8;

function uris(generalNames: BerNode[]): string[] {
  const out: string[] = [];
  for (const n of generalNames) {
    // uniformResourceIdentifier [6] IA5String
    if (!n.is(CLASS.CONTEXT, 6) || n.constructed) continue;
    let s = "";
    for (const b of n.content) s += String.fromCharCode(b);
    if (/^https?:\/\//i.test(s) && s.length <= 2048) out.push(s);
  }
  return out;
}

/** The certificate's extensions as (oid, value node) pairs; empty when it has none. */
function extensions(cert: ParsedCertificate): { id: string; value: BerNode }[] {
  const tbs = parseBer(cert.tbs);
  const ext = tbs.children.find((c) => c.isContext(3));
  if (!ext) return [];
  const out: { id: string; value: BerNode }[] = [];
  for (const e of expectUniversal(ext.child(0), U.SEQUENCE, "Extensions").children) {
    const parts = e.children;
    const id = readOid(parts[0], "extension id");
    const valueNode = parts[1]?.isUniversal(U.BOOLEAN) ? parts[2] : parts[1];
    try {
      out.push({ id, value: parseBer(readOctets(valueNode, "extension value")) });
    } catch (err) {
      if (!(err instanceof BerError)) throw err;
    }
  }
  return out;
}

export function revocationPointers(cert: ParsedCertificate): RevocationPointers {
  const out: RevocationPointers = { ocsp: [], crl: [], caIssuers: [], ocspNoCheck: false };
  let exts: { id: string; value: BerNode }[];
  try {
    exts = extensions(cert);
  } catch (err) {
    if (err instanceof BerError) return out;
    throw err;
  }
  for (const { id, value } of exts) {
    try {
      if (id === REVOCATION_OID.ocspNoCheck) out.ocspNoCheck = true;
      if (id === REVOCATION_OID.authorityInfoAccess) {
        for (const ad of value.children) {
          const method = readOid(ad.child(0), "accessMethod");
          const location = ad.child(1);
          if (!location) continue;
          if (method === REVOCATION_OID.adOcsp) out.ocsp.push(...uris([location]));
          if (method === REVOCATION_OID.adCaIssuers) out.caIssuers.push(...uris([location]));
        }
      }
      if (id === REVOCATION_OID.crlDistributionPoints) {
        for (const dp of value.children) {
          // DistributionPoint { distributionPoint [0] { fullName [0] GeneralNames } ... }; CRLs with
          // a cRLIssuer (indirect CRLs) are not used.
          if (dp.children.some((c) => c.isContext(2))) continue;
          const point = dp.children.find((c) => c.isContext(0));
          const fullName = point?.children.find((c) => c.isContext(0));
          if (fullName) out.crl.push(...uris(fullName.children));
        }
      }
    } catch (err) {
      if (!(err instanceof BerError)) throw err;
    }
  }
  out.ocsp = out.ocsp.slice(0, MAX_POINTERS);
  out.crl = out.crl.slice(0, MAX_POINTERS);
  out.caIssuers = out.caIssuers.slice(0, MAX_POINTERS);
  return out;
}
