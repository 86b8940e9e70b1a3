/**
 * What the available revocation data says about one certificate: every OCSP response and
 * CRL that speaks for it (right issuer, verifying signature, authorised responder), reduced
 * to one finding. A revoked finding wins (earliest revocation time); otherwise the good
 * finding with the latest thisUpdate; an OCSP `unknown` only when nothing else speaks.
 */
import { LIMITS } from "../../limits";
import { type ParsedCertificate, namesEqual } from "../verify/certificate";
import { type Crl, crlIssuedBy, findCrlEntry } from "./crl";
import { type CertStatus, type OcspResponse, findSingleResponse, verifyOcspSigner } from "./ocsp";

/** Where revocation data came from: the PDF's DSS, the CMS (signature or time-stamp), or fetched now. */
export type RevocationOrigin = "dss" | "cms" | "ocsp" | "crl";

export type RevocationItem =
  | { kind: "ocsp"; response: OcspResponse; origin: RevocationOrigin }
  | { kind: "crl"; crl: Crl; origin: RevocationOrigin };

export interface RevocationFinding {
  status: CertStatus;
  source: RevocationOrigin | "none";
  kind: "ocsp" | "crl" | null;
  thisUpdate: Date | null;
  nextUpdate: Date | null;
  /** OCSP producedAt. */
  producedAt: Date | null;
  revocationTime: Date | null;
  reason: number | null;
  /** The delegated OCSP responder's certificate, when one signed the finding (its own status may need checking). */
  responder: ParsedCertificate | null;
  /** The raw item (for the DSS and VRI entries a signer writes). */
  item: RevocationItem | null;
  /**
   * Signed by the certificate's issuer or a responder it authorised (RFC 6960 4.2.2.2). Data
   * that names the certificate but fails this still counts as present for PAdES levels (a
   * format question), never for its status.
   */
  verified: boolean;
}

export const NO_FINDING: RevocationFinding = {
  status: "unknown",
  source: "none",
  kind: null,
  thisUpdate: null,
  nextUpdate: null,
  producedAt: null,
  revocationTime: null,
  reason: null,
  responder: null,
  item: null,
  verified: false,
};

/** Signature checks left for one document's revocation data (a hostile file may carry many items that name one certificate). */
export class CheckBudget {
  constructor(private left: number = LIMITS.revocation.maxSignatureChecks) {}
  take(): boolean {
    return this.left-- > 0;
  }
}

/** Every finding the items give for `cert` (issued by `issuer`); past the budget, findings stay unverified. */
export async function findingsFor(
  cert: ParsedCertificate,
  issuer: ParsedCertificate,
  items: readonly RevocationItem[],
  pool: readonly ParsedCertificate[] = [],
  budget: CheckBudget = new CheckBudget(),
): Promise<RevocationFinding[]> {
  const out: RevocationFinding[] = [];
  for (const item of items) {
    if (item.kind === "ocsp") {
      const single = await findSingleResponse(item.response, cert, issuer);
      if (!single) continue;
      const signer = budget.take()
        ? await verifyOcspSigner(item.response, issuer, pool)
        : { valid: false, responder: null };
      out.push({
        status: single.status,
        source: item.origin,
        kind: "ocsp",
        thisUpdate: single.thisUpdate,
        nextUpdate: single.nextUpdate,
        producedAt: item.response.producedAt,
        revocationTime: single.revocationTime,
        reason: single.reason,
        responder: signer.responder === issuer ? null : signer.responder,
        item,
        verified: signer.valid,
      });
    } else {
      if (!namesEqual(item.crl.issuerDer, issuer.subjectDer)) continue;
      const verified = budget.take() && (await crlIssuedBy(item.crl, issuer));
      // A CRL speaks only for certificates it could list: those issued before its thisUpdate.
      const entry = findCrlEntry(item.crl, cert.serialNumber);
      out.push({
        status: entry ? "revoked" : "good",
        source: item.origin,
        kind: "crl",
        thisUpdate: item.crl.thisUpdate,
        nextUpdate: item.crl.nextUpdate,
        producedAt: null,
        revocationTime: entry?.revocationTime ?? null,
        reason: entry?.reason ?? null,
        responder: null,
        item,
        verified,
      });
    }
  }
  return out;
}

/** One finding from the verified ones (see the module comment). */
export function decisiveFinding(all: readonly RevocationFinding[]): RevocationFinding {
  const findings = all.filter((f) => f.verified);
  const revoked = findings.filter((f) => f.status === "revoked");
  if (revoked.length)
    return revoked.reduce((a, b) => ((b.revocationTime?.getTime() ?? 0) < (a.revocationTime?.getTime() ?? 0) ? b : a));
  const good = findings.filter((f) => f.status === "good");
  if (good.length)
    return good.reduce((a, b) => ((b.thisUpdate?.getTime() ?? 0) > (a.thisUpdate?.getTime() ?? 0) ? b : a));
  return findings[0] ?? NO_FINDING;
}
