/**
 * Cryptographic verification of one PDF signature's CMS (`/Contents`): what the PDF side
 * of POST /v1/verify calls for every signature field after it has checked the byte
 * ranges. It never throws for a malformed CMS; everything found is in `problems`.
 *
 * Decisions (see also docs/verify.md, "What `valid` means"):
 * - `intact`: the message-digest attribute (or, without signed attributes, the signature
 *   itself; for `adbe.pkcs7.sha1` also the SHA-1 eContent; for document time-stamps the
 *   TSTInfo imprint) matches the signed bytes. `signatureValid`: the signature verifies with
 *   the signer certificate; null only when an algorithm is not supported.
 * - Weak algorithms: MD5 or SHA-1 as the document digest or signature hash is an error
 *   (`weak_algorithm`) in every SubFilter, `adbe.pkcs7.sha1` included: SHA-1 chosen-prefix
 *   collisions are practical, so such a signature no longer proves what was signed. SHA-1
 *   inside a signature time-stamp or on a chain certificate is a warning.
 * - The certificate is judged at `signedAt`: the genTime of the earliest signature
 *   time-stamp that is intact, verifies and chains to a trust anchor (TSA certificate
 *   with id-kp-timeStamping, valid at genTime); else the claimed time (`/M`, else the
 *   signed signing-time attribute); else now.
 * - A signing-certificate(-v2) attribute that does not match the signer certificate is an
 *   error and makes the signature untrusted (the identity shown could be substituted).
 * - Revocation (CRL/OCSP) is not checked.
 */
import { OID } from "../oids";
import { type DigestName, hashBytes, isWeakDigest } from "./algorithms";
import { BerError } from "./ber";
import {
  type CertificateSummary,
  type ParsedCertificate,
  summarizeCertificate,
  tryParseCertificate,
} from "./certificate";
import { buildChain, type ChainResult } from "./chain";
import { CmsError, type SignedData, attributeValues, checkSigner, readSignedData } from "./cms";
import { rsaModulusBits } from "./signature";
import { type TokenVerification, tsaDisplayName, verifyTimestampToken } from "./timestamp";
import { bytesEqual } from "../../util/bytes";

export type { DigestName } from "./algorithms";
export { createHasher, hashBytes } from "./algorithms";

export interface SignedContent {
  /** Digest of the signed byte ranges; null when the caller cannot compute that algorithm. */
  digest(alg: DigestName): Promise<Uint8Array | null>;
}

export interface VerifyCmsOptions {
  /** DER ContentInfo from /Contents (trailing zero padding tolerated). */
  cms: Uint8Array;
  subFilter: "adbe.pkcs7.detached" | "ETSI.CAdES.detached" | "adbe.pkcs7.sha1" | "ETSI.RFC3161" | string;
  content: SignedContent;
  /** DER root certificates. */
  trustAnchors: Uint8Array[];
  /** The /M of the signature dictionary. */
  claimedTime: Date | null;
  /** "Now" for expiry warnings (tests); defaults to the current time. */
  now?: Date;
}

export interface CmsProblem {
  code: string;
  message: string;
  severity: "error" | "warning";
}

export interface CmsTimestamp {
  time: string;
  tsa: string | null;
  serialNumber: string;
  intact: boolean;
  signatureValid: boolean | null;
  trusted: boolean;
}

export interface CmsVerification {
  kind: "signature" | "timestamp";
  digestAlgorithm: string | null;
  signatureAlgorithm: string | null;
  intact: boolean | null;
  signatureValid: boolean | null;
  trusted: boolean;
  signedAt: Date | null;
  signedAtSource: "timestamp" | "claimed" | null;
  certificate: CertificateSummary | null;
  timestamp: CmsTimestamp | null;
  problems: CmsProblem[];
}

/** Signature time-stamps checked per signature (each costs a CMS check and a path search). */
const MAX_SIGNATURE_TIMESTAMPS = 4;

class Report {
  readonly problems: CmsProblem[] = [];
  add(code: string, message: string, severity: "error" | "warning" = "error"): void {
    if (this.problems.some((p) => p.code === code && p.message === message)) return;
    this.problems.push({ code, message, severity });
  }
}

function isParseError(e: unknown): boolean {
  return e instanceof BerError || e instanceof CmsError || e instanceof RangeError;
}

const iso = (d: Date) => d.toISOString().replace(/\.000Z$/, "Z");

/** Parsed trust anchors, kept per DER buffer (the caller passes the same roots for every signature). */
const anchorCache = new WeakMap<Uint8Array, Promise<ParsedCertificate | null>>();

