import { PDFContext, PDFName, PDFRef, PDFString, type PDFContentStream } from "pdf-lib";
import { PdfUnparseable } from "../../errors";
import { LIMITS } from "../../limits";
import { compareBytes, digestSegments, latin1Bytes, sha256Segments, toHex } from "../../util/bytes";
import { PdfDict, PdfName, PdfRef, PdfString, isArray, isRef, type PdfValue } from "../model";
import { PdfBudgetExceeded, type PdfReader } from "../reader";
import { serializePdfValue } from "../serialize";
import { pageDictionary, type AppendablePages } from "../writer/appendable-pages";
import { writeIncrementalUpdate, type UpdateObject } from "../writer/incremental";
import { annotsInclude } from "./field-choice";
import { incrementalBase } from "./update-base";
import {
  arrayOf,
  dictOf,
  nameTreeEntries,
  pdfText,
  utf16Text,
  type SignatureFieldInfo,
  type SigningInspection,
} from "./inspect";

/**
 * Adds one PAdES signature to a PDF as a single incremental update: a signature
 * widget (invisible, or with a drawn appearance; Signet's own field or an empty
 * field of the document, see field-choice.ts) whose appearance carries the signer's evidence file, the
 * AcroForm entry, the signature dictionary whose `/Contents` is filled after
 * hashing the byte ranges, and, for documents without signatures, certificate
 * pages and the evidence as a document attachment. Pure: bytes and options in,
 * byte segments out.
 *
 * A countersignature (the input already carries signatures) adds only what
 * ISO 32000's rules for later revisions, as pyHanko and Adobe apply them, accept
 * after every earlier signature: a new signature field, its widget on a page's
 * /Annots, the form's /Fields, and objects reachable only from the new field's
 * appearance. Pages, the catalog (/Names, /AF) and /SigFlags stay as signed.
 */

export interface SignPdfOptions {
  reader: PdfReader;
  inspection: SigningInspection;
  signedAt: Date;
  signerName: string;
  signerEmail: string;
  /** The signature dictionary's /Reason; null: none (a seed value may ask for none). */
  reason: string | null;
  /** An empty signature field of the document to sign (else Signet adds its own field). */
  field?: SignatureFieldInfo;
  /**
   * A visible signature: where (the page index and rectangle in default user space; for an
   * existing field, its widget's) and the appearance stream drawn for that size.
   */
  appearance?: VisibleAppearance;
  /** Default ETSI.CAdES.detached; a field's seed value may require adbe.pkcs7.detached. */
  subFilter?: "ETSI.CAdES.detached" | "adbe.pkcs7.detached";
  /**
   * JSON evidence: an associated file of the signature widget's appearance, and, unless
   * `inspection.countersign`, also a document attachment (EmbeddedFiles and the catalog's /AF).
   */
  attachment?: { bytes: Uint8Array; description: string };
  /** Pages appended before signing, written as they come (never when countersigning). */
  certificatePages?: AppendablePages;
  /** Capacity of `/Contents` in bytes (the hex string is twice as long). */
  contentsCapacity: number;
  /** The hash of the byte ranges (the signer's digest algorithm; default SHA-256). */
  digestAlgorithm?: "SHA-256" | "SHA-384";
  /** Builds the CMS over the byte-range digest. */
  buildSignature: (byteRangeDigest: Uint8Array) => Promise<Uint8Array>;
}

export interface VisibleAppearance {
  pageIndex: number;
  rect: [number, number, number, number];
  /** Draws the appearance stream (fonts and images registered in `context`) for the rectangle's size. */
  draw: (context: PDFContext, width: number, height: number) => Promise<PDFContentStream>;
}

export interface SignedPdf {
  /** The output as segments (the untouched input, then the update): never joined. */
  segments: Uint8Array[];
  length: number;
  sha256: string;
  fieldName: string;
  attachmentName: string | null;
  pagesAdded: number;
  pageCount: number;
}

const BYTE_RANGE_PLACEHOLDER = "/ByteRange [0 0000000000 0000000000 0000000000]";

