import { z } from "@hono/zod-openapi";
import { COVERAGE_LEVELS, MODIFICATION_LEVELS } from "../pdf/verify/status";
import { EXAMPLE_PDF_BASE64 } from "./examples";
import { DocumentInput } from "./schemas";

/**
 * Schemas of `POST /v1/verify` and `GET /v1/verify/key` (interface.md): the
 * request is validated with them; the response schemas document the report in
 * `/openapi.json`.
 */

export const VerifyRequest = z
  .object({ document: DocumentInput })
  .openapi("VerifyRequest", { example: { document: { base64: `data:application/pdf;base64,${EXAMPLE_PDF_BASE64}` } } });

const VerifyProblem = z
  .object({
    code: z.string().openapi({ example: "modified_after_signing" }),
    message: z.string(),
    severity: z.enum(["error", "warning"]),
  })
  .openapi("VerifyProblem");

const CertificateSummary = z
  .object({
    subject: z.string(),
    issuer: z.string(),
    serialNumber: z.string(),
    notBefore: z.string(),
    notAfter: z.string(),
    sha256: z.string(),
  })
  .openapi("CertificateSummary");

const SignatureTimestamp = z
  .object({
    time: z.string(),
    tsa: z.string().nullable(),
    serialNumber: z.string(),
    intact: z.boolean(),
    signatureValid: z.boolean().nullable(),
    trusted: z.boolean(),
  })
  .openapi("SignatureTimestamp");

export const VerifiedSigner = z
  .object({
    kind: z.enum(["signature", "timestamp"]).openapi({ description: "Document time-stamps (ETSI.RFC3161) are `timestamp`." }),
    name: z.string().nullable().openapi({ example: "Ada Lovelace" }),
    email: z.string().nullable().openapi({ example: "ada@example.com" }),
    signedAt: z.string().nullable().openapi({ example: "2026-11-21T10:00:00Z" }),
    signedAtSource: z.enum(["timestamp", "claimed"]).nullable(),
    fieldName: z.string().openapi({ example: "Signature1" }),
    subFilter: z.string().nullable().openapi({ example: "ETSI.CAdES.detached" }),
    digestAlgorithm: z.string().nullable().openapi({ example: "SHA-256" }),
    signatureAlgorithm: z.string().nullable().openapi({ example: "ECDSA" }),
    intact: z.boolean().openapi({ description: "The digest of the signed bytes matches and the byte range is well-formed." }),
    signatureValid: z.boolean().nullable().openapi({ description: "The signature value verifies; null when it could not be checked." }),
    trusted: z.boolean().openapi({ description: "The signer chains to TRUSTED_ROOTS or the service's own root." }),
    coverage: z.enum(COVERAGE_LEVELS),
    modifications: z.enum(MODIFICATION_LEVELS).openapi({
      description:
        "What later revisions changed, judged object by object. Allowed after a signature: none, signatures, form_filling (within what a certification permits; annotations after DocMDP P3); appended_pages (pages or attached files) never.",
    }),
    revision: z.number().int().nullable().openapi({ description: "The signed revision (1 = the original file)." }),
    certificate: CertificateSummary.nullable(),
    timestamp: SignatureTimestamp.nullable(),
    problems: z.array(VerifyProblem),
    eventId: z.string().nullable().openapi({
      description: "From the evidence Signet embedded with this signature (signet-audit*.json, an associated file of its widget's appearance); null for other tools.",
    }),
    metadata: z.unknown().openapi({ description: "What Signet embedded with this signature; null for other tools." }),
    auditTrail: z.unknown().openapi({ description: "The audit trail Signet embedded with this signature; null for other tools." }),
  })
  .openapi("VerifiedSigner");

export const VerifyResponse = z
  .object({
    valid: z.boolean().openapi({
      description:
        "At least one signature; all intact, cryptographically valid, trusted, covering the whole file or a whole revision; later changes allowed by the signatures (and any certification).",
    }),
    reason: z.string().openapi({ example: "All 1 signature(s) are intact, cover the document and chain to a trusted root." }),
    signer: VerifiedSigner.nullable().openapi({ description: "The most recent signature's signer." }),
    signers: z.array(VerifiedSigner).openapi({ description: "Every signed signature field, oldest first." }),
    document: z
      .object({
        sha256: z.string(),
        sizeBytes: z.number().int(),
        pages: z.number().int(),
        pdfVersion: z.string(),
        revisions: z.number().int(),
        signatureCount: z.number().int(),
        title: z.string().nullable(),
        auditTrail: z.unknown(),
        eventId: z.string().nullable(),
      })
      .openapi("VerifiedDocument"),
  })
  .openapi("VerifyResponse");

export const VerifyKeyResponse = z
  .object({
    certificates: z.array(z.string()).openapi({ description: "The service's signing chain as PEM, signer first." }),
    sha256: z.string().openapi({ description: "SHA-256 fingerprint of the signer certificate." }),
    version: z.string().openapi({ description: "Key version (SuperDoc's field): `v<year the certificate starts>-<first 8 hex of sha256>`, new with every key.", example: "v2026-3f2a9c0d" }),
    algorithm: z.string().openapi({ description: "How signatures are made with this key.", example: "RSA-SHA256" }),
    publicKey: z.string().openapi({ description: "The signer's public key as PEM (SubjectPublicKeyInfo).", example: "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA...\n-----END PUBLIC KEY-----\n" }),
    fingerprint: z.string().openapi({ description: "SHA-256 of the signer certificate as upper-case hex pairs joined by `:`.", example: "3F:2A:9C:0D:..." }),
    validFrom: z.string().openapi({ description: "Start of the signer certificate's validity (ISO 8601)." }),
    validTo: z.string().openapi({ description: "End of the signer certificate's validity (ISO 8601)." }),
    issuer: z.string().openapi({ description: "The signer certificate's issuer.", example: "CN=Signet Development CA" }),
  })
  .openapi("VerifyKeyResponse");
