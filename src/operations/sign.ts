import type { Config, SignatureLevel, SigningKeySource } from "../config";
import { buildCadesDetachedSignature } from "../cms/cades";
import { loadKmsSigningIdentity, loadSigningIdentity, type SigningIdentity } from "../cms/signing-identity";
import { DIGEST_LENGTHS } from "../cms/signers/signer";
import { requestTimestamp } from "../cms/tsa";
import {
  ConfigurationError,
  DocumentLocked,
  EventIdConflict,
  InvalidRequest,
  PdfEncrypted,
  TsaFailed,
  UnprocessableContent,
} from "../errors";
import { buildCertificatePages } from "../evidence/certificate-page";
import { loadCertificateFonts } from "../evidence/fonts";
import { QR_MAX_BYTES } from "../evidence/qr";
import type { PreDecodedValues } from "../input/base64";
import { loadDocumentFor, type DocumentInput, type LoadedDocument } from "../input/document";
import { PdfReader } from "../pdf/reader";
import type { FontSource } from "../render/fonts/types";
import { convertDocxToPdf } from "./convert";
import { inspectForSigning, type SigningInspection } from "../pdf/sign/inspect";
import { withoutLeadingBytes } from "../pdf/sign/leading-bytes";
import { planSignature, type SignaturePlan, type SignatureRequest } from "./signature-plan";
import { signPdf, type SignedPdf } from "../pdf/sign/sign-pdf";
import type { AppendablePages } from "../pdf/writer/appendable-pages";
import type { SigningEventRecord, SigningEventStore } from "../store/signing-events";
import { sha256, sha256Hex, sha256Segments, toHex, utf8 } from "../util/bytes";
import { extendToLongTerm } from "./long-term-signing";
import { canonicalJson } from "../util/canonical-json";
import type { SignRequestBody } from "../contract/sign";

/**
 * The signing operation: document in, signed PDF out, event recorded. Knows
 * nothing of HTTP; the route hands it validated input and shapes the result.
 */

/**
 * The validated request (src/contract/sign.ts); `signature` holds the PAdES level, the field, the appearance and the
 * reason. Its document may also be one that arrived as bytes in a binary request (`DocumentInput.received`).
 */
export type SignInput = Omit<SignRequestBody, "document"> & { document: DocumentInput };

export interface SignSecrets {
  /** `SIGNING_KEY`, or a key in AWS KMS (config.ts signingKeySource). */
  key: SigningKeySource;
  signingCertPem: string | undefined;
}

export interface SignResultFields {
  signature: {
    level: SignatureLevel;
    fieldName: string;
    signedAt: string;
    certificateSha256: string;
    timestamp: null | { time: string; tsa: string | null; serialNumber: string };
    /** B-LTA: the document time-stamp over the signature and its validation data. */
    documentTimestamp: null | { time: string; tsa: string | null; serialNumber: string };
  };
  eventId: string;
  sha256: string;
  /** The event's evidence reference (GET /v1/verify/ref/{ref}); null only for events recorded before references. */
  reference: string | null;
  warnings: string[];
}

export type SignResult = SignResultFields &
  (
    | { output: { segments: Uint8Array[]; length: number } }
    | { output: { stream: ReadableStream<Uint8Array>; length: number } }
  );

export interface SignDeps {
  config: Config;
  secrets: SignSecrets;
  store: SigningEventStore;
  keyId: string;
  selfHost?: string;
  /** Large base64 values the HTTP edge decoded while reading the body. */
  preDecoded?: PreDecodedValues;
  /** Fonts for rendering DOCX input (the static-assets binding in the worker). */
  fonts?: FontSource;
  /**
   * Runs work that may outlive the response (the worker's `waitUntil`): storing the output for
   * replays goes on while the response streams. Without it, that work is awaited before returning.
   */
  background?: (task: Promise<unknown>) => void;
  /**
   * Resolves when the caller's key is confirmed, throws when it was refused: the HTTP edge may check a
   * recently seen key in parallel with the work (http/middleware/auth.ts). Awaited before the event
   * is recorded, so nothing is written for a refused key.
   */
  keyConfirmed?: () => Promise<void>;
}

