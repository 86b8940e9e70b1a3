import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { InvalidRequest, LimitExceeded } from "../errors";
import { documentTooLarge } from "../input/base64";
import type { DocumentInput } from "../input/document";
import { LIMITS } from "../limits";
import { readRawDocument } from "./body/document-sink";
import { readMultipart } from "./body/multipart";
import type { AppEnv } from "./context";
import { documentBase64, jsonBody } from "./middleware/json-body";
import { problemResponse, validationProblem } from "./problem";

/**
 * The request of sign and verify, however its document came:
 * - `application/json` (the default and SuperDoc's contract): `{ document: { base64 | url }, ... }`,
 *   large base64 decoded as it streams in (middleware/json-body.ts);
 * - `multipart/form-data`: the document as the part `file`, the other fields as the JSON part
 *   `request` (body/multipart.ts);
 * - for verify, the raw body with the document's own media type.
 * A binary document is hashed as it arrives and never exists as base64. Every path keeps the body
 * caps (413), the 408/499 rules of a stalled or vanished client, and URL documents keep the SSRF
 * rules (they are fetched by the operation, as before).
 */

export const PDF_TYPE = "application/pdf";
export const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
/** Media types a document part or raw body may declare; its type is then decided by its bytes. */
const DOCUMENT_TYPES = [PDF_TYPE, DOCX_TYPE, "application/octet-stream"] as const;
/** What a `request` part may declare (FormData sends a string field without a Content-Type, or text/plain). */
const REQUEST_PART_TYPES = ["application/json", "text/plain"] as const;

export interface DocumentRequestSpec<Json extends z.ZodType, Fields extends z.ZodType> {
  operation: "sign" | "verify";
  /** The whole JSON request. */
  json: Json;
  /** The JSON part `request` of a multipart body: the request without `document`. */
  fields: Fields;
  /** Whether a multipart body must carry the part `request` (sign: signer and audit trail). */
  fieldsRequired: boolean;
  /** Whether the raw body may be the document (verify). */
  raw: boolean;
}

const jsonDocumentBody = jsonBody(documentBase64);

/** The validated request, or the problem response that refuses it. */
export async function readDocumentRequest<Json extends z.ZodType, Fields extends z.ZodType>(
  c: Context<AppEnv>,
  spec: DocumentRequestSpec<Json, Fields>,
): Promise<z.output<Json> | (z.output<Fields> & { document: DocumentInput }) | Response> {
  const contentType = (c.req.header("content-type") ?? "").trim();
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (mediaType === "application/json") return readJsonRequest(c, spec.json);
  if (mediaType === "multipart/form-data") return readMultipartRequest(c, contentType, spec);
  if (spec.raw && (DOCUMENT_TYPES as readonly string[]).includes(mediaType)) {
    const config = c.get("config");
    const received = await readRawDocument(c.req.raw.body, {
      maxBytes: Math.min(config.maxDocumentBytes, config.maxBodyBytes),
      tooLarge: () =>
        config.maxDocumentBytes <= config.maxBodyBytes
          ? documentTooLarge(config.maxDocumentBytes)
          : bodyTooLarge(config.maxBodyBytes),
      contentLength: declaredLength(c),
      idleTimeoutMs: LIMITS.requestBodyIdleTimeoutMs,
      sha256: spec.operation === "sign",
    });
    return { document: { received } } as z.output<Fields> & { document: DocumentInput };
  }
  const takes = spec.raw
    ? `application/json, multipart/form-data (part file), or the document itself (${DOCUMENT_TYPES.join(", ")})`
    : "application/json or multipart/form-data (parts file and request)";
  return problemResponse(
    c,
    "unsupported_media_type",
    `Send the ${spec.operation} request as ${takes}; not ${mediaType || "without a Content-Type"}.`,
  );
}

