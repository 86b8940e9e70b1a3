import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { SigningEventStore, type SigningEvidence } from "../../store/signing-events";
import type { AppEnv } from "../context";
import { OPTIONAL_KEY, publicOrApiKey } from "../middleware/public-access";
import { problemResponse } from "../problem";
import { problem } from "../../contract/problem";

/**
 * Evidence lookups: did Signet make this signature, and when? By the event's
 * 128-bit reference (printed on the certificate page, carried by its QR code) or
 * by the SHA-256 of the signed output. They answer that and nothing more: no
 * signer, no key, no request. Public unless VERIFY_REQUIRES_AUTH=true, like
 * /v1/verify; anonymous callers are rate-limited per client address.
 */

/** 128 bits as 32 hex characters; case-insensitive (people type it from paper), stored lowercase. */
export const EvidenceReference = z
  .string()
  .regex(/^[0-9a-fA-F]{32}$/, "A reference is 32 hexadecimal characters")
  .transform((s) => s.toLowerCase())
  .openapi({ param: { name: "ref", in: "path" }, example: "3f2a9c0d6b1e4f8a9d7c5b3a1e0f2d4c" });

export const Sha256Hex = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, "A SHA-256 is 64 hexadecimal characters")
  .transform((s) => s.toLowerCase())
  .openapi({
    param: { name: "sha256", in: "path" },
    example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  });

export const EvidenceResponse = z
  .object({
    signedBySignet: z.literal(true),
    signedAt: z
      .string()
      .openapi({ description: "When the signature was made (UTC).", example: "2026-11-21T10:00:00.000Z" }),
    inputSha256: z.string().openapi({ description: "SHA-256 of the document as Signet received it." }),
    outputSha256: z.string().openapi({ description: "SHA-256 of the signed PDF Signet returned." }),
    eventId: z.string(),
  })
  .openapi("EvidenceResponse");

const evidenceAccess = publicOrApiKey("evidence lookups");

const responses = {
  200: { description: "Signet made this signature", content: { "application/json": { schema: EvidenceResponse } } },
  400: problem("Malformed reference or hash (invalid_request)"),
  401: problem("API key required (VERIFY_REQUIRES_AUTH=true) or an invalid key sent"),
  404: problem("No signing event recorded under this value (not_found)"),
  429: problem("Too many anonymous lookups from one address"),
};

export const evidenceByReferenceRoute = createRoute({
  method: "get",
  path: "/v1/verify/ref/{ref}",
  summary: "Look up a signing event by its evidence reference",
  description:
    "Answers whether Signet made the signature recorded under this reference (printed on the certificate page and carried by its QR code), when, and the SHA-256 of the document before and after signing. Nothing else about the event is revealed. Public unless VERIFY_REQUIRES_AUTH=true.",
  security: OPTIONAL_KEY,
  middleware: [evidenceAccess] as const,
  request: { params: z.object({ ref: EvidenceReference }) },
  responses,
});

export const evidenceByHashRoute = createRoute({
  method: "get",
  path: "/v1/verify/hash/{sha256}",
  summary: "Look up a signing event by the signed output's SHA-256",
  description:
    "Answers whether a PDF with this SHA-256 is exactly a file Signet produced, when it was signed, and the SHA-256 of the document before signing. A document changed or signed again afterwards has another hash. Public unless VERIFY_REQUIRES_AUTH=true.",
  security: OPTIONAL_KEY,
  middleware: [evidenceAccess] as const,
  request: { params: z.object({ sha256: Sha256Hex }) },
  responses,
});

function answer(evidence: SigningEvidence): z.infer<typeof EvidenceResponse> {
  return {
    signedBySignet: true,
    signedAt: evidence.signedAt,
    inputSha256: evidence.inputSha256,
    outputSha256: evidence.outputSha256,
    eventId: evidence.eventId,
  };
}

export function registerEvidenceRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(evidenceByReferenceRoute, async (c) => {
    const { ref } = c.req.valid("param");
    const found = await new SigningEventStore(c.env.DB, c.env.REPLAYS).findByReference(ref);
    if (!found) return problemResponse(c, "not_found", "No signing event is recorded under this reference.") as never;
    return c.json(answer(found), 200, { "Cache-Control": "no-store" });
  });
  app.openapi(evidenceByHashRoute, async (c) => {
    const { sha256 } = c.req.valid("param");
    const found = await new SigningEventStore(c.env.DB, c.env.REPLAYS).findByOutputSha256(sha256);
    if (!found)
      return problemResponse(c, "not_found", "No document with this SHA-256 was signed by this service.") as never;
    return c.json(answer(found), 200, { "Cache-Control": "no-store" });
  });
}
