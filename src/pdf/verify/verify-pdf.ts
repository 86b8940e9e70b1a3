import { PdfEncrypted, PdfUnparseable } from "../../errors";
import { LIMITS } from "../../limits";
import { latin1Text, toHex } from "../../util/bytes";
import { PdfDict, PdfName, PdfString, type PdfValue } from "../model";
import { PdfBudgetExceeded, PdfReader, type PdfLimits } from "../reader";
import { createSecurityHandler } from "../reader/crypt";
import { textOf } from "../sign/inspect";
import { signetEvidence, type SignetEvidence } from "./audit";
import { evaluateByteRange, type ByteRangeEvaluation } from "./byte-range";
import { verifyCmsSignature } from "../../cms/verify";
import { KNOWN_SUB_FILTERS, type CmsVerification, type CmsVerifier } from "./cms";
import { analyzeModifications, DiffContext, type DiffResult, type View } from "./diff/analyze";
import { digestSegments, signedContent } from "./digest";
import { certificationLevel, fieldLocks, lockCovers } from "./docmdp";
import { findSignatureFields, type SignatureField } from "./fields";
import { parsePdfDate } from "./pdf-date";
import { assessLongTerm, type LongTermEntry } from "./long-term";
import type { RevocationFetcher } from "../../cms/revocation/fetch";
import { allValidSentence, lower, modificationSentence, sentence, signatureLabel, structureFailure } from "./reason";
import {
  ALLOWED_CHANGES,
  allowedAfterCertification,
  CHANGE_LEVELS,
  PDF_PROBLEM,
  reportedLevel,
  type Change,
  type ChangeLevel,
  type DocMdpLevel,
  type DocumentReport,
  type Problem,
  type SignerReport,
  type VerifyReport,
} from "./status";

/**
 * Verification of a signed PDF: every signature field, in revision order, with
 * its structure, coverage, CMS verdict and what later revisions changed; then
 * the `valid` rule of interface.md and a reason naming the first failure.
 * Pure: bytes and options in, a report out; throws `PdfUnparseable` (including
 * budget overruns) and `PdfEncrypted` for files it cannot read.
 */

export interface VerifyPdfOptions {
  /** DER root certificates (TRUSTED_ROOTS and the service's own root). */
  trustAnchors: Uint8Array[];
  /** The CMS verifier (default `verifyCmsSignature`; tests may stub it). */
  verifyCms?: CmsVerifier;
  /** "Now" for certificate expiry (tests). */
  now?: Date;
  /** Lower (or raise) the reader's budgets. */
  limits?: Partial<PdfLimits>;
  /** Also ask OCSP responders and CRL addresses now (VERIFY_ONLINE_REVOCATION). */
  onlineRevocation?: RevocationFetcher;
  /** Lower (or raise) the verifier's own budgets (`LIMITS.verify`). */
  verifyLimits?: Partial<VerifyLimits>;
}

/** The verifier's budgets of `LIMITS.verify`. */
export interface VerifyLimits {
  maxSignatures: number;
  maxSignedBytes: number;
  maxChangedObjects: number;
}

interface Entry {
  field: SignatureField;
  range: ByteRangeEvaluation;
  kind: "signature" | "timestamp";
  subFilter: string | null;
  /** Revision used for the difference analysis (the signed one, or where the dictionary was written). */
  baseRevision: number;
  certification: DocMdpLevel | null;
  diff: DiffResult;
  cms: CmsVerification | null;
  evidence: SignetEvidence | null;
  report: SignerReport;
  /** For files with a damaged xref chain: the number of revisions in the signed bytes alone. */
  prefixRevision?: number;
  /** The most severe change this signature does not allow, and under which rule. */
  disallowed?: { change: Change; rule: string | null; after: string | null };
}

