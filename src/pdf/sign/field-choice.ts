/**
 * Which signature field a signature goes into. A document prepared for signing (Acrobat, Word, a
 * form tool) often carries an empty signature field; signing beside it leaves viewers showing an
 * unsigned field. So:
 *
 * - `signature.field` names the field: it must exist, be a signature field, be empty, not be
 *   locked by an earlier signature (FieldMDP), and, when the document is already signed, be its
 *   own widget (pyHanko's rules see a separate widget's new appearance as a change to the earlier
 *   signatures). Else 422 with one of the codes below.
 * - Without a name and without a requested position, the one empty field that can be signed is
 *   signed; with none or several, Signet adds its own field (and says why in a warning).
 *
 * Codes: `signature_field_not_found`, `signature_field_signed`, `signature_field_locked`,
 * `signature_field_unsupported`.
 */
import { type ErrorCode, UnprocessableContent } from "../../errors";
import { isArray, isRef, type PdfDict, type PdfRef } from "../model";
import type { PdfReader } from "../reader";
import { arrayOf, lockCovers, type SignatureFieldInfo, type SigningInspection } from "./inspect";

export interface FieldRequest {
  /** `signature.field`: the fully qualified name of the field to sign. */
  name?: string;
  /** The request places a new visible signature (an appearance with a position). */
  placed: boolean;
}

export interface FieldChoice {
  /** The field to sign, or null: add Signet's own. */
  field: SignatureFieldInfo | null;
  warnings: string[];
}

const unprocessable = (code: ErrorCode, message: string) => new UnprocessableContent(code, message);

/** Why `field` cannot be signed, or null. */
function refusal(field: SignatureFieldInfo, inspection: SigningInspection): { code: ErrorCode; why: string } | null {
  if (field.signed) return { code: "signature_field_signed", why: `is already signed` };
  if (inspection.fieldLocks.some((lock) => lockCovers(lock, field.name))) {
    return {
      code: "signature_field_locked",
      why: "is locked by an earlier signature (FieldMDP): signing it would invalidate that signature",
    };
  }
  if (field.widgets.length === 0)
    return { code: "signature_field_unsupported", why: "has no widget annotation to sign" };
  if (inspection.countersign && !field.merged) {
    return {
      code: "signature_field_unsupported",
      why: "keeps its widget in a separate object; after an earlier signature, validators (pyHanko) count a new appearance on it as a change to that signature",
    };
  }
  return null;
}

const listNames = (fields: SignatureFieldInfo[]) =>
  fields
    .slice(0, 10)
    .map((f) => `"${f.name}"`)
    .join(", ") + (fields.length > 10 ? ", ..." : "");

export function chooseSignatureField(inspection: SigningInspection, request: FieldRequest): FieldChoice {
  const empty = inspection.signatureFields.filter((f) => !f.signed);
  if (request.name !== undefined) {
    const field = inspection.signatureFields.find((f) => f.name === request.name);
    if (!field) {
      const kind = inspection.fieldNames.has(request.name) ? "is not a signature field" : "does not exist";
      const hint = empty.length
        ? ` Its empty signature fields: ${listNames(empty)}.`
        : " It has no empty signature field.";
      throw unprocessable("signature_field_not_found", `The field "${request.name}" ${kind} in this document.${hint}`);
    }
    const no = refusal(field, inspection);
    if (no) throw unprocessable(no.code, `The signature field "${field.name}" ${no.why}.`);
    return { field, warnings: [] };
  }

  const usable = empty.filter((f) => refusal(f, inspection) === null);
  if (request.placed) {
    const warnings = usable.length
      ? [
          `The document has an empty signature field (${listNames(usable)}); the signature was placed where the request asked, in a new field. Name a field with signature.field to sign it instead.`,
        ]
      : [];
    return { field: null, warnings };
  }
  if (usable.length === 1) return { field: usable[0]!, warnings: [] };
  const warnings: string[] = [];
  if (usable.length > 1) {
    warnings.push(
      `The document has ${usable.length} empty signature fields (${listNames(usable)}); Signet added its own. Name one with signature.field to sign it.`,
    );
  } else if (empty.length) {
    warnings.push(
      `The document's empty signature field ${listNames(empty)} cannot be signed (${refusal(empty[0]!, inspection)!.why}); Signet added its own.`,
    );
  }
  return { field: null, warnings };
}

