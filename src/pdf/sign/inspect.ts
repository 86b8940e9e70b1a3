import { PdfUnparseable } from "../../errors";
import { PdfDict, PdfRef, PdfStream, PdfString, isArray, isDict, isName, isRef, type PdfValue } from "../model";
import type { PdfReader } from "../reader";

/**
 * What signing needs to know about an input before changing it: its
 * certification (DocMDP) level, field locks, the names already taken by fields
 * and embedded files. Walks are bounded and cycle-safe.
 */
export interface SigningInspection {
  pageCount: number;
  /** DocMDP permission level of a certification signature (1, 2, 3), or null. */
  docMdp: 1 | 2 | 3 | null;
  /** A signature locks fields (FieldMDP) — we then add only our signature. */
  fieldMdpLock: boolean;
  /** The field locks in force: earlier signatures' FieldMDP transforms and signed fields' /Lock. */
  fieldLocks: FieldLock[];
  /** Signature fields, signed or empty, in form order. */
  signatureFields: SignatureFieldInfo[];
  /** Fully qualified names of existing fields. */
  fieldNames: Set<string>;
  /** Names in the EmbeddedFiles name tree and of the files of signature appearances (earlier evidence). */
  embeddedFileNames: Set<string>;
  /** Number of existing signed signature fields. */
  signatureCount: number;
  /**
   * The input already carries a signature (or a certification, field lock or usage-rights
   * signature): signing it adds
   * only what every earlier signature allows, a signature field with its evidence (sign-pdf.ts).
   */
  countersign: boolean;
}

/** What a FieldMDP transform (or a field's /Lock) locks. */
export interface FieldLock {
  action: "All" | "Include" | "Exclude";
  fields: string[];
}

export interface SignatureFieldInfo {
  /** Fully qualified name. */
  name: string;
  ref: PdfRef;
  dict: PdfDict;
  /** The field has a value (a signature dictionary). */
  signed: boolean;
  /** The field is its own widget (one object), as signers mostly make them. */
  merged: boolean;
  /** The widget annotations: the field itself when merged, else its /Kids without /T. */
  widgets: { ref: PdfRef; dict: PdfDict }[];
  /** The field's /Lock (FieldMDP to apply when signing it) and /SV (seed values). */
  lock: PdfDict | null;
  seedValue: PdfDict | null;
}

/** Whether `lock` locks the field `name` (ISO 32000-2 Table 237/257). */
export function lockCovers(lock: FieldLock, name: string): boolean {
  if (lock.action === "All") return true;
  const listed = lock.fields.includes(name);
  return lock.action === "Include" ? listed : !listed;
}

/** A /Lock dictionary or FieldMDP /TransformParams as a FieldLock (unknown actions lock everything). */
export function readFieldLock(reader: PdfReader, d: PdfDict | undefined): FieldLock | null {
  if (!d) return null;
  const action = reader.resolve(d.get("Action"));
  const fields = arrayOf(reader, d.get("Fields"))
    .map((f) => textOf(reader.resolve(f)))
    .filter((f): f is string => f !== null);
  if (isName(action, "Include") || isName(action, "Exclude"))
    return { action: action.name as "Include" | "Exclude", fields };
  return { action: "All", fields };
}

const MAX_NODES = 50_000;