export async function signPdf(opts: SignPdfOptions): Promise<SignedPdf> {
  const { reader, inspection } = opts;
  const { countersign } = inspection;
  if (countersign && opts.certificatePages) throw new Error("pages cannot be appended after a signature");
  const context = PDFContext.create();
  context.largestObjectNumber = reader.size - 1;
  const changed: UpdateObject[] = [];
  const rewrite = (ref: PdfRef, value: PdfValue) =>
    changed.push({ num: ref.num, gen: ref.gen, body: latin1Bytes(serializePdfValue(value)) });

  const catalogRef = reader.catalogRef();
  const signedCatalog = reader.catalog();
  let catalog = signedCatalog;
  const pagesRef = catalog.get("Pages");
  if (!isRef(pagesRef)) throw new PdfUnparseable("The document's page tree root is not an indirect object.");
  const pagesRoot = dictOf(reader, pagesRef);
  if (!pagesRoot) throw new PdfUnparseable("The document has no page tree.");
  const pages = reader.pages();
  const lastPage = pages[pages.length - 1];
  if (!lastPage) throw new PdfUnparseable("The document has no pages.");

  const existing = opts.field;
  const sigRef = context.nextRef();
  // Our own field is a merged field + widget; an existing field keeps its objects.
  const widgetRef = existing
    ? PDFRef.of(existing.widgets[0]!.ref.num, existing.widgets[0]!.ref.gen)
    : context.nextRef();
  const fieldName = existing ? existing.name : uniqueFieldName(inspection.fieldNames);

  // 1. Certificate pages: their objects numbered into the update (page dictionaries in step 3).
  const newPageRefs: PDFRef[] = [];
  const certificatePages = opts.certificatePages;
  if (certificatePages && pages.length + certificatePages.pages.length > LIMITS.pdf.maxPages) {
    // What we sign we must be able to verify: the output stays within the reader's page limit.
    throw new PdfBudgetExceeded(
      `The PDF has ${pages.length} pages; with ${certificatePages.pages.length} certificate page(s) the signed document would pass the ${LIMITS.pdf.maxPages} pages Signet reads (limit maxPages). Sign it with certificate.enabled false.`,
    );
  }
  const numbers = certificatePages?.objects.map(() => context.nextRef().objectNumber) ?? [];
  const certificateRef = (local: number) => `${numbers[local]} 0 R`;
  if (certificatePages) {
    certificatePages.objects.forEach((body, k) =>
      changed.push({ num: numbers[k]!, gen: 0, body: body(certificateRef) }),
    );
    for (let i = 0; i < certificatePages.pages.length; i++) newPageRefs.push(context.nextRef());
  }

  // 2. The evidence file: an associated file of the widget's appearance (ISO 32000-2 form
  // XObject /AF), reachable only from the new field, so it is part of the new signature.
  let attachmentName: string | null = null;
  let appearance: PDFRef | null = null;
  let spec: PdfRef | null = null;
  if (opts.attachment) {
    attachmentName = uniqueAttachmentName(inspection.embeddedFileNames);
    const fileRef = context.register(
      context.flateStream(opts.attachment.bytes, {
        Type: "EmbeddedFile",
        Subtype: "application/json",
        Params: { Size: opts.attachment.bytes.length, ModDate: PDFString.fromDate(opts.signedAt) },
      }),
    );
    const specRef = context.register(
      context.obj({
        Type: "Filespec",
        F: PDFString.of(attachmentName),
        UF: PDFString.of(attachmentName),
        Desc: PDFString.of(opts.attachment.description),
        AFRelationship: "Supplement",
        EF: { F: fileRef, UF: fileRef },
      }),
    );
    spec = new PdfRef(specRef.objectNumber, 0);
  }
  const [x1, y1, x2, y2] = opts.appearance?.rect ?? [0, 0, 0, 0];
  const drawn = opts.appearance
    ? await opts.appearance.draw(context, x2 - x1, y2 - y1)
    : context.stream(new Uint8Array(0), { Type: "XObject", Subtype: "Form", BBox: [0, 0, 0, 0] });
  if (spec) drawn.dict.set(PDFName.of("AF"), context.obj([PDFRef.of(spec.num, spec.gen)]));
  if (spec || opts.appearance) appearance = context.register(drawn);

  // 3. The signature widget: our own (a merged field + widget) on the appearance's page or the
  // last page, or the existing field given its value and appearance.
  const appearancePage = opts.appearance ? pages[opts.appearance.pageIndex] : undefined;
  if (opts.appearance && !appearancePage) throw new Error("appearance page out of range");
  if (existing) {
    signExistingField(
      reader,
      existing,
      new PdfRef(sigRef.objectNumber, 0),
      appearance,
      opts.appearance !== undefined,
      rewrite,
    );
    if (appearancePage && !annotsInclude(reader, appearancePage.dict, existing.widgets[0]!.ref)) {
      addAnnotationToPage(reader, appearancePage.ref, appearancePage.dict, existing.widgets[0]!.ref, rewrite);
    }
  } else {
    const target = appearancePage ?? lastPage;
    const widgetPage: PDFRef =
      newPageRefs.length && !appearancePage
        ? newPageRefs[newPageRefs.length - 1]!
        : PDFRef.of(target.ref.num, target.ref.gen);
    context.assign(
      widgetRef,
      context.obj({
        Type: "Annot",
        Subtype: "Widget",
        FT: "Sig",
        T: PDFString.of(fieldName),
        V: sigRef,
        F: 132, // Print + Locked
        Rect: [x1, y1, x2, y2],
        P: widgetPage,
        ...(appearance ? { AP: { N: appearance } } : {}),
      }),
    );
    if (!newPageRefs.length || appearancePage) {
      addAnnotationToPage(reader, target.ref, target.dict, new PdfRef(widgetRef.objectNumber, 0), rewrite);
    }
  }
  if (certificatePages) {
    // Our pages: the tree's /Parent, no inheritable /Rotate or /CropBox from the original tree;
    // our own widget on the last one unless it is drawn on a page of the document.
    const widgetOnLast = !existing && !appearancePage;
    newPageRefs.forEach((pageRef, i) => {
      const box = `[${certificatePages.pages[i]!.mediaBox.join(" ")}]`;
      const annots = widgetOnLast && i === newPageRefs.length - 1 ? ` /Annots [${widgetRef.objectNumber} 0 R]` : "";
      const body = pageDictionary(
        certificatePages,
        i,
        certificateRef,
        `${pagesRef.num} ${pagesRef.gen} R`,
        ` /CropBox ${box} /Rotate 0${annots}`,
      );
      changed.push({ num: pageRef.objectNumber, gen: 0, body });
    });
  }

  // 4. Page tree: append the certificate pages after the signed ones.
  if (newPageRefs.length) {
    const kids = arrayOf(reader, pagesRoot.get("Kids"));
    const count = reader.resolve(pagesRoot.get("Count"));
    rewrite(
      pagesRef,
      pagesRoot.with({
        Kids: [...kids, ...newPageRefs.map((r) => new PdfRef(r.objectNumber, r.generationNumber))],
        Count: (typeof count === "number" ? count : pages.length) + newPageRefs.length,
      }),
    );
  }

  // 5. For documents without signatures, the evidence is also a document attachment (viewers list it).
  if (spec && attachmentName && !countersign) {
    catalog = withEmbeddedFile(reader, catalog, attachmentName, spec, context, changed, rewrite);
    catalog = catalog.with({ AF: [...arrayOf(reader, catalog.get("AF")), spec] });
  }

  // 6. AcroForm: our field joins /Fields; SigFlags 3 (signatures exist, append only), set by the
  // first signature (a later change of the form's flags is not a whitelisted change).
  catalog = withSignatureField(
    reader,
    catalog,
    existing ? null : new PdfRef(widgetRef.objectNumber, 0),
    !countersign,
    context,
    rewrite,
  );
  if (catalog !== signedCatalog) rewrite(catalogRef, catalog);

  // 7. New objects built with pdf-lib, then our signature dictionary.
  for (const [ref, obj] of context.enumerateIndirectObjects()) {
    const body = new Uint8Array(obj.sizeInBytes());
    obj.copyBytesInto(body, 0);
    changed.push({ num: ref.objectNumber, gen: ref.generationNumber, body });
  }
  const hexLength = opts.contentsCapacity * 2;
  const sigHead = `<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /${opts.subFilter ?? "ETSI.CAdES.detached"} ${BYTE_RANGE_PLACEHOLDER} /Contents <`;
  const lock = existing?.lock ? fieldMdpReference(reader, existing.lock, catalogRef) : "";
  const sigTail =
    `> /M ${serializePdfValue(pdfDate(opts.signedAt))} /Name ${serializePdfValue(pdfText(opts.signerName))}` +
    ` /ContactInfo ${serializePdfValue(pdfText(opts.signerEmail))}` +
    (opts.reason !== null ? ` /Reason ${serializePdfValue(pdfText(opts.reason))}` : "") +
    lock +
    ` /Prop_Build <</App <</Name /Signet>>>>>>`;
  const sigBody = latin1Bytes(sigHead + "0".repeat(hexLength) + sigTail);
  changed.push({ num: sigRef.objectNumber, gen: 0, body: sigBody });

  // 8. Write the update with a placeholder, then fix the byte range and hash it.
  const original = reader.bytes;
  const update = writeIncrementalUpdate(
    await incrementalBase(reader, `${opts.signedAt.toISOString()}|${fieldName}`),
    changed,
  );
  const sigStart = update.bodyOffsets.get(sigRef.objectNumber)!;
  const contentsStart = sigStart + sigHead.length - 1; // the "<"
  const contentsEnd = contentsStart + 1 + hexLength + 1; // past the ">"
  const total = original.length + update.bytes.length;
  const byteRange = [0, contentsStart, contentsEnd, total - contentsEnd];
  // Padding after "]" is plain whitespace between tokens, so the width never changes.
  const rangeText = `/ByteRange [${byteRange.join(" ")}]`.padEnd(BYTE_RANGE_PLACEHOLDER.length, " ");
  patch(
    update.bytes,
    sigStart - original.length + sigHead.indexOf("/ByteRange"),
    rangeText,
    BYTE_RANGE_PLACEHOLDER.length,
  );

  const localStart = contentsStart - original.length;
  const localEnd = contentsEnd - original.length;
  const digest = await digestSegments(opts.digestAlgorithm ?? "SHA-256", [
    original,
    update.bytes.subarray(0, localStart),
    update.bytes.subarray(localEnd),
  ]);
  const cms = await opts.buildSignature(digest);
  if (cms.length > opts.contentsCapacity) {
    throw new Error(`signature of ${cms.length} bytes exceeds the ${opts.contentsCapacity}-byte placeholder`);
  }
  update.bytes.set(latin1Bytes(toHex(cms)), localStart + 1);

  const segments = [original, update.bytes];
  return {
    segments,
    length: total,
    sha256: toHex(await sha256Segments(segments)),
    fieldName,
    attachmentName,
    pagesAdded: newPageRefs.length,
    pageCount: pages.length + newPageRefs.length,
  };
}

