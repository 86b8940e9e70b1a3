/**
 * RFC 3161 time-stamp tokens as found in PDFs: signature time-stamps (unsigned attribute
 * id-aa-signatureTimeStampToken, imprint over the SignerInfo signature value) and
 * document time-stamps (`/SubFilter /ETSI.RFC3161`, imprint over the byte ranges).
 *
 * A token counts (its genTime may date a signature) only when its imprint matches, its
 * CMS signature verifies, and the TSA certificate chains to a trust anchor, is valid at
 * genTime and carries the id-kp-timeStamping extended key usage (RFC 3161 2.3).
 */
import { formatName } from "../names";
import { OID } from "../oids";
import { type DigestName, hashBytes, isWeakDigest } from "./algorithms";
import {
  BerError,
  type BerNode,
  U,
  expectUniversal,
  parseBer,
  readOctets,
  readOid,
  readTime,
  readUnsigned,
} from "./ber";
import { type ParsedCertificate, summarizeCertificate } from "./certificate";
import { type ChainResult, buildChain } from "./chain";
import { CmsError, type SignerCheck, checkSigner, readSignedData } from "./cms";
import { digestFromAlgorithm } from "./signature";
import { bytesEqual, toHex } from "../../util/bytes";

export interface TstInfo {
  policy: string;
  imprintAlgorithm: string;
  imprintHash: DigestName | null;
  imprint: Uint8Array;
  serialHex: string;
  genTime: Date;
  tsaName: string | null;
}

export interface TokenProblem {
  code: string;
  message: string;
  severity: "error" | "warning";
}

export interface TokenVerification {
  info: TstInfo | null;
  /** The imprint matches the time-stamped data. */
  intact: boolean | null;
  /** The token's CMS signature (and its TSTInfo message-digest) verify. */
  signatureValid: boolean | null;
  trusted: boolean;
  /** intact, signatureValid and trusted: its genTime may be relied on. */
  valid: boolean;
  signer: SignerCheck | null;
  certificate: ParsedCertificate | null;
  chain: ChainResult | null;
  problems: TokenProblem[];
}

function generalNameText(node: BerNode): string | null {
  try {
    if (node.isContext(4)) return formatName(node.child(0)!.bytes);
    if (node.isContext(1) || node.isContext(2) || node.isContext(6)) {
      let s = "";
      for (const b of node.stringValue()) s += String.fromCharCode(b);
      return s;
    }
  } catch {
    /* unreadable */
  }
  return null;
}

export function readTstInfo(der: Uint8Array): TstInfo {
  const seq = expectUniversal(parseBer(der), U.SEQUENCE, "TSTInfo");
  const f = seq.children;
  const policy = readOid(f[1], "policy");
  const mi = expectUniversal(f[2], U.SEQUENCE, "messageImprint");
  const alg = expectUniversal(mi.child(0), U.SEQUENCE, "hashAlgorithm");
  const serial = readUnsigned(f[3], "serialNumber");
  const genTime = readTime(f[4], "genTime");
  let tsaName: string | null = null;
  for (const extra of f.slice(5)) if (extra.isContext(0)) tsaName = generalNameText(extra.child(0)!);
  return {
    policy,
    imprintAlgorithm: readOid(alg.child(0)),
    imprintHash: digestFromAlgorithm(alg),
    imprint: readOctets(mi.child(1), "hashedMessage"),
    serialHex: toHex(serial),
    genTime,
    tsaName,
  };
}

export interface TokenOptions {
  token: Uint8Array;
  /** Digest of the time-stamped data under an algorithm (null when unavailable). */
  imprintOf: (alg: DigestName) => Promise<Uint8Array | null>;
  anchors: readonly ParsedCertificate[];
  now: Date;
  /** What is time-stamped, for messages ("signature", "document"). */
  what: string;
}

const KP_TIME_STAMPING = OID.kpTimeStamping;

