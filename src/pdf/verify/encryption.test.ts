/**
 * Owner-password-only files are read with the empty user password (crypt.ts): RC4 40-bit (R2) and
 * 128-bit (R3) files built here byte by byte, AES-128 and AES-256 against WebCrypto; a file that
 * needs a user password is refused. (qpdf-made RC4-128, AES-128 and AES-256 files are verified in
 * test/worker/verify.test.ts, a signed RC4 file of the corpus in test/node/verify-corpus.test.ts.)
 */
import { md5 } from "@noble/hashes/legacy.js";
import { describe, expect, it } from "vitest";
import { PdfEncrypted } from "../../errors";
import { PdfStream } from "../model";
import { PdfReader } from "../reader";
import { aesCbcDecrypt, aesCbcEncryptNoPad, rc4 } from "../reader/crypt";
import { latin1Encode, PdfAssembler } from "../../../test/support/pdf-assembler";
import { verifyPdf } from "./verify-pdf";

const PADDING = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00,
  0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);
const ID = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
const O = Uint8Array.from({ length: 32 }, (_, i) => 255 - i); // the owner entry: irrelevant to the empty user password
const P = -3904;
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** An RC4-encrypted document (R2 40-bit or R3 128-bit) whose user password is empty, unless `userPassword` says otherwise. */
function rc4Document(r: 2 | 3, opts: { wrongU?: boolean } = {}): Uint8Array {
  const n = r === 2 ? 5 : 16;
  const pBytes = Uint8Array.from([P & 0xff, (P >> 8) & 0xff, (P >> 16) & 0xff, (P >>> 24) & 0xff]);
  let h = md5(cat(PADDING, O, pBytes, ID));
  if (r === 3) for (let i = 0; i < 50; i++) h = md5(h.subarray(0, n));
  const key = h.subarray(0, n);
  let u: Uint8Array;
  if (r === 2) u = rc4(key, PADDING);
  else {
    let x = rc4(key, md5(cat(PADDING, ID)));
    for (let i = 1; i <= 19; i++)
      x = rc4(
        key.map((b) => b ^ i),
        x,
      );
    u = cat(x, new Uint8Array(16));
  }
  if (opts.wrongU) u = u.map((b) => b ^ 0xff);
  const objectKey = (num: number) =>
    md5(cat(key, Uint8Array.from([num & 0xff, (num >> 8) & 0xff, num >> 16, 0, 0]))).subarray(0, Math.min(n + 5, 16));
  const content = rc4(objectKey(4), latin1Encode("BT /F1 24 Tf 72 700 Td (Owner-protected) Tj ET"));
  const title = rc4(objectKey(5), latin1Encode("Secret contract"));

  const pdf = new PdfAssembler();
  pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  pdf.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  pdf.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>");
  pdf.stream(4, "", content);
  pdf.obj(5, `<< /Title <${hex(title)}> >>`);
  pdf.obj(
    6,
    `<< /Filter /Standard /V ${r === 2 ? 1 : 2} /R ${r}${r === 3 ? " /Length 128" : ""} /O <${hex(O)}> /U <${hex(u)}> /P ${P} >>`,
  );
  const xref = pdf.table(
    [{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor([1, 2, 3, 4, 5, 6])],
    `/Size 7 /Root 1 0 R /Info 5 0 R /Encrypt 6 0 R /ID [<${hex(ID)}> <${hex(ID)}>]`,
  );
  pdf.startxref(xref);
  return pdf.bytes();
}

describe("standard security handler with the empty user password", () => {
  it.each([2, 3] as const)("reads an RC4 R%i file", async (r) => {
    const bytes = rc4Document(r);
    const reader = PdfReader.open(bytes);
    expect(reader.encrypted).toBe(true);
    const page = reader.pages()[0]!;
    const content = reader.resolve(page.dict.get("Contents")) as PdfStream;
    expect(new TextDecoder().decode(reader.decodeStream(content))).toContain("(Owner-protected)");
    const report = await verifyPdf(bytes, { trustAnchors: [] });
    expect(report.document).toMatchObject({ title: "Secret contract", pages: 1 });
    expect(report.valid).toBe(false);
  });

  it("refuses a file that needs a user password (422 pdf_encrypted)", async () => {
    await expect(verifyPdf(rc4Document(3, { wrongU: true }), { trustAnchors: [] })).rejects.toBeInstanceOf(
      PdfEncrypted,
    );
  });

  it.each([16, 32])("AES-%i-byte-key CBC agrees with WebCrypto", async (keyLength) => {
    const key = Uint8Array.from({ length: keyLength }, (_, i) => i * 7 + 3);
    const iv = Uint8Array.from({ length: 16 }, (_, i) => i * 5);
    const data = latin1Encode("The quick brown fox jumps over the lazy dog, twice: the quick brown fox.");
    const k = await crypto.subtle.importKey("raw", key, "AES-CBC", false, ["encrypt", "decrypt"]);
    const theirs = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv }, k, data)); // PKCS#7 padded
    expect(aesCbcDecrypt(key, iv, theirs)).toEqual(data);
    const padded = cat(data, new Uint8Array(16 - (data.length % 16)).fill(16 - (data.length % 16)));
    expect(aesCbcEncryptNoPad(key, iv, padded)).toEqual(theirs);
  });
});
