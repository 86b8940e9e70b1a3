/**
 * Test-only helpers for the verification tests (not used by the service): a
 * small unsigned document, a signer that adds one signature as an incremental
 * update with keys made in the test (any digest, certification levels, other
 * SubFilters), and writers for the later revisions attacks append.
 */
import type { DigestName } from "../../src/cms/verify";
import { type KeyKind, makeCert, makeCms, makeKey, name, type TestKey } from "./keys-certificates-cms";
import { signingCertificateV2Attribute } from "../../src/cms/signed-data";
import { concatBytes, latin1Bytes, latin1Text, toHex } from "../../src/util/bytes";
import { PdfDict, PdfRef, PdfString, isArray, isRef, type PdfValue } from "../../src/pdf/model";
import { PdfReader } from "../../src/pdf/reader";
import { PdfAssembler, type XrefRow } from "./pdf-assembler";
import { serializePdfValue } from "../../src/pdf/serialize";
import { writeIncrementalUpdate, type UpdateObject } from "../../src/pdf/writer/incremental";
import { digestSegments } from "../../src/pdf/verify/digest";

export interface TestSigner {
  key: TestKey;
  cert: Uint8Array;
  /** Certificates to embed, signer first. */
  chain: Uint8Array[];
  /** The trust anchor to pass to verifyPdf for this signer. */
  root: Uint8Array;
  commonName: string;
}

/** A signer under its own test root, or self-signed. */
export async function makeSigner(
  commonName: string,
  opts: { kind?: KeyKind; selfSigned?: boolean } = {},
): Promise<TestSigner> {
  const key = await makeKey(opts.kind ?? "P-256");
  if (opts.selfSigned) {
    const cert = await makeCert({ subject: name(commonName), key });
    return { key, cert, chain: [cert], root: cert, commonName };
  }
  const caKey = await makeKey("P-256");
  const caName = name(`${commonName} Test Root`);
  const root = await makeCert({ subject: caName, key: caKey, ca: true });
  const cert = await makeCert({ subject: name(commonName), key, issuer: { name: caName, key: caKey } });
  return { key, cert, chain: [cert, root], root, commonName };
}