async function parseAnchors(ders: readonly Uint8Array[]): Promise<ParsedCertificate[]> {
  const out: ParsedCertificate[] = [];
  for (const der of ders) {
    let p = anchorCache.get(der);
    if (!p) {
      p = tryParseCertificate(der);
      anchorCache.set(der, p);
    }
    const c = await p;
    if (c) out.push(c);
  }
  return out;
}

function timestampSummary(tv: TokenVerification): CmsTimestamp | null {
  if (!tv.info) return null;
  return {
    time: iso(tv.info.genTime),
    tsa: tsaDisplayName(tv),
    serialNumber: tv.info.serialHex,
    intact: tv.intact === true,
    signatureValid: tv.signatureValid,
    trusted: tv.trusted,
  };
}

/** Problems about the signer's (or TSA's) certification path. */
function chainProblems(
  report: Report,
  who: string,
  cert: ParsedCertificate,
  chain: ChainResult,
  at: Date,
  atLabel: string,
): void {
  const subject = summarizeCertificate(cert).subject;
  if (!chain.anchored) {
    report.add(
      "untrusted_certificate",
      `${who} certificate (${subject}) does not chain to a trusted root${chain.constraintProblem ? `: ${chain.constraintProblem}` : ""}.`,
    );
  }
  for (const c of chain.invalidAtTime) {
    const s = summarizeCertificate(c);
    const which = c === cert ? `${who} certificate` : `A certificate of the chain (${s.subject})`;
    report.add(
      "certificate_not_valid_at_signing_time",
      `${which} was not valid at the ${atLabel} ${iso(at)} (valid from ${s.notBefore} to ${s.notAfter}).`,
    );
  }
  for (const c of chain.expiredNow) {
    const s = summarizeCertificate(c);
    const which = c === cert ? `${who} certificate` : `A certificate of the chain (${s.subject})`;
    report.add(
      "certificate_expired_now",
      `${which} has expired since (on ${s.notAfter}); it was valid at the ${atLabel}.`,
      "warning",
    );
  }
  if (chain.weakSignatures.length) {
    report.add(
      "weak_algorithm",
      `A certificate of the chain is signed with ${chain.weakSignatures[0]}, a weak hash algorithm.`,
      "warning",
    );
  }
}

export async function verifyCmsSignature(opts: VerifyCmsOptions): Promise<CmsVerification> {
  const now = opts.now ?? new Date();
  const report = new Report();
  const kindFromFilter = opts.subFilter === "ETSI.RFC3161" ? "timestamp" : "signature";
  const digestCache = new Map<DigestName, Promise<Uint8Array | null>>();
  const documentDigest = (alg: DigestName): Promise<Uint8Array | null> => {
    let p = digestCache.get(alg);
    if (!p) {
      p = opts.content.digest(alg);
      digestCache.set(alg, p);
    }
    return p;
  };

  const malformed = (message: string, kind: "signature" | "timestamp" = kindFromFilter): CmsVerification => {
    report.add("cms_malformed", message);
    return {
      kind,
      digestAlgorithm: null,
      signatureAlgorithm: null,
      intact: false,
      signatureValid: false,
      trusted: false,
      signedAt: opts.claimedTime,
      signedAtSource: opts.claimedTime ? "claimed" : null,
      certificate: null,
      timestamp: null,
      problems: report.problems,
    };
  };

  if (opts.subFilter === "adbe.x509.rsa_sha1") {
    // A bare PKCS#1 signature with the certificates in /Cert: not a CMS, not supported.
    report.add("unsupported_algorithm", "adbe.x509.rsa_sha1 signatures (raw PKCS#1 with /Cert) are not supported.");
    return {
      kind: "signature",
      digestAlgorithm: "SHA-1",
      signatureAlgorithm: "RSA",
      intact: null,
      signatureValid: null,
      trusted: false,
      signedAt: opts.claimedTime,
      signedAtSource: opts.claimedTime ? "claimed" : null,
      certificate: null,
      timestamp: null,
      problems: report.problems,
    };
  }

  if (!(opts.cms instanceof Uint8Array) || opts.cms.length === 0 || opts.cms.every((b) => b === 0)) {
    return malformed("The signature's /Contents is empty.");
  }

  let sd: SignedData;
  try {
    sd = await readSignedData(opts.cms);
  } catch (e) {
    if (isParseError(e)) {
      return malformed(`The signature's CMS data cannot be read (${e instanceof Error ? e.message : "malformed"}).`);
    }
    throw e;
  }
  const trailing = opts.cms.subarray(sd.end);
  if (trailing.some((b) => b !== 0)) {
    report.add("cms_trailing_data", "The signature's /Contents has non-zero bytes after the CMS data.", "warning");
  }
  const anchors = await parseAnchors(opts.trustAnchors);

  try {
    if (opts.subFilter === "ETSI.RFC3161" || sd.eContentType === OID.tstInfo) {
      if (opts.subFilter !== "ETSI.RFC3161") {
        report.add(
          "subfilter_mismatch",
          `The signature is a document time-stamp although its SubFilter is ${opts.subFilter}.`,
          "warning",
        );
      }
      return await documentTimestamp(opts, sd, anchors, now, report, documentDigest);
    }
    return await signature(opts, sd, anchors, now, report, documentDigest);
  } catch (e) {
    if (isParseError(e)) {
      return malformed(`The signature's CMS data is malformed (${e instanceof Error ? e.message : "malformed"}).`);
    }
    throw e;
  }
}