function patch(bytes: Uint8Array, at: number, text: string, width: number) {
  if (text.length !== width) throw new Error("byte range does not fit its placeholder");
  bytes.set(latin1Bytes(text), at);
}

function uniqueFieldName(taken: Set<string>): string {
  for (let i = 1; ; i++) if (!taken.has(`Signature${i}`)) return `Signature${i}`;
}

function uniqueAttachmentName(taken: Set<string>): string {
  if (!taken.has("signet-audit.json")) return "signet-audit.json";
  for (let i = 2; ; i++) if (!taken.has(`signet-audit-${i}.json`)) return `signet-audit-${i}.json`;
}

/** `D:YYYYMMDDHHmmSS+00'00'` in UTC. */
export function pdfDate(d: Date): PdfString {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const s = `D:${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(
    d.getUTCMinutes(),
  )}${p(d.getUTCSeconds())}+00'00'`;
  return new PdfString(latin1Bytes(s), false);
}

function addAnnotationToPage(
  reader: PdfReader,
  pageRef: PdfRef,
  page: PdfDict,
  annot: PdfRef,
  rewrite: (ref: PdfRef, value: PdfValue) => void,
) {
  const annots = page.get("Annots");
  if (isRef(annots)) {
    const list = reader.resolve(annots);
    if (isArray(list)) {
      rewrite(annots, [...list, annot]);
      return;
    }
  }
  rewrite(pageRef, page.with({ Annots: [...arrayOf(reader, annots), annot] }));
}