export async function verifyPdf(bytes: Uint8Array, options: VerifyPdfOptions): Promise<VerifyReport> {
  const limits: Partial<PdfLimits> = {
    maxWorkUnits: LIMITS.verify.maxWorkUnits,
    maxParsedObjects: LIMITS.verify.maxParsedObjects,
    ...options.limits,
  };
  const reader = PdfReader.open(bytes, { limits });
  requireDecryptable(reader);
  const budget: VerifyLimits = {
    maxSignatures: options.verifyLimits?.maxSignatures ?? LIMITS.verify.maxSignatures,
    maxSignedBytes: options.verifyLimits?.maxSignedBytes ?? LIMITS.verify.maxSignedBytes,
    maxChangedObjects: options.verifyLimits?.maxChangedObjects ?? LIMITS.verify.maxChangedObjects,
  };

  const entries: Entry[] = findSignatureFields(reader, undefined, budget.maxSignatures).map((field) => {
    const range = evaluateByteRange(reader, field.sig);
    const subFilter = nameOf(reader.resolve(field.sig.get("SubFilter")));
    const type = nameOf(reader.resolve(field.sig.get("Type")));
    const kind = subFilter === "ETSI.RFC3161" || type === "DocTimeStamp" ? "timestamp" : "signature";
    return {
      field,
      range,
      kind,
      subFilter,
      baseRevision:
        range.signedRevision ??
        (range.ranges ? revisionHolding(reader, range.signedEnd) : definingRevision(reader, field)),
      certification: kind === "signature" ? certificationLevel(reader, field.sig) : null,
      diff: { level: "none", changes: [], changedFields: [] },
      cms: null,
      evidence: null,
      report: null as unknown as SignerReport,
    } satisfies Entry;
  });
  // Revision order: where the signed bytes end, then where the dictionary was written.
  entries.sort((a, b) => a.range.signedEnd - b.range.signedEnd || a.baseRevision - b.baseRevision);

  const diffContext = new DiffContext(reader, budget.maxChangedObjects);
  let prefixReaders = MAX_PREFIX_READERS;
  for (const e of entries) {
    const end = e.range.ranges ? e.range.signedEnd : reader.revisions[e.baseRevision - 1]!.endOffset;
    let signed: View | null = e.range.signedRevision !== null ? { reader, revision: e.range.signedRevision } : null;
    if (!signed && e.range.coverage === "partial" && reader.recovered && prefixReaders-- > 0) {
      // The chain of cross-reference sections is damaged, so it says nothing about revisions:
      // when the signed bytes alone are a complete PDF ending at %%EOF, they are the signed revision.
      const prefix = openSignedPrefix(bytes, e.range.signedEnd, limits);
      if (prefix) {
        signed = { reader: prefix, revision: prefix.revisions.length };
        e.range.coverage = "entire_revision";
        e.range.problems = e.range.problems.filter((p) => p.code !== PDF_PROBLEM.coveragePartial);
        e.prefixRevision = prefix.revisions.length;
      }
    }
    e.diff = analyzeModifications(diffContext, signed ?? { reader, revision: e.baseRevision }, end);
    e.evidence =
      signed && e.kind === "signature"
        ? signetEvidence(signed.reader, signed.revision, { ref: e.field.fieldRef, dict: e.field.field })
        : null;
  }

  // CMS, one signature at a time (each streams its byte ranges once per digest algorithm).
  requireHashBudget(entries, budget.maxSignedBytes);
  for (const e of entries) {
    if (!e.range.ranges || !e.range.contents) continue;
    if (!e.subFilter || !KNOWN_SUB_FILTERS.has(e.subFilter)) continue;
    try {
      e.cms = await (options.verifyCms ?? verifyCmsSignature)({
        cms: e.range.contents,
        subFilter: e.subFilter,
        content: signedContent(bytes, e.range.ranges),
        trustAnchors: options.trustAnchors,
        claimedTime: parsePdfDate(textOf(reader.resolve(e.field.sig.get("M")))),
        ...(options.now ? { now: options.now } : {}),
      });
    } catch (err) {
      if (err instanceof PdfBudgetExceeded) throw err;
      e.cms = null;
      e.range.problems.push({
        code: PDF_PROBLEM.cmsUnreadable,
        message: `The signature value could not be read${err instanceof Error && err.message ? `: ${err.message}` : "."}`,
        severity: "error",
      });
    }
  }

  for (const e of entries) e.report = signerReport(reader, e);
  const reason = judge(reader, entries);
  await assessLongTerm(
    reader,
    entries.map((e) => longTermEntry(reader, e)),
    {
      anchors: options.trustAnchors,
      online: options.onlineRevocation,
      now: options.now ?? new Date(),
    },
  );
  const signers = entries.map((e) => e.report);
  const lastSignature =
    [...signers].reverse().find((s) => s.kind === "signature") ?? signers[signers.length - 1] ?? null;
  const lastEvidence = [...entries].reverse().find((e) => e.evidence)?.evidence ?? null;

  const document: DocumentReport = {
    sha256: toHex(await digestSegments("SHA-256", [bytes])),
    sizeBytes: bytes.length,
    pages: pageCount(reader),
    pdfVersion: pdfVersion(reader),
    revisions: reader.revisions.length,
    signatureCount: signers.length,
    title: documentTitle(reader),
    auditTrail: lastEvidence?.auditTrail ?? null,
    eventId: lastEvidence?.eventId ?? null,
  };
  return { valid: reason.valid, reason: reason.text, signer: lastSignature, signers, document };
}

