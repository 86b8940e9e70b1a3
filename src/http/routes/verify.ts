import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { verificationKey, verifyDocument } from "../../operations/verify";
import type { AppEnv } from "../context";
import { DOCX_TYPE, PDF_TYPE, readDocumentRequest } from "../document-request";
import { OPTIONAL_KEY, publicOrApiKey } from "../middleware/public-access";
import { problem } from "../../contract/problem";
import {
  VerifyKeyResponse,
  VerifyMultipart,
  VerifyRequest,
  VerifyRequestFields,
  VerifyResponse,
} from "../../contract/verify";

const verifyAccess = publicOrApiKey("verification requests");

export const verifyRoute = createRoute({
  method: "post",
  path: "/v1/verify",
  summary: "Verify the signatures of a PDF",
  description:
    "Checks every signature of a PDF: byte-range structure (the unsigned gap must be exactly the signature value), the CMS signature and certificate chain, what the signatures cover, and what later revisions changed (reject-by-default, object by object), then says whether the document is valid and why. A PDF whose signatures fail is not an error: the answer is 200 with `valid: false`. Public unless VERIFY_REQUIRES_AUTH=true. " +
    "Large documents: send the PDF as the raw body (`Content-Type: application/pdf`) or as the part `file` of `multipart/form-data`; it is then never base64. The report is JSON either way.",
  security: OPTIONAL_KEY,
  request: {
    body: {
      required: true,
      content: {
        "application/json": { schema: VerifyRequest },
        "multipart/form-data": { schema: VerifyMultipart },
        [PDF_TYPE]: {
          schema: z.string().openapi({ type: "string", format: "binary", description: "The PDF itself." }),
        },
        [DOCX_TYPE]: {
          schema: z.string().openapi({
            type: "string",
            format: "binary",
            description:
              "Taken as a body type, refused by its bytes: 415 unsupported_document_type (verify reads PDFs).",
          }),
        },
      },
    },
  },
  responses: {
    200: { description: "The verification report", content: { "application/json": { schema: VerifyResponse } } },
    400: problem(
      "Malformed JSON or schema violation; a multipart body without the part file, with another or a repeated part, part headers above 8 KiB, or cut short",
    ),
    401: problem("API key required (VERIFY_REQUIRES_AUTH=true) or an invalid key sent"),
    408: problem("The request body stopped arriving (request_timeout)"),
    413: problem("Body or document too large"),
    415: problem("Not JSON, multipart/form-data or a PDF body; or a document that is not a PDF (DOCX, images)"),
    422: problem(
      "Unreadable PDF (pdf_unparseable), a PDF beyond the verification budgets (pdf_too_complex: more than 100 signatures, 256 MiB hashed, 20,000 objects changed after signing or 2 M units of work; not judged, so not valid: false), or encrypted with a user password (pdf_encrypted)",
    ),
    429: problem("Too many anonymous requests from one address"),
    502: problem("Fetching the document failed"),
    504: problem("Fetching the document timed out"),
  },
});

export const verifyKeyRoute = createRoute({
  method: "get",
  path: "/v1/verify/key",
  summary: "The service's signing certificate chain",
  description:
    "The certificate chain Signet signs with (PEM, signer first) and the signer certificate's SHA-256 fingerprint, to add to other validators' trust stores. Public unless VERIFY_REQUIRES_AUTH=true.",
  security: OPTIONAL_KEY,
  middleware: [verifyAccess] as const,
  responses: {
    200: { description: "The signing chain", content: { "application/json": { schema: VerifyKeyResponse } } },
    401: problem("API key required (VERIFY_REQUIRES_AUTH=true) or an invalid key sent"),
    503: problem("The service has no signing certificate configured"),
  },
});

export function registerVerifyRoutes(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerPath(verifyRoute);
  app.post("/v1/verify", verifyAccess, async (c) => {
    const input = await readDocumentRequest(c, {
      operation: "verify",
      json: VerifyRequest,
      fields: VerifyRequestFields,
      fieldsRequired: false,
      raw: true,
    });
    if (input instanceof Response) return input;
    const report = await verifyDocument(input, {
      config: c.get("config"),
      secrets: { trustedRootsPem: c.env.TRUSTED_ROOTS, signingCertPem: c.env.SIGNING_CERT },
      selfHost: new URL(c.req.url).hostname,
      preDecoded: c.get("preDecoded"),
    });
    return c.json(report, 200);
  });
  app.openapi(verifyKeyRoute, async (c) => {
    const key = await verificationKey({ trustedRootsPem: c.env.TRUSTED_ROOTS, signingCertPem: c.env.SIGNING_CERT });
    return c.json(key, 200);
  });
}