/**
 * Signs in named phases (as pyHanko's PdfSigner does): a session (who signs, at which level, which
 * document, is it a retry), the document to be signed (rendered, inspected, the field and appearance
 * planned, the evidence and certificate pages built), the signature itself (CMS and time-stamp into
 * the byte ranges), post-signature processing (B-LT/B-LTA validation data and document time-stamp),
 * then the event recorded and the output kept for retries.
 */
export async function signDocument(input: SignInput, deps: SignDeps): Promise<SignResult> {
  const session = await initSigningSession(input, deps);
  if (session.replay) return session.replay;
  const tbs = await prepareTbsDocument(input, session, deps);
  const signed = await performSignature(input, session, tbs, deps);
  const output = await postSignatureProcessing(session, tbs, signed, deps);
  return recordSigningEvent(input, session, output, deps);
}

/** Who signs with which key at which level, the document loaded and hashed, and whether this is a retry. */
interface SigningSession {
  identity: SigningIdentity;
  level: SignatureLevel;
  /** The time-stamp authority of this signature (null at B-B). */
  tsaUrl: string | null;
  doc: LoadedDocument & { type: "pdf" | "docx" };
  inputSha256: string;
  requestSha256: string;
  eventId: string;
  signedAt: Date;
  /** The recorded answer when the request is a retry of a recorded event. */
  replay: SignResult | null;
}

async function initSigningSession(input: SignInput, deps: SignDeps): Promise<SigningSession> {
  const { config, store, keyId } = deps;
  checkAuditTrail(input, config);
  const identity = await signingIdentity(deps.secrets);
  const level = requestedLevel(input, config);
  // A named event may have been recorded already: asked now, answered while the document loads.
  const prior = input.eventId !== undefined ? store.find(keyId, input.eventId) : null;
  prior?.catch(() => {});

  const doc = await loadDocumentFor("sign", ["pdf", "docx"], input.document, deps);
  const inputSha256 = doc.sha256 ?? (await sha256Hex(doc.bytes));
  const requestSha256 = await sha256Hex(canonicalJson({ ...input, document: { sha256: inputSha256 } }));
  const replay = prior ? await replayOf(store, await prior, requestSha256) : null;
  return {
    identity,
    level,
    tsaUrl: level === "B-B" ? null : config.tsaUrl,
    doc,
    inputSha256,
    requestSha256,
    eventId: input.eventId ?? crypto.randomUUID(),
    signedAt: new Date(),
    replay,
  };
}

function checkAuditTrail(input: SignInput, config: Config): void {
  if (input.auditTrail.length > config.maxAuditTrailEntries) {
    throw new InvalidRequest("invalid_request", `auditTrail: at most ${config.maxAuditTrailEntries} entries`, {
      errors: [{ path: "auditTrail", message: `At most ${config.maxAuditTrailEntries} entries` }],
    });
  }
  if (!input.auditTrail.some((e) => e.type === "submit")) {
    throw new UnprocessableContent(
      "audit_trail_missing_submit",
      'The audit trail must include at least one event with type "submit".',
    );
  }
}

/** The document as it will be signed: its reader and inspection, the signature's plan, evidence and pages. */
interface TbsDocument {
  reader: PdfReader;
  inspection: SigningInspection;
  plan: SignaturePlan;
  reference: string;
  evidence: Uint8Array;
  certificatePages: AppendablePages | undefined;
  warnings: string[];
}