/**
 * The page (index) and rectangle of a field's widget: from its /P, else from the page whose
 * /Annots lists it. Null when the widget is on no page.
 */
export function widgetPlacement(
  reader: PdfReader,
  field: SignatureFieldInfo,
): { pageIndex: number; rect: [number, number, number, number] } | null {
  const widget = field.widgets[0];
  if (!widget) return null;
  const pages = reader.pages();
  const p = widget.dict.get("P");
  let pageIndex = isRef(p) ? pages.findIndex((page) => page.ref.num === p.num && page.ref.gen === p.gen) : -1;
  if (pageIndex < 0) pageIndex = pages.findIndex((page) => annotsInclude(reader, page.dict, widget.ref));
  if (pageIndex < 0) return null;
  const rect = reader.resolve(widget.dict.get("Rect"));
  if (!isArray(rect) || rect.length !== 4) return { pageIndex, rect: [0, 0, 0, 0] };
  const [a, b, c, d] = rect
    .map((n) => reader.resolve(n))
    .map((n) => (typeof n === "number" && Number.isFinite(n) ? n : 0)) as [number, number, number, number];
  return { pageIndex, rect: [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)] };
}

export function annotsInclude(reader: PdfReader, page: PdfDict, annot: PdfRef): boolean {
  return arrayOf(reader, page.get("Annots")).some((a) => isRef(a) && a.num === annot.num && a.gen === annot.gen);
}

export interface RequestedPosition {
  /** 1-based. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A new field's rectangle in default user space: the request's position counts from the lower-left
 * corner of the page's visible area (its CropBox, else MediaBox). 422 `appearance_invalid` when
 * the page does not exist or the rectangle leaves the page.
 */
export function pagePlacement(
  reader: PdfReader,
  position: RequestedPosition,
): { pageIndex: number; rect: [number, number, number, number] } {
  const pages = reader.pages();
  if (position.page > pages.length) {
    throw unprocessable(
      "appearance_invalid",
      `signature.appearance.page is ${position.page} but the document has ${pages.length} page${pages.length === 1 ? "" : "s"}.`,
    );
  }
  const page = pages[position.page - 1]!;
  const box = pageBox(reader, page.dict);
  const [bx1, by1, bx2, by2] = box;
  const rect: [number, number, number, number] = [
    bx1 + position.x,
    by1 + position.y,
    bx1 + position.x + position.width,
    by1 + position.y + position.height,
  ];
  const tolerance = 0.5;
  if (rect[2] > bx2 + tolerance || rect[3] > by2 + tolerance) {
    const fmt = (n: number) => Math.round(n * 100) / 100;
    throw unprocessable(
      "appearance_invalid",
      `signature.appearance (${fmt(position.x)}, ${fmt(position.y)}, ${fmt(position.width)} x ${fmt(position.height)} pt) does not fit page ${position.page}, which is ${fmt(bx2 - bx1)} x ${fmt(by2 - by1)} pt.`,
    );
  }
  return { pageIndex: position.page - 1, rect };
}

/** The page's visible box, normalized: its CropBox (inherited), else MediaBox, else US Letter. */
function pageBox(reader: PdfReader, page: PdfDict): [number, number, number, number] {
  for (const key of ["CropBox", "MediaBox"]) {
    const v = reader.resolve(reader.inheritedPageAttribute(page, key));
    if (!isArray(v) || v.length !== 4) continue;
    const n = v.map((x) => reader.resolve(x));
    if (!n.every((x): x is number => typeof x === "number" && Number.isFinite(x))) continue;
    const [a, b, c, d] = n as [number, number, number, number];
    if (a === c || b === d) continue;
    return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
  }
  return [0, 0, 612, 792];
}