/** A JSON request (large base64 decoded as it streams in) validated by `schema`, or the problem response. */
export async function readJsonRequest<Json extends z.ZodType>(
  c: Context<AppEnv>,
  schema: Json,
): Promise<z.output<Json> | Response> {
  let result: z.output<Json> | Response | undefined;
  const early = await jsonDocumentBody(c, async () => {
    let json: unknown;
    try {
      json = JSON.parse(await c.req.text());
    } catch {
      throw new InvalidRequest("invalid_json", "The request body is not valid JSON.");
    }
    const parsed = schema.safeParse(json);
    result = parsed.success ? parsed.data : validationProblem(c, parsed.error.issues);
  });
  return early ?? result!;
}

async function readMultipartRequest<Json extends z.ZodType, Fields extends z.ZodType>(
  c: Context<AppEnv>,
  contentType: string,
  spec: DocumentRequestSpec<Json, Fields>,
): Promise<(z.output<Fields> & { document: DocumentInput }) | Response> {
  const config = c.get("config");
  const maxRequestBytes = LIMITS.multipart.maxRequestPartBytes;
  const parts = await readMultipart(c.req.raw.body, contentType, {
    parts: {
      // Sign records the document's SHA-256 (evidence, certificate page, request identity): hashed as it
      // arrives. Verify does not use it (~110 ms of CPU saved on 25 MB).
      file: {
        maxBytes: config.maxDocumentBytes,
        tooLarge: () => documentTooLarge(config.maxDocumentBytes),
        sha256: spec.operation === "sign",
        presize: true,
      },
      request: {
        maxBytes: maxRequestBytes,
        tooLarge: () =>
          new LimitExceeded("payload_too_large", `The part request is larger than ${maxRequestBytes} bytes.`, {
            maxBytes: maxRequestBytes,
          }),
        contentTypes: REQUEST_PART_TYPES,
        contentTypeHint: "send the request fields as JSON (application/json)",
      },
    },
    maxBodyBytes: config.maxBodyBytes,
    contentLength: declaredLength(c),
    idleTimeoutMs: LIMITS.requestBodyIdleTimeoutMs,
    maxHeaderBytes: LIMITS.multipart.maxPartHeaderBytes,
  });
  const file = parts.get("file");
  if (!file) {
    throw new InvalidRequest("invalid_request", "file: send the document as the multipart part `file`.", {
      errors: [{ path: "file", message: "Required: the document as the part file" }],
    });
  }
  const request = parts.get("request");
  if (!request && spec.fieldsRequired) {
    throw new InvalidRequest(
      "invalid_request",
      "request: send the other request fields (signer, auditTrail, ...) as the JSON part `request`.",
      {
        errors: [{ path: "request", message: "Required: the request fields as JSON" }],
      },
    );
  }
  let fields: unknown = {};
  if (request) {
    try {
      fields = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(request.bytes));
    } catch {
      throw new InvalidRequest("invalid_json", "The part request is not valid JSON (UTF-8).");
    }
    if (fields && typeof fields === "object" && !Array.isArray(fields) && "document" in fields) {
      throw new InvalidRequest(
        "invalid_request",
        "request.document: in a multipart request the document is the part file, not a field of request.",
        {
          errors: [{ path: "request.document", message: "Not allowed beside the part file" }],
        },
      );
    }
  }
  const parsed = spec.fields.safeParse(fields);
  if (!parsed.success) {
    return validationProblem(
      c,
      parsed.error.issues.map((issue) => ({ ...issue, path: ["request", ...issue.path] })),
    );
  }
  return {
    ...(parsed.data as object),
    document: { received: { bytes: file.bytes, sha256: file.sha256 } },
  } as z.output<Fields> & { document: DocumentInput };
}

function declaredLength(c: Context<AppEnv>): number | undefined {
  const declared = c.req.header("content-length");
  return declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined;
}

function bodyTooLarge(maxBytes: number): LimitExceeded {
  return new LimitExceeded("payload_too_large", `The request body is larger than ${maxBytes} bytes.`, { maxBytes });
}