// ------------------------------------------------------------------ the valid rule

function judge(reader: PdfReader, entries: Entry[]): { valid: boolean; text: string } {
  if (entries.length === 0) return { valid: false, text: "The document has no signatures." };
  const certIndex = entries.findIndex((e) => e.certification !== null);
  const lastSignature = entries.map((e) => e.kind).lastIndexOf("signature");

  let firstFailure: string | null = null;
  entries.forEach((e, i) => {
    const s = e.report;
    const label = signatureLabel(s, i);
    const fail = (text: string) => {
      firstFailure ??= text;
    };

    // What may change after this signature.
    let allowed: ReadonlySet<ChangeLevel>;
    let ruleName: string | null;
    const cert = certIndex >= 0 && i >= certIndex ? entries[certIndex]!.certification! : null;
    if (cert !== null) {
      allowed = allowedAfterCertification(cert);
      ruleName = `the certification of signature ${certIndex + 1} (DocMDP P${cert}: ${CERT_ALLOWS[cert]})`;
    } else if (i >= lastSignature) {
      allowed = ALLOWED_CHANGES.afterLastSignature;
      ruleName = null;
    } else {
      allowed = ALLOWED_CHANGES.approval;
      ruleName = null;
    }
    const disallowed = mostSevere(e.diff.changes.filter((c) => !allowed.has(c.level)));
    if (disallowed) {
      const after =
        cert === null && i >= lastSignature && disallowed.level !== "other" ? "after the last signature" : null;
      s.problems.push({
        code: after ? PDF_PROBLEM.changedAfterLastSignature : PDF_PROBLEM.modifiedAfterSigning,
        message: sentence(
          `${upper(disallowed.what)} after this signature${disallowed.detail ? ` (${disallowed.detail})` : ""}`,
        ),
        severity: "error",
      });
      e.disallowed = { change: disallowed, rule: ruleName, after };
    }
    if (e.certification !== null && i > 0) {
      s.problems.push({
        code: PDF_PROBLEM.certificationNotFirst,
        message: "This signature certifies the document but is not its first signature.",
        severity: "error",
      });
    }
    for (const lock of fieldLocks(reader, e.field.sig, e.field.lock)) {
      const hit = e.diff.changedFields.find((f) => lockCovers(lock, f));
      if (hit !== undefined) {
        s.problems.push({
          code: PDF_PROBLEM.lockedFieldChanged,
          message: `Form field "${hit}", locked by this signature, was changed afterwards.`,
          severity: "error",
        });
      }
    }

    // The first thing that failed, in order.
    const structure = structureFailure(label, s.problems);
    if (structure) return fail(structure);
    const unreadable = s.problems.find((p) => p.code === PDF_PROBLEM.cmsUnreadable);
    if (unreadable) return fail(`${label} could not be checked: ${lower(unreadable.message)}`);
    if (e.subFilter === null || !KNOWN_SUB_FILTERS.has(e.subFilter)) {
      return fail(`${label} uses a signature format Signet does not check (${e.subFilter ?? "no /SubFilter"}).`);
    }
    if (!s.intact)
      return fail(
        `${label} is broken: the signed bytes do not match the signature, so the document was changed after signing.`,
      );
    if (s.signatureValid === null) {
      const p = s.problems.find((x) => x.severity === "error");
      return fail(`${label} could not be checked${p ? `: ${lower(sentence(p.message))}` : "."}`);
    }
    if (!s.signatureValid) {
      const p = s.problems.find((x) => x.severity === "error");
      return fail(`${label} is not cryptographically valid${p ? `: ${lower(sentence(p.message))}` : "."}`);
    }
    if (!s.trusted) {
      const issuer = s.certificate?.issuer ? ` (issued by ${s.certificate.issuer})` : "";
      return fail(`${label} is intact, but its certificate${issuer} does not chain to a trusted root.`);
    }
    if (e.disallowed)
      return fail(modificationSentence(label, e.disallowed.change, e.disallowed.rule, e.disallowed.after !== null));
    const other = s.problems.find((p) => p.severity === "error");
    if (other) return fail(`${label} is intact, but ${lower(sentence(other.message))}`);
  });
  if (firstFailure) return { valid: false, text: firstFailure };
  return { valid: true, text: allValidSentence(entries.length) };
}