async function prepareTbsDocument(input: SignInput, session: SigningSession, deps: SignDeps): Promise<TbsDocument> {
  const { doc, identity, level, signedAt } = session;
  const { config } = deps;
  // A DOCX is rendered first (as /v1/annotate?to=pdf does); the signature covers that PDF.
  const pdfBytes = doc.type === "docx" ? await convertDocxToPdf(doc.bytes, deps.fonts) : doc.bytes;
  const warnings: string[] = [];
  const { reader, inspection } = openForSigning(pdfBytes, warnings);
  // A countersignature adds only what every earlier signature allows (a signature field and its
  // widget, the evidence inside its appearance): never pages, never catalog changes.
  const certificateRequested = input.certificate?.enabled ?? input.certificate?.enable ?? true;
  if (inspection.countersign && certificateRequested) warnings.push(countersignWarning(inspection));

  const plan = planSignature(reader, inspection, input.signature, {
    identity,
    config,
    signerName: input.signer.name,
    signedAt,
    timestamped: session.tsaUrl !== null,
    fonts: loadCertificateFonts,
    preDecoded: deps.preDecoded,
  });
  warnings.push(...plan.warnings);
  const reference = mintReference();
  const evidence = {
    signet: { version: 1, kind: "signing-event" },
    eventId: session.eventId,
    signedAt: signedAt.toISOString(),
    signer: input.signer,
    document: {
      sha256: session.inputSha256,
      type: doc.type,
      pages: inspection.pageCount,
      sizeBytes: doc.bytes.length,
      ...(doc.type === "docx" ? { renderedPdfSha256: await sha256Hex(pdfBytes) } : {}),
    },
    certificate: { subject: identity.signerSubject, sha256: identity.signerCertSha256 },
    metadata: input.metadata ?? null,
    auditTrail: input.auditTrail,
  };
  const certificatePages =
    certificateRequested && !inspection.countersign
      ? await buildCertificatePages(
          {
            signer: input.signer,
            eventId: session.eventId,
            signedAt,
            documentSha256: session.inputSha256,
            documentPages: inspection.pageCount,
            certificate: {
              subject: identity.signerSubject,
              issuer: identity.signerIssuer,
              sha256: identity.signerCertSha256,
            },
            auditTrail: input.auditTrail,
            qrPayload: verificationQrPayload(config.publicBaseUrl, reference),
            reference,
            level,
          },
          await loadCertificateFonts(),
        )
      : undefined;
  return { reader, inspection, plan, reference, evidence: utf8(JSON.stringify(evidence)), certificatePages, warnings };
}

/** The PDF opened and inspected for signing: not encrypted, not locked, any bytes before %PDF- left out (with a warning). */
function openForSigning(
  pdfBytes: Uint8Array,
  warnings: string[],
): { reader: PdfReader; inspection: SigningInspection } {
  let reader = PdfReader.open(pdfBytes);
  if (reader.encrypted) throw new PdfEncrypted();
  let inspection = inspectForSigning(reader);
  const withoutPrefix = withoutLeadingBytes(reader, inspection.countersign);
  if (withoutPrefix.dropped) {
    reader = withoutPrefix.reader;
    inspection = inspectForSigning(reader);
    warnings.push(
      `The ${withoutPrefix.dropped} bytes before %PDF- were left out of the signed document: validators disagree where a signature's byte ranges start in a file that does not begin with %PDF-.`,
    );
  }
  if (inspection.docMdp === 1) {
    throw new DocumentLocked(
      "The document is certified with no changes allowed (DocMDP P1): it cannot be signed again.",
    );
  }
  return { reader, inspection };
}

interface PerformedSignature {
  signed: SignedPdf;
  /** The signature time-stamp, when the TSA answered. */
  timestamp: SignResultFields["signature"]["timestamp"];
  warnings: string[];
}

