/**
 * ETSI EN 319 102-1 validation status of one signature or time-stamp: the main indication
 * (TOTAL_PASSED, TOTAL_FAILED, INDETERMINATE) and its sub-indication, following the
 * validation process for basic signatures (5.3), then with time and long-term validation
 * material (5.5): the best-signature-time is the earliest proof of existence (a valid
 * signature time-stamp, or a valid document time-stamp over the signature), and a
 * certificate revoked or expired after it does not make the signature fail.
 *
 * Decided here (where the standard leaves it to a validation policy), as EU DSS's default
 * policy does: revocation data are needed for every certificate of the signer's path below
 * the trust anchor; a good status counts when it was still current at the best-signature-
 * time (its nextUpdate not before it); without such data the answer is INDETERMINATE /
 * TRY_LATER. FAILED/REVOKED needs a content time-stamp after the revocation, which PAdES
 * signatures do not carry, so it does not arise here.
 */
import { type ParsedCertificate, validAt } from "./certificate";
import type { CertificateRevocation } from "./revocation";

export type Indication = "TOTAL_PASSED" | "TOTAL_FAILED" | "INDETERMINATE";
export type SubIndication =
  | "FORMAT_FAILURE"
  | "HASH_FAILURE"
  | "SIG_CRYPTO_FAILURE"
  | "NO_SIGNING_CERTIFICATE_FOUND"
  | "NO_CERTIFICATE_CHAIN_FOUND"
  | "CHAIN_CONSTRAINTS_FAILURE"
  | "CRYPTO_CONSTRAINTS_FAILURE"
  | "CRYPTO_CONSTRAINTS_FAILURE_NO_POE"
  | "REVOKED_NO_POE"
  | "REVOKED_CA_NO_POE"
  | "OUT_OF_BOUNDS_NO_POE"
  | "OUT_OF_BOUNDS_NOT_REVOKED"
  | "NOT_YET_VALID"
  | "TRY_LATER";

export interface ValidationStatus {
  indication: Indication;
  subIndication: SubIndication | null;
}

export interface IndicationFacts {
  /** The PDF signature and its CMS are well-formed (byte range, /Contents, SubFilter, CMS syntax). */
  wellFormed: boolean;
  /** Later revisions changed only what the signature allows. */
  modificationsAllowed: boolean;
  signer: ParsedCertificate | null;
  /** The signing-certificate attribute names another certificate. */
  signingCertificateMismatch: boolean;
  intact: boolean | null;
  signatureValid: boolean | null;
  /** A hash too weak to protect the signature (MD5, SHA-1) is used. */
  weakAlgorithm: boolean;
  /** A path to a trust anchor was found. */
  anchored: boolean;
  /** The path breaks a CA rule (basicConstraints, keyUsage, path length, critical extensions). */
  chainConstraintProblem: boolean;
  /** Revocation findings for the signer's path, leaf first. */
  revocation: readonly CertificateRevocation[];
  /** The earliest proof of existence, null when there is none (then `now` is used). */
  bestSignatureTime: Date | null;
  now: Date;
}

const result = (indication: Indication, subIndication: SubIndication | null = null): ValidationStatus => ({
  indication,
  subIndication,
});

export function etsiIndication(f: IndicationFacts): ValidationStatus {
  // 5.3 Basic signature: format, signer identification, cryptographic verification.
  if (!f.wellFormed) return result("TOTAL_FAILED", "FORMAT_FAILURE");
  if (!f.signer || f.signingCertificateMismatch) return result("INDETERMINATE", "NO_SIGNING_CERTIFICATE_FOUND");
  if (f.intact === false) return result("TOTAL_FAILED", "HASH_FAILURE");
  if (f.signatureValid === false) return result("TOTAL_FAILED", "SIG_CRYPTO_FAILURE");
  // A signature value that cannot be verified (an algorithm the validator does not implement) fails, as in EU DSS.
  if (f.signatureValid === null) return result("TOTAL_FAILED", "SIG_CRYPTO_FAILURE");
  if (f.intact === null) return result("INDETERMINATE", "CRYPTO_CONSTRAINTS_FAILURE");
  if (!f.modificationsAllowed) return result("TOTAL_FAILED", "FORMAT_FAILURE");
  // X.509 validation.
  if (!f.anchored) return result("INDETERMINATE", "NO_CERTIFICATE_CHAIN_FOUND");
  if (f.chainConstraintProblem) return result("INDETERMINATE", "CHAIN_CONSTRAINTS_FAILURE");

  // 5.5: times against the best-signature-time.
  const best = f.bestSignatureTime ?? f.now;
  const signer = f.signer;
  if (best.getTime() < signer.notBefore.getTime()) return result("TOTAL_FAILED", "NOT_YET_VALID");
  for (const r of f.revocation) {
    if (r.finding.status !== "revoked") continue;
    const at = r.finding.revocationTime;
    if (!at || at.getTime() <= best.getTime() || !validAt(r.certificate, best)) {
      return result("INDETERMINATE", r.certificate === signer ? "REVOKED_NO_POE" : "REVOKED_CA_NO_POE");
    }
  }
  if (f.weakAlgorithm) return result("INDETERMINATE", "CRYPTO_CONSTRAINTS_FAILURE_NO_POE");
  for (const r of f.revocation) {
    if (validAt(r.certificate, best)) continue;
    // Expired before the proof of existence: status data issued after expiry still saying "good" is all that is known.
    const after =
      r.finding.status === "good" &&
      r.finding.thisUpdate &&
      r.finding.thisUpdate.getTime() > r.certificate.notAfter.getTime();
    return result("INDETERMINATE", after ? "OUT_OF_BOUNDS_NOT_REVOKED" : "OUT_OF_BOUNDS_NO_POE");
  }
  for (const r of f.revocation) {
    if (r.noCheck || r.finding.status === "revoked") continue;
    const current =
      r.finding.status === "good" && (!r.finding.nextUpdate || r.finding.nextUpdate.getTime() >= best.getTime());
    if (!current) return result("INDETERMINATE", "TRY_LATER");
  }
  return result("TOTAL_PASSED");
}
