import { z } from "./zod";
import { DocumentInput, OutputDocument } from "./document";
import { LIMITS, REQUEST_LIMITS } from "../limits";
import { EXAMPLE_PDF_BASE64 } from "./examples";

/**
 * The wire shapes of `POST /v1/sign`: the single source of request validation, of the OpenAPI
 * document (`/openapi.json`) and of the operation's input type (`SignRequestBody`). Business
 * rules that need the document or the database (submit event, eventId reuse) live in the
 * operation, not here.
 */

export const Signer = z
  .strictObject({
    email: z.email().max(255).openapi({ example: "ada@example.com" }),
    name: z.string().trim().min(1).max(255).openapi({ example: "Ada Lovelace" }),
    ip: z.union([z.ipv4(), z.ipv6()]).optional().openapi({ example: "203.0.113.7" }),
    userAgent: z.string().max(1024).optional(),
  })
  .openapi("Signer", { description: "Who signs. No other keys: application context goes in `metadata`." });

const jsonSize = (v: unknown) => {
  try {
    return new TextEncoder().encode(JSON.stringify(v) ?? "").length;
  } catch {
    return Infinity;
  }
};

export const AuditTrailEntry = z
  .looseObject({
    type: z.string().max(128).optional().openapi({ example: "submit" }),
    timestamp: z.iso.datetime({ offset: true }).openapi({ example: "2026-11-21T10:00:00Z" }),
    data: z.unknown().optional(),
  })
  .openapi("AuditTrailEntry", {
    description: "One user-interaction event. Other keys are kept. At least one entry must have type `submit`.",
  });

export const CertificateOptions = z
  .looseObject({
    enabled: z.boolean().optional().openapi({
      description:
        "Append the audit-trail certificate page (default true). Never appended to a document that already carries signatures (pages added after a signature invalidate it); the response then has a warning.",
    }),
    enable: z.boolean().optional().openapi({ description: "Synonym of `enabled` (SuperDoc clients)." }),
  })
  .openapi("CertificateOptions");

const POSITION_KEYS = ["page", "x", "y", "width", "height"] as const;
const MAX_POINTS = 14_400; // ISO 32000's largest page side

export const SignatureAppearance = z
  .strictObject({
    page: z.number().int().min(1).max(1_000_000).optional().openapi({
      description: "Page of a new visible field, 1-based (the document's own pages, not the certificate page).",
    }),
    x: z.number().min(0).max(MAX_POINTS).optional().openapi({
      description: "Left edge in points from the page's lower-left corner (of its visible area, the CropBox).",
    }),
    y: z
      .number()
      .min(0)
      .max(MAX_POINTS)
      .optional()
      .openapi({ description: "Bottom edge in points from the page's lower-left corner." }),
    width: z.number().min(8).max(MAX_POINTS).optional().openapi({ description: "Width in points." }),
    height: z.number().min(8).max(MAX_POINTS).optional().openapi({ description: "Height in points." }),
    image: z.string().min(1).optional().openapi({
      description:
        "The signer's drawn signature: a data URI (or base64) of a PNG or JPEG, e.g. from SuperDoc's e-sign pad; drawn on the left of the box.",
      example: "data:image/png;base64,iVBORw0KGgo...",
    }),
  })
  .refine((a) => POSITION_KEYS.every((k) => a[k] === undefined) || POSITION_KEYS.every((k) => a[k] !== undefined), {
    message: "Give all of page, x, y, width and height (a new field there), or none of them (the field's own widget)",
  })
  .openapi("SignatureAppearance", {
    description:
      "A visible signature: the signer's name, the signing time, the reason and the optional image, drawn as the widget's normal appearance (/AP /N). Position it with page, x, y, width and height (points, a new signature field), or give none of them to draw into the widget of the field being signed. Without `appearance` the signature is invisible.",
  });

export const SignatureOptions = z
  .strictObject({
    level: z.enum(["B-B", "B-T", "B-LT", "B-LTA"]).optional().openapi({
      description:
        "PAdES baseline level (ETSI EN 319 142-1) for this signature; default: the deployment's `SIGNATURE_LEVEL` (B-T with a time-stamp authority, else B-B). B-T and above need `TSA_URL` (else 422 `signature_level_unavailable`). B-LT adds the validation data (certificates, OCSP responses, CRLs) of every signature's signer and time-stamp chains in a DSS; B-LTA then a document time-stamp. Missing validation data: 502 `revocation_unavailable` unless `REVOCATION_OPTIONAL=true` (then B-T and a warning).",
    }),
    field: z.string().min(1).max(1024).optional().openapi({
      description:
        "Fully qualified name of an empty signature field of the document to sign (e.g. `Signature1`). Unknown, not a signature field: 422 signature_field_not_found; already signed: 422 signature_field_signed; locked by an earlier signature: 422 signature_field_locked. Without it, a document with exactly one empty signature field that can be signed has that one signed; otherwise Signet adds its own field.",
      example: "Signature1",
    }),
    reason: z.string().trim().min(1).max(500).optional().openapi({
      description:
        "The signature's reason (/Reason), also shown in a visible appearance. A seed value dictionary of the field may require one of its reasons. Default /Reason: `Signed electronically by <name>`.",
      example: "I agree to the terms",
    }),
    appearance: SignatureAppearance.optional(),
  })
  .refine(
    (s) =>
      s.field === undefined || s.appearance === undefined || POSITION_KEYS.every((k) => s.appearance![k] === undefined),
    {
      message: "An existing field is drawn in its own widget: give signature.field or an appearance position, not both",
      path: ["appearance"],
    },
  )
  .openapi("SignatureOptions");