/** The incremental update written and its byte ranges signed (CMS, with the signature time-stamp above B-B). */
async function performSignature(
  input: SignInput,
  session: SigningSession,
  tbs: TbsDocument,
  deps: SignDeps,
): Promise<PerformedSignature> {
  const { identity, tsaUrl } = session;
  const { config } = deps;
  const warnings = [...tbs.warnings];
  let timestamp: SignResultFields["signature"]["timestamp"] = null;
  const stampWith = tsaUrl
    ? async (signatureValue: Uint8Array) => {
        const stamp = await requestTimestamp({ url: tsaUrl, messageImprint: await sha256(signatureValue) });
        timestamp = { time: stamp.genTime.toISOString(), tsa: stamp.tsaName, serialNumber: stamp.serialNumber };
        return stamp.token;
      }
    : undefined;

  const signed = await signPdf({
    reader: tbs.reader,
    inspection: tbs.inspection,
    signedAt: session.signedAt,
    signerName: input.signer.name,
    signerEmail: input.signer.email,
    reason: tbs.plan.reason,
    field: tbs.plan.field ?? undefined,
    appearance: tbs.plan.appearance,
    subFilter: tbs.plan.subFilter,
    attachment: { bytes: tbs.evidence, description: "Signet signing evidence: signer, audit trail and metadata" },
    certificatePages: tbs.certificatePages,
    contentsCapacity: await placeholderCapacity(identity, tsaUrl),
    digestAlgorithm: identity.signer.digestAlgorithm,
    buildSignature: async (digest) => {
      if (!stampWith) return buildCadesDetachedSignature({ identity, contentDigest: digest });
      try {
        return await buildCadesDetachedSignature({ identity, contentDigest: digest, timestamp: stampWith });
      } catch (err) {
        if (!(err instanceof TsaFailed) || !config.tsaOptional || tbs.plan.timestampRequired) throw err;
        warnings.push(
          `The time-stamp authority failed (${err.message}); the signature is PAdES B-B without a time-stamp.`,
        );
        return buildCadesDetachedSignature({ identity, contentDigest: digest });
      }
    },
  });
  return { signed, timestamp, warnings };
}

interface SignedOutput {
  segments: Uint8Array[];
  length: number;
  sha256: string;
  fields: SignResultFields;
}

/** B-LT/B-LTA: validation data and the document time-stamp appended; then the answer's fields. */
async function postSignatureProcessing(
  session: SigningSession,
  tbs: TbsDocument,
  performed: PerformedSignature,
  deps: SignDeps,
): Promise<SignedOutput> {
  const { signed, timestamp } = performed;
  const { level, tsaUrl } = session;
  const warnings = [...performed.warnings];
  let output = { segments: signed.segments, length: signed.length, sha256: signed.sha256 };
  let reached: SignatureLevel = timestamp ? "B-T" : "B-B";
  let documentTimestamp: SignResultFields["signature"]["documentTimestamp"] = null;
  if ((level === "B-LT" || level === "B-LTA") && tsaUrl) {
    if (reached === "B-B") {
      warnings.push(`Without a signature time-stamp the signature cannot be raised to ${level}.`);
    } else {
      const extended = await extendToLongTerm({
        segments: signed.segments,
        fieldName: signed.fieldName,
        level,
        tsaUrl,
        config: deps.config,
        selfHost: deps.selfHost,
        timestampCapacity: (await placeholderCapacity(session.identity, tsaUrl)) + TIMESTAMP_MARGIN,
      });
      reached = extended.level;
      documentTimestamp = extended.documentTimestamp;
      warnings.push(...extended.warnings);
      const length = extended.segments.reduce((n, s) => n + s.length, 0);
      output = { segments: extended.segments, length, sha256: toHex(await sha256Segments(extended.segments)) };
    }
  }
  const fields: SignResultFields = {
    signature: {
      level: reached,
      fieldName: signed.fieldName,
      signedAt: session.signedAt.toISOString(),
      certificateSha256: session.identity.signerCertSha256,
      timestamp,
      documentTimestamp,
    },
    eventId: session.eventId,
    sha256: output.sha256,
    reference: tbs.reference,
    warnings,
  };
  return { ...output, fields };
}

/**
 * Records the event, then keeps the output for replays when the caller named the event. The record
 * comes first: a signed output (the signer's name, email and address) is never stored without one,
 * and its storing goes on while the response streams (a retry meanwhile waits for it: replayOf).
 */