const CERT_ALLOWS: Record<DocMdpLevel, string> = {
  1: "no changes",
  2: "form filling and signatures only",
  3: "form filling, annotations and signatures only",
};

/**
 * Each signature hashes the bytes it covers, so many signatures over a large file hash it many
 * times: refused (`pdf_too_complex`) before any hashing when together they pass the budget.
 */
function requireHashBudget(entries: Entry[], maxSignedBytes: number): void {
  let total = 0;
  for (const e of entries) if (e.range.ranges && e.range.contents) total += e.range.ranges[1] + e.range.ranges[3];
  if (total > maxSignedBytes) {
    throw new PdfBudgetExceeded(
      `Verifying the ${entries.length} signatures of this PDF means hashing ${total} bytes; Signet hashes at most ${maxSignedBytes} per document (limit verify.maxSignedBytes).`,
    );
  }
}

function mostSevere(changes: Change[]): Change | null {
  let best: Change | null = null;
  for (const c of changes) if (!best || CHANGE_LEVELS.indexOf(c.level) > CHANGE_LEVELS.indexOf(best.level)) best = c;
  return best;
}

// ------------------------------------------------------------------ one signer

/**
 * What the long-term assessment (revocation, level, indication) reads of an entry. Which
 * later changes fail the indication follows EU DSS's default policy: pages added or removed
 * since the signed revision, a certification's DocMDP level broken, a locked field changed;
 * other changes weigh on `valid` (interface.md's stricter rule), not on the indication.
 */