/** `signature` of a sign request after validation. */
export type SignatureOptionsBody = z.output<typeof SignatureOptions>;

/** The sign request's fields beside its document (the JSON part `request` of a multipart request). */
const signRequestFields = {
  signer: Signer,
  auditTrail: z
    .array(AuditTrailEntry)
    .min(1)
    .max(LIMITS.maxAuditTrailEntries)
    .refine(
      (t) => jsonSize(t) <= REQUEST_LIMITS.maxAuditTrailJsonBytes,
      `auditTrail is larger than ${REQUEST_LIMITS.maxAuditTrailJsonBytes} bytes of JSON`,
    ),
  eventId: z
    .string()
    .min(1)
    .max(REQUEST_LIMITS.maxEventIdLength)
    .regex(/^[^\u0000-\u001f\u007f]+$/, "eventId must not contain control characters")
    .optional()
    .openapi({ description: "Idempotency key of this signing event, scoped to your API key.", example: "evt_123" }),
  metadata: z
    .record(z.string(), z.unknown())
    .refine(
      (m) => jsonSize(m) <= REQUEST_LIMITS.maxMetadataJsonBytes,
      `metadata is larger than ${REQUEST_LIMITS.maxMetadataJsonBytes} bytes of JSON`,
    )
    .optional(),
  certificate: CertificateOptions.optional(),
  signature: SignatureOptions.optional(),
};

export const SignRequestFields = z.object(signRequestFields).openapi("SignRequestFields", {
  description:
    "The sign request without its document: the JSON part `request` of a multipart/form-data request (a `document` field there is refused).",
});

export const SignMultipart = z
  .object({
    file: z.string().openapi({
      type: "string",
      format: "binary",
      description:
        "The document (PDF or DOCX), as `FormData.append('file', blob, name)` sends it. Its type is decided by its bytes.",
    }),
    request: SignRequestFields,
  })
  .openapi("SignMultipart", {
    description:
      "A binary sign request: the document as the part `file`, the other fields as the JSON part `request` (Content-Type application/json, or none).",
  });

export const SignRequest = z.object({ document: DocumentInput, ...signRequestFields }).openapi("SignRequest", {
  example: {
    document: { base64: `data:application/pdf;base64,${EXAMPLE_PDF_BASE64}` },
    signer: { name: "Ada Lovelace", email: "ada@example.com", ip: "203.0.113.7", userAgent: "Mozilla/5.0" },
    auditTrail: [
      { type: "ready", timestamp: "2026-11-21T09:59:00Z" },
      { type: "field_change", timestamp: "2026-11-21T09:59:30Z", data: { fieldId: "name", value: "Ada Lovelace" } },
      { type: "submit", timestamp: "2026-11-21T10:00:00Z" },
    ],
    eventId: "contract-42-ada",
    metadata: { documentId: "contract-42" },
    certificate: { enabled: true },
  },
});

/** A sign request after validation: the input of operations/sign.ts. */
export type SignRequestBody = z.output<typeof SignRequest>;

export const TimestampInfo = z
  .object({ time: z.string(), tsa: z.string().nullable(), serialNumber: z.string() })
  .openapi("TimestampInfo");

export const SignResponse = z
  .object({
    document: OutputDocument,
    signature: z.object({
      level: z.enum(["B-B", "B-T", "B-LT", "B-LTA"]).openapi({
        description:
          "The PAdES baseline level reached (lower than asked only with TSA_OPTIONAL/REVOCATION_OPTIONAL, said in `warnings`).",
      }),
      fieldName: z.string().openapi({
        description:
          "The signature field signed: the document's own (named by signature.field, or its one empty signature field) or the one Signet added (Signature1, ...).",
      }),
      signedAt: z.string(),
      certificateSha256: z.string(),
      timestamp: TimestampInfo.nullable().openapi({ description: "The signature time-stamp (B-T and above)." }),
      documentTimestamp: TimestampInfo.nullable().openapi({
        description:
          "B-LTA: the document time-stamp (`/SubFilter /ETSI.RFC3161`) over the signature and its validation data.",
      }),
    }),
    eventId: z.string(),
    sha256: z.string().openapi({ description: "SHA-256 of the signed output PDF." }),
    reference: z.string().nullable().openapi({
      description:
        "Evidence reference of this signing event: 128 random bits as 32 hex characters, printed on the certificate page and carried by its QR code (`PUBLIC_BASE_URL/verify#ref=...`). `GET /v1/verify/ref/{ref}` looks it up. Null only for events recorded before references existed.",
      example: "3f2a9c0d6b1e4f8a9d7c5b3a1e0f2d4c",
    }),
    warnings: z.array(z.string()).openapi({
      description:
        "What Signet did differently from the request, e.g. no certificate page on a document that already carries signatures.",
    }),
  })
  .openapi("SignResponse");

export const SignResult = SignResponse.omit({ document: true }).openapi("SignResult", {
  description:
    "The `Signet-Result` header of a binary sign response (`Accept: application/pdf`): the fields of SignResponse without the document, as JSON in which every character outside printable ASCII is escaped as \\uXXXX, so the header is ASCII and `JSON.parse(header)` gives the fields back exactly.",
});
