import { PdfUnparseable } from "../../errors";
import { PdfDict, PdfRef, type PdfValue, isArray, isDict, isName, isRef } from "../model";
import { LIMITS } from "../../limits";
import { PdfBudgetExceeded, type PdfReader } from "../reader";
import { textOf } from "../sign/inspect";

/**
 * Signature discovery: every signed signature field of the AcroForm (`/Fields`
 * and their `/Kids`, with `/FT` inherited), walked cycle-safe and bounded in the
 * newest revision, as viewers and pdfsig see the document, then signature widgets
 * on pages that the form does not list. Unsigned signature fields are not signatures. Ordering by revision is done by the caller, which
 * knows each signature's byte range.
 */

export interface SignatureField {
  /** Fully qualified field name (`parent.child`). */
  fieldName: string;
  /** The terminal field (often merged with its widget); null when it is a direct object. */
  fieldRef: PdfRef | null;
  field: PdfDict;
  /** The signature dictionary (`/V`) and its reference when indirect. */
  sigRef: PdfRef | null;
  sig: PdfDict;
  /** The field's `/Lock` dictionary (FieldMDP), if any. */
  lock: PdfDict | null;
}

/** Nodes of the field tree visited at most (a hostile tree stops here, quietly). */
const MAX_FIELD_NODES = 50_000;
const MAX_FIELD_DEPTH = 32;

/**
 * The signature fields of a revision (default the newest). More than `max` signatures is
 * `PdfBudgetExceeded` (each costs a verification; a hostile file may hold thousands).
 */
export function findSignatureFields(
  reader: PdfReader,
  revision?: number,
  max: number = LIMITS.verify.maxSignatures,
): SignatureField[] {
  const out: SignatureField[] = [];
  /** "signature dictionary number|field name" of the fields found (a field listed twice is one). */
  const found = new Set<string>();
  const add = (f: SignatureField) => {
    if (out.length >= max) {
      throw new PdfBudgetExceeded(
        `The PDF has more than ${max} signatures; Signet verifies at most ${max} per document (limit verify.maxSignatures).`,
      );
    }
    if (f.sigRef) found.add(`${f.sigRef.num}|${f.fieldName}`);
    out.push(f);
  };
  const catalog = reader.catalog(revision);
  const form = dictAt(reader, catalog.get("AcroForm"), revision);
  if (!form) return out;
  const fields = arrayAt(reader, form.get("Fields"), revision);
  const seen = new Set<number>();
  let budget = MAX_FIELD_NODES;

  type Frame = { value: PdfValue; prefix: string; ft: PdfValue | undefined; depth: number };
  // Depth-first, in document order (a stack of pending kids, pushed in reverse).
  const stack: Frame[] = [];
  for (let i = fields.length - 1; i >= 0; i--) stack.push({ value: fields[i]!, prefix: "", ft: undefined, depth: 0 });
  while (stack.length) {
    const { value, prefix, ft: inheritedFt, depth } = stack.pop()!;
    if (--budget < 0 || depth > MAX_FIELD_DEPTH) break;
    if (isRef(value)) {
      if (seen.has(value.num)) continue;
      seen.add(value.num);
    }
    const field = dictAt(reader, value, revision);
    if (!field) continue;
    const partial = textOf(reader.resolve(field.get("T"), revision));
    const name = partial === null ? prefix : prefix ? `${prefix}.${partial}` : partial;
    const ft = field.has("FT") ? reader.resolve(field.get("FT"), revision) : inheritedFt;
    const kids = arrayAt(reader, field.get("Kids"), revision);
    const v = field.get("V");
    if (isName(ft, "Sig") && v !== undefined) {
      const sig = dictAt(reader, v, revision);
      const duplicate = isRef(v) && found.has(`${v.num}|${name}`);
      if (sig && !duplicate) {
        add({
          fieldName: name,
          fieldRef: isRef(value) ? value : null,
          field,
          sigRef: isRef(v) ? v : null,
          sig,
          lock: dictAt(reader, field.get("Lock"), revision) ?? null,
        });
      }
    }
    for (let i = kids.length - 1; i >= 0; i--) {
      const kid = kids[i]!;
      // Widgets without /T are parts of this field, not fields of their own; they still may
      // carry /V in broken files, so they are walked like fields with the parent's name.
      stack.push({ value: kid, prefix: name, ft, depth: depth + 1 });
    }
  }
  addOrphanWidgets(reader, out, seen, add, revision);
  return out;
}

/**
 * Signature widgets on pages that the form does not list (a field dropped from /Fields, or a
 * form never built): viewers still show them, and pdfsig reports them, so they are signatures too.
 */
function addOrphanWidgets(
  reader: PdfReader,
  out: SignatureField[],
  seen: Set<number>,
  add: (f: SignatureField) => void,
  revision?: number,
): void {
  const sigNums = new Set(out.flatMap((f) => (f.sigRef ? [f.sigRef.num] : [])));
  let pages: { ref: PdfRef; dict: PdfDict }[];
  try {
    pages = reader.pages(revision);
  } catch (e) {
    if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
    return;
  }
  let budget = MAX_FIELD_NODES;
  for (const page of pages) {
    for (const a of arrayAt(reader, page.dict.get("Annots"), revision)) {
      if (--budget < 0) return;
      if (!isRef(a) || seen.has(a.num)) continue;
      const widget = dictAt(reader, a, revision);
      if (!widget || !isName(reader.resolve(widget.get("Subtype"), revision), "Widget")) continue;
      // The terminal field: the widget itself, or its nearest ancestor with /V; /FT and /T inherited.
      const names: string[] = [];
      let ft: PdfValue | undefined;
      let field: PdfDict | undefined;
      let fieldRef: PdfRef | null = a;
      let node: PdfDict | undefined = widget;
      let nodeRef: PdfValue | undefined = a;
      for (let depth = 0; node && depth < MAX_FIELD_DEPTH; depth++) {
        if (isRef(nodeRef) && depth > 0 && seen.has(nodeRef.num)) {
          field = undefined;
          break; // part of a field the form lists
        }
        const t = textOf(reader.resolve(node.get("T"), revision));
        if (t !== null) names.unshift(t);
        if (ft === undefined && node.has("FT")) ft = reader.resolve(node.get("FT"), revision);
        if (!field && node.has("V")) {
          field = node;
          fieldRef = isRef(nodeRef) ? nodeRef : null;
        }
        nodeRef = node.get("Parent");
        node = dictAt(reader, nodeRef, revision);
      }
      if (!field || !isName(ft, "Sig")) continue;
      const v = field.get("V");
      const sig = dictAt(reader, v, revision);
      if (!sig) continue;
      if (isRef(v) && sigNums.has(v.num)) continue;
      seen.add(a.num);
      if (isRef(v)) sigNums.add(v.num);
      add({
        fieldName: names.join("."),
        fieldRef,
        field,
        sigRef: isRef(v) ? v : null,
        sig,
        lock: dictAt(reader, field.get("Lock"), revision) ?? null,
      });
    }
  }
}

function dictAt(reader: PdfReader, v: PdfValue | undefined, revision?: number): PdfDict | undefined {
  const r = reader.resolve(v, revision);
  return isDict(r) ? r : undefined;
}

function arrayAt(reader: PdfReader, v: PdfValue | undefined, revision?: number): PdfValue[] {
  const r = reader.resolve(v, revision);
  return isArray(r) ? r : [];
}
