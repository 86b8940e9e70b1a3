import type { CmsVerification, VerifyCmsOptions } from "../../cms/verify";

/**
 * The PDF side's view of the CMS verifier (`src/cms/verify`): it takes the
 * verifier as a parameter (default `verifyCmsSignature`), so the PDF rules are
 * testable on their own and the CMS rules stay in one place.
 */
export type CmsVerifier = (options: VerifyCmsOptions) => Promise<CmsVerification>;
export type { CmsVerification };

/** SubFilters whose /Contents the CMS verifier reads (adbe.x509.rsa_sha1 it reports as unsupported). */
export const KNOWN_SUB_FILTERS = new Set([
  "adbe.pkcs7.detached",
  "ETSI.CAdES.detached",
  "adbe.pkcs7.sha1",
  "ETSI.RFC3161",
  "adbe.x509.rsa_sha1",
]);