async function documentTimestamp(
  opts: VerifyCmsOptions,
  sd: SignedData,
  anchors: ParsedCertificate[],
  now: Date,
  report: Report,
  documentDigest: (alg: DigestName) => Promise<Uint8Array | null>,
): Promise<CmsVerification> {
  const tv = await verifyTimestampToken({
    token: opts.cms.subarray(0, sd.end),
    imprintOf: documentDigest,
    anchors,
    now,
    what: "document",
  });
  const base: CmsVerification = {
    kind: "timestamp",
    digestAlgorithm: tv.info?.imprintHash ?? null,
    signatureAlgorithm: tv.signer?.signatureAlgorithm ?? null,
    intact: tv.intact,
    signatureValid: tv.signatureValid,
    trusted: tv.trusted,
    signedAt: tv.info?.genTime ?? opts.claimedTime,
    signedAtSource: tv.info ? "timestamp" : opts.claimedTime ? "claimed" : null,
    certificate: tv.certificate ? summarizeCertificate(tv.certificate) : null,
    timestamp: timestampSummary(tv),
    problems: report.problems,
  };
  if (!tv.info) {
    report.add("cms_malformed", "The document time-stamp token is malformed.");
    base.intact = false;
    base.signatureValid = false;
    return base;
  }
  if (tv.intact === false) {
    report.add(
      "digest_mismatch",
      "The document time-stamp was made for other bytes: the document was changed after it.",
    );
  } else if (tv.intact === null) {
    report.add(
      "unsupported_algorithm",
      `The document time-stamp's imprint algorithm (${tv.info.imprintAlgorithm}) is not supported.`,
    );
  }
  const failure = tv.signer?.failures[0];
  if (tv.signatureValid === null) {
    report.add(
      "unsupported_algorithm",
      `The document time-stamp's signature algorithm is not supported${failure ? `: ${failure.message}` : "."}`,
    );
  } else if (!tv.signatureValid) {
    report.add(
      "signature_invalid",
      `The document time-stamp's signature does not verify${failure ? `: ${failure.message}` : "."}`,
    );
  }
  for (const h of [tv.info.imprintHash, tv.signer?.signatureHash ?? null]) {
    if (isWeakDigest(h)) report.add("weak_algorithm", `The document time-stamp uses ${h}, a weak hash algorithm.`);
  }
  if (tv.certificate && tv.chain) {
    chainProblems(report, "The time-stamp authority's", tv.certificate, tv.chain, tv.info.genTime, "time-stamp time");
    if (tv.chain.anchored && !(tv.certificate.extKeyUsage ?? []).includes(OID.kpTimeStamping)) {
      report.add(
        "untrusted_certificate",
        "The document time-stamp's certificate is not a time-stamping certificate (extended key usage).",
      );
    }
  }
  return base;
}