export async function verifyTimestampToken(opts: TokenOptions): Promise<TokenVerification> {
  const out: TokenVerification = {
    info: null,
    intact: false,
    signatureValid: false,
    trusted: false,
    valid: false,
    signer: null,
    certificate: null,
    chain: null,
    problems: [],
  };
  const problem = (code: string, message: string, severity: "error" | "warning" = "error") =>
    out.problems.push({ code, message, severity });
  const label = `The ${opts.what} time-stamp`;

  let sd;
  try {
    sd = await readSignedData(opts.token);
    if (sd.eContentType !== OID.tstInfo || !sd.eContent) throw new CmsError("not a TSTInfo");
    out.info = readTstInfo(sd.eContent);
  } catch (e) {
    if (e instanceof BerError || e instanceof CmsError || e instanceof RangeError) {
      problem("timestamp_invalid", `${label} token is malformed.`);
      return out;
    }
    throw e;
  }
  const info = out.info;

  // Imprint over the time-stamped data.
  if (!info.imprintHash) {
    out.intact = null;
    problem("unsupported_algorithm", `${label} uses an unsupported imprint hash algorithm (${info.imprintAlgorithm}).`);
  } else {
    const expected = await opts.imprintOf(info.imprintHash);
    if (!expected) {
      out.intact = null;
      problem("unsupported_algorithm", `${label} imprint algorithm ${info.imprintHash} is not available.`);
    } else {
      out.intact = bytesEqual(expected, info.imprint);
      if (!out.intact) problem("timestamp_invalid", `${label} was made for other data than this ${opts.what}.`);
    }
  }

  const si = sd.signerInfos[0];
  if (!si) {
    problem("timestamp_invalid", `${label} has no signer.`);
    return out;
  }
  const eContent = sd.eContent!;
  const signer = await checkSigner(si, sd.certificates, {
    contentType: OID.tstInfo,
    contentDigest: (alg) => hashBytes(alg, eContent),
    content: eContent,
  });
  out.signer = signer;
  out.certificate = signer.signerCertificate;
  out.signatureValid = signer.signatureValid === null ? null : signer.signatureValid === true && signer.intact === true;
  if (out.signatureValid !== true) {
    const first = signer.failures[0];
    problem(
      first?.code === "unsupported_algorithm" ? "unsupported_algorithm" : "timestamp_invalid",
      `${label}'s own signature does not verify${first ? `: ${first.message}` : "."}`,
    );
  }
  if (isWeakDigest(info.imprintHash) || isWeakDigest(signer.signatureHash)) {
    problem(
      "weak_algorithm",
      `${label} uses a weak hash algorithm (${isWeakDigest(info.imprintHash) ? info.imprintHash : signer.signatureHash}).`,
      "warning",
    );
  }

  const cert = signer.signerCertificate;
  if (cert) {
    const chain = await buildChain(cert, sd.certificates, opts.anchors, info.genTime, opts.now);
    out.chain = chain;
    const eku = cert.extKeyUsage;
    const tsaUsage = eku !== null && eku.includes(KP_TIME_STAMPING);
    out.trusted = chain.trusted && tsaUsage;
    if (!chain.anchored) {
      problem(
        "timestamp_untrusted",
        `${label} authority (${summarizeCertificate(cert).subject}) does not chain to a trusted root${chain.constraintProblem ? `: ${chain.constraintProblem}` : ""}.`,
        "warning",
      );
    } else if (chain.invalidAtTime.length) {
      problem(
        "timestamp_untrusted",
        `${label} authority's certificate was not valid at the time-stamp time.`,
        "warning",
      );
    } else if (!tsaUsage) {
      problem(
        "timestamp_untrusted",
        `${label} certificate is not a time-stamping certificate (extended key usage).`,
        "warning",
      );
    }
  }
  out.valid = out.intact === true && out.signatureValid === true && out.trusted;
  return out;
}

export function tsaDisplayName(v: TokenVerification): string | null {
  if (v.info?.tsaName) return v.info.tsaName;
  if (v.certificate) return summarizeCertificate(v.certificate).subject;
  return null;
}
