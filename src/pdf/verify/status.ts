import type { Indication, SubIndication } from "../../cms/verify/indication";

/**
 * The vocabulary of PDF signature verification, in one place (as pyHanko's
 * `validation/status.py`): coverage levels, modification levels, what each
 * certification level allows, problem codes, and the shapes of the report.
 * Everything else in `pdf/verify` speaks these words.
 */

// ------------------------------------------------------------------ coverage

/**
 * What a signature's byte range covers (interface.md):
 * - `entire_file`: the whole file, except this signature's own `/Contents` string;
 * - `entire_revision`: everything up to the end of one revision (later revisions follow);
 * - `partial`: a contiguous block from the start that is not a revision the document builds on;
 * - `unclear`: the byte range is malformed, leaves more than the `/Contents` string out, or cannot be checked.
 */
export const COVERAGE_LEVELS = ["entire_file", "entire_revision", "partial", "unclear"] as const;
export type Coverage = (typeof COVERAGE_LEVELS)[number];

// ------------------------------------------------------------------ modifications

/** What later revisions changed, as reported (interface.md), least to most severe. */
export const MODIFICATION_LEVELS = [
  "none",
  "signatures",
  "form_filling",
  "appended_pages",
  "annotations",
  "other",
] as const;
export type ModificationLevel = (typeof MODIFICATION_LEVELS)[number];

/**
 * The levels the difference analysis works with: the reported ones, with `signatures`
 * split in two, because certification level 1 and "after the last signature" allow only
 * the long-term-validation part of it:
 * - `lta`: DSS, document time-stamps, document metadata (reported as `signatures`);
 * - `signatures`: new signature fields and signatures.
 */
export const CHANGE_LEVELS = [
  "none",
  "lta",
  "signatures",
  "form_filling",
  "appended_pages",
  "annotations",
  "other",
] as const;
export type ChangeLevel = (typeof CHANGE_LEVELS)[number];

export function reportedLevel(level: ChangeLevel): ModificationLevel {
  return level === "lta" ? "signatures" : level;
}

export function maxLevel(a: ChangeLevel, b: ChangeLevel): ChangeLevel {
  return CHANGE_LEVELS.indexOf(a) >= CHANGE_LEVELS.indexOf(b) ? a : b;
}

/** DocMDP permission level of a certification signature (ISO 32000-2 §12.8.2.2). */
export type DocMdpLevel = 1 | 2 | 3;

/**
 * What may change after a signature (interface.md, the `valid` rule). Appended pages and
 * attached files are never allowed after a signature: ISO 32000's rules for later revisions,
 * as pyHanko and Adobe apply them, count them as changes to what was signed.
 */
export const ALLOWED_CHANGES = {
  /** Between approval signatures of a document that is not certified. */
  approval: new Set<ChangeLevel>(["none", "lta", "signatures", "form_filling"]),
  /** After the last signature of a document that is not certified: DSS and document time-stamps only. */
  afterLastSignature: new Set<ChangeLevel>(["none", "lta"]),
  /** After a certification signature, by its DocMDP level. */
  P1: new Set<ChangeLevel>(["none", "lta"]),
  P2: new Set<ChangeLevel>(["none", "lta", "signatures", "form_filling"]),
  P3: new Set<ChangeLevel>(["none", "lta", "signatures", "form_filling", "annotations"]),
} as const satisfies Record<string, ReadonlySet<ChangeLevel>>;

export function allowedAfterCertification(level: DocMdpLevel): ReadonlySet<ChangeLevel> {
  return level === 1 ? ALLOWED_CHANGES.P1 : level === 2 ? ALLOWED_CHANGES.P2 : ALLOWED_CHANGES.P3;
}

/** One change a later revision made, judged against the signed revision. */
export interface Change {
  level: ChangeLevel;
  /** A clause a person understands: "page 1 was changed", "an annotation was added to page 2". */
  what: string;
  /** Object numbers involved (for the curious; not part of the response). */
  objects: number[];
  /** The dictionary key that changed, when one did (e.g. "/Contents"). */
  detail?: string;
}

// ------------------------------------------------------------------ problems

export type Severity = "error" | "warning";

export interface Problem {
  code: string;
  message: string;
  severity: Severity;
}

/**
 * Machine codes of the problems the PDF side reports (the CMS verifier adds its own,
 * e.g. `digest_mismatch`, `signature_invalid`, `untrusted`, `weak_algorithm`,
 * `unsupported_algorithm`, `certificate_expired`).
 */