function withSignatureField(
  reader: PdfReader,
  catalog: PdfDict,
  widget: PdfRef | null,
  setFlags: boolean,
  context: PDFContext,
  rewrite: (ref: PdfRef, value: PdfValue) => void,
): PdfDict {
  const formValue = catalog.get("AcroForm");
  const form = dictOf(reader, formValue);
  if (!form) {
    if (!widget) throw new Error("an existing field without a form");
    const ref = context.register(context.obj({ Fields: [PDFRef.of(widget.num, 0)], SigFlags: 3 }));
    return catalog.with({ AcroForm: new PdfRef(ref.objectNumber, 0) });
  }
  let updated = form;
  if (widget) {
    const fieldsValue = form.get("Fields");
    const fields = [...arrayOf(reader, fieldsValue), widget];
    // An indirect /Fields array is rewritten in place (the form dictionary stays as signed).
    if (isRef(fieldsValue) && isArray(reader.resolve(fieldsValue))) rewrite(fieldsValue, fields);
    else updated = updated.with({ Fields: fields });
  }
  const flags = reader.resolve(form.get("SigFlags"));
  if (setFlags) updated = updated.with({ SigFlags: (typeof flags === "number" ? flags : 0) | 3 });
  if (updated === form) return catalog;
  if (isRef(formValue)) {
    rewrite(formValue, updated);
    return catalog;
  }
  return catalog.with({ AcroForm: updated });
}

