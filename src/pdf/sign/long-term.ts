/**
 * PAdES B-LT and B-LTA (ETSI EN 319 142-1 6.3, 5.4): after a signature, the validation data
 * of every signature in the document (the signer's chain and its time-stamp authority's
 * chain: certificates, OCSP responses, CRLs) goes into the DSS with a VRI entry per
 * signature; for B-LTA a document time-stamp then covers the whole file, and its own
 * authority's validation data follows in a last DSS update when the file does not hold it.
 *
 * Gathering and writing are separate steps, so the caller can decide what a gap means (an
 * error, or a lower level with a warning) before anything is written.
 */
import { readSignedMaterial, type SignedMaterial } from "../../cms/revocation/signature-material";
import { type CollectedValidationData, collectValidationData, completeChain } from "../../cms/revocation/collect";
import type { RevocationFetcher } from "../../cms/revocation/fetch";
import type { ParsedCertificate } from "../../cms/verify/certificate";
import { concatBytes } from "../../util/bytes";
import { PdfString } from "../model";
import { PdfReader } from "../reader";
import { findSignatureFields } from "../verify/fields";
import { appendDocumentTimestamp } from "./doc-timestamp";
import { appendDssUpdate, type VriEntry } from "./dss";

export interface SignatureValidationData {
  fieldName: string;
  /** The signature's /Contents value (for its VRI key). */
  contents: Uint8Array;
  data: CollectedValidationData;
}

export interface LongTermData {
  /** The signature being made: its data must be complete for B-LT. */
  target: SignatureValidationData | null;
  /** Earlier signatures and time-stamps of the document (best effort). */
  others: SignatureValidationData[];
}

/** The chains a signature (or document time-stamp) rests on: its signer's and its time-stamps'. */
async function chainsOf(material: SignedMaterial, fetcher: RevocationFetcher): Promise<ParsedCertificate[][]> {
  const chains: ParsedCertificate[][] = [];
  for (const m of [material, ...material.timestamps]) {
    if (m.signer) chains.push(await completeChain(m.signer, m.certificates, fetcher));
  }
  return chains;
}

async function gatherFor(
  fieldName: string,
  contents: Uint8Array,
  fetcher: RevocationFetcher,
): Promise<SignatureValidationData | null> {
  // The CMS reader stops at the end of the first element: the zero padding needs no trimming
  // (and trimming zeros would cut a CMS whose last byte is 0x00).
  const material = await readSignedMaterial(contents);
  if (!material?.signer) return null;
  return { fieldName, contents, data: await collectValidationData(await chainsOf(material, fetcher), fetcher) };
}

/** Collects validation data for every signature of `bytes`, `targetField` first. */
export async function gatherLongTermData(
  bytes: Uint8Array,
  targetField: string,
  fetcher: RevocationFetcher,
): Promise<LongTermData> {
  const reader = PdfReader.open(bytes);
  const fields = findSignatureFields(reader)
    .map((f) => ({ name: f.fieldName, contents: reader.resolve(f.sig.get("Contents")) }))
    .filter((f): f is { name: string; contents: PdfString } => f.contents instanceof PdfString);
  fields.sort((a, b) => Number(b.name === targetField) - Number(a.name === targetField));
  const out: LongTermData = { target: null, others: [] };
  for (const f of fields) {
    const gathered = await gatherFor(f.name, f.contents.bytes, fetcher);
    if (!gathered) continue;
    if (f.name === targetField) out.target = gathered;
    else out.others.push(gathered);
  }
  return out;
}

function dssUpdateOf(items: readonly SignatureValidationData[]) {
  const vri: VriEntry[] = items.map((s) => ({
    contents: s.contents,
    certificates: s.data.certificates,
    ocsps: s.data.ocsps,
    crls: s.data.crls,
  }));
  return {
    certificates: items.flatMap((s) => s.data.certificates),
    ocsps: items.flatMap((s) => s.data.ocsps),
    crls: items.flatMap((s) => s.data.crls),
    vri,
  };
}

function joined(segments: readonly Uint8Array[]): Uint8Array {
  return segments.length === 1 ? segments[0]! : concatBytes(segments);
}

/** B-LT: the DSS update with the validation data of `data`, appended to `segments`. */
export async function appendValidationData(
  segments: readonly Uint8Array[],
  data: readonly SignatureValidationData[],
): Promise<Uint8Array[]> {
  return [...segments, await appendDssUpdate(PdfReader.open(joined(segments)), dssUpdateOf(data))];
}

export interface ArchiveTimestampResult {
  segments: Uint8Array[];
  fieldName: string;
  token: Uint8Array;
  /** Certificates of the time-stamp's chain whose status could not be obtained (its DSS then lacks them). */
  missing: { subject: string; why: string }[];
}

/**
 * B-LTA: a document time-stamp over everything so far, then, when the time-stamp
 * authority's validation data can be fetched, a DSS update holding it.
 */
export async function appendArchiveTimestamp(
  segments: readonly Uint8Array[],
  stamp: { timestamp: (digest: Uint8Array) => Promise<Uint8Array>; capacity: number },
  fetcher: RevocationFetcher,
): Promise<ArchiveTimestampResult> {
  const stamped = await appendDocumentTimestamp({
    reader: PdfReader.open(joined(segments)),
    contentsCapacity: stamp.capacity,
    timestamp: stamp.timestamp,
  });
  let out = [...segments, stamped.bytes];
  const own = await gatherFor(stamped.fieldName, stamped.contents, fetcher);
  if (own && (own.data.ocsps.length || own.data.crls.length)) out = await appendValidationData(out, [own]);
  return { segments: out, fieldName: stamped.fieldName, token: stamped.token, missing: own?.data.missing ?? [] };
}
