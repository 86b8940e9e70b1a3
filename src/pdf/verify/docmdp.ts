import { PdfUnparseable } from "../../errors";
import { PdfDict, PdfName, PdfRef, type PdfValue } from "../model";
import { PdfBudgetExceeded, type PdfReader } from "../reader";
import { textOf } from "../sign/inspect";
import type { DocMdpLevel } from "./status";

/**
 * Certification (DocMDP) and field locks (FieldMDP) of a signature
 * (ISO 32000-2 §12.8.2): read from the signature dictionary's `/Reference`
 * transforms and the field's `/Lock`.
 */

/** The DocMDP level when the signature certifies the document (default 2 when /P is absent or odd). */
export function certificationLevel(reader: PdfReader, sig: PdfDict): DocMdpLevel | null {
  for (const ref of arrayOf(reader, sig.get("Reference"))) {
    const d = dictOf(reader, ref);
    if (!d || !isName(resolve(reader, d.get("TransformMethod")), "DocMDP")) continue;
    const params = dictOf(reader, d.get("TransformParams"));
    const p = resolve(reader, params?.get("P"));
    return p === 1 || p === 3 ? p : 2;
  }
  return null;
}

/** Whether the catalog's /Perms /DocMDP names this signature dictionary. */
export function isCatalogCertification(reader: PdfReader, sigRef: PdfRef | null): boolean {
  if (!sigRef) return false;
  try {
    const perms = dictOf(reader, reader.catalog().get("Perms"));
    const docMdp = perms?.get("DocMDP");
    return docMdp instanceof PdfRef && docMdp.num === sigRef.num;
  } catch (e) {
    if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
    return false;
  }
}

export interface FieldLock {
  action: "All" | "Include" | "Exclude";
  /** Fully qualified names the lock lists (a set: a hostile lock may list a million). */
  fields: Set<string>;
}

/** The fields this signature locks: FieldMDP transforms in the signature, else the field's /Lock. */
export function fieldLocks(reader: PdfReader, sig: PdfDict, lock: PdfDict | null): FieldLock[] {
  const out: FieldLock[] = [];
  const read = (params: PdfDict | undefined) => {
    if (!params) return;
    const action = resolve(reader, params.get("Action"));
    if (!(action instanceof PdfName) || !["All", "Include", "Exclude"].includes(action.name)) return;
    const list = arrayOf(reader, params.get("Fields"));
    reader.spend(Math.ceil(list.length / 16));
    const fields = new Set<string>();
    for (const f of list) {
      const name = textOf(resolve(reader, f));
      if (name !== null) fields.add(name);
    }
    out.push({ action: action.name as FieldLock["action"], fields });
  };
  for (const ref of arrayOf(reader, sig.get("Reference"))) {
    const d = dictOf(reader, ref);
    if (d && isName(resolve(reader, d.get("TransformMethod")), "FieldMDP"))
      read(dictOf(reader, d.get("TransformParams")));
  }
  if (!out.length && lock) read(lock);
  return out;
}

/** Whether a lock covers a field name (a lock on "a" covers "a" and "a.b"): the name and its parents are looked up. */
export function lockCovers(lock: FieldLock, field: string): boolean {
  if (lock.action === "All") return true;
  let listed = lock.fields.has(field);
  for (let dot = field.indexOf("."); !listed && dot >= 0; dot = field.indexOf(".", dot + 1))
    listed = lock.fields.has(field.slice(0, dot));
  return lock.action === "Include" ? listed : !listed;
}

function resolve(reader: PdfReader, v: PdfValue | undefined): PdfValue | undefined {
  try {
    return reader.resolve(v);
  } catch (e) {
    if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
    return undefined;
  }
}

function dictOf(reader: PdfReader, v: PdfValue | undefined): PdfDict | undefined {
  const r = resolve(reader, v);
  return r instanceof PdfDict ? r : undefined;
}

function arrayOf(reader: PdfReader, v: PdfValue | undefined): PdfValue[] {
  const r = resolve(reader, v);
  return Array.isArray(r) ? r : [];
}

function isName(v: PdfValue | undefined, n: string): boolean {
  return v instanceof PdfName && v.name === n;
}