function longTermEntry(reader: PdfReader, e: Entry): LongTermEntry {
  const problems = e.report.problems;
  return {
    report: e.report,
    kind: e.kind,
    subFilter: e.subFilter,
    cms: e.range.contents,
    hasClaimedTime: e.field.sig.has("M"),
    signedEnd: e.range.signedEnd,
    signedRevision: e.range.signedRevision ?? e.prefixRevision ?? null,
    wellFormed:
      structureFailure("", problems) === null &&
      e.cms !== null &&
      e.subFilter !== null &&
      KNOWN_SUB_FILTERS.has(e.subFilter) &&
      !problems.some(
        (p) => p.severity === "error" && (p.code === PDF_PROBLEM.cmsUnreadable || p.code === "cms_malformed"),
      ),
    modificationsAllowed:
      !pageCountChanged(reader, e.range.signedRevision) &&
      !(e.disallowed && e.disallowed.rule !== null) &&
      !problems.some((p) => p.code === PDF_PROBLEM.lockedFieldChanged),
    dictionaryType: nameOf(reader.resolve(e.field.sig.get("Type"))),
    signedDigest: async () => (e.range.ranges ? signedContent(reader.bytes, e.range.ranges).digest("SHA-256") : null),
  };
}

function pageCountChanged(reader: PdfReader, signedRevision: number | null): boolean {
  if (signedRevision === null || signedRevision === reader.revisions.length) return false;
  try {
    return reader.pages(signedRevision).length !== reader.pages().length;
  } catch (e) {
    if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
    return false;
  }
}

function signerReport(reader: PdfReader, e: Entry): SignerReport {
  const sig = e.field.sig;
  const cms = e.cms;
  const structureOk = !e.range.problems.some((p) => p.severity === "error");
  const claimed = parsePdfDate(textOf(reader.resolve(sig.get("M"))));
  const signet = e.evidence !== null || isSignetBuild(reader, sig);
  const sigName = textOf(reader.resolve(sig.get("Name")));
  const sigContact = textOf(reader.resolve(sig.get("ContactInfo")));
  const certName = cms?.certificate?.commonName ?? null;
  const certEmail = cms?.certificate?.email ?? null;
  let name: string | null = null;
  let email: string | null = null;
  if (e.kind === "signature") {
    if (signet) {
      name = sigName ?? e.evidence?.signer?.name ?? certName;
      email = sigContact ?? e.evidence?.signer?.email ?? certEmail;
    } else {
      name = certName ?? sigName;
      email = certEmail;
    }
  }
  const signedAt = cms?.signedAt ?? claimed;
  const problems: Problem[] = [...e.range.problems, ...(cms?.problems ?? []).map(normaliseProblem)];
  const certificate = cms?.certificate
    ? {
        subject: cms.certificate.subject,
        issuer: cms.certificate.issuer,
        serialNumber: cms.certificate.serialNumber,
        notBefore: iso(cms.certificate.notBefore),
        notAfter: iso(cms.certificate.notAfter),
        sha256: cms.certificate.sha256,
      }
    : null;
  return {
    kind: e.kind,
    name,
    email,
    signedAt: signedAt ? iso(signedAt) : null,
    signedAtSource: cms?.signedAtSource ?? (claimed ? "claimed" : null),
    fieldName: e.field.fieldName,
    subFilter: e.subFilter,
    digestAlgorithm: cms?.digestAlgorithm ?? null,
    signatureAlgorithm: cms?.signatureAlgorithm ?? null,
    intact: cms?.intact === true && structureOk,
    signatureValid: cms ? cms.signatureValid : null,
    trusted: Boolean(cms?.trusted),
    coverage: e.range.coverage,
    modifications: reportedLevel(e.diff.level),
    revision: e.range.signedRevision ?? e.prefixRevision ?? null,
    certificate,
    timestamp: (cms?.timestamp ?? null) as SignerReport["timestamp"],
    problems,
    eventId: e.evidence?.eventId ?? null,
    metadata: e.evidence?.metadata ?? null,
    auditTrail: e.evidence?.auditTrail ?? null,
    level: null,
    indication: null,
    subIndication: null,
    revocation: [],
  };
}

function normaliseProblem(p: { code: string; message: string; severity: string }): Problem {
  return { code: p.code, message: p.message, severity: p.severity === "error" ? "error" : "warning" };
}

