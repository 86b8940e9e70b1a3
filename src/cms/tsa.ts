/**
 * RFC 3161 time-stamp client and token reader.
 *
 * `requestTimestamp` sends a TimeStampReq (SHA-256 imprint, random nonce, certReq) and
 * accepts the answer only when the HTTP exchange, the PKIStatus, the echoed nonce and
 * imprint, and the token's own signature all check out; anything else is `TsaFailed`.
 * It never hangs: one deadline covers connecting, waiting and reading the body.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { TsaFailed } from "../errors";
import {
  algorithmIdentifier,
  booleanValue,
  nullValue,
  octetString,
  sequence,
  smallInteger,
  toArrayBuffer,
  unsignedInteger,
} from "./der";
import { readCappedBody, untilAborted } from "../util/capped-body";
import { formatName } from "./names";
import { OID } from "./oids";
import { bytesEqual, toHex } from "../util/bytes";

/** Default deadline for one time-stamp exchange (connect + answer + body). */
export const TSA_TIMEOUT_MS = 10_000;
/** Default cap on a time-stamp response body. */
export const TSA_MAX_RESPONSE_BYTES = 256 * 1024;

/** Limits for parsing foreign ASN.1 (tokens come from TSAs or from PDFs being verified). */
const PARSE_LIMITS = { maxDepth: 64, maxNodes: 100_000 } as const;

/** A token that is not a well-formed RFC 3161 TimeStampToken. */
export class TimestampTokenError extends Error {}

export interface TimestampTokenInfo {
  genTime: Date;
  /** TSTInfo serial number, lowercase hex. */
  serialNumber: string;
  /** The TSTInfo `tsa` name, else the subject of the token's signer certificate, else null. */
  tsaName: string | null;
  /** TSA policy OID. */
  policy: string;
  messageImprint: {
    /** Hash algorithm OID. */
    hashAlgorithm: string;
    /** WebCrypto name of that hash when known (`SHA-256`, ...). */
    hashAlgorithmName: string | null;
    hashedMessage: Uint8Array;
  };
  /** Nonce, lowercase hex without leading zeros, or null. */
  nonce: string | null;
  /** Accuracy in milliseconds, or null when absent. */
  accuracyMs: number | null;
  /** The DER TSTInfo (the signed eContent). */
  tstInfo: Uint8Array;
  signedData: pkijs.SignedData;
  /** Certificates carried in the token. */
  certificates: pkijs.Certificate[];
  /** The certificate named by the SignerInfo's sid, when the token carries it. */
  signerCertificate: pkijs.Certificate | null;
}

export interface TimestampResult {
  /** DER/BER TimeStampToken (ContentInfo) exactly as the TSA sent it. */
  token: Uint8Array;
  genTime: Date;
  serialNumber: string;
  tsaName: string | null;
  policy: string;
}

export interface RequestTimestampOptions {
  url: string;
  /** SHA-256 of the time-stamped data (for PAdES B-T: of the signature value). */
  messageImprint: Uint8Array;
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

const HASH_NAMES: Record<string, string> = {
  [OID.sha1]: "SHA-1",
  [OID.sha256]: "SHA-256",
  [OID.sha384]: "SHA-384",
  [OID.sha512]: "SHA-512",
};

const PKI_STATUS = [
  "granted",
  "grantedWithMods",
  "rejection",
  "waiting",
  "revocationWarning",
  "revocationNotification",
];
const PKI_FAILURE_INFO: Record<number, string> = {
  0: "badAlg",
  2: "badRequest",
  5: "badDataFormat",
  14: "timeNotAvailable",
  15: "unacceptedPolicy",
  16: "unacceptedExtension",
  17: "addInfoNotAvailable",
  25: "systemFailure",
};

// ---------------------------------------------------------------------------
// asn1js helpers

type Node = asn1js.AsnType;

function parseBer(bytes: Uint8Array, what: string): Node {
  const parsed = asn1js.fromBER(toArrayBuffer(bytes), PARSE_LIMITS);
  if (parsed.offset === -1) throw new TimestampTokenError(`${what} is not valid ASN.1.`);
  if (parsed.offset !== bytes.length) throw new TimestampTokenError(`${what} has trailing data.`);
  return parsed.result;
}

function isUniversal(node: Node | undefined, tagNumber: number): boolean {
  return !!node && node.idBlock.tagClass === 1 && node.idBlock.tagNumber === tagNumber;
}

function items(node: Node | undefined, what: string): Node[] {
  if (!node || !node.idBlock.isConstructed) throw new TimestampTokenError(`${what}: expected a constructed element.`);
  return (node as asn1js.Constructed).valueBlock.value as Node[];
}

function rawBytes(node: Node): Uint8Array {
  return new Uint8Array(node.valueBeforeDecodeView);
}

function stripLeadingZeros(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
}

function integerHex(int: asn1js.Integer): string {
  return toHex(stripLeadingZeros(new Uint8Array(int.valueBlock.valueHexView)));
}

// ---------------------------------------------------------------------------
// Token reading

function generalNameText(name: pkijs.GeneralName): string | null {
  try {
    switch (name.type) {
      case 4: {
        const rdn = name.value as pkijs.RelativeDistinguishedNames;
        return formatName(new Uint8Array(rdn.toSchema().toBER()));
      }
      case 1:
      case 2:
      case 6:
        return typeof name.value === "string" ? name.value : null;
      default:
        return null;
    }
  } catch {
    return null;
  }
}

function findSignerCertificate(
  signedData: pkijs.SignedData,
  certificates: pkijs.Certificate[],
): pkijs.Certificate | null {
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) return null;
  const sid = signerInfo.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certificates.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber)) ?? null;
  }
  return null; // subjectKeyIdentifier sids: resolved by the caller if ever needed
}