async function recordSigningEvent(
  input: SignInput,
  session: SigningSession,
  output: SignedOutput,
  deps: SignDeps,
): Promise<SignResult> {
  const { store, keyId } = deps;
  const { eventId } = session;
  const { fields } = output;
  const replayKey =
    input.eventId !== undefined ? `replays/${keyId}/${await sha256Hex(eventId)}/${output.sha256}.pdf` : null;
  await deps.keyConfirmed?.();
  const recorded = await store.insert({
    keyId,
    eventId,
    requestSha256: session.requestSha256,
    signerName: input.signer.name,
    signerEmail: input.signer.email,
    inputSha256: session.inputSha256,
    outputSha256: output.sha256,
    replayKey,
    responseJson: JSON.stringify(fields),
    signedAt: fields.signature.signedAt,
    reference: fields.reference,
  });
  if (!recorded) {
    // A concurrent request with the same eventId won the race: answer as a retry would.
    const replay = await replayOf(store, await store.find(keyId, eventId), session.requestSha256);
    if (replay) return replay;
    throw new EventIdConflict(`eventId "${eventId}" was already used.`);
  }
  if (replayKey) {
    const storing = store.putReplay(replayKey, output.segments, output.length).catch(async (err: unknown) => {
      // Without its output the event can no longer be replayed: say so to later retries (409), not 500.
      await store.forgetReplay(keyId, eventId, replayKey).catch(() => {});
      throw err;
    });
    if (deps.background) deps.background(storing);
    else await storing;
  }
  return { ...fields, output: { segments: output.segments, length: output.length } };
}

/** The level asked for (request, else SIGNATURE_LEVEL); levels above B-B need a time-stamp authority. */
function requestedLevel(input: SignInput, config: Config): SignatureLevel {
  if (!input.signature?.level && config.signatureLevel === null) {
    throw new ConfigurationError("SIGNATURE_LEVEL must be one of B-B, B-T, B-LT, B-LTA.");
  }
  const level = input.signature?.level ?? config.signatureLevel!;
  if (level !== "B-B" && !config.tsaUrl) {
    throw new UnprocessableContent(
      "signature_level_unavailable",
      `PAdES ${level} needs a signature time-stamp, and this deployment has no time-stamp authority (TSA_URL).`,
    );
  }
  return level;
}

/** The recorded answer to a retry of `prior`'s request, or null when the event is new. */
async function replayOf(
  store: SigningEventStore,
  prior: SigningEventRecord | null,
  requestSha256: string,
): Promise<SignResult | null> {
  if (!prior) return null;
  const { eventId } = prior;
  if (prior.requestSha256 !== requestSha256) {
    throw new EventIdConflict(`eventId "${eventId}" was already used with a different request.`);
  }
  const recent = Date.now() - Date.parse(prior.signedAt) < REPLAY_WAIT_RECENT_MS;
  const stored = !prior.replayKey
    ? null
    : recent
      ? await waitForReplay(store, prior.keyId, eventId, prior.replayKey)
      : await store.getReplay(prior.replayKey);
  if (!stored) throw new EventIdConflict(`eventId "${eventId}" was already used and its output is no longer kept.`);
  const fields = JSON.parse(prior.responseJson) as SignResultFields;
  fields.reference ??= prior.reference ?? null;
  return { ...fields, output: { stream: stored.body, length: stored.size } };
}

/**
 * The stored output of a recent event. The record is written before the output is stored, so a
 * retry that arrives while the first request's output is still being stored waits for it (about
 * REPLAY_WAIT_MS at most), unless storing failed (the record then no longer names it).
 */
async function waitForReplay(store: SigningEventStore, keyId: string, eventId: string, replayKey: string) {
  for (let waited = 0, step = 50; ; waited += step, step *= 2) {
    const stored = await store.getReplay(replayKey);
    if (stored || waited >= REPLAY_WAIT_MS) return stored;
    await new Promise((resolve) => setTimeout(resolve, step));
    const record = await store.find(keyId, eventId);
    if (record?.replayKey !== replayKey) return null;
  }
}
const REPLAY_WAIT_MS = 6_000;
/** Events older than this are not waited for: their output was stored long ago, or never will be. */
const REPLAY_WAIT_RECENT_MS = 10 * 60_000;

