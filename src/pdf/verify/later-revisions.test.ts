/**
 * Changes after signing that hide in how later revisions are written rather than in what they
 * change: signature fields that sign nothing, cross-reference entries that point at the wrong
 * bytes, and objects that no cross-reference section lists (issue 20). Each document is built
 * here from one signed in the test.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { SignetError } from "../../errors";
import { latin1Bytes } from "../../util/bytes";
import { PdfDict, PdfRef, isArray, isDict, type PdfValue } from "../model";
import { PdfReader } from "../reader";
import { serializePdfValue } from "../serialize";
import { inspectForSigning } from "../sign/inspect";
import type { VerifyReport } from "./status";
import {
  appendUpdate,
  appendXrefOnly,
  basePdf,
  concat,
  latin1,
  makeSigner,
  signForTest,
  type TestSigned,
  type TestSigner,
} from "../../../test/support/signed-pdfs";
import { verifyPdf } from "./verify-pdf";

let ada: TestSigner;
let bob: TestSigner;
let signed: TestSigned;

const verify = (bytes: Uint8Array): Promise<VerifyReport> => verifyPdf(bytes, { trustAnchors: [ada.root, bob.root] });
const messages = (r: VerifyReport, i: number) => r.signers[i]!.problems.map((p) => p.message).join(" ");

beforeAll(async () => {
  ada = await makeSigner("Ada Lovelace");
  bob = await makeSigner("Bob Countersigner");
  signed = await signForTest(basePdf(), { signer: ada });
});

/**
 * Appends a revision that adds a signature field on page 1 (in /Fields and /Annots): with an
 * appearance stream painting `paints` when given, and a /V when given.
 */
function addSignatureField(
  bytes: Uint8Array,
  name: string,
  opts: { paints?: string; value?: string } = {},
): Uint8Array {
  const reader = PdfReader.open(bytes);
  let next = reader.size;
  const fieldNum = next++;
  const apNum = opts.paints ? next++ : null;
  const field = new PdfRef(fieldNum, 0);
  const page = reader.pages()[0]!;
  const catalog = reader.catalog();
  const form = reader.resolve(catalog.get("AcroForm"));
  const fields = isDict(form) ? reader.resolve(form.get("Fields")) : undefined;
  const annots = reader.resolve(page.dict.get("Annots"));
  const objects: { num: number; body: string }[] = [
    {
      num: fieldNum,
      body:
        `<< /Type /Annot /Subtype /Widget /FT /Sig /T (${name}) /F 4 /Rect [72 480 472 560] /P ${page.ref.num} 0 R` +
        `${apNum ? ` /AP << /N ${apNum} 0 R >>` : ""}${opts.value ? ` /V ${opts.value}` : ""} >>`,
    },
    {
      num: catalog === undefined ? 1 : reader.catalogRef().num,
      body: serializePdfValue(
        catalog.with({
          AcroForm: (isDict(form) ? form : new PdfDict(new Map())).with({
            Fields: [...(isArray(fields) ? fields : []), field] as PdfValue[],
          }),
        }),
      ),
    },
    {
      num: page.ref.num,
      body: serializePdfValue(page.dict.with({ Annots: [...(isArray(annots) ? annots : []), field] as PdfValue[] })),
    },
  ];
  if (apNum && opts.paints) {
    const content = `BT /F1 18 Tf 10 30 Td (${opts.paints}) Tj ET`;
    objects.push({
      num: apNum,
      body: `<< /Type /XObject /Subtype /Form /BBox [0 0 400 80] /Resources << /Font << /F1 7 0 R >> >> /Length ${content.length} >>\nstream\n${content}\nendstream`,
    });
  }
  return appendUpdate(bytes, objects);
}

