/**
 * Long-term validation of a PDF's signatures: for each signature and document time-stamp,
 * the revocation status of every certificate of its chains (signer and time-stamp
 * authorities), its PAdES baseline level (ETSI EN 319 142-1) and its ETSI EN 319 102-1
 * indication, validated at the best proof of existence. Sources of revocation data: the
 * DSS, the signature's and its time-stamps' CMS, and (optionally) the responders now.
 *
 * Levels (EN 319 142-1 6.3, as EU DSS checks them):
 * - B-B: `/SubFilter /ETSI.CAdES.detached`, `/M` present, one SignerInfo, detached, with
 *   certificates, content-type id-data, message-digest, exactly one signing-certificate(-v2)
 *   attribute and no signing-time attribute. Anything else is not a baseline signature: null.
 * - B-T: and a signature time-stamp, or a document time-stamp in a later revision.
 * - B-LT: and a DSS, and revocation data in the document for every certificate of the
 *   signer's and its signature time-stamps' chains below their roots.
 * - B-LTA: and a document time-stamp covering, for each of those certificates, revocation
 *   data (in the DSS revision it covers, or in the CMS).
 */
import type { RevocationFetcher } from "../../cms/revocation/fetch";
import { readSignedMaterial, type SignedMaterial } from "../../cms/revocation/signature-material";
import { CheckBudget, type RevocationItem } from "../../cms/revocation/status";
import { attributeValues, readSignedData } from "../../cms/verify/cms";
import { buildChain } from "../../cms/verify/chain";
import { type ParsedCertificate, summarizeCertificate, tryParseCertificate } from "../../cms/verify/certificate";
import { type ValidationStatus, etsiIndication } from "../../cms/verify/indication";
import { type CertificateRevocation, chainRevocation } from "../../cms/verify/revocation";
import { OID } from "../../cms/oids";
import { hashBytes } from "../../cms/verify/algorithms";
import type { PdfReader } from "../reader";
import { type DssContents, readDss } from "./dss";
import type { PadesLevel, RevocationReport, SignerReport } from "./status";
import { bytesEqual } from "../../util/bytes";

/** What the long-term assessment needs to know of one signature entry of verify-pdf. */
export interface LongTermEntry {
  report: SignerReport;
  kind: "signature" | "timestamp";
  subFilter: string | null;
  /** The CMS (trailing padding removed), null when /Contents is missing or empty. */
  cms: Uint8Array | null;
  /** The signature dictionary has /M. */
  hasClaimedTime: boolean;
  /** End of the signed bytes, and the revision they are (null when not a revision). */
  signedEnd: number;
  signedRevision: number | null;
  /** Byte range, /Contents and CMS are well-formed. */
  wellFormed: boolean;
  /** Later changes are within what the signature allows. */
  modificationsAllowed: boolean;
  /** The signature dictionary's /Type (DocTimeStamp, Sig, or null when absent). */
  dictionaryType: string | null;
  /** The SHA-256 of the signed byte ranges (null when they cannot be read). */
  signedDigest: () => Promise<Uint8Array | null>;
}

export interface LongTermOptions {
  anchors: readonly Uint8Array[];
  online?: RevocationFetcher;
  now: Date;
}

interface Assessed {
  entry: LongTermEntry;
  material: SignedMaterial | null;
  signerPath: ParsedCertificate[];
  anchored: boolean;
  constraintProblem: boolean;
  revocation: CertificateRevocation[];
  /** Per signature time-stamp token: its genTime and whether its chain's status allows relying on it. */
  tokens: { genTime: Date | null; statusOk: boolean; revocation: CertificateRevocation[] }[];
}

const WEAK_ERROR = "weak_algorithm";

