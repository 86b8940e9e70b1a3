/**
 * Gathering the validation data a long-term signature needs (PAdES B-LT): for every
 * certificate of the given chains up to, not including, the self-signed root, a status from
 * its OCSP responder (first) or its CRL distribution point; for a delegated OCSP responder
 * without id-pkix-ocsp-nocheck, the responder's own status too. Chains are completed from
 * the certificates at hand and, when an issuer is missing, from AIA caIssuers addresses.
 */
import { LIMITS } from "../../limits";
import {
  type ParsedCertificate,
  isSelfIssued,
  namesEqual,
  summarizeCertificate,
  tryParseCertificate,
} from "../verify/certificate";
import { verifyCertificateSignature } from "../verify/signature";
import { hashSync } from "../verify/algorithms";
import { CrlError, parseCrl } from "./crl";
import { type RevocationFetcher, RevocationFetchError } from "./fetch";
import { OcspError, encodeOcspRequest, parseOcspResponse } from "./ocsp";
import { revocationPointers } from "./pointers";
import { type RevocationFinding, decisiveFinding, findingsFor } from "./status";
import { toHex } from "../../util/bytes";

const MAX_DEPTH = 8;

export interface CertificateStatus {
  certificate: ParsedCertificate;
  issuer: ParsedCertificate;
  finding: RevocationFinding;
}

export interface CollectedValidationData {
  /** Every certificate of the chains, and delegated responders' (DER, no duplicates). */
  certificates: Uint8Array[];
  /** DER OCSPResponses and CRLs that were used (no duplicates). */
  ocsps: Uint8Array[];
  crls: Uint8Array[];
  statuses: CertificateStatus[];
  /** Certificates for which no status could be obtained, each with why. */
  missing: { subject: string; why: string }[];
}

/** Orders `pool` into a path from `leaf` up to a self-issued certificate (or as far as issuers are found). */
export async function completeChain(
  leaf: ParsedCertificate,
  pool: readonly ParsedCertificate[],
  fetcher?: RevocationFetcher,
): Promise<ParsedCertificate[]> {
  const path = [leaf];
  const candidates = [...pool];
  while (path.length < MAX_DEPTH) {
    const cert = path[path.length - 1]!;
    if (isSelfIssued(cert)) break;
    let issuer: ParsedCertificate | null = null;
    for (const cand of candidates) {
      if (path.some((p) => p.sha256 === cand.sha256) || !namesEqual(cand.subjectDer, cert.issuerDer)) continue;
      if (
        (await verifyCertificateSignature(cert.tbs, cert.signatureAlgorithm, cert.signatureValue, cand.spki)).valid ===
        true
      ) {
        issuer = cand;
        break;
      }
    }
    if (!issuer && fetcher) {
      for (const url of revocationPointers(cert).caIssuers.slice(0, 2)) {
        try {
          const fetched = await tryParseCertificate(await fetcher.get(url, 64 * 1024));
          if (
            fetched &&
            (await verifyCertificateSignature(cert.tbs, cert.signatureAlgorithm, cert.signatureValue, fetched.spki))
              .valid === true
          ) {
            issuer = fetched;
            candidates.push(fetched);
            break;
          }
        } catch (err) {
          if (!(err instanceof RevocationFetchError)) throw err;
        }
      }
    }
    if (!issuer) break;
    path.push(issuer);
  }
  return path;
}

function uniquePush(list: Uint8Array[], seen: Set<string>, der: Uint8Array): void {
  // By content: two OCSP responses of one responder share their head and their tail (its certificate).
  const key = toHex(hashSync("SHA-256", der));
  if (seen.has(key)) return;
  seen.add(key);
  list.push(der);
}

/** Fetches a status for `cert`: its OCSP responders first, then its CRLs. */
export async function fetchStatus(
  cert: ParsedCertificate,
  issuer: ParsedCertificate,
  fetcher: RevocationFetcher,
): Promise<{ finding: RevocationFinding | null; why: string }> {
  const pointers = revocationPointers(cert);
  const errors: string[] = [];
  for (const url of pointers.ocsp) {
    try {
      const nonce = crypto.getRandomValues(new Uint8Array(16));
      const body = await fetcher.ocsp(url, await encodeOcspRequest(cert, issuer, nonce));
      const response = await parseOcspResponse(body);
      const findings = (await findingsFor(cert, issuer, [{ kind: "ocsp", response, origin: "ocsp" }])).filter(
        (f) => f.verified,
      );
      if (findings.length && findings[0]!.status !== "unknown") return { finding: decisiveFinding(findings), why: "" };
      errors.push(
        findings.length
          ? "the OCSP responder does not know the certificate"
          : "the OCSP response does not verify or does not name the certificate",
      );
    } catch (err) {
      if (!(err instanceof RevocationFetchError || err instanceof OcspError)) throw err;
      errors.push(err.message);
    }
  }
  for (const url of pointers.crl) {
    try {
      const crl = parseCrl(await fetcher.get(url, LIMITS.revocation.maxCrlBytes));
      const findings = (await findingsFor(cert, issuer, [{ kind: "crl", crl, origin: "crl" }])).filter(
        (f) => f.verified,
      );
      if (findings.length) return { finding: decisiveFinding(findings), why: "" };
      errors.push("the CRL is not signed by the certificate's issuer");
    } catch (err) {
      if (!(err instanceof RevocationFetchError || err instanceof CrlError)) throw err;
      errors.push(err.message);
    }
  }
  if (!pointers.ocsp.length && !pointers.crl.length)
    errors.push("the certificate names no OCSP responder and no CRL distribution point");
  return { finding: null, why: errors.join("; ") };
}

export async function collectValidationData(
  chains: readonly ParsedCertificate[][],
  fetcher: RevocationFetcher,
): Promise<CollectedValidationData> {
  const out: CollectedValidationData = { certificates: [], ocsps: [], crls: [], statuses: [], missing: [] };
  const seen = { certs: new Set<string>(), ocsps: new Set<string>(), crls: new Set<string>() };
  const checked = new Set<string>();
  const work: [ParsedCertificate, ParsedCertificate | null][] = [];
  for (const chain of chains) {
    chain.forEach((cert, i) => {
      uniquePush(out.certificates, seen.certs, cert.der);
      if (!isSelfIssued(cert)) work.push([cert, chain[i + 1] ?? null]);
    });
  }
  for (let k = 0; k < work.length && k < LIMITS.revocation.maxCertificates; k++) {
    const [cert, issuer] = work[k]!;
    if (checked.has(cert.sha256)) continue;
    checked.add(cert.sha256);
    const subject = summarizeCertificate(cert).subject;
    if (!issuer) {
      out.missing.push({ subject, why: "its issuer's certificate is not available" });
      continue;
    }
    if (revocationPointers(cert).ocspNoCheck) continue;
    const { finding, why } = await fetchStatus(cert, issuer, fetcher);
    if (!finding) {
      out.missing.push({ subject, why });
      continue;
    }
    out.statuses.push({ certificate: cert, issuer, finding });
    const item = finding.item!;
    if (item.kind === "ocsp") uniquePush(out.ocsps, seen.ocsps, item.response.der);
    else uniquePush(out.crls, seen.crls, item.crl.der);
    if (finding.responder) {
      uniquePush(out.certificates, seen.certs, finding.responder.der);
      work.push([finding.responder, issuer]);
    }
  }
  return out;
}