describe("signature fields that sign nothing", () => {
  it("a visible signature field with an appearance and no signature, added after a P2 certification, is not allowed", async () => {
    const certified = await signForTest(basePdf(), { signer: ada, docMdp: 2 });
    const r = await verify(addSignatureField(certified.bytes, "Approval", { paints: "APPROVED: PAY 1000000 EUR" }));
    expect(r.valid).toBe(false);
    expect(r.signers).toHaveLength(1);
    expect(r.signers[0]).toMatchObject({ intact: true, trusted: true, modifications: "other" });
    expect(r.reason).toBe(
      'Signature 1 by Ada Lovelace is intact, but an unsigned signature field ("Approval") showing an appearance was added after signing, which the certification of signature 1 (DocMDP P2: form filling and signatures only) does not allow.',
    );
  });

  it("an approval signature, an unsigned field painting over the signed page, then a countersignature: the first signature is not valid", async () => {
    const painted = addSignatureField(signed.bytes, "Stamp", { paints: "APPROVED: PAY 1000000 EUR" });
    const countersigned = await signForTest(painted, { signer: bob });
    const r = await verify(countersigned.bytes);
    expect(r.valid).toBe(false);
    expect(r.signers.map((s) => s.modifications)).toEqual(["other", "none"]);
    expect(r.signers[1]).toMatchObject({
      name: "Bob Countersigner",
      coverage: "entire_file",
      intact: true,
      trusted: true,
    });
    expect(r.reason).toBe(
      'Signature 1 by Ada Lovelace is intact, but an unsigned signature field ("Stamp") showing an appearance was added after signing.',
    );
  });

  it("an empty signature field of the signed document, given an appearance later without a signature, is a change", async () => {
    const withPlaceholder = addSignatureField(basePdf(), "Witness");
    const certified = await signForTest(withPlaceholder, { signer: ada, docMdp: 2 });
    const reader = PdfReader.open(certified.bytes);
    const widget = (reader.resolve(reader.pages()[0]!.dict.get("Annots")) as PdfValue[])[0] as PdfRef;
    const content = "BT /F1 18 Tf 10 30 Td (Witnessed: J. Doe) Tj ET";
    const out = appendUpdate(certified.bytes, [
      {
        num: widget.num,
        body: `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Witness) /F 4 /Rect [72 480 472 560] /P 3 0 R /AP << /N 40 0 R >> >>`,
      },
      {
        num: 40,
        body: `<< /Type /XObject /Subtype /Form /BBox [0 0 400 80] /Resources << /Font << /F1 7 0 R >> >> /Length ${content.length} >>\nstream\n${content}\nendstream`,
      },
    ]);
    const r = await verify(out);
    expect(r.valid).toBe(false);
    expect(r.signers[0]!.modifications).toBe("other");
    expect(r.reason).toContain('but unsigned signature field "Witness" was changed after signing');
  });

  it("a new signature field whose value is the earlier signature's dictionary signs nothing new", async () => {
    const r = await verify(
      addSignatureField(signed.bytes, "Copy", { paints: "Signed: Ada Lovelace", value: `${signed.sigNum} 0 R` }),
    );
    expect(r.valid).toBe(false);
    expect(r.signers[0]!.modifications).toBe("other");
    expect(messages(r, 0)).toContain(
      'An unsigned signature field ("Copy") showing an appearance was added after this signature (/Fields).',
    );
  });

  it("an empty placeholder (no appearance) after a P2 certification, then a second signature, keeps the certification valid", async () => {
    const certified = await signForTest(basePdf(), { signer: ada, docMdp: 2 });
    const placeholder = addSignatureField(certified.bytes, "NextSigner");
    const twice = await signForTest(placeholder, { signer: bob });
    const r = await verify(twice.bytes);
    expect(r.valid).toBe(true);
    expect(r.signers.map((s) => s.modifications)).toEqual(["signatures", "none"]);
  });
});

describe("cross-reference entries that point at the wrong bytes", () => {
  it("an entry of a later revision pointing into the middle of another object is a change, not a fall-back to the signed object", async () => {
    const filler = appendUpdate(signed.bytes, [{ num: 40, body: `<< /Filler (${"x".repeat(200)}) >>` }]);
    expect((await verify(filler)).valid).toBe(true); // an unused new object changes nothing
    const inside = latin1(filler).lastIndexOf("/Filler") + 12;
    const r = await verify(appendXrefOnly(filler, [{ num: 5, offset: inside }]));
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ intact: true, trusted: true, modifications: "other" });
    expect(r.reason).toBe(
      `Signature 1 by Ada Lovelace is intact, but the cross-reference entry of page 1 was pointed at bytes that are not that object (offset ${inside}) after signing.`,
    );
  });

  it("an entry pointing past the end of the file is a change", async () => {
    const past = signed.bytes.length + 5000;
    const r = await verify(appendXrefOnly(signed.bytes, [{ num: 7, offset: past }]));
    expect(r.valid).toBe(false);
    expect(r.signers[0]!.modifications).toBe("other");
    expect(messages(r, 0)).toContain(`was pointed at bytes that are not that object (offset ${past})`);
  });
});

describe("objects that no cross-reference section lists", () => {
  const evil = "BT /F1 24 Tf 72 700 Td (Pay 100000 EUR to Mallory) Tj ET";
  const appended = () =>
    concat(signed.bytes, `5 0 obj\n<< /Length ${evil.length} >>\nstream\n${evil}\nendstream\nendobj\n`);

  it("objects appended after %%EOF, then a countersignature: the first signature still reports them", async () => {
    const countersigned = await signForTest(appended(), { signer: bob });
    const r = await verify(countersigned.bytes);
    expect(r.valid).toBe(false);
    expect(r.signers.map((s) => s.modifications)).toEqual(["other", "none"]);
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is intact, but objects that no cross-reference section lists were added after signing.",
    );
  });

  it("signing refuses a file whose objects after %%EOF only a rebuilding viewer shows", () => {
    let error: unknown;
    try {
      inspectForSigning(PdfReader.open(appended()));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("pdf_unparseable");
    expect((error as SignetError).message).toMatch(
      /^The PDF continues after its last revision: at byte \d+ it holds objects that no cross-reference section lists/,
    );
  });

  it("signing accepts bytes after %%EOF that hold no PDF structure", () => {
    const junk = concat(signed.bytes, latin1Bytes("\r\n\x1a% saved by a mail client\n"));
    expect(() => inspectForSigning(PdfReader.open(junk))).not.toThrow();
  });
});