export function inspectForSigning(reader: PdfReader): SigningInspection {
  requireNothingAppended(reader);
  const catalog = reader.catalog();
  const pageCount = reader.pages().length;
  const result: SigningInspection = {
    pageCount,
    docMdp: null,
    fieldMdpLock: false,
    fieldLocks: [],
    signatureFields: [],
    fieldNames: new Set(),
    embeddedFileNames: new Set(),
    signatureCount: 0,
    countersign: false,
  };

  const perms = dictOf(reader, catalog.get("Perms"));
  const docMdpSig = dictOf(reader, perms?.get("DocMDP"));
  if (docMdpSig) result.docMdp = docMdpLevel(reader, docMdpSig) ?? 2;
  // A usage-rights signature (Adobe Reader extensions) is an earlier signature too.
  const usageRights = dictOf(reader, perms?.get("UR3")) ?? dictOf(reader, perms?.get("UR"));

  const acroForm = dictOf(reader, catalog.get("AcroForm"));
  const seen = new Set<string>();
  let budget = MAX_NODES;
  const visit = (v: PdfValue | undefined, prefix: string, depth: number, inheritedType: PdfValue | undefined) => {
    if (depth > 32 || --budget < 0) return;
    if (isRef(v)) {
      const key = `${v.num} ${v.gen}`;
      if (seen.has(key)) return;
      seen.add(key);
    }
    const field = dictOf(reader, v);
    if (!field) return;
    const partial = textOf(reader.resolve(field.get("T")));
    const full = partial === null ? prefix : prefix ? `${prefix}.${partial}` : partial;
    if (full) result.fieldNames.add(full);
    const ownType = reader.resolve(field.get("FT"));
    const type = ownType ?? inheritedType;
    const kids = arrayOf(reader, field.get("Kids"));
    const value = dictOf(reader, field.get("V"));
    const lockDict = dictOf(reader, field.get("Lock")) ?? null;
    if (isName(ownType, "Sig")) {
      if (value) {
        result.signatureCount++;
        for (const ref of arrayOf(reader, value.get("Reference"))) {
          const sigRef = dictOf(reader, ref);
          if (!isName(reader.resolve(sigRef?.get("TransformMethod")), "FieldMDP")) continue;
          result.fieldMdpLock = true;
          const lock = readFieldLock(reader, dictOf(reader, sigRef?.get("TransformParams")));
          if (lock) result.fieldLocks.push(lock);
        }
      }
      // A lock is in force once its field is signed (before, it says what signing it will lock).
      if (lockDict && value) {
        result.fieldMdpLock = true;
        result.fieldLocks.push(readFieldLock(reader, lockDict)!);
      }
      for (const spec of appearanceFiles(reader, field)) {
        const name = fileSpecName(reader, spec);
        if (name !== null) result.embeddedFileNames.add(name);
      }
    }
    // A terminal signature field: named, its kids (if any) are widgets without names.
    const kidFields = kids.filter((k) => dictOf(reader, k)?.has("T"));
    if (isName(type, "Sig") && partial !== null && kidFields.length === 0 && isRef(v)) {
      const widgets = kids.length
        ? kids.flatMap((k) => {
            const d = dictOf(reader, k);
            return isRef(k) && d ? [{ ref: k, dict: d }] : [];
          })
        : [{ ref: v, dict: field }];
      result.signatureFields.push({
        name: full,
        ref: v,
        dict: field,
        signed: value !== undefined,
        merged: kids.length === 0,
        widgets,
        lock: lockDict,
        seedValue: dictOf(reader, field.get("SV")) ?? null,
      });
    }
    for (const kid of kids) visit(kid, full, depth + 1, type);
  };
  for (const f of arrayOf(reader, acroForm?.get("Fields"))) visit(f, "", 0, undefined);

  const names = dictOf(reader, catalog.get("Names"));
  for (const [key] of nameTreeEntries(reader, names?.get("EmbeddedFiles"))) {
    const k = textOf(key);
    if (k !== null) result.embeddedFileNames.add(k);
  }
  result.countersign =
    result.signatureCount > 0 || result.docMdp !== null || result.fieldMdpLock || usageRights !== undefined;
  return result;
}

/**
 * What the signer saw must be what is signed. Objects (or a cross-reference section) written
 * after the end of the last revision the file's cross-reference chain reaches are shown by
 * viewers, which rebuild such a file, but not by a reader of the chain, nor after an incremental
 * update appended to it: signing would change what the document shows. Refused (422).
 */
function requireNothingAppended(reader: PdfReader): void {
  const at = reader.appendedStructure();
  if (at < 0) return;
  throw new PdfUnparseable(
    `The PDF continues after its last revision: at byte ${at} it holds objects that no cross-reference section lists. ` +
      "PDF viewers rebuild such a file and show those objects; signing it would append to the last complete revision and change what the document shows. " +
      "Save the file again with a PDF tool (it then gets a complete cross-reference section) and sign that.",
  );
}

function docMdpLevel(reader: PdfReader, sig: PdfDict): 1 | 2 | 3 | null {
  for (const ref of arrayOf(reader, sig.get("Reference"))) {
    const d = dictOf(reader, ref);
    if (!d || !isName(reader.resolve(d.get("TransformMethod")), "DocMDP")) continue;
    const params = dictOf(reader, d.get("TransformParams"));
    const p = reader.resolve(params?.get("P"));
    return p === 1 || p === 3 ? p : 2;
  }
  return null;
}