function isSignetBuild(reader: PdfReader, sig: PdfDict): boolean {
  const build = reader.resolve(sig.get("Prop_Build"));
  if (!(build instanceof PdfDict)) return false;
  const app = reader.resolve(build.get("App"));
  return app instanceof PdfDict && nameOf(reader.resolve(app.get("Name"))) === "Signet";
}

// ------------------------------------------------------------------ damaged files

/** Readers opened on signed prefixes per document (each has its own work budget). */
const MAX_PREFIX_READERS = 8;

/** A reader of the signed bytes alone, when they end at `%%EOF` and read without repair. */
function openSignedPrefix(bytes: Uint8Array, end: number, limits: Partial<PdfLimits> | undefined): PdfReader | null {
  let p = end;
  while (p > 0 && (bytes[p - 1] === 0x0a || bytes[p - 1] === 0x0d || bytes[p - 1] === 0x20) && end - p < 4) p--;
  if (latin1Text(bytes.subarray(Math.max(0, p - 5), p)) !== "%%EOF") return null;
  try {
    const prefix = PdfReader.open(bytes.subarray(0, end), { limits });
    return prefix.recovered ? null : prefix;
  } catch (e) {
    if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
    return null;
  }
}

// ------------------------------------------------------------------ document facts

function requireDecryptable(reader: PdfReader): void {
  if (!reader.encrypted) return;
  const enc = reader.resolve(reader.trailer.get("Encrypt"));
  if (!(enc instanceof PdfDict) || !createSecurityHandler(enc, reader.trailer)) {
    throw new PdfEncrypted(
      "The PDF is encrypted with a password; Signet can verify only documents that open without one.",
    );
  }
}

/** The first revision whose bytes reach `offset` (for signatures whose ranges end elsewhere than at a revision's end). */
function revisionHolding(reader: PdfReader, offset: number): number {
  const revs = reader.revisions;
  for (let k = 0; k < revs.length; k++) if (revs[k]!.endOffset >= offset) return k + 1;
  return revs.length;
}

/** The revision where a signature's dictionary (or its field) was written, for signatures whose bytes say nothing. */
function definingRevision(reader: PdfReader, field: SignatureField): number {
  const num = field.sigRef?.num ?? field.fieldRef?.num;
  const n = reader.revisions.length;
  if (num === undefined) return n;
  const newest = reader.objectOffset(num, n);
  for (let k = 1; k <= n; k++) if (reader.objectOffset(num, k) === newest) return k;
  return n;
}

function pageCount(reader: PdfReader): number {
  try {
    return reader.pages().length;
  } catch (e) {
    if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
    return 0;
  }
}

function pdfVersion(reader: PdfReader): string {
  const header = reader.headerVersion || "1.0";
  try {
    const v = nameOf(reader.resolve(reader.catalog().get("Version")));
    if (v && /^\d+\.\d+$/.test(v) && Number(v) > Number(header)) return v;
  } catch (e) {
    if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
  }
  return header;
}

function documentTitle(reader: PdfReader): string | null {
  try {
    const info = reader.resolve(reader.trailer.get("Info"));
    if (!(info instanceof PdfDict)) return null;
    const t = reader.resolve(info.get("Title"));
    return t instanceof PdfString
      ? textOf(t)
          ?.replace(/\u0000/g, "")
          .trim() || null
      : null;
  } catch (e) {
    if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
    return null;
  }
}

function nameOf(v: PdfValue | undefined): string | null {
  return v instanceof PdfName ? v.name : null;
}

function iso(d: Date | string): string {
  if (typeof d === "string") return d;
  return Number.isNaN(d.getTime()) ? String(d) : d.toISOString().replace(/\.000Z$/, "Z");
}

function upper(s: string): string {
  return s.length ? s[0]!.toUpperCase() + s.slice(1) : s;
}