/** A 2-page document: catalog 1, pages 2, pages 3 and 4 with content streams 5 and 6, font 7, info 8. */
export function basePdf(opts: { hiddenContent?: string } = {}): Uint8Array {
  const pdf = new PdfAssembler();
  pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  pdf.obj(2, "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 612 792] >>");
  pdf.obj(3, "<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> >>");
  pdf.obj(4, "<< /Type /Page /Parent 2 0 R /Contents 6 0 R /Resources << /Font << /F1 7 0 R >> >> >>");
  // A shadow attack's preparation: a second, earlier definition of object 5 that the xref does not use.
  if (opts.hiddenContent) pdf.stream(5, "", `BT /F1 24 Tf 72 700 Td (${opts.hiddenContent}) Tj ET`);
  const hidden = pdf.offsets.get(5);
  pdf.stream(5, "", "BT /F1 24 Tf 72 700 Td (Pay 100 EUR to Alice) Tj ET");
  pdf.stream(6, "", "BT /F1 24 Tf 72 700 Td (Page two) Tj ET");
  pdf.obj(7, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  pdf.obj(8, "<< /Title (Test contract) /Producer (Signet tests) >>");
  const rows: XrefRow[] = [{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor([1, 2, 3, 4, 5, 6, 7, 8])];
  void hidden;
  const xref = pdf.table(
    rows,
    "/Size 9 /Root 1 0 R /Info 8 0 R /ID [<0102030405060708090a0b0c0d0e0f10> <0102030405060708090a0b0c0d0e0f10>]",
  );
  pdf.startxref(xref);
  return pdf.bytes();
}

export interface TestSignOptions {
  signer: TestSigner;
  digest?: DigestName;
  subFilter?: string;
  docMdp?: 1 | 2 | 3;
  /** A FieldMDP transform: the fields this signature locks. */
  fieldLock?: { action: "All" | "Include" | "Exclude"; fields: string[] };
  fieldName?: string;
  /** /Name of the signature dictionary. */
  signerName?: string;
  /** 1-based page of the (invisible) widget. */
  page?: number;
  time?: Date;
  /** Capacity of /Contents in bytes. */
  capacity?: number;
}

export interface TestSigned {
  bytes: Uint8Array;
  sigNum: number;
  /** Offsets of the /Contents hex string ("<" and just past ">"). */
  contentsStart: number;
  contentsEnd: number;
  byteRange: [number, number, number, number];
}

const BR_PLACEHOLDER = "/ByteRange [0 0000000000 0000000000 0000000000]";

/** Adds one signature field and its signature as an incremental update, Signet-style but with test keys. */
export async function signForTest(input: Uint8Array, opts: TestSignOptions): Promise<TestSigned> {
  const reader = PdfReader.open(input);
  const catalogRef = reader.catalogRef();
  let catalog = reader.catalog();
  const pages = reader.pages();
  const page = pages[(opts.page ?? 1) - 1]!;
  let next = reader.size;
  const widgetNum = next++;
  const sigNum = next++;
  const objects: UpdateObject[] = [];
  const put = (num: number, value: PdfValue | string) =>
    objects.push({ num, gen: 0, body: latin1Bytes(typeof value === "string" ? value : serializePdfValue(value)) });

  const fieldName = opts.fieldName ?? `Signature${countSignatures(reader) + 1}`;
  put(
    widgetNum,
    `<</Type /Annot /Subtype /Widget /FT /Sig /T ${serializePdfValue(text(fieldName))} /V ${sigNum} 0 R /F 132 /Rect [0 0 0 0] /P ${page.ref.num} ${page.ref.gen} R>>`,
  );

  // The page gets the widget.
  const annots = page.dict.get("Annots");
  const existing = reader.resolve(annots);
  if (isRef(annots) && isArray(existing)) put(annots.num, [...existing, new PdfRef(widgetNum, 0)]);
  else
    put(page.ref.num, page.dict.with({ Annots: [...(isArray(existing) ? existing : []), new PdfRef(widgetNum, 0)] }));

  // The form gets the field.
  const formValue = catalog.get("AcroForm");
  const form = reader.resolve(formValue);
  if (form instanceof PdfDict) {
    const fields = reader.resolve(form.get("Fields"));
    const updated = form.with({ Fields: [...(isArray(fields) ? fields : []), new PdfRef(widgetNum, 0)], SigFlags: 3 });
    if (isRef(formValue)) put(formValue.num, updated);
    else catalog = catalog.with({ AcroForm: updated });
  } else {
    catalog = catalog.with({
      AcroForm: new PdfDict(
        new Map<string, PdfValue>([
          ["Fields", [new PdfRef(widgetNum, 0)]],
          ["SigFlags", 3],
        ]),
      ),
    });
  }
  if (opts.docMdp) catalog = catalog.with({ Perms: new PdfDict(new Map([["DocMDP", new PdfRef(sigNum, 0)]])) });
  put(catalogRef.num, catalog);

  const capacity = opts.capacity ?? 8192;
  const refs: string[] = [];
  if (opts.docMdp)
    refs.push(
      `<</Type /SigRef /TransformMethod /DocMDP /TransformParams <</Type /TransformParams /P ${opts.docMdp} /V /1.2>>>>`,
    );
  if (opts.fieldLock) {
    const fields = opts.fieldLock.fields.map((f) => serializePdfValue(text(f))).join(" ");
    refs.push(
      `<</Type /SigRef /TransformMethod /FieldMDP /TransformParams <</Type /TransformParams /Action /${opts.fieldLock.action} /Fields [${fields}] /V /1.2>>>>`,
    );
  }
  const reference = refs.length ? ` /Reference [${refs.join(" ")}]` : "";
  const time = opts.time ?? new Date();
  const head =
    `<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /${opts.subFilter ?? "ETSI.CAdES.detached"} /M ${serializePdfValue(pdfDate(time))}` +
    ` /Name ${serializePdfValue(text(opts.signerName ?? opts.signer.commonName))}${reference} ${BR_PLACEHOLDER} /Contents <`;
  const tail = `>>>`;
  objects.push({ num: sigNum, gen: 0, body: latin1Bytes(head + "0".repeat(capacity * 2) + tail) });

  const update = writeUpdate(reader, objects);
  const sigStart = update.bodyOffsets.get(sigNum)!;
  const contentsStart = sigStart + head.length - 1;
  const contentsEnd = contentsStart + 2 + capacity * 2;
  const total = input.length + update.bytes.length;
  const byteRange: [number, number, number, number] = [0, contentsStart, contentsEnd, total - contentsEnd];
  const rangeText = `/ByteRange [${byteRange.join(" ")}]`.padEnd(BR_PLACEHOLDER.length, " ");
  update.bytes.set(latin1Bytes(rangeText), sigStart - input.length + head.indexOf("/ByteRange"));

  const local = contentsStart - input.length;
  const parts = [input, update.bytes.subarray(0, local), update.bytes.subarray(local + 2 + capacity * 2)];
  const digest = opts.digest ?? "SHA-256";
  const contentDigest = await digestSegments(digest, parts);
  const cms = await makeCms({
    key: opts.signer.key,
    cert: opts.signer.cert,
    certificates: opts.signer.chain,
    digest,
    contentDigest,
    extraSignedAttributes:
      opts.subFilter === "adbe.pkcs7.detached" ? [] : [await signingCertificateV2Attribute(opts.signer.cert)],
  });
  if (cms.length > capacity) throw new Error("signature larger than its placeholder");
  update.bytes.set(latin1Bytes(toHex(cms)), local + 1);

  const out = new Uint8Array(total);
  out.set(input);
  out.set(update.bytes, input.length);
  return { bytes: out, sigNum, contentsStart, contentsEnd, byteRange };
}

/**
 * A document with `count` incremental signatures, built the way a client without any key would
 * build a hostile one, fast: every revision adds a signature field (listed in /Fields and on
 * page 1) with a signature dictionary whose /ByteRange covers that revision and whose /Contents
 * is filler, not a CMS signature. Enough for the verifier to find, count and analyse them.
 */
export function manySignaturesPdf(count: number): Uint8Array {
  const parts: Uint8Array[] = [basePdf()];
  let length = parts[0]!.length;
  const first = PdfReader.open(parts[0]!);
  let prevXref = first.startxref;
  let size = first.size;
  const widgets: string[] = [];
  const filler = "3082".padEnd(128, "5a");
  for (let i = 1; i <= count; i++) {
    const widgetNum = size;
    const sigNum = size + 1;
    widgets.push(`${widgetNum} 0 R`);
    const head = `<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached ${BR_PLACEHOLDER} /Contents <`;
    const objects: UpdateObject[] = [
      {
        num: 1,
        gen: 0,
        body: latin1Bytes(`<</Type /Catalog /Pages 2 0 R /AcroForm <</Fields [${widgets.join(" ")}] /SigFlags 3>>>>`),
      },
      {
        num: 3,
        gen: 0,
        body: latin1Bytes(
          `<</Type /Page /Parent 2 0 R /Contents 5 0 R /Resources <</Font <</F1 7 0 R>>>> /Annots [${widgets.join(" ")}]>>`,
        ),
      },
      {
        num: widgetNum,
        gen: 0,
        body: latin1Bytes(
          `<</Type /Annot /Subtype /Widget /FT /Sig /T (Signature${i}) /V ${sigNum} 0 R /F 132 /Rect [0 0 0 0] /P 3 0 R>>`,
        ),
      },
      { num: sigNum, gen: 0, body: latin1Bytes(`${head}${filler}>>>`) },
    ];
    const update = writeIncrementalUpdate(
      {
        fileLength: length,
        endsWithEol: true,
        prevXref,
        offsetBase: 0,
        size,
        useXrefStream: false,
        root: new PdfRef(1, 0),
        info: new PdfRef(8, 0),
        id: [new Uint8Array(16), new Uint8Array(16).fill(i & 0xff)],
      },
      objects,
    );
    const contentsStart = update.bodyOffsets.get(sigNum)! + head.length - 1;
    const contentsEnd = contentsStart + filler.length + 2;
    const total = length + update.bytes.length;
    const rangeText = `/ByteRange [0 ${contentsStart} ${contentsEnd} ${total - contentsEnd}]`.padEnd(
      BR_PLACEHOLDER.length,
      " ",
    );
    update.bytes.set(latin1Bytes(rangeText), update.bodyOffsets.get(sigNum)! - length + head.indexOf("/ByteRange"));
    prevXref = length + latin1Text(update.bytes).lastIndexOf("\nxref\n") + 1;
    parts.push(update.bytes);
    length = total;
    size = update.size;
  }
  return concat(...parts);
}

/** Appends an incremental update holding the given object bodies (PDF syntax, as written between `obj` and `endobj`). */
export function appendUpdate(
  input: Uint8Array,
  objects: { num: number; body: string | Uint8Array; gen?: number }[],
): Uint8Array {
  const reader = PdfReader.open(input);
  const update = writeUpdate(
    reader,
    objects.map((o) => ({
      num: o.num,
      gen: o.gen ?? 0,
      body: typeof o.body === "string" ? latin1Bytes(o.body) : o.body,
    })),
  );
  const out = new Uint8Array(input.length + update.bytes.length);
  out.set(input);
  out.set(update.bytes, input.length);
  return out;
}

/** Appends a cross-reference section only (no objects): entries re-pointing objects to given offsets. */
export function appendXrefOnly(
  input: Uint8Array,
  entries: { num: number; offset: number; gen?: number }[],
): Uint8Array {
  const reader = PdfReader.open(input);
  const nl = input[input.length - 1] === 0x0a ? "" : "\n";
  const at = input.length + nl.length;
  let s = `${nl}xref\n`;
  for (const e of [...entries].sort((a, b) => a.num - b.num)) {
    s += `${e.num} 1\n${String(e.offset).padStart(10, "0")} ${String(e.gen ?? 0).padStart(5, "0")} n\r\n`;
  }
  const root = reader.catalogRef();
  const info = reader.trailer.get("Info");
  s += `trailer\n<</Size ${reader.size} /Root ${root.num} ${root.gen} R${isRef(info) ? ` /Info ${info.num} ${info.gen} R` : ""} /Prev ${reader.startxref}>>\nstartxref\n${at}\n%%EOF\n`;
  const tail = latin1Bytes(s);
  const out = new Uint8Array(input.length + tail.length);
  out.set(input);
  out.set(tail, input.length);
  return out;
}

export function concat(...parts: (Uint8Array | string)[]): Uint8Array {
  return concatBytes(parts.map((p) => (typeof p === "string" ? latin1Bytes(p) : p)));
}

export { latin1Text as latin1 };

function writeUpdate(reader: PdfReader, objects: UpdateObject[]) {
  const original = reader.bytes;
  const last = original[original.length - 1];
  const info = reader.trailer.get("Info");
  const id = reader.trailer.get("ID");
  const first = isArray(id) && id[0] instanceof PdfString ? id[0].bytes : new Uint8Array(16);
  return writeIncrementalUpdate(
    {
      fileLength: original.length,
      endsWithEol: last === 0x0a || last === 0x0d,
      prevXref: reader.startxref,
      offsetBase: reader.offsetBase,
      size: reader.size,
      useXrefStream: reader.usesXrefStreams,
      root: reader.catalogRef(),
      info: isRef(info) ? info : undefined,
      id: [first, new Uint8Array(16).fill(reader.revisions.length)],
    },
    objects,
  );
}

function countSignatures(reader: PdfReader): number {
  const form = reader.resolve(reader.catalog().get("AcroForm"));
  const fields = form instanceof PdfDict ? reader.resolve(form.get("Fields")) : undefined;
  return isArray(fields) ? fields.length : 0;
}

function text(s: string): PdfString {
  return new PdfString(latin1Bytes(s), false);
}

function pdfDate(d: Date): PdfString {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return text(
    `D:${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`,
  );
}
