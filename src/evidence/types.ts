import type { AuditEntry } from "./collapse";

export type { AuditEntry };

export interface CertificatePageInput {
  signer: { name: string; email: string; ip?: string; userAgent?: string };
  eventId: string;
  /** Printed in UTC as "2026-11-21 10:00:00 UTC". */
  signedAt: Date;
  /** Hex SHA-256 of the document as received. */
  documentSha256: string;
  documentPages?: number;
  certificate: { subject: string; issuer: string; sha256: string };
  auditTrail: AuditEntry[];
  /** What the QR code carries: the verification address, the evidence reference, or the document SHA-256. At most 213 UTF-8 bytes. */
  qrPayload: string;
  /** Printed in words beside the QR code when present. */
  reference?: string | null;
  level: "B-B" | "B-T" | "B-LT" | "B-LTA";
}

/** TrueType font files (bytes). `mono` is used for hashes and ids; the regular font stands in when absent. */
export interface CertificateFonts {
  regular: Uint8Array;
  bold: Uint8Array;
  mono?: Uint8Array;
}
