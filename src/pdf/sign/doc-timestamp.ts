/**
 * A document time-stamp (ISO 32000-2 §12.8.5, ETSI EN 319 142-1 5.4.3) as one incremental
 * update: an invisible signature field on the last page whose value is a
 * `/Type /DocTimeStamp /SubFilter /ETSI.RFC3161` dictionary; its `/Contents` is an RFC 3161
 * TimeStampToken whose message imprint is the SHA-256 of the byte ranges (the whole file but
 * the token itself).
 */
import { PdfUnparseable } from "../../errors";
import { latin1Bytes, sha256Segments, toHex } from "../../util/bytes";
import { PdfDict, PdfName, PdfRef, isRef, type PdfValue } from "../model";
import type { PdfReader } from "../reader";
import { serializePdfValue } from "../serialize";
import { type UpdateObject, writeIncrementalUpdate } from "../writer/incremental";
import { arrayOf, dictOf, inspectForSigning, pdfText } from "./inspect";
import { incrementalBase } from "./update-base";

export interface DocTimestampOptions {
  reader: PdfReader;
  /** Capacity of `/Contents` in bytes (the hex string is twice as long). */
  contentsCapacity: number;
  /** Obtains a TimeStampToken for the SHA-256 of the byte ranges. */
  timestamp: (byteRangeDigest: Uint8Array) => Promise<Uint8Array>;
}

export interface DocTimestampUpdate {
  /** The update alone (to append after the reader's bytes). */
  bytes: Uint8Array;
  fieldName: string;
  /** The /Contents value as written (token and zero padding): its SHA-1 is the VRI key. */
  contents: Uint8Array;
  token: Uint8Array;
}

const BYTE_RANGE_PLACEHOLDER = "/ByteRange [0 0000000000 0000000000 0000000000]";

export async function appendDocumentTimestamp(opts: DocTimestampOptions): Promise<DocTimestampUpdate> {
  const { reader } = opts;
  const pages = reader.pages();
  const lastPage = pages[pages.length - 1];
  if (!lastPage) throw new PdfUnparseable("The document has no pages.");
  const taken = inspectForSigning(reader).fieldNames;
  let n = 1;
  while (taken.has(`Timestamp${n}`)) n++;
  const fieldName = `Timestamp${n}`;

  let next = reader.size;
  const widgetRef = new PdfRef(next++, 0);
  const sigRef = new PdfRef(next++, 0);
  const objects: UpdateObject[] = [];
  const put = (ref: PdfRef, value: PdfValue) =>
    objects.push({ num: ref.num, gen: ref.gen, body: latin1Bytes(serializePdfValue(value)) });

  put(
    widgetRef,
    new PdfDict(
      new Map<string, PdfValue>([
        ["Type", new PdfName("Annot")],
        ["Subtype", new PdfName("Widget")],
        ["FT", new PdfName("Sig")],
        ["T", pdfText(fieldName)],
        ["V", sigRef],
        ["F", 132],
        ["Rect", [0, 0, 0, 0]],
        ["P", lastPage.ref],
      ]),
    ),
  );
  // The widget joins the last page's annotations.
  const annots = lastPage.dict.get("Annots");
  const annotList = isRef(annots) ? reader.resolve(annots) : undefined;
  if (isRef(annots) && Array.isArray(annotList)) put(annots, [...annotList, widgetRef]);
  else put(lastPage.ref, lastPage.dict.with({ Annots: [...arrayOf(reader, annots), widgetRef] }));

  // The field joins the form; SigFlags 3.
  const catalogRef = reader.catalogRef();
  const catalog = reader.catalog();
  const formValue = catalog.get("AcroForm");
  const form = dictOf(reader, formValue);
  const flags = reader.resolve(form?.get("SigFlags"));
  const newForm = (form ?? new PdfDict()).with({
    Fields: [...arrayOf(reader, form?.get("Fields")), widgetRef],
    SigFlags: (typeof flags === "number" ? flags : 0) | 3,
  });
  if (isRef(formValue) && form) put(formValue, newForm);
  else put(catalogRef, catalog.with({ AcroForm: newForm }));

  const hexLength = opts.contentsCapacity * 2;
  const sigHead = `<</Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 ${BYTE_RANGE_PLACEHOLDER} /Contents <`;
  objects.push({ num: sigRef.num, gen: 0, body: latin1Bytes(sigHead + "0".repeat(hexLength) + ">>>") });

  const original = reader.bytes;
  const update = writeIncrementalUpdate(await incrementalBase(reader, `doc-timestamp|${fieldName}`), objects);
  const sigStart = update.bodyOffsets.get(sigRef.num)!;
  const contentsStart = sigStart + sigHead.length - 1;
  const contentsEnd = contentsStart + 1 + hexLength + 1;
  const total = original.length + update.bytes.length;
  const rangeText = `/ByteRange [0 ${contentsStart} ${contentsEnd} ${total - contentsEnd}]`.padEnd(
    BYTE_RANGE_PLACEHOLDER.length,
    " ",
  );
  if (rangeText.length !== BYTE_RANGE_PLACEHOLDER.length) throw new Error("byte range does not fit its placeholder");
  update.bytes.set(latin1Bytes(rangeText), sigStart - original.length + sigHead.indexOf("/ByteRange"));

  const localStart = contentsStart - original.length;
  const localEnd = contentsEnd - original.length;
  const digest = await sha256Segments([
    original,
    update.bytes.subarray(0, localStart),
    update.bytes.subarray(localEnd),
  ]);
  const token = await opts.timestamp(digest);
  if (token.length > opts.contentsCapacity)
    throw new Error(`time-stamp token of ${token.length} bytes exceeds the ${opts.contentsCapacity}-byte placeholder`);
  update.bytes.set(latin1Bytes(toHex(token)), localStart + 1);
  const contents = new Uint8Array(opts.contentsCapacity);
  contents.set(token);
  return { bytes: update.bytes, fieldName, contents, token };
}