/** Entries of a name tree as [key, value] pairs, leaves in order; bounded and cycle-safe. */
export function nameTreeEntries(reader: PdfReader, root: PdfValue | undefined): [PdfString, PdfValue][] {
  const out: [PdfString, PdfValue][] = [];
  const seen = new Set<string>();
  let budget = MAX_NODES;
  const walk = (v: PdfValue | undefined, depth: number) => {
    if (depth > 32 || --budget < 0) return;
    if (isRef(v)) {
      const key = `${v.num} ${v.gen}`;
      if (seen.has(key)) return;
      seen.add(key);
    }
    const node = dictOf(reader, v);
    if (!node) return;
    const names = arrayOf(reader, node.get("Names"));
    for (let i = 0; i + 1 < names.length; i += 2) {
      const k = reader.resolve(names[i]);
      if (k instanceof PdfString) out.push([k, names[i + 1]!]);
    }
    for (const kid of arrayOf(reader, node.get("Kids"))) walk(kid, depth + 1);
  };
  walk(root, 0);
  return out;
}

/** Widgets and associated files looked at per signature field (a hostile field stops here). */
const MAX_APPEARANCE_FILES = 8;

/**
 * The files associated with a signature field's normal appearance (ISO 32000-2 §14.13: a form
 * XObject's /AF), where Signet keeps each signer's evidence; the widgets are the field itself
 * when merged with it, else its /Kids. As of `revision` (default: the newest).
 */
export function appearanceFiles(reader: PdfReader, field: PdfDict, revision?: number): PdfValue[] {
  const resolve = (v: PdfValue | undefined) => reader.resolve(v, revision);
  const kids = resolve(field.get("Kids"));
  const widgets = isArray(kids) ? kids.slice(0, MAX_APPEARANCE_FILES).map(resolve) : [field];
  const out: PdfValue[] = [];
  for (const widget of widgets) {
    if (!isDict(widget)) continue;
    const ap = resolve(widget.get("AP"));
    const normal = isDict(ap) ? resolve(ap.get("N")) : undefined;
    const af = normal instanceof PdfStream ? resolve(normal.dict.get("AF")) : undefined;
    if (isArray(af)) out.push(...af.slice(0, MAX_APPEARANCE_FILES));
  }
  return out;
}

/** The name of a file specification (/UF, else /F), or null. */
export function fileSpecName(reader: PdfReader, spec: PdfValue, revision?: number): string | null {
  const d = reader.resolve(spec, revision);
  return isDict(d) ? textOf(reader.resolve(d.get("UF") ?? d.get("F"), revision)) : null;
}

export function dictOf(reader: PdfReader, v: PdfValue | undefined): PdfDict | undefined {
  const r = reader.resolve(v);
  return isDict(r) ? r : undefined;
}

export function arrayOf(reader: PdfReader, v: PdfValue | undefined): PdfValue[] {
  const r = reader.resolve(v);
  return isArray(r) ? r : [];
}

/** A PDF text string (PDFDocEncoding or UTF-16BE with BOM) as a JS string. */
export function textOf(v: PdfValue | undefined): string | null {
  if (!(v instanceof PdfString)) return null;
  const b = v.bytes;
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) {
    let s = "";
    for (let i = 2; i + 1 < b.length; i += 2) s += String.fromCharCode((b[i]! << 8) | b[i + 1]!);
    return s;
  }
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) {
    return new TextDecoder().decode(b.subarray(3));
  }
  let s = "";
  for (const x of b) s += String.fromCharCode(x);
  return s;
}

/** A JS string as a PDF text string: plain bytes when ASCII, else UTF-16BE with BOM. */
export function pdfText(s: string): PdfString {
  if (/^[\x20-\x7e]*$/.test(s)) {
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return new PdfString(out, false);
  }
  return utf16Text(s);
}

/** A JS string as a UTF-16BE PDF text string with a byte order mark. */
export function utf16Text(s: string): PdfString {
  const out = new Uint8Array(2 + s.length * 2);
  out[0] = 0xfe;
  out[1] = 0xff;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[2 + i * 2] = c >> 8;
    out[3 + i * 2] = c & 0xff;
  }
  return new PdfString(out, true);
}

export const refKey = (r: PdfRef) => `${r.num} ${r.gen}`;
