import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { signingKeySource } from "../../config";
import { signDocument } from "../../operations/sign";
import { SigningEventStore } from "../../store/signing-events";
import type { AppEnv } from "../context";
import { documentFonts } from "../document-fonts";
import { requireApiKey } from "../middleware/auth";
import { readDocumentRequest } from "../document-request";
import { pdfResponse, prefersPdf, SIGNET_RESULT_HEADER } from "../pdf-response";
import { problem } from "../../contract/problem";
import { SignMultipart, SignRequest, SignRequestFields, SignResponse, SignResult } from "../../contract/sign";
import { streamedJsonResponse } from "../streamed-json";

export const signRoute = createRoute({
  method: "post",
  path: "/v1/sign",
  summary: "Sign a PDF (or a DOCX, rendered to PDF first) with a PAdES signature",
  description:
    "Seals the document with a PAdES baseline B-B (B-T with a time-stamp authority) signature as an incremental update, after embedding the signer, metadata and audit trail (`signet-audit.json`, an associated file of the signature's own appearance) and appending the audit-trail certificate page. A document that already carries signatures (countersigning) gets only the signature field with its embedded evidence: no certificate page (a warning says so) and no other change, so every earlier signature stays valid in difference analyses (Signet's, pyHanko's, Adobe's). Reusing an `eventId` with the same request returns the same bytes. A DOCX is first laid out as PDF by the same renderer as `/v1/annotate?to=pdf`; the signature covers that PDF. The document's own empty signature field is signed when it has exactly one (or the one `signature.field` names), honouring its /Lock and seed values; `signature.appearance` makes the signature visible (name, time, reason, drawn image). " +
    "Large documents: send `multipart/form-data` (the document as the part `file`, the other fields as the JSON part `request`) and `Accept: application/pdf` to get the signed PDF itself as the body, with the JSON fields in the `Signet-Result` header; the document is then never base64 either way. JSON in and JSON out stay the default.",
  security: [{ bearerAuth: [] }],
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: SignRequest }, "multipart/form-data": { schema: SignMultipart } },
    },
  },
  responses: {
    200: {
      description:
        "The signed PDF: in JSON (the default), or with `Accept: application/pdf` as the body itself, the other fields in the `Signet-Result` header",
      headers: z.object({
        [SIGNET_RESULT_HEADER]: z.string().optional().openapi({
          description:
            "Only with `Accept: application/pdf`: the SignResult schema as JSON, every character outside printable ASCII escaped as \\uXXXX (the header is ASCII; JSON.parse gives it back exactly).",
          example:
            '{"signature":{"level":"B-B","fieldName":"Signature1","signedAt":"2026-11-21T10:00:00.000Z","certificateSha256":"...","timestamp":null,"documentTimestamp":null},"eventId":"contract-42-ada","sha256":"...","reference":"...","warnings":[]}',
        }),
      }),
      content: {
        "application/json": { schema: SignResponse },
        "application/pdf": {
          schema: z.string().openapi({
            type: "string",
            format: "binary",
            description: "With Accept: application/pdf. Signet-Result holds a SignResult.",
          }),
        },
      },
    },
    400: problem(
      "Malformed JSON or schema violation; a multipart body without the part file or request, with another or a repeated part, part headers above 8 KiB, or cut short",
    ),
    401: problem("Missing or unknown API key"),
    408: problem("The request body stopped arriving (request_timeout)"),
    409: problem("eventId reused with a different request"),
    413: problem("Body or document too large; a DOCX too large to render (zip_limit)"),
    415: problem(
      "Neither JSON nor multipart/form-data, a part request that is not JSON, or a document type sign does not take",
    ),
    422: problem(
      "Unusable document or audit trail (audit_trail_missing_submit, pdf_encrypted, document_locked, docx_invalid; pdf_unparseable, also for a PDF with objects after its last revision that no cross-reference section lists, which viewers show and a signature would hide, or a page tree listing one page twice; pdf_too_complex beyond the reader's work limits; pdf_leading_bytes); a DOCX past the renderer's work, page or paragraph limits (render_limit); a field that cannot be signed (signature_field_not_found, signature_field_signed, signature_field_locked, signature_field_unsupported, seed_value_unsatisfied), or an appearance that cannot be drawn (appearance_invalid, appearance_not_allowed, image_invalid, image_too_large)",
    ),
    502: problem(
      "Fetching the document or the time-stamp failed (fetch_failed, tsa_failed), or the KMS holding the signing key failed, refused or timed out (signer_failed); nothing is recorded",
    ),
    503: problem("Signing is not configured, or the KMS key's public key is not SIGNING_CERT's (configuration_error)"),
    504: problem("Fetching the document timed out"),
  },
});

/** The worker's waitUntil, logging what fails there (the response has gone by then). */
function backgroundOf(c: Context<AppEnv>): ((task: Promise<unknown>) => void) | undefined {
  let ctx: { waitUntil(task: Promise<unknown>): void };
  try {
    ctx = c.executionCtx;
  } catch {
    return undefined; // no execution context (app.request in tests): the operation awaits instead
  }
  const requestId = c.get("requestId");
  return (task) =>
    ctx.waitUntil(
      task.catch((err: unknown) => {
        console.error(
          JSON.stringify({
            level: "error",
            requestId,
            message: "storing the signed output for replays failed",
            error: String(err),
          }),
        );
      }),
    );
}

export function registerSignRoute(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerPath(signRoute);
  app.openAPIRegistry.register("SignResult", SignResult);
  app.post("/v1/sign", requireApiKey(), async (c) => {
    const input = await readDocumentRequest(c, {
      operation: "sign",
      json: SignRequest,
      fields: SignRequestFields,
      fieldsRequired: true,
      raw: false,
    });
    if (input instanceof Response) return input;
    const result = await signDocument(input, {
      config: c.get("config"),
      secrets: { key: signingKeySource(c.env), signingCertPem: c.env.SIGNING_CERT },
      store: new SigningEventStore(c.env.DB, c.env.REPLAYS),
      keyId: c.get("keyId")!,
      selfHost: new URL(c.req.url).hostname,
      preDecoded: c.get("preDecoded"),
      fonts: documentFonts(c.env),
      background: backgroundOf(c),
      keyConfirmed: c.get("keyConfirmed"),
    });
    const { output, ...fields } = result;
    c.set("documentBytesOut", output.length);
    const document = "segments" in output ? output.segments : output.stream;
    const headers = { Vary: "Accept" };
    if (prefersPdf(c.req.header("accept"))) return pdfResponse(document, output.length, fields, headers);
    const tail = JSON.stringify(fields).slice(1); // `"signature":...}` after the document
    return streamedJsonResponse(
      '{"document":{"base64":"data:application/pdf;base64,',
      document,
      `","contentType":"application/pdf"},${tail}`,
      { headers },
    );
  });
}
