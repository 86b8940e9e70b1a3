import { PDFArray, PDFContext, PDFDocument, PDFName, PDFObjectCopier, PDFRef, PDFString, type PDFDict } from "pdf-lib";
import { PdfUnparseable } from "../../errors";
import { LIMITS } from "../../limits";
import { digestSegments, latin1Bytes, sha256Segments, toHex } from "../../util/bytes";
import { PdfDict, PdfRef, PdfString, isArray, isRef, type PdfValue } from "../model";
import { PdfBudgetExceeded, type PdfReader } from "../reader";
import { serializePdfValue } from "../serialize";
import { writeIncrementalUpdate, type UpdateObject } from "../writer/incremental";
import { incrementalBase } from "./update-base";
import { arrayOf, dictOf, nameTreeEntries, pdfText, utf16Text, type SigningInspection } from "./inspect";

/**
 * Adds one PAdES signature to a PDF as a single incremental update: an invisible
 * signature widget whose appearance carries the signer's evidence file, the
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
  reason: string;
  /**
   * JSON evidence: an associated file of the signature widget's appearance, and, unless
   * `inspection.countersign`, also a document attachment (EmbeddedFiles and the catalog's /AF).
   */
  attachment?: { bytes: Uint8Array; description: string };
  /** A standalone PDF whose pages are appended before signing (never when countersigning). */
  certificatePages?: Uint8Array;
  /** Capacity of `/Contents` in bytes (the hex string is twice as long). */
  contentsCapacity: number;
  /** The hash of the byte ranges (the signer's digest algorithm; default SHA-256). */
  digestAlgorithm?: "SHA-256" | "SHA-384";
  /** Builds the CMS over the byte-range digest. */
  buildSignature: (byteRangeDigest: Uint8Array) => Promise<Uint8Array>;
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

  const widgetRef = context.nextRef();
  const sigRef = context.nextRef();
  const fieldName = uniqueFieldName(inspection.fieldNames);

  // 1. Certificate pages, copied from their standalone PDF into the update.
  const newPageRefs: PDFRef[] = [];
  if (opts.certificatePages) {
    const certDoc = await PDFDocument.load(opts.certificatePages, { updateMetadata: false });
    // What we sign we must be able to verify: the output stays within the reader's page limit.
    if (pages.length + certDoc.getPageCount() > LIMITS.pdf.maxPages) {
      throw new PdfBudgetExceeded(
        `The PDF has ${pages.length} pages; with ${certDoc.getPageCount()} certificate page(s) the signed document would pass the ${LIMITS.pdf.maxPages} pages Signet reads (limit maxPages). Sign it with certificate.enabled false.`,
      );
    }
    const copier = PDFObjectCopier.for(certDoc.context, context);
    for (const page of certDoc.getPages()) {
      const copied = copier.copy(page.node);
      copied.set(PDFName.of("Parent"), PDFRef.of(pagesRef.num, pagesRef.gen));
      // The original tree may carry inheritable /Rotate or /CropBox; pin ours.
      copied.set(PDFName.of("Rotate"), context.obj(0));
      const mediaBox = copied.get(PDFName.of("MediaBox"));
      if (mediaBox) copied.set(PDFName.of("CropBox"), mediaBox);
      copied.delete(PDFName.of("Annots"));
      newPageRefs.push(context.register(copied));
    }
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
    appearance = context.register(context.stream(new Uint8Array(0), { Type: "XObject", Subtype: "Form", BBox: [0, 0, 0, 0], AF: [specRef] }));
  }

  // 3. The signature widget (a merged field + widget), on the last page.
  const widgetPage: PDFRef = newPageRefs.length
    ? newPageRefs[newPageRefs.length - 1]!
    : PDFRef.of(lastPage.ref.num, lastPage.ref.gen);
  context.assign(
    widgetRef,
    context.obj({
      Type: "Annot",
      Subtype: "Widget",
      FT: "Sig",
      T: PDFString.of(fieldName),
      V: sigRef,
      F: 132, // Print + Locked
      Rect: [0, 0, 0, 0],
      P: widgetPage,
      ...(appearance ? { AP: { N: appearance } } : {}),
    }),
  );
  if (newPageRefs.length) {
    const page = context.lookup(widgetPage) as PDFDict;
    page.set(PDFName.of("Annots"), context.obj([widgetRef]));
  } else {
    addAnnotationToPage(reader, lastPage.ref, lastPage.dict, new PdfRef(widgetRef.objectNumber, 0), rewrite);
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
  catalog = withSignatureField(reader, catalog, new PdfRef(widgetRef.objectNumber, 0), !countersign, context, rewrite);
  if (catalog !== signedCatalog) rewrite(catalogRef, catalog);

  // 7. New objects built with pdf-lib, then our signature dictionary.
  for (const [ref, obj] of context.enumerateIndirectObjects()) {
    const body = new Uint8Array(obj.sizeInBytes());
    obj.copyBytesInto(body, 0);
    changed.push({ num: ref.objectNumber, gen: ref.generationNumber, body });
  }
  const hexLength = opts.contentsCapacity * 2;
  const sigHead = `<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached ${BYTE_RANGE_PLACEHOLDER} /Contents <`;
  const sigTail =
    `> /M ${serializePdfValue(pdfDate(opts.signedAt))} /Name ${serializePdfValue(pdfText(opts.signerName))}` +
    ` /ContactInfo ${serializePdfValue(pdfText(opts.signerEmail))} /Reason ${serializePdfValue(pdfText(opts.reason))}` +
    ` /Prop_Build <</App <</Name /Signet>>>>>>`;
  const sigBody = latin1Bytes(sigHead + "0".repeat(hexLength) + sigTail);
  changed.push({ num: sigRef.objectNumber, gen: 0, body: sigBody });

  // 8. Write the update with a placeholder, then fix the byte range and hash it.
  const original = reader.bytes;
  const update = writeIncrementalUpdate(await incrementalBase(reader, `${opts.signedAt.toISOString()}|${fieldName}`), changed);
  const sigStart = update.bodyOffsets.get(sigRef.objectNumber)!;
  const contentsStart = sigStart + sigHead.length - 1; // the "<"
  const contentsEnd = contentsStart + 1 + hexLength + 1; // past the ">"
  const total = original.length + update.bytes.length;
  const byteRange = [0, contentsStart, contentsEnd, total - contentsEnd];
  // Padding after "]" is plain whitespace between tokens, so the width never changes.
  const rangeText = `/ByteRange [${byteRange.join(" ")}]`.padEnd(BYTE_RANGE_PLACEHOLDER.length, " ");
  patch(update.bytes, sigStart - original.length + sigHead.indexOf("/ByteRange"), rangeText, BYTE_RANGE_PLACEHOLDER.length);

  const localStart = contentsStart - original.length;
  const localEnd = contentsEnd - original.length;
  const digest = await digestSegments(opts.digestAlgorithm ?? "SHA-256", [original, update.bytes.subarray(0, localStart), update.bytes.subarray(localEnd)]);
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
  widget: PdfRef,
  setFlags: boolean,
  context: PDFContext,
  rewrite: (ref: PdfRef, value: PdfValue) => void,
): PdfDict {
  const formValue = catalog.get("AcroForm");
  const form = dictOf(reader, formValue);
  if (!form) {
    const ref = context.register(context.obj({ Fields: [PDFRef.of(widget.num, 0)], SigFlags: 3 }));
    return catalog.with({ AcroForm: new PdfRef(ref.objectNumber, 0) });
  }
  const fieldsValue = form.get("Fields");
  const fields = [...arrayOf(reader, fieldsValue), widget];
  let updated = form;
  // An indirect /Fields array is rewritten in place (the form dictionary stays as signed).
  if (isRef(fieldsValue) && isArray(reader.resolve(fieldsValue))) rewrite(fieldsValue, fields);
  else updated = updated.with({ Fields: fields });
  const flags = reader.resolve(form.get("SigFlags"));
  if (setFlags) updated = updated.with({ SigFlags: (typeof flags === "number" ? flags : 0) | 3 });
  if (updated === form) return catalog;
  if (isRef(formValue)) {
    rewrite(formValue, updated);
    return catalog;
  }
  return catalog.with({ AcroForm: updated });
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
  entries.push([nameTreeKey(fileName, entries.map(([key]) => key)), spec]);
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

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