export const PDF_PROBLEM = {
  /** The signature dictionary is not one (`/Type` other than /Sig or /DocTimeStamp, or not a dictionary). */
  signatureDictionaryInvalid: "signature_dictionary_invalid",
  /** No `/Contents`. */
  contentsMissing: "contents_missing",
  /** `/Contents` is not a hexadecimal string (a literal string, a reference...). */
  contentsNotHex: "contents_not_hex",
  /** `/Contents` holds no signature (empty or all zero). */
  contentsEmpty: "contents_empty",
  /** No `/ByteRange`, or not four non-negative integers starting at 0, ordered, inside the file. */
  byteRangeInvalid: "byte_range_invalid",
  /** The gap between the two ranges is not exactly this dictionary's `/Contents` string (MuPDF's hole check). */
  byteRangeGap: "byte_range_gap_mismatch",
  /** The signature dictionary was redefined after signing (its /Contents lies outside the signed file). */
  signatureDictionaryRewritten: "signature_dictionary_rewritten",
  /** The ranges end somewhere that is not a revision the document builds on. */
  coveragePartial: "coverage_partial",
  /** A `/SubFilter` this verifier does not check (e.g. adbe.x509.rsa_sha1). */
  subFilterUnsupported: "unsupported_sub_filter",
  /** The CMS verifier could not run at all (unreadable CMS and the like). */
  cmsUnreadable: "cms_unreadable",
  /** A later revision made changes this signature does not allow. */
  modifiedAfterSigning: "modified_after_signing",
  /** Changes after the last signature that are not DSS or document time-stamps. */
  changedAfterLastSignature: "changed_after_last_signature",
  /** A certification signature that is not the first signature of the document. */
  certificationNotFirst: "certification_not_first",
  /** A field locked by this signature (FieldMDP) changed afterwards. */
  lockedFieldChanged: "locked_field_changed",
} as const;

// ------------------------------------------------------------------ report

export type SignatureKind = "signature" | "timestamp";

export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  sha256: string;
}

/** A signature time-stamp, as the CMS verifier reports it. */
export interface TimestampSummary {
  time: string;
  tsa: string | null;
  serialNumber: string;
  intact: boolean;
  signatureValid: boolean | null;
  trusted: boolean;
}

/** PAdES baseline levels (ETSI EN 319 142-1). */
export type PadesLevel = "B-B" | "B-T" | "B-LT" | "B-LTA";

/** The revocation status of one certificate of a signature's chains. */
export interface RevocationReport {
  subject: string;
  /** The signer's chain, or a time-stamp authority's. */
  chain: "signer" | "timestamp";
  status: "good" | "revoked" | "unknown";
  /** Where the deciding data came from: the DSS, the CMS, fetched now (ocsp, crl), or nowhere. */
  source: "dss" | "cms" | "ocsp" | "crl" | "none";
  thisUpdate: string | null;
  nextUpdate: string | null;
  producedAt: string | null;
  revocationTime: string | null;
}

/** One entry of `signers` (interface.md). */
export interface SignerReport {
  kind: SignatureKind;
  name: string | null;
  email: string | null;
  signedAt: string | null;
  signedAtSource: "timestamp" | "claimed" | null;
  fieldName: string;
  subFilter: string | null;
  digestAlgorithm: string | null;
  signatureAlgorithm: string | null;
  intact: boolean;
  signatureValid: boolean | null;
  trusted: boolean;
  coverage: Coverage;
  modifications: ModificationLevel;
  /** The revision the signature signed (1 = the original file). */
  revision: number | null;
  certificate: CertificateSummary | null;
  timestamp: TimestampSummary | null;
  problems: Problem[];
  eventId: string | null;
  metadata: unknown;
  auditTrail: unknown;
  /** PAdES baseline level; null for document time-stamps and signatures that are not baseline PAdES. */
  level: PadesLevel | null;
  /** ETSI EN 319 102-1 indication and sub-indication (validation at the best proof of existence). */
  indication: Indication | null;
  subIndication: SubIndication | null;
  /** Revocation status of every certificate of the signer's and time-stamp authorities' chains (roots excluded). */
  revocation: RevocationReport[];
}

export interface DocumentReport {
  sha256: string;
  sizeBytes: number;
  pages: number;
  pdfVersion: string;
  revisions: number;
  signatureCount: number;
  title: string | null;
  auditTrail: unknown;
  eventId: string | null;
}

export interface VerifyReport {
  valid: boolean;
  reason: string;
  signer: SignerReport | null;
  signers: SignerReport[];
  document: DocumentReport;
}