/** Why a countersigned document has no certificate page, and where the evidence went instead. */
function countersignWarning(inspection: SigningInspection): string {
  const n = inspection.signatureCount;
  const why =
    inspection.docMdp !== null
      ? `The document is certified (DocMDP P${inspection.docMdp})`
      : `The document already carries ${n > 1 ? `${n} signatures` : "a signature"}`;
  return (
    `${why}: Signet did not append the certificate page, because pages added after a signature invalidate it in other validators (Adobe, pyHanko). ` +
    "The signer, audit trail and metadata are embedded in the new signature's own appearance, covered by the signature and returned by /v1/verify."
  );
}

/** A random, unguessable evidence reference: 128 bits as 32 lowercase hex characters. */
function mintReference(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}

/** The certificate page's QR code: the verification address when the public base URL is known (and fits), else the reference. */
export function verificationQrPayload(publicBaseUrl: string | null, reference: string): string {
  const url = publicBaseUrl ? `${publicBaseUrl}/verify#ref=${reference}` : null;
  return url && new TextEncoder().encode(url).length <= QR_MAX_BYTES ? url : reference;
}

// Keys are imported (a KMS key's public key fetched and checked) once per isolate, per setting.
let identityCache: { source: string; identity: Promise<SigningIdentity> } | null = null;

async function signingIdentity(secrets: SignSecrets): Promise<SigningIdentity> {
  const { key, signingCertPem } = secrets;
  if (key.kind === "secret" && (!key.keyPem || !signingCertPem)) {
    throw new ConfigurationError(
      "Signing is not configured: set the SIGNING_KEY and SIGNING_CERT secrets (or SIGNING_KMS=aws with a KMS key).",
    );
  }
  if (!signingCertPem)
    throw new ConfigurationError(
      "Signing is not configured: SIGNING_CERT must hold the certificate chain of the KMS key.",
    );
  const source = `${JSON.stringify(key)}\u0000${signingCertPem}`;
  if (identityCache?.source !== source) {
    const identity =
      key.kind === "secret"
        ? loadSigningIdentity(key.keyPem!, signingCertPem)
        : loadKmsSigningIdentity(key.settings, signingCertPem);
    identityCache = { source, identity };
    // A failed load (a KMS that did not answer) is tried again by the next request.
    identity.catch(() => {
      if (identityCache?.identity === identity) identityCache = null;
    });
  }
  return identityCache.identity;
}

// The placeholder is sized from a trial CMS with a signature value of the key's longest length
// (no signing: a KMS key is not asked), and a trial time-stamp token, once per isolate.
const capacityCache = new Map<string, number>();
const SIGNATURE_MARGIN = 1024;
const TIMESTAMP_MARGIN = 2048;

async function placeholderCapacity(identity: SigningIdentity, tsaUrl: string | null): Promise<number> {
  const key = `${identity.signerCertSha256}|${tsaUrl ?? ""}`;
  const cached = capacityCache.get(key);
  if (cached) return cached;
  const { signer } = identity;
  const sizing = { ...identity, signer: { ...signer, sign: async () => new Uint8Array(signer.maxSignatureLength) } };
  const trial = await buildCadesDetachedSignature({
    identity: sizing,
    contentDigest: new Uint8Array(DIGEST_LENGTHS[signer.digestAlgorithm]),
  });
  let capacity = trial.length + SIGNATURE_MARGIN;
  if (tsaUrl) {
    try {
      const stamp = await requestTimestamp({ url: tsaUrl, messageImprint: new Uint8Array(32) });
      capacity += stamp.token.length + TIMESTAMP_MARGIN;
    } catch {
      // Size for a typical token; the real request reports the failure.
      return trial.length + SIGNATURE_MARGIN + 8192;
    }
  }
  capacityCache.set(key, capacity);
  return capacity;
}
