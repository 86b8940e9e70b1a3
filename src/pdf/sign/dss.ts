/**
 * The Document Security Store (ISO 32000-2 §12.8.4.3, ETSI EN 319 142-1 5.4.2.2) written as
 * one incremental update: certificates, OCSP responses (DER OCSPResponse) and CRLs as
 * streams in `/Certs`, `/OCSPs`, `/CRLs`, and one `/VRI` entry per signature, keyed by the
 * upper-case hex SHA-1 of the signature's `/Contents` value (all of its bytes, padding
 * included), naming the items that validate that signature. An existing DSS is kept and
 * extended: its entries stay, items already in it are not added twice, VRI entries for the
 * same signature are merged. PDFs before 2.0 get the ESIC developer extension (level 1) that
 * announces the DSS.
 */
import { hashBytes } from "../../cms/verify/algorithms";
import { latin1Bytes, sha256, toHex } from "../../util/bytes";
import { PdfDict, PdfName, PdfRef, isArray, isDict, isRef, isStream, type PdfValue } from "../model";
import type { PdfReader } from "../reader";
import { serializePdfValue } from "../serialize";
import { type UpdateObject, writeIncrementalUpdate } from "../writer/incremental";
import { incrementalBase } from "./update-base";

export interface VriEntry {
  /** The signature's /Contents value (decoded hex string bytes, as stored). */
  contents: Uint8Array;
  certificates: readonly Uint8Array[];
  ocsps: readonly Uint8Array[];
  crls: readonly Uint8Array[];
}

export interface DssUpdate {
  certificates: readonly Uint8Array[];
  ocsps: readonly Uint8Array[];
  crls: readonly Uint8Array[];
  vri: readonly VriEntry[];
}

/** The VRI key of a signature: upper-case hex SHA-1 of its /Contents bytes. */
export async function vriKey(contents: Uint8Array): Promise<string> {
  return toHex(await hashBytes("SHA-1", contents)).toUpperCase();
}

const KINDS = [
  ["certificates", "Certs", "Cert"],
  ["ocsps", "OCSPs", "OCSP"],
  ["crls", "CRLs", "CRL"],
] as const;

/** Writes the DSS update after the file `reader` reads; returns the update's bytes (to append). */
export async function appendDssUpdate(reader: PdfReader, update: DssUpdate): Promise<Uint8Array> {
  const catalogRef = reader.catalogRef();
  const catalog = reader.catalog();
  const dssValue = catalog.get("DSS");
  const dss = reader.resolve(dssValue);
  const existing = isDict(dss) ? dss : new PdfDict();
  let nextNum = reader.size;
  const objects: UpdateObject[] = [];

  // Items already in the DSS, by content hash, so nothing is stored twice.
  const known = new Map<string, PdfRef>();
  const lists = new Map<string, PdfValue[]>();
  for (const [, key] of KINDS) {
    const list = reader.resolve(existing.get(key));
    const refs = isArray(list) ? [...list] : [];
    lists.set(key, refs);
    for (const r of refs.slice(0, 512)) {
      if (!isRef(r)) continue;
      try {
        const s = reader.resolve(r);
        if (isStream(s)) known.set(toHex(await sha256(reader.decodeStream(s))), r);
      } catch {
        /* an unreadable old entry: kept as it is, not matched */
      }
    }
  }
  const refFor = async (der: Uint8Array, key: string): Promise<PdfRef> => {
    const hash = toHex(await sha256(der));
    const hit = known.get(hash);
    if (hit) return hit;
    const ref = new PdfRef(nextNum++, 0);
    objects.push({ num: ref.num, gen: 0, body: streamBody(der) });
    known.set(hash, ref);
    lists.get(key)!.push(ref);
    return ref;
  };
  for (const [field, key] of KINDS) for (const der of update[field]) await refFor(der, key);

  // VRI: one dictionary per signature.
  const vriValue = existing.get("VRI");
  const vri = reader.resolve(vriValue);
  const vriMap = new Map(isDict(vri) ? vri.map : []);
  for (const entry of update.vri) {
    const key = await vriKey(entry.contents);
    const old = reader.resolve(vriMap.get(key));
    const oldDict = isDict(old) ? old : new PdfDict();
    const changes: Record<string, PdfValue> = {};
    for (const [field, listKey, vriListKey] of KINDS) {
      const refs: PdfValue[] = [];
      const oldList = reader.resolve(oldDict.get(vriListKey));
      if (isArray(oldList)) refs.push(...oldList);
      for (const der of entry[field]) {
        const ref = await refFor(der, listKey);
        if (!refs.some((r) => isRef(r) && r.num === ref.num && r.gen === ref.gen)) refs.push(ref);
      }
      if (refs.length) changes[vriListKey] = refs;
    }
    vriMap.set(key, oldDict.with(changes));
  }

  const dssChanges: Record<string, PdfValue> = {};
  for (const [, key] of KINDS) if (lists.get(key)!.length) dssChanges[key] = lists.get(key)!;
  if (vriMap.size) dssChanges.VRI = new PdfDict(vriMap);
  const newDss = existing.with(dssChanges).with({ Type: new PdfName("DSS") });
  let dssRef: PdfRef;
  if (isRef(dssValue)) dssRef = dssValue;
  else dssRef = new PdfRef(nextNum++, 0);
  objects.push({ num: dssRef.num, gen: dssRef.gen, body: latin1Bytes(serializePdfValue(newDss)) });

  objects.push({
    num: catalogRef.num,
    gen: catalogRef.gen,
    body: latin1Bytes(serializePdfValue(withEsic(reader, catalog).with({ DSS: dssRef }))),
  });
  const written = writeIncrementalUpdate(await incrementalBase(reader, `dss|${objects.length}|${nextNum}`), objects);
  return written.bytes;
}

function streamBody(data: Uint8Array): Uint8Array {
  const head = latin1Bytes(`<</Length ${data.length}>>\nstream\n`);
  const tail = latin1Bytes("\nendstream");
  const out = new Uint8Array(head.length + data.length + tail.length);
  out.set(head, 0);
  out.set(data, head.length);
  out.set(tail, head.length + data.length);
  return out;
}

/** The catalog with `/Extensions /ESIC` (BaseVersion 1.7, level 1) for files before PDF 2.0. */
function withEsic(reader: PdfReader, catalog: PdfDict): PdfDict {
  if (Number(reader.headerVersion) >= 2) return catalog;
  const extensions = reader.resolve(catalog.get("Extensions"));
  const ext = isDict(extensions) ? extensions : new PdfDict();
  if (ext.has("ESIC")) return catalog;
  const esic = new PdfDict(
    new Map<string, PdfValue>([
      ["BaseVersion", new PdfName("1.7")],
      ["ExtensionLevel", 1],
    ]),
  );
  return catalog.with({ Extensions: ext.with({ ESIC: esic }) });
}