/** Reads an RFC 3161 TimeStampToken (ContentInfo of SignedData over a TSTInfo). */
export function parseTimestampToken(token: Uint8Array): TimestampTokenInfo {
  const root = parseBer(token, "The time-stamp token");
  let contentInfo: pkijs.ContentInfo;
  let signedData: pkijs.SignedData;
  try {
    contentInfo = new pkijs.ContentInfo({ schema: root });
  } catch {
    throw new TimestampTokenError("The time-stamp token is not a CMS ContentInfo.");
  }
  if (contentInfo.contentType !== OID.signedData) {
    throw new TimestampTokenError("The time-stamp token is not CMS SignedData.");
  }
  try {
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
  } catch {
    throw new TimestampTokenError("The time-stamp token's SignedData is malformed.");
  }
  if (signedData.encapContentInfo.eContentType !== OID.tstInfo) {
    throw new TimestampTokenError("The time-stamp token does not carry a TSTInfo.");
  }
  const eContent = signedData.encapContentInfo.eContent;
  if (!eContent) throw new TimestampTokenError("The time-stamp token's TSTInfo is missing.");
  const tstInfoBytes = new Uint8Array(eContent.getValue());
  let tst: pkijs.TSTInfo;
  try {
    tst = new pkijs.TSTInfo({ schema: parseBer(tstInfoBytes, "The TSTInfo") });
  } catch (e) {
    if (e instanceof TimestampTokenError) throw e;
    throw new TimestampTokenError("The time-stamp token's TSTInfo is malformed.");
  }
  const certificates = (signedData.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  const signerCertificate = findSignerCertificate(signedData, certificates);

  let tsaName = tst.tsa ? generalNameText(tst.tsa) : null;
  if (!tsaName && signerCertificate) {
    try {
      tsaName = formatName(new Uint8Array(signerCertificate.subject.toSchema().toBER()));
    } catch {
      tsaName = null;
    }
  }

  let accuracyMs: number | null = null;
  if (tst.accuracy) {
    accuracyMs = (tst.accuracy.seconds ?? 0) * 1000 + (tst.accuracy.millis ?? 0) + (tst.accuracy.micros ?? 0) / 1000;
  }

  const hashAlgorithm = tst.messageImprint.hashAlgorithm.algorithmId;
  return {
    genTime: tst.genTime,
    serialNumber: integerHex(tst.serialNumber),
    tsaName,
    policy: tst.policy,
    messageImprint: {
      hashAlgorithm,
      hashAlgorithmName: HASH_NAMES[hashAlgorithm] ?? null,
      hashedMessage: new Uint8Array(tst.messageImprint.hashedMessage.valueBlock.valueHexView),
    },
    nonce: tst.nonce ? integerHex(tst.nonce) : null,
    accuracyMs,
    tstInfo: tstInfoBytes,
    signedData,
    certificates,
    signerCertificate,
  };
}

/**
 * Checks the token's CMS signature with the certificate it carries: content-type is
 * id-ct-TSTInfo, message-digest matches the TSTInfo, and the signed attributes verify.
 * Says nothing about trust in the TSA (that is chain validation's job).
 */
export async function verifyTimestampTokenSignature(info: TimestampTokenInfo): Promise<boolean> {
  const signerInfo = info.signedData.signerInfos[0];
  const cert = info.signerCertificate;
  if (!signerInfo || !cert || !signerInfo.signedAttrs) return false;
  const hashName = HASH_NAMES[signerInfo.digestAlgorithm.algorithmId];
  if (!hashName) return false;
  let contentType: string | null = null;
  let messageDigest: Uint8Array | null = null;
  for (const attr of signerInfo.signedAttrs.attributes) {
    if (attr.type === OID.contentType && attr.values[0] instanceof asn1js.ObjectIdentifier) {
      contentType = attr.values[0].valueBlock.toString();
    }
    if (attr.type === OID.messageDigest && attr.values[0] instanceof asn1js.OctetString) {
      messageDigest = new Uint8Array(attr.values[0].valueBlock.valueHexView);
    }
  }
  if (contentType !== OID.tstInfo || !messageDigest) return false;
  const digest = new Uint8Array(await crypto.subtle.digest(hashName, toArrayBuffer(info.tstInfo)));
  if (!bytesEqual(digest, messageDigest)) return false;
  const engine = pkijs.getCrypto(true);
  try {
    const sigAlg = signerInfo.signatureAlgorithm;
    return await engine.verifyWithPublicKey(
      signerInfo.signedAttrs.encodedValue,
      signerInfo.signature,
      cert.subjectPublicKeyInfo,
      sigAlg,
      // Bare rsaEncryption (common in tokens) says nothing about the hash: use the digest algorithm.
      sigAlg.algorithmId === OID.rsaEncryption ? hashName : undefined,
    );
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// Client

/** DER TimeStampReq: v1, SHA-256 imprint, nonce, certReq TRUE. */
export function encodeTimestampRequest(messageImprint: Uint8Array, nonce: Uint8Array): Uint8Array {
  return sequence(
    smallInteger(1),
    // NULL parameters: the form TSAs have accepted the longest.
    sequence(algorithmIdentifier(OID.sha256, nullValue()), octetString(messageImprint)),
    unsignedInteger(nonce),
    booleanValue(true),
  );
}

function describeStatus(statusInfo: Node): string {
  const parts = items(statusInfo, "PKIStatusInfo");
  const status = parts[0] instanceof asn1js.Integer ? parts[0].valueBlock.valueDec : -1;
  let text = PKI_STATUS[status] ?? `status ${status}`;
  for (const p of parts.slice(1)) {
    if (isUniversal(p, 16)) {
      const strings = items(p, "PKIFreeText")
        .map((s) => (s instanceof asn1js.Utf8String ? s.valueBlock.value : ""))
        .filter(Boolean)
        .join("; ");
      if (strings) text += `: ${strings.slice(0, 200)}`;
    } else if (p instanceof asn1js.BitString) {
      const bits = new Uint8Array(p.valueBlock.valueHexView);
      const names: string[] = [];
      for (let i = 0; i < bits.length * 8; i++) {
        if (bits[i >> 3]! & (0x80 >> (i & 7))) names.push(PKI_FAILURE_INFO[i] ?? `bit ${i}`);
      }
      if (names.length) text += ` (${names.join(", ")})`;
    }
  }
  return text;
}

function redactUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** Requests a time-stamp token for a SHA-256 imprint from an RFC 3161 TSA over HTTP(S). */
export async function requestTimestamp(opts: RequestTimestampOptions): Promise<TimestampResult> {
  if (opts.messageImprint.length !== 32) throw new Error("messageImprint must be a SHA-256 digest (32 bytes)");
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    throw new TsaFailed("The time-stamp authority URL (TSA_URL) is not a valid URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TsaFailed("The time-stamp authority URL (TSA_URL) must use http: or https:.");
  }
  const where = redactUrl(url);
  const headers: Record<string, string> = {
    "content-type": "application/timestamp-query",
    accept: "application/timestamp-reply",
  };
  // Commercial TSAs often use HTTP basic auth: credentials in TSA_URL become a header.
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    let binary = "";
    for (const b of new TextEncoder().encode(credentials)) binary += String.fromCharCode(b);
    headers.authorization = `Basic ${btoa(binary)}`;
    url.username = "";
    url.password = "";
  }
  const fetchFn = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? TSA_TIMEOUT_MS;
  const maxBytes = opts.maxResponseBytes ?? TSA_MAX_RESPONSE_BYTES;

  const nonce = crypto.getRandomValues(new Uint8Array(8));
  nonce[0] = (nonce[0]! & 0x7f) | 0x01; // positive, no leading zero
  const request = encodeTimestampRequest(opts.messageImprint, nonce);

  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = () =>
    new TsaFailed(`The time-stamp authority at ${where} did not answer within ${timeoutMs / 1000} s.`);

  let response: Response;
  try {
    response = await untilAborted(
      fetchFn(url.toString(), {
        method: "POST",
        headers,
        body: request,
        signal,
        redirect: "manual",
      }),
      signal,
    );
  } catch (e) {
    if (signal.aborted) throw timedOut();
    throw new TsaFailed(
      `The time-stamp authority at ${where} could not be reached (${e instanceof Error ? e.message : String(e)}).`,
    );
  }

  if (response.status !== 200) {
    await response.body?.cancel().catch(() => {});
    throw new TsaFailed(`The time-stamp authority at ${where} answered HTTP ${response.status}.`);
  }
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (contentType !== "application/timestamp-reply" && contentType !== "application/timestamp-response") {
    await response.body?.cancel().catch(() => {});
    throw new TsaFailed(
      `The time-stamp authority at ${where} answered with content type "${contentType.slice(0, 100) || "none"}", not application/timestamp-reply.`,
    );
  }

  let body: Uint8Array;
  try {
    body = await readCappedBody(
      response,
      maxBytes,
      signal,
      () => new TsaFailed(`The time-stamp response is too large (over ${maxBytes} bytes).`),
    );
  } catch (e) {
    if (e instanceof TsaFailed) throw e;
    if (signal.aborted) throw timedOut();
    throw new TsaFailed(
      `Reading the time-stamp response from ${where} failed (${e instanceof Error ? e.message : String(e)}).`,
    );
  }

  return checkTimestampResponse(body, opts.messageImprint, nonce, where);
}

async function checkTimestampResponse(
  body: Uint8Array,
  imprint: Uint8Array,
  nonce: Uint8Array,
  where: string,
): Promise<TimestampResult> {
  const bad = (why: string) => new TsaFailed(`The time-stamp authority at ${where} sent ${why}`);
  let parts: Node[];
  try {
    parts = items(parseBer(body, "The time-stamp response"), "TimeStampResp");
  } catch {
    throw bad("a response that is not a valid TimeStampResp.");
  }
  const statusInfo = parts[0];
  const statusParts = statusInfo && statusInfo.idBlock.isConstructed ? items(statusInfo, "PKIStatusInfo") : [];
  const status = statusParts[0] instanceof asn1js.Integer ? statusParts[0].valueBlock.valueDec : -1;
  if (status !== 0 && status !== 1) {
    let detail = `status ${status}`;
    try {
      if (statusInfo) detail = describeStatus(statusInfo);
    } catch {
      /* keep the bare status */
    }
    throw new TsaFailed(`The time-stamp authority at ${where} refused the request: ${detail}.`);
  }
  const tokenNode = parts[1];
  if (!tokenNode) throw bad("a granted status without a time-stamp token.");
  const token = rawBytes(tokenNode);

  let info: TimestampTokenInfo;
  try {
    info = parseTimestampToken(token);
  } catch (e) {
    throw bad(`an unreadable time-stamp token (${e instanceof Error ? e.message : "malformed"}).`);
  }
  if (info.messageImprint.hashAlgorithm !== OID.sha256 || !bytesEqual(info.messageImprint.hashedMessage, imprint)) {
    throw bad("a token for a different message imprint than requested.");
  }
  if (info.nonce !== toHex(stripLeadingZeros(nonce))) {
    throw bad("a token whose nonce does not match the request (a replayed or foreign answer).");
  }
  if (!info.signerCertificate) {
    throw bad("a token without its signing certificate although it was requested.");
  }
  if (!(await verifyTimestampTokenSignature(info))) {
    throw bad("a token whose signature does not verify.");
  }
  return { token, genTime: info.genTime, serialNumber: info.serialNumber, tsaName: info.tsaName, policy: info.policy };
}

/**
 * A `timestamp` callback for `buildCadesDetachedSignature`: time-stamps the SHA-256 of the
 * signature value at `url`; `result()` gives the details of the last token obtained.
 */
export function signatureTimestamper(opts: Omit<RequestTimestampOptions, "messageImprint">): {
  timestamp: (signatureValue: Uint8Array) => Promise<Uint8Array>;
  result: () => TimestampResult | null;
} {
  let last: TimestampResult | null = null;
  return {
    async timestamp(signatureValue) {
      const imprint = new Uint8Array(await crypto.subtle.digest("SHA-256", toArrayBuffer(signatureValue)));
      last = await requestTimestamp({ ...opts, messageImprint: imprint });
      return last.token;
    },
    result: () => last,
  };
}
