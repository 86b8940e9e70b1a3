/**
 * The `document` input of every operation: base64 (or a data: URI) or a URL, loaded under the
 * document size cap and typed by sniffing its bytes.
 */
import { InvalidRequest, UnsupportedDocumentType } from "../errors";
import { LIMITS } from "../limits";
import { decodeBase64Payload, documentTooLarge, type PreDecodedValues } from "./base64";
import { fetchPublicResource, UrlBudget } from "./safe-fetch";
import { sniffDocumentType, type SniffedType } from "./sniff";

export interface DocumentInput {
  base64?: string;
  url?: string;
  /**
   * The document as it arrived in a binary request body (a multipart part or the raw body), with
   * its SHA-256 when the edge hashed it on the way in. Never from JSON: the HTTP edge sets it.
   */
  received?: { bytes: Uint8Array; sha256: string | null };
}

export interface LoadContext {
  maxDocumentBytes: number;
  allowPrivateUrls: boolean;
  /** The service's own host (e.g. the request URL's host). */
  selfHost?: string;
  urlBudget: UrlBudget;
  fetch?: typeof fetch;
  /** Overrides LIMITS.fetchTimeoutMs (tests). */
  timeoutMs?: number;
  /** Large base64 values the HTTP edge decoded while reading the body. */
  preDecoded?: PreDecodedValues;
}

export interface LoadedDocument {
  bytes: Uint8Array;
  type: SniffedType;
  /** Lowercase hex SHA-256 of `bytes`, when already known (hashed as it arrived). */
  sha256?: string;
}

export type DocumentKind = "pdf" | "docx";

/** What of an operation's dependencies loading its document reads (its config, host, pre-decoded values). */
export interface DocumentDeps {
  config: { maxDocumentBytes: number; allowPrivateUrls: boolean; fetchTimeoutMs?: number };
  selfHost?: string;
  preDecoded?: PreDecodedValues;
  fetch?: typeof fetch;
}

/** The load context of an operation's dependencies. */
export function loadContextOf(deps: DocumentDeps, urlBudget: UrlBudget): LoadContext {
  return {
    maxDocumentBytes: deps.config.maxDocumentBytes,
    timeoutMs: deps.config.fetchTimeoutMs,
    allowPrivateUrls: deps.config.allowPrivateUrls,
    selfHost: deps.selfHost,
    preDecoded: deps.preDecoded,
    urlBudget,
    fetch: deps.fetch,
  };
}

const ACCEPT_DOCUMENT =
  "application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/octet-stream;q=0.5, */*;q=0.1";

/**
 * Loads the document bytes. Throws InvalidRequest (`invalid_request`, `invalid_base64`),
 * LimitExceeded (`document_too_large`, `remote_too_large`), UrlForbidden, FetchFailed.
 */
export async function loadDocument(input: DocumentInput, ctx: LoadContext): Promise<LoadedDocument> {
  if (input.received) {
    const { bytes, sha256 } = input.received;
    if (bytes.length > ctx.maxDocumentBytes) throw documentTooLarge(ctx.maxDocumentBytes);
    return { bytes, type: sniffDocumentType(bytes), ...(sha256 ? { sha256 } : {}) };
  }
  const hasBase64 = typeof input.base64 === "string";
  const hasUrl = typeof input.url === "string";
  if (hasBase64 === hasUrl) {
    throw new InvalidRequest("invalid_request", "document: give exactly one of base64 or url.", {
      errors: [{ path: "document", message: "Exactly one of base64 or url is required" }],
    });
  }
  if (hasBase64) {
    const { bytes } = decodeBase64Payload(input.base64 as string, {
      maxBytes: ctx.maxDocumentBytes,
      preDecoded: ctx.preDecoded,
    });
    return { bytes, type: sniffDocumentType(bytes) };
  }
  ctx.urlBudget.take();
  const { bytes } = await fetchPublicResource(input.url as string, {
    allowPrivate: ctx.allowPrivateUrls,
    selfHost: ctx.selfHost,
    maxBytes: ctx.maxDocumentBytes,
    timeoutMs: ctx.timeoutMs ?? LIMITS.fetchTimeoutMs,
    maxRedirects: LIMITS.maxRedirects,
    accept: ACCEPT_DOCUMENT,
    fetch: ctx.fetch,
  });
  return { bytes, type: sniffDocumentType(bytes) };
}

/**
 * An operation's `document`, loaded under its dependencies' size cap and URL rules and narrowed to
 * the types the operation takes (415 otherwise): how sign, annotate, verify and fields load theirs.
 */
export async function loadDocumentFor<K extends DocumentKind>(
  operation: string,
  allowed: readonly K[],
  input: DocumentInput,
  deps: DocumentDeps,
  urlBudget = new UrlBudget(),
): Promise<LoadedDocument & { type: K }> {
  return requireDocumentType(await loadDocument(input, loadContextOf(deps, urlBudget)), allowed, operation);
}

const TYPE_NAMES: Record<SniffedType, string> = {
  pdf: "a PDF document",
  docx: "a DOCX document",
  png: "a PNG image",
  jpeg: "a JPEG image",
  gif: "a GIF image",
  zip: "a ZIP archive that is not a Word document",
  unknown: "none of the supported formats",
};

const KIND_LABELS: Record<DocumentKind, string> = { pdf: "PDF", docx: "DOCX" };

/**
 * Narrows a loaded document to the types an operation takes, or throws UnsupportedDocumentType (415):
 * "Expected a PDF or DOCX document for sign; the bytes look like a PNG image."
 */
export function requireDocumentType<K extends DocumentKind>(
  doc: LoadedDocument,
  allowed: readonly K[],
  operation: string,
): LoadedDocument & { type: K } {
  if ((allowed as readonly SniffedType[]).includes(doc.type)) return doc as LoadedDocument & { type: K };
  const expected = allowed.map((k) => KIND_LABELS[k]).join(" or ");
  const seen =
    doc.bytes.length === 0
      ? "the document is empty"
      : doc.type === "unknown"
        ? "the bytes are none of the supported formats"
        : `the bytes look like ${TYPE_NAMES[doc.type]}`;
  throw new UnsupportedDocumentType(`Expected a ${expected} document${operation ? ` for ${operation}` : ""}; ${seen}.`);
}
