/**
 * What a CMS signature (or time-stamp token) carries for long-term validation: the signer's
 * certificate and the certificates around it, the time-stamp tokens on it (each with its
 * own), and the revocation data embedded in it: the SignedData `crls` field (CRLs and
 * RFC 5940 OCSP responses) and Adobe's signed `adbe-revocationInfoArchival` attribute.
 */
import { OID } from "../oids";
import { LIMITS } from "../../limits";
import { BerError, type BerNode, U, expectUniversal, parseBer, readOid } from "../verify/ber";
import type { ParsedCertificate } from "../verify/certificate";
import { CmsError, type SignedData, attributeValues, findSignerCertificate, readSignedData } from "../verify/cms";
import { CrlError, parseCrl } from "./crl";
import { OcspError, parseOcspResponse } from "./ocsp";
import { REVOCATION_OID } from "./pointers";
import type { RevocationItem } from "./status";
import { readTstInfo } from "../verify/timestamp";

export interface SignedMaterial {
  signer: ParsedCertificate | null;
  certificates: ParsedCertificate[];
  revocation: RevocationItem[];
  /** Signature time-stamp tokens (unsigned attribute), for signatures; empty for tokens. */
  timestamps: SignedMaterial[];
  eContentType: string;
  /** A time-stamp token's genTime (null for signatures and unreadable tokens). */
  genTime: Date | null;
}

const MAX_TOKENS = 4;
/** id-ri-ocsp-response (RFC 5940): an OCSP response inside RevocationInfoChoices. */
const RI_OCSP_RESPONSE = "1.3.6.1.5.5.7.16.2";

async function readItems(
  nodes: Iterable<{ der: Uint8Array; kind: "ocsp" | "crl" }>,
  out: RevocationItem[],
): Promise<void> {
  for (const { der, kind } of nodes) {
    if (out.length >= LIMITS.revocation.maxEmbeddedItems) return;
    try {
      if (kind === "crl") out.push({ kind: "crl", crl: parseCrl(der), origin: "cms" });
      else out.push({ kind: "ocsp", response: await parseOcspResponse(der), origin: "cms" });
    } catch (err) {
      if (!(err instanceof CrlError || err instanceof OcspError)) throw err;
    }
  }
}

/** The SignedData's `crls` [1] field, read from the ContentInfo (the CMS reader skips it). */
function* signedDataRevocation(cms: Uint8Array): Generator<{ der: Uint8Array; kind: "ocsp" | "crl" }> {
  const root = parseBer(cms);
  const sd = root.child(1)?.child(0);
  const field = sd?.children.find((c) => c.isContext(1));
  if (!field) return;
  for (const choice of field.children) {
    if (choice.isUniversal(U.SEQUENCE)) yield { der: choice.bytes.slice(), kind: "crl" };
    else if (choice.isContext(1)) {
      // OtherRevocationInfoFormat { otherRevInfoFormat OID, otherRevInfo }
      if (readOid(choice.child(0)) === RI_OCSP_RESPONSE && choice.child(1))
        yield { der: choice.child(1)!.bytes.slice(), kind: "ocsp" };
    }
  }
}

/** RevocationInfoArchival ::= SEQUENCE { crl [0] EXPLICIT SEQUENCE OF CRL, ocsp [1] EXPLICIT SEQUENCE OF OCSPResponse, ... } */
function* archivalRevocation(value: BerNode): Generator<{ der: Uint8Array; kind: "ocsp" | "crl" }> {
  for (const part of expectUniversal(value, U.SEQUENCE, "RevocationInfoArchival").children) {
    const kind = part.isContext(0) ? "crl" : part.isContext(1) ? "ocsp" : null;
    if (!kind) continue;
    for (const item of expectUniversal(part.child(0), U.SEQUENCE, "revocation values").children)
      yield { der: item.bytes.slice(), kind };
  }
}

async function material(cms: Uint8Array, sd: SignedData, depth: number): Promise<SignedMaterial> {
  const si = sd.signerInfos[0];
  const out: SignedMaterial = {
    signer: si ? await findSignerCertificate(si, sd.certificates) : null,
    certificates: sd.certificates,
    revocation: [],
    timestamps: [],
    eContentType: sd.eContentType,
    genTime: null,
  };
  if (sd.eContentType === OID.tstInfo && sd.eContent) {
    try {
      out.genTime = readTstInfo(sd.eContent).genTime;
    } catch (err) {
      if (!(err instanceof BerError || err instanceof RangeError)) throw err;
    }
  }
  try {
    await readItems(signedDataRevocation(cms), out.revocation);
  } catch (err) {
    if (!(err instanceof BerError || err instanceof RangeError)) throw err;
  }
  if (!si) return out;
  for (const values of attributeValues(si.signedAttributes, REVOCATION_OID.adbeRevocationInfoArchival)) {
    try {
      if (values[0]) await readItems(archivalRevocation(values[0]), out.revocation);
    } catch (err) {
      if (!(err instanceof BerError || err instanceof RangeError)) throw err;
    }
  }
  if (depth === 0) {
    for (const v of attributeValues(si.unsignedAttributes, OID.signatureTimeStampToken).flat().slice(0, MAX_TOKENS)) {
      const token = await readSignedMaterial(v.bytes.slice(), depth + 1);
      if (token) out.timestamps.push(token);
    }
  }
  return out;
}

/** Reads what a CMS carries; null when it is not readable SignedData. */
export async function readSignedMaterial(cms: Uint8Array, depth = 0): Promise<SignedMaterial | null> {
  try {
    const sd = await readSignedData(cms);
    return await material(cms.subarray(0, sd.end), sd, depth);
  } catch (err) {
    if (err instanceof BerError || err instanceof CmsError || err instanceof RangeError) return null;
    throw err;
  }
}
