/**
 * Evidence: the audit-trail certificate page(s) appended before signing.
 * `loadCertificateFonts` lives in ./fonts (it imports the bundled TTF files).
 */
export { renderCertificatePages, formatUtc, describeLine } from "./certificate-page";
export type { CertificateFonts, CertificatePageInput } from "./types";
export { collapseAuditTrail, parseTimestamp, fieldOf, NEVER_COLLAPSED_TYPES } from "./collapse";
export type { AuditEntry, AuditLine } from "./collapse";
export { encodeQr, QR_MAX_BYTES } from "./qr";
