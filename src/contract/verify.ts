import { z } from "./zod";
import { COVERAGE_LEVELS, MODIFICATION_LEVELS } from "../pdf/verify/status";
import { EXAMPLE_PDF_BASE64 } from "./examples";
import { DocumentInput } from "./document";

/**
 * Schemas of `POST /v1/verify` and `GET /v1/verify/key` (interface.md): the
 * request is validated with them; the response schemas document the report in
 * `/openapi.json`.
 */

export const VerifyRequestFields = z.strictObject({}).openapi("VerifyRequestFields", {
  description:
    "The JSON part `request` of a multipart verify request: optional, and empty (the document is the part `file`).",
});

export const VerifyMultipart = z
  .object({
    file: z.string().openapi({
      type: "string",
      format: "binary",
      description: "The PDF, as `FormData.append('file', blob, name)` sends it.",
    }),
    request: VerifyRequestFields.optional(),
  })
  .openapi("VerifyMultipart");

export const VerifyRequest = z
  .object({ document: DocumentInput })
  .openapi("VerifyRequest", { example: { document: { base64: `data:application/pdf;base64,${EXAMPLE_PDF_BASE64}` } } });

/** A verify request after validation: the input of operations/verify.ts. */
export type VerifyRequestBody = z.output<typeof VerifyRequest>;

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

const CertificateRevocationStatus = z
  .object({
    subject: z.string().openapi({ description: "The certificate's subject." }),
    chain: z
      .enum(["signer", "timestamp"])
      .openapi({ description: "The signer's chain, or a time-stamp authority's (signature or document time-stamp)." }),
    status: z.enum(["good", "revoked", "unknown"]).openapi({
      description:
        "What the deciding OCSP response or CRL says; `unknown` when none speaks for the certificate (or the responder does not know it).",
    }),
    source: z.enum(["dss", "cms", "ocsp", "crl", "none"]).openapi({
      description:
        "Where the deciding data came from: the document's DSS, the CMS (the signature's or its time-stamp's `adbe-revocationInfoArchival` or `crls`), an OCSP responder or CRL asked now (`VERIFY_ONLINE_REVOCATION=true`), or nowhere.",
    }),
    thisUpdate: z.string().nullable().openapi({ description: "thisUpdate of the OCSP status or CRL." }),
    nextUpdate: z
      .string()
      .nullable()
      .openapi({ description: "nextUpdate, when the data says when it will be renewed." }),
    producedAt: z.string().nullable().openapi({ description: "When the OCSP response was signed (null for CRLs)." }),
    revocationTime: z
      .string()
      .nullable()
      .openapi({ description: "When the certificate was revoked (status `revoked`)." }),
  })
  .openapi("CertificateRevocationStatus");

export const VerifiedSigner = z
  .object({
    kind: z
      .enum(["signature", "timestamp"])
      .openapi({ description: "Document time-stamps (ETSI.RFC3161) are `timestamp`." }),
    name: z.string().nullable().openapi({ example: "Ada Lovelace" }),
    email: z.string().nullable().openapi({ example: "ada@example.com" }),
    signedAt: z.string().nullable().openapi({ example: "2026-11-21T10:00:00Z" }),
    signedAtSource: z.enum(["timestamp", "claimed"]).nullable(),
    fieldName: z.string().openapi({ example: "Signature1" }),
    subFilter: z.string().nullable().openapi({ example: "ETSI.CAdES.detached" }),
    digestAlgorithm: z.string().nullable().openapi({ example: "SHA-256" }),
    signatureAlgorithm: z.string().nullable().openapi({ example: "ECDSA" }),
    intact: z
      .boolean()
      .openapi({ description: "The digest of the signed bytes matches and the byte range is well-formed." }),
    signatureValid: z
      .boolean()
      .nullable()
      .openapi({ description: "The signature value verifies; null when it could not be checked." }),
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
      description:
        "From the evidence Signet embedded with this signature (signet-audit*.json, an associated file of its widget's appearance); null for other tools.",
    }),
    metadata: z.unknown().openapi({ description: "What Signet embedded with this signature; null for other tools." }),
    auditTrail: z
      .unknown()
      .openapi({ description: "The audit trail Signet embedded with this signature; null for other tools." }),
    level: z.enum(["B-B", "B-T", "B-LT", "B-LTA"]).nullable().openapi({
      description:
        "PAdES baseline level (ETSI EN 319 142-1): B-B, B-T (signature or later document time-stamp), B-LT (DSS with revocation data for every certificate of the signer's and its time-stamps' chains), B-LTA (and a document time-stamp over that data). Null for document time-stamps and for signatures that are not baseline PAdES (adbe.pkcs7.*, or a CMS outside the baseline profile).",
    }),
    indication: z.enum(["TOTAL_PASSED", "TOTAL_FAILED", "INDETERMINATE"]).nullable().openapi({
      description:
        "ETSI EN 319 102-1 validation result at the best proof of existence (the earliest valid signature or document time-stamp over the signature): revocation and expiry after that time do not fail the signature. Independent of `valid`, which keeps its meaning.",
    }),
    subIndication: z
      .enum([
        "FORMAT_FAILURE",
        "HASH_FAILURE",
        "SIG_CRYPTO_FAILURE",
        "NO_SIGNING_CERTIFICATE_FOUND",
        "NO_CERTIFICATE_CHAIN_FOUND",
        "CHAIN_CONSTRAINTS_FAILURE",
        "CRYPTO_CONSTRAINTS_FAILURE",
        "CRYPTO_CONSTRAINTS_FAILURE_NO_POE",
        "REVOKED_NO_POE",
        "REVOKED_CA_NO_POE",
        "OUT_OF_BOUNDS_NO_POE",
        "OUT_OF_BOUNDS_NOT_REVOKED",
        "NOT_YET_VALID",
        "TRY_LATER",
      ])
      .nullable()
      .openapi({
        description: "Why the indication is not TOTAL_PASSED (docs/verify.md lists each); null with TOTAL_PASSED.",
      }),
    revocation: z.array(CertificateRevocationStatus).openapi({
      description: "One entry per certificate of the signer's and time-stamp authorities' chains, below their roots.",
    }),
  })
  .openapi("VerifiedSigner");

export const VerifyResponse = z
  .object({
    valid: z.boolean().openapi({
      description:
        "At least one signature; all intact, cryptographically valid, trusted, covering the whole file or a whole revision; later changes allowed by the signatures (and any certification).",
    }),
    reason: z
      .string()
      .openapi({ example: "All 1 signature(s) are intact, cover the document and chain to a trusted root." }),
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
    version: z.string().openapi({
      description:
        "Key version (SuperDoc's field): `v<year the certificate starts>-<first 8 hex of sha256>`, new with every key.",
      example: "v2026-3f2a9c0d",
    }),
    algorithm: z.string().openapi({ description: "How signatures are made with this key.", example: "RSA-SHA256" }),
    publicKey: z.string().openapi({
      description: "The signer's public key as PEM (SubjectPublicKeyInfo).",
      example:
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA...\n-----END PUBLIC KEY-----\n",
    }),
    fingerprint: z.string().openapi({
      description: "SHA-256 of the signer certificate as upper-case hex pairs joined by `:`.",
      example: "3F:2A:9C:0D:...",
    }),
    validFrom: z.string().openapi({ description: "Start of the signer certificate's validity (ISO 8601)." }),
    validTo: z.string().openapi({ description: "End of the signer certificate's validity (ISO 8601)." }),
    issuer: z
      .string()
      .openapi({ description: "The signer certificate's issuer.", example: "CN=Signet Development CA" }),
  })
  .openapi("VerifyKeyResponse");