export async function assessLongTerm(
  reader: PdfReader,
  entries: readonly LongTermEntry[],
  opts: LongTermOptions,
): Promise<void> {
  const dss = await readDss(reader);
  const anchors = (await Promise.all(opts.anchors.map((a) => tryParseCertificate(a)))).filter(
    (c): c is ParsedCertificate => c !== null,
  );
  const dssCerts = dss.certificates.map((c) => c.certificate);
  const dssItems = dss.revocation.map((r) => r.item);

  const assessed: Assessed[] = [];
  const budget = new CheckBudget();
  for (const entry of entries) assessed.push(await assessEntry(entry, dssCerts, dssItems, anchors, opts, budget));

  for (const a of assessed) {
    const { entry } = a;
    const r = entry.report;
    r.revocation = [...a.revocation, ...a.tokens.flatMap((t) => t.revocation)].map(revocationReport);
    const genTime =
      entry.kind === "timestamp" && r.signedAt && r.signedAtSource === "timestamp" ? new Date(r.signedAt) : null;
    const best = entry.kind === "timestamp" ? genTime : bestSignatureTime(a, assessed);
    const enveloped =
      entry.cms && entry.kind === "signature" && entry.subFilter !== "adbe.pkcs7.sha1"
        ? await envelopedContentMismatch(entry)
        : false;
    const status: ValidationStatus = etsiIndication({
      wellFormed: entry.wellFormed && a.material !== null,
      modificationsAllowed: entry.modificationsAllowed,
      signer: a.material?.signer ?? null,
      signingCertificateMismatch: r.problems.some((p) => p.code === "signing_certificate_mismatch"),
      intact: entry.cms ? r.intact && !enveloped : false,
      signatureValid: r.signatureValid,
      weakAlgorithm: r.problems.some((p) => p.code === WEAK_ERROR && p.severity === "error"),
      anchored: a.anchored,
      chainConstraintProblem: a.constraintProblem,
      revocation: a.revocation,
      bestSignatureTime: best,
      now: opts.now,
    });
    r.indication = status.indication;
    r.subIndication = status.subIndication;
    r.level = entry.kind === "signature" ? await padesLevel(a, assessed, dss) : null;
  }
}

async function assessEntry(
  entry: LongTermEntry,
  dssCerts: ParsedCertificate[],
  dssItems: RevocationItem[],
  anchors: ParsedCertificate[],
  opts: LongTermOptions,
  budget: CheckBudget,
): Promise<Assessed> {
  const out: Assessed = {
    entry,
    material: null,
    signerPath: [],
    anchored: false,
    constraintProblem: false,
    revocation: [],
    tokens: [],
  };
  if (!entry.cms) return out;
  const material = await readSignedMaterial(entry.cms);
  out.material = material;
  if (!material?.signer) return out;
  const tokenCerts = material.timestamps.flatMap((t) => t.certificates);
  const pool = [...material.certificates, ...tokenCerts, ...dssCerts];
  const items = [...dssItems, ...material.revocation, ...material.timestamps.flatMap((t) => t.revocation)];
  const at = entry.report.signedAt ? new Date(entry.report.signedAt) : opts.now;
  const chain = await buildChain(material.signer, pool, anchors, at, opts.now);
  out.signerPath = chain.path;
  out.anchored = chain.anchored;
  out.constraintProblem = chain.constraintProblem !== null;
  const revOpts = { items, pool, anchors, online: opts.online, budget };
  out.revocation = await chainRevocation(chain.path, entry.kind === "signature" ? "signer" : "timestamp", revOpts);
  for (const token of material.timestamps) {
    const genTime = token.genTime;
    if (!token.signer) {
      out.tokens.push({ genTime, statusOk: false, revocation: [] });
      continue;
    }
    const tsaChain = await buildChain(
      token.signer,
      [...token.certificates, ...pool],
      anchors,
      genTime ?? opts.now,
      opts.now,
    );
    const revocation = await chainRevocation(tsaChain.path, "timestamp", revOpts);
    out.tokens.push({ genTime, statusOk: genTime !== null && statusAllows(revocation, genTime), revocation });
  }
  return out;
}

/** A time-stamp can date something only when no certificate of its chain was revoked before it and each has a status. */
function statusAllows(revocation: readonly CertificateRevocation[], genTime: Date): boolean {
  return revocation.every(
    (r) =>
      r.noCheck ||
      r.finding.status === "good" ||
      (r.finding.status === "revoked" && (r.finding.revocationTime?.getTime() ?? 0) > genTime.getTime()),
  );
}

/**
 * The earliest proof of existence of a signature: its own valid signature time-stamp (the
 * verifier chose the earliest that is intact, verifies and is trusted), when the status of
 * the authority's chain allows relying on it, or a valid document time-stamp over it.
 */
function bestSignatureTime(a: Assessed, all: readonly Assessed[]): Date | null {
  const times: number[] = [];
  const r = a.entry.report;
  if (r.signedAtSource === "timestamp" && r.signedAt) {
    const t = Date.parse(r.signedAt);
    if (a.tokens.some((tok) => tok.statusOk && tok.genTime && Math.abs(tok.genTime.getTime() - t) < 1000))
      times.push(t);
  }
  for (const d of all) {
    if (d.entry.kind !== "timestamp" || d.entry.signedEnd < a.entry.signedEnd || d === a) continue;
    const dr = d.entry.report;
    if (!dr.intact || dr.signatureValid !== true || !dr.trusted || !dr.signedAt) continue;
    const t = Date.parse(dr.signedAt);
    if (statusAllows(d.revocation, new Date(t))) times.push(t);
  }
  return times.length ? new Date(Math.min(...times)) : null;
}

