/**
 * Reading the Document Security Store (ISO 32000-2 §12.8.4.3) of the newest revision: its
 * certificates, OCSP responses and CRLs, each with the revision that wrote it (so a document
 * time-stamp can be said to cover it), and its VRI keys. Bounded; unreadable items are
 * skipped (a DSS is unsigned data: it can only help, never count against a signature).
 */
import { CrlError, parseCrl } from "../../cms/revocation/crl";
import { OcspError, parseOcspResponse } from "../../cms/revocation/ocsp";
import type { RevocationItem } from "../../cms/revocation/status";
import { type ParsedCertificate, tryParseCertificate } from "../../cms/verify/certificate";
import { LIMITS } from "../../limits";
import { PdfUnparseable } from "../../errors";
import { type PdfDict, isArray, isDict, isRef, isStream, type PdfRef } from "../model";
import { PdfBudgetExceeded, type PdfReader } from "../reader";

export interface DssContents {
  present: boolean;
  certificates: { certificate: ParsedCertificate; revision: number }[];
  /** Revocation items (origin `dss`), each with the revision that wrote it. */
  revocation: { item: RevocationItem; revision: number }[];
  /** VRI keys (upper-case hex SHA-1 of signatures' /Contents). */
  vriKeys: string[];
}

/** The revision that wrote the object `ref` as seen in revision `n` (1 = the original file). */
function writtenIn(reader: PdfReader, ref: PdfRef, n: number): number {
  const newest = reader.objectOffset(ref.num, n);
  for (let k = 1; k <= n; k++) if (reader.objectOffset(ref.num, k) === newest) return k;
  return n;
}

/**
 * The DSS of every revision, newest first, items once each: a later update may rewrite the
 * DSS without earlier entries (EU DSS reads them all too).
 */
function dssDictionaries(reader: PdfReader): { dss: PdfDict; revision: number }[] {
  const out: { dss: PdfDict; revision: number }[] = [];
  for (let k = reader.revisions.length; k >= 1 && out.length < MAX_DSS_REVISIONS; k--) {
    try {
      const dss = reader.resolve(reader.catalog(k).get("DSS"), k);
      if (isDict(dss) && !out.some((o) => o.dss === dss)) out.push({ dss, revision: k });
    } catch (e) {
      if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
    }
  }
  return out;
}

const MAX_DSS_REVISIONS = 16;

export async function readDss(reader: PdfReader): Promise<DssContents> {
  const out: DssContents = { present: false, certificates: [], revocation: [], vriKeys: [] };
  const dictionaries = dssDictionaries(reader);
  if (!dictionaries.length) return out;
  out.present = true;
  let budget = LIMITS.revocation.maxEmbeddedItems;
  const seen = new Set<string>();
  const streams = (key: string): { data: Uint8Array; revision: number }[] => {
    const items: { data: Uint8Array; revision: number }[] = [];
    for (const { dss, revision } of dictionaries) {
      const list = reader.resolve(dss.get(key), revision);
      if (!isArray(list)) continue;
      for (const r of list) {
        if (isRef(r)) {
          if (seen.has(`${r.num} ${r.gen}`)) continue;
          seen.add(`${r.num} ${r.gen}`);
        }
        if (budget-- <= 0) break;
        try {
          const s = reader.resolve(r, revision);
          if (!isStream(s)) continue;
          items.push({ data: reader.decodeStream(s), revision: isRef(r) ? writtenIn(reader, r, revision) : revision });
        } catch (e) {
          if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
        }
      }
    }
    return items;
  };
  for (const { data, revision } of streams("Certs")) {
    const certificate = await tryParseCertificate(data);
    if (certificate) out.certificates.push({ certificate, revision });
  }
  for (const { data, revision } of streams("OCSPs")) {
    try {
      out.revocation.push({ item: { kind: "ocsp", response: await parseOcspResponse(data), origin: "dss" }, revision });
    } catch (e) {
      if (!(e instanceof OcspError)) throw e;
    }
  }
  for (const { data, revision } of streams("CRLs")) {
    if (data.length > LIMITS.revocation.maxCrlBytes) continue;
    try {
      out.revocation.push({ item: { kind: "crl", crl: parseCrl(data), origin: "dss" }, revision });
    } catch (e) {
      if (!(e instanceof CrlError)) throw e;
    }
  }
  const vri = reader.resolve(dictionaries[0]!.dss.get("VRI"));
  if (isDict(vri)) out.vriKeys = [...vri.map.keys()].slice(0, LIMITS.revocation.maxEmbeddedItems);
  return out;
}
