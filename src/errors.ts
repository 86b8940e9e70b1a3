/**
 * The one error hierarchy of Signet. Engines throw these; `http/errors.ts` maps
 * `code` to an HTTP status and a problem+json body in one place. Engines never
 * know about HTTP.
 */
export class SignetError extends Error {
  /** Machine code, e.g. `pdf_unparseable` (see interface.md). */
  readonly code: string;
  /** Optional structured details that are safe to show a caller. */
  readonly details?: Record<string, unknown>;
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
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