/**
 * An existing empty field receives its value (`/V`), and its widget our appearance (the evidence
 * rides on it); a visible signature also clears the widget's Hidden, NoView and Invisible flags
 * and sets Print. Only keys pyHanko's and our own difference rules allow to change when a
 * signature field is signed (/V /AP /F) are touched.
 */
function signExistingField(
  reader: PdfReader,
  field: SignatureFieldInfo,
  sig: PdfRef,
  appearance: PDFRef | null,
  visible: boolean,
  rewrite: (ref: PdfRef, value: PdfValue) => void,
) {
  const widget = field.widgets[0]!;
  const widgetChanges = (dict: PdfDict): Record<string, PdfValue | undefined> => {
    const flags = reader.resolve(dict.get("F"));
    const f = typeof flags === "number" ? flags : 0;
    return {
      ...(appearance ? { AP: new PdfDict(new Map([["N", new PdfRef(appearance.objectNumber, 0)]])) } : {}),
      ...(visible ? { F: (f & ~(1 | 2 | 32)) | 4 } : {}), // not Invisible, Hidden, NoView; Print
    };
  };
  if (field.merged) {
    rewrite(field.ref, field.dict.with({ V: sig, ...widgetChanges(field.dict) }));
    return;
  }
  rewrite(field.ref, field.dict.with({ V: sig }));
  rewrite(widget.ref, widget.dict.with(widgetChanges(widget.dict)));
}

/**
 * The signature reference that applies a field's /Lock when it is signed (ISO 32000-2 §12.8.2.4):
 * a FieldMDP transform with the lock's action, fields and (PDF 2.0) permission, over the catalog.
 */
function fieldMdpReference(reader: PdfReader, lock: PdfDict, catalogRef: PdfRef): string {
  const action = reader.resolve(lock.get("Action"));
  const params = new Map<string, PdfValue>([
    ["Type", new PdfName("TransformParams")],
    ["Action", action instanceof PdfName ? action : new PdfName("All")],
    ["V", new PdfName("1.2")],
  ]);
  const fields = reader.resolve(lock.get("Fields"));
  if (isArray(fields))
    params.set(
      "Fields",
      fields.map((f) => reader.resolve(f) ?? null),
    );
  const p = reader.resolve(lock.get("P"));
  if (p === 1 || p === 2 || p === 3) params.set("P", p);
  const reference = new PdfDict(
    new Map<string, PdfValue>([
      ["Type", new PdfName("SigRef")],
      ["TransformMethod", new PdfName("FieldMDP")],
      ["TransformParams", new PdfDict(params)],
      ["Data", catalogRef],
    ]),
  );
  return ` /Reference ${serializePdfValue([reference])}`;
}

function withEmbeddedFile(
  reader: PdfReader,
  catalog: PdfDict,
  fileName: string,
  spec: PdfRef,
  context: PDFContext,
  changed: UpdateObject[],
  rewrite: (ref: PdfRef, value: PdfValue) => void,
): PdfDict {
  const namesValue = catalog.get("Names");
  const names = dictOf(reader, namesValue) ?? new PdfDict();
  // Rebuild the EmbeddedFiles tree as one sorted leaf holding the old entries and ours. Readers
  // search it by the keys' bytes (poppler) or by their text (qpdf): our key takes the encoding the
  // existing keys use, so that both orders agree.
  const entries = nameTreeEntries(reader, names.get("EmbeddedFiles"));
  entries.push([
    nameTreeKey(
      fileName,
      entries.map(([key]) => key),
    ),
    spec,
  ]);
  entries.sort((a, b) => compareBytes(a[0].bytes, b[0].bytes));
  const treeRef = context.nextRef();
  changed.push({
    num: treeRef.objectNumber,
    gen: 0,
    body: latin1Bytes(serializePdfValue(new PdfDict(new Map([["Names", entries.flat()]])))),
  });
  const updatedNames = names.with({ EmbeddedFiles: new PdfRef(treeRef.objectNumber, 0) });
  if (isRef(namesValue)) {
    rewrite(namesValue, updatedNames);
    return catalog;
  }
  return catalog.with({ Names: updatedNames });
}

/**
 * A name tree key for `name`: UTF-16BE with a byte order mark when the tree's existing keys are
 * written so (an ASCII key, 0x73..., would sort before every 0xFE 0xFF key by bytes but after
 * "/home/..." by text), else as `pdfText` writes it.
 */
export function nameTreeKey(name: string, existing: readonly PdfString[]): PdfString {
  const utf16 = existing.some((k) => k.bytes[0] === 0xfe && k.bytes[1] === 0xff);
  return utf16 ? utf16Text(name) : pdfText(name);
}
