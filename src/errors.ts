/**
 * The one error vocabulary of Signet: every machine code a caller can receive (interface.md), with
 * the HTTP status it answers with. Errors take an `ErrorCode`, so a code cannot be thrown without a
 * status; `http/problem.ts` turns them into problem+json through this table only. Engines throw
 * these errors and never build responses (the status belongs to the code, the way a code's meaning
 * does).
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_base64: 400,
  invalid_query: 400,
  unauthorized: 401,
  not_found: 404,
  request_timeout: 408,
  event_id_conflict: 409,
  payload_too_large: 413,
  document_too_large: 413,
  remote_too_large: 413,
  zip_limit: 413,
  convert_limit: 413,
  unsupported_media_type: 415,
  unsupported_document_type: 415,
  audit_trail_missing_submit: 422,
  pdf_unparseable: 422,
  pdf_too_complex: 422,
  pdf_encrypted: 422,
  document_locked: 422,
  pdf_leading_bytes: 422,
  signature_field_not_found: 422,
  signature_field_signed: 422,
  signature_field_locked: 422,
  signature_field_unsupported: 422,
  seed_value_unsatisfied: 422,
  appearance_invalid: 422,
  appearance_not_allowed: 422,
  docx_invalid: 422,
  xml_doctype_forbidden: 422,
  image_invalid: 422,
  image_too_large: 422,
  url_forbidden: 422,
  field_not_found: 422,
  signature_level_unavailable: 422,
  render_limit: 422,
  rate_limited: 429,
  // nginx's "client closed request": nobody reads this response, but the log line says what happened.
  client_aborted: 499,
  fetch_failed: 502,
  tsa_failed: 502,
  revocation_unavailable: 502,
  signer_failed: 502,
  configuration_error: 503,
  fetch_timeout: 504,
  internal_error: 500,
} as const;

/** A machine code of `ERROR_STATUS`. */
export type ErrorCode = keyof typeof ERROR_STATUS;
/** Every code, in the table's order (the OpenAPI document's Problem.code lists them). */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
/** A status some code answers with. */
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

/** The base of Signet's errors. */
export class SignetError extends Error {
  /** Machine code, e.g. `pdf_unparseable` (see interface.md). */
  readonly code: ErrorCode;
  /** Optional structured details that are safe to show a caller. */
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

/** The API key was refused (revoked while its request was being worked on). */
export class Unauthorized extends SignetError {
  constructor(message: string) {
    super("unauthorized", message);
  }
}

/** The request itself is malformed (bad JSON, schema, base64, query). */
export class InvalidRequest extends SignetError {}
/** A size cap was exceeded (body, document, remote fetch, zip). */
export class LimitExceeded extends SignetError {}
/** The document is of a type this operation does not take. */
export class UnsupportedDocumentType extends SignetError {
  constructor(message: string) {
    super("unsupported_document_type", message);
  }
}
/**
 * The PDF cannot be read: its structure is broken (`pdf_unparseable`), or reading or verifying it
 * needs more work than a budget of `LIMITS` allows (`pdf_too_complex`, see `PdfBudgetExceeded`).
 */
export class PdfUnparseable extends SignetError {
  constructor(message: string, code: "pdf_unparseable" | "pdf_too_complex" = "pdf_unparseable") {
    super(code, message);
  }
}
/** The PDF is encrypted with a password we do not have. */
export class PdfEncrypted extends SignetError {
  constructor(message = "The PDF is encrypted; Signet cannot sign or read encrypted documents.") {
    super("pdf_encrypted", message);
  }
}
/** The document forbids the change we would make (DocMDP P1). */
export class DocumentLocked extends SignetError {
  constructor(message: string) {
    super("document_locked", message);
  }
}
/** A URL we refuse to fetch (scheme, userinfo, private address). */
export class UrlForbidden extends SignetError {
  constructor(message: string) {
    super("url_forbidden", message);
  }
}
/** Fetching a remote resource failed (`fetch_failed`) or timed out (`fetch_timeout`). */
export class FetchFailed extends SignetError {}
/** The time-stamp authority failed. */
export class TsaFailed extends SignetError {
  constructor(message: string) {
    super("tsa_failed", message);
  }
}
/** Validation data (OCSP, CRL) for a B-LT/B-LTA signature could not be obtained. */
export class RevocationUnavailable extends SignetError {
  constructor(message: string) {
    super("revocation_unavailable", message);
  }
}
/** The key holder (a cloud KMS) failed, refused to sign or did not answer in time. */
export class SignerFailed extends SignetError {
  constructor(message: string) {
    super("signer_failed", message);
  }
}
/** Content is well-formed JSON but unusable (audit trail rules, strict fields...). */
export class UnprocessableContent extends SignetError {}
/** An eventId reused with a different request. */
export class EventIdConflict extends SignetError {
  constructor(message: string) {
    super("event_id_conflict", message);
  }
}
/** The client went away before its request body arrived (499 `client_aborted`: logged as a warning, never a 500). */
export class ClientAborted extends SignetError {
  constructor(message: string) {
    super("client_aborted", message);
  }
}
/** The client stopped sending its request body (408 `request_timeout`). */
export class RequestTimeout extends SignetError {
  constructor(message: string) {
    super("request_timeout", message);
  }
}
/** The service is misconfigured (missing/invalid signing key): an operator problem. */
export class ConfigurationError extends SignetError {
  constructor(message: string) {
    super("configuration_error", message);
  }
}