async function signature(
  opts: VerifyCmsOptions,
  sd: SignedData,
  anchors: ParsedCertificate[],
  now: Date,
  report: Report,
  documentDigest: (alg: DigestName) => Promise<Uint8Array | null>,
): Promise<CmsVerification> {
  const si = sd.signerInfos[0];
  if (!si) throw new CmsError("the SignedData has no SignerInfo");
  if (sd.signerInfos.length > 1) {
    report.add(
      "multiple_signers",
      `The CMS holds ${sd.signerInfos.length} signer infos; only the first is verified.`,
      "warning",
    );
  }
  if (sd.eContentType !== OID.data) {
    report.add("content_type_mismatch", `The signed content type is ${sd.eContentType}, not id-data.`);
  }

  const legacySha1 = opts.subFilter === "adbe.pkcs7.sha1";
  let encapsulatedOk: boolean | null = true;
  let contentDigest = documentDigest;
  let content: Uint8Array | null = null;
  if (legacySha1) {
    const eContent = sd.eContent;
    if (!eContent) {
      report.add("cms_malformed", "An adbe.pkcs7.sha1 signature must embed the SHA-1 digest of the signed bytes.");
      encapsulatedOk = false;
    } else {
      const rangesSha1 = await documentDigest("SHA-1");
      encapsulatedOk = rangesSha1 ? bytesEqual(rangesSha1, eContent) : null;
      if (encapsulatedOk === false)
        report.add(
          "digest_mismatch",
          "The SHA-1 digest embedded in the signature does not match the signed bytes: the content was changed after signing.",
        );
      if (encapsulatedOk === null)
        report.add("unsupported_algorithm", "The SHA-1 digest of the signed bytes is not available.");
      contentDigest = (alg) => hashBytes(alg, eContent);
      content = eContent;
    }
  } else if (sd.eContent) {
    report.add(
      "encapsulated_content",
      "The detached signature also embeds content; only the signed attributes' digest of the PDF bytes is relied on.",
      "warning",
    );
  }

  const signer = await checkSigner(si, sd.certificates, { contentType: OID.data, contentDigest, content });
  for (const f of signer.failures) report.add(f.code, f.message);
  if (signer.reencoded) {
    report.add(
      "cms_not_der",
      "The signed attributes are not DER-encoded as received; they verify in their DER form.",
      "warning",
    );
  }

  let intact = signer.intact;
  if (legacySha1)
    intact =
      encapsulatedOk === false || intact === false ? false : encapsulatedOk === null || intact === null ? null : true;
  if (sd.eContentType !== OID.data && intact === true) intact = false;

  // Weak algorithms.
  const weak = new Set<string>();
  if (legacySha1) weak.add("SHA-1");
  for (const h of [signer.digestName, signer.signatureHash]) if (isWeakDigest(h)) weak.add(h!);
  for (const h of weak) {
    report.add("weak_algorithm", `The signature uses ${h}, a hash algorithm too weak to protect a signature.`);
  }

  const cert = signer.signerCertificate;
  if (cert) {
    const bits = rsaModulusBits(cert.spki);
    if (bits !== null && bits < 2048) report.add("weak_key", `The signer's RSA key has only ${bits} bits.`, "warning");
    if (cert.keyUsage && !cert.keyUsage[0] && !cert.keyUsage[1]) {
      report.add(
        "certificate_key_usage",
        "The signer's certificate is not meant for signatures (keyUsage lacks digitalSignature and nonRepudiation).",
        "warning",
      );
    }
  }
  let essOk = true;
  if (signer.ess.present && !signer.ess.matches) {
    essOk = false;
    report.add(
      "signing_certificate_mismatch",
      `The signing-certificate attribute does not match the signer: ${signer.ess.detail ?? "mismatch"}.`,
    );
  }

  // Signature time-stamps.
  let chosen: TokenVerification | null = null;
  let firstToken: TokenVerification | null = null;
  const tokens = attributeValues(si.unsignedAttributes, OID.signatureTimeStampToken).flat();
  if (tokens.length > MAX_SIGNATURE_TIMESTAMPS) {
    report.add(
      "timestamp_invalid",
      `The signature carries ${tokens.length} time-stamps; only the first ${MAX_SIGNATURE_TIMESTAMPS} are checked.`,
      "warning",
    );
  }
  {
    for (const v of tokens.slice(0, MAX_SIGNATURE_TIMESTAMPS)) {
      const tv = await verifyTimestampToken({
        token: v.bytes.slice(),
        imprintOf: (alg) => hashBytes(alg, si.signature),
        anchors,
        now,
        what: "signature",
      });
      firstToken ??= tv;
      for (const p of tv.problems) report.add(p.code, p.message, p.severity);
      if (tv.valid && tv.info && (!chosen || tv.info.genTime < chosen.info!.genTime)) chosen = tv;
    }
  }
  const reported = chosen ?? firstToken;

  let signedAt: Date | null = null;
  let signedAtSource: "timestamp" | "claimed" | null = null;
  if (chosen?.info) {
    signedAt = chosen.info.genTime;
    signedAtSource = "timestamp";
  } else if (opts.claimedTime || signer.signingTime) {
    signedAt = opts.claimedTime ?? signer.signingTime;
    signedAtSource = "claimed";
  }

  let trusted = false;
  if (cert) {
    const at = signedAt ?? now;
    const chain = await buildChain(cert, sd.certificates, anchors, at, now);
    chainProblems(report, "The signer's", cert, chain, at, signedAt ? "signing time" : "current time");
    trusted = chain.trusted && essOk;
  }

  return {
    kind: "signature",
    digestAlgorithm: legacySha1 ? "SHA-1" : signer.digestName,
    signatureAlgorithm: signer.signatureAlgorithm,
    intact,
    signatureValid: signer.signatureValid,
    trusted,
    signedAt,
    signedAtSource,
    certificate: cert ? summarizeCertificate(cert) : null,
    timestamp: reported ? timestampSummary(reported) : null,
    problems: report.problems,
  };
}
