/**
 * Revocation status of every certificate of a certification path (leaf first): from the
 * revocation data the document carries (its DSS, the signature's and time-stamps' CMS) and,
 * when a fetcher is given, from the certificates' OCSP responders and CRL addresses now.
 * Trust anchors and self-issued roots are not looked up (nothing can revoke them).
 */
import { fetchStatus } from "../revocation/collect";
import type { RevocationFetcher } from "../revocation/fetch";
import { revocationPointers } from "../revocation/pointers";
import {
  type CheckBudget,
  NO_FINDING,
  type RevocationFinding,
  type RevocationItem,
  decisiveFinding,
  findingsFor,
} from "../revocation/status";
import { type ParsedCertificate, isSelfIssued } from "./certificate";

export interface CertificateRevocation {
  certificate: ParsedCertificate;
  /** Which chain: the signer's, or a time-stamp authority's. */
  chain: "signer" | "timestamp";
  /** The decisive finding (NO_FINDING when nothing speaks for the certificate). */
  finding: RevocationFinding;
  /** Findings from the document itself (DSS, CMS): what its PAdES level rests on. */
  embedded: RevocationFinding[];
  /** A delegated OCSP responder certificate with id-pkix-ocsp-nocheck: needs no status. */
  noCheck: boolean;
}

export interface ChainRevocationOptions {
  items: readonly RevocationItem[];
  /** Certificates that may have signed OCSP responses (delegated responders). */
  pool: readonly ParsedCertificate[];
  anchors: readonly ParsedCertificate[];
  /** Ask the certificates' responders now (VERIFY_ONLINE_REVOCATION). */
  online?: RevocationFetcher;
  /** Signature checks on revocation data, shared by the whole document. */
  budget: CheckBudget;
}

export async function chainRevocation(
  path: readonly ParsedCertificate[],
  chain: "signer" | "timestamp",
  opts: ChainRevocationOptions,
): Promise<CertificateRevocation[]> {
  const out: CertificateRevocation[] = [];
  for (let i = 0; i < path.length; i++) {
    const cert = path[i]!;
    if (isSelfIssued(cert) || opts.anchors.some((a) => a.sha256 === cert.sha256)) break;
    const issuer = path[i + 1];
    const noCheck = revocationPointers(cert).ocspNoCheck;
    if (!issuer) {
      out.push({ certificate: cert, chain, finding: NO_FINDING, embedded: [], noCheck });
      continue;
    }
    const embedded = await findingsFor(cert, issuer, opts.items, opts.pool, opts.budget);
    const all = [...embedded];
    if (opts.online && !noCheck) {
      const fetched = await fetchStatus(cert, issuer, opts.online);
      if (fetched.finding) all.push(fetched.finding);
    }
    out.push({ certificate: cert, chain, finding: decisiveFinding(all), embedded, noCheck });
  }
  return out;
}