function revocationReport(r: CertificateRevocation): RevocationReport {
  const f = r.finding;
  const iso = (d: Date | null) => (d ? d.toISOString().replace(/\.000Z$/, "Z") : null);
  return {
    subject: summarizeCertificate(r.certificate).subject,
    chain: r.chain,
    status: r.noCheck && f.source === "none" ? "good" : f.status,
    source: r.noCheck && f.source === "none" ? "none" : f.source,
    thisUpdate: iso(f.thisUpdate),
    nextUpdate: iso(f.nextUpdate),
    producedAt: iso(f.producedAt),
    revocationTime: iso(f.revocationTime),
  };
}

/**
 * A detached signature's CMS that encapsulates content anyway: per RFC 5652 5.4 the
 * message-digest is then over that content, and it signs the PDF only when that content is
 * the signed byte ranges. True when it is not (EU DSS: TOTAL_FAILED), or when the
 * message-digest does not match it.
 */
async function envelopedContentMismatch(entry: LongTermEntry): Promise<boolean> {
  try {
    const sd = await readSignedData(entry.cms!);
    const si = sd.signerInfos[0];
    if (!sd.eContent || !si) return false;
    const digest = attributeValues(si.signedAttributes, OID.messageDigest)[0]?.[0]?.content;
    const own = await hashBytes("SHA-256", sd.eContent);
    const ranges = await entry.signedDigest();
    if (!ranges || !bytesEqual(own, ranges)) return true;
    if (digest && si.digestName) return !bytesEqual(digest, await hashBytes(si.digestName, sd.eContent));
    return false;
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------ levels

async function isBaselineB(entry: LongTermEntry): Promise<boolean> {
  if (entry.subFilter !== "ETSI.CAdES.detached" || !entry.hasClaimedTime || !entry.cms) return false;
  try {
    const sd = await readSignedData(entry.cms);
    const si = sd.signerInfos[0];
    if (sd.signerInfos.length !== 1 || !si || sd.eContent || sd.certificates.length === 0) return false;
    if (sd.eContentType !== OID.data) return false;
    const attrs = si.signedAttributes;
    const count = (oid: string) => attributeValues(attrs, oid).length;
    if (count(OID.contentType) !== 1 || count(OID.messageDigest) !== 1) return false;
    if (count(OID.signingCertificateV2) + count(OID.signingCertificate) !== 1) return false;
    return count(OID.signingTime) === 0;
  } catch {
    return false;
  }
}

async function padesLevel(a: Assessed, all: readonly Assessed[], dss: DssContents): Promise<PadesLevel | null> {
  const { entry } = a;
  if (!(await isBaselineB(entry))) return null;
  const laterTimestamps = all.filter(
    (d) => d.entry.kind === "timestamp" && d.entry.subFilter === "ETSI.RFC3161" && d.entry.signedEnd > entry.signedEnd,
  );
  const hasT = (a.material?.timestamps.length ?? 0) > 0 || laterTimestamps.length > 0;
  if (!hasT) return "B-B";
  // Every certificate of the signer's, its signature time-stamps' and the document time-stamps'
  // chains (but the last time-stamp's, whose data a later extension adds) has revocation data in the file.
  const docStamps = laterTimestamps.slice(0, -1).flatMap((d) => d.revocation);
  const needed = [...a.revocation, ...a.tokens.flatMap((t) => t.revocation), ...docStamps].filter((r) => !r.noCheck);
  const ltData = dss.present && needed.length > 0 && needed.every((r) => r.embedded.length > 0);
  if (!ltData) return "B-T";
  const revisionOf = (item: RevocationItem | null): number => {
    if (!item || item.origin !== "dss") return 0; // in the CMS: covered by anything after the signature
    return dss.revocation.find((x) => x.item === item)?.revision ?? Infinity;
  };
  // An archive time-stamp: a document time-stamp dictionary (not one typed /Sig). Whether it
  // is valid is the indication's business, not the level's (EU DSS decides levels so too).
  const covering = laterTimestamps.some((d) => {
    if (d.entry.dictionaryType === "Sig") return false;
    const rev = d.entry.signedRevision ?? 0;
    return needed.every((r) => r.embedded.some((f) => revisionOf(f.item) <= rev));
  });
  return covering ? "B-LTA" : "B-LT";
}
