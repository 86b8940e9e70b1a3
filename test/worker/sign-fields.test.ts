/**
 * Signing the way documents are prepared: into the document's own empty signature field (chosen
 * or named), honouring its /Lock and seed values, and visible signatures with an appearance.
 */
import { describe, expect, it } from "vitest";
import { isArray, isDict, PdfStream, type PdfDict, type PdfRef } from "../../src/pdf/model";
import { PdfReader } from "../../src/pdf/reader";
import { inspectForSigning, textOf } from "../../src/pdf/sign/inspect";
import { appendUpdate, basePdf, makeSigner, signForTest } from "../support/signed-pdfs";
import { drawnSignaturePng, pngDataUri } from "../support/signature-png";
import { auditTrail, b64, corpusPdf, fromDataUri, post, problem, signer, signRequest } from "./helpers";
import { makePng } from "../support/png-images";

const DSS_INVISIBLE = "dss__unsignedPDFWithSignatureFieldButInvisible.pdf";
const ACROFORMS = "pdfbox__form__AcroFormsBasicFields.pdf";
const SIMPLE = "pdf20examples__Simple_PDF_2.0_file.pdf";

interface FieldSpec {
  name: string;
  rect?: string;
  extra?: string;
  /** Not a signature field: a text field. */
  text?: boolean;
}

/** basePdf() with form fields on page 1 (objects 20, 21, ...; merged field + widget). */
function withFields(fields: FieldSpec[], input = basePdf()): Uint8Array {
  const refs = fields.map((_, i) => `${20 + i} 0 R`).join(" ");
  return appendUpdate(input, [
    ...fields.map((f, i) => ({
      num: 20 + i,
      body: `<< /Type /Annot /Subtype /Widget /FT /${f.text ? "Tx" : "Sig"} /T (${f.name}) /Rect ${f.rect ?? "[72 72 252 132]"} /F 4 /P 3 0 R ${f.extra ?? ""} >>`,
    })),
    {
      num: 3,
      body: `<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> /Annots [${refs}] >>`,
    },
    { num: 1, body: `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${refs}] >> >>` },
  ]);
}

async function sign(pdf: Uint8Array, extra: Record<string, unknown> = {}) {
  const res = await post("/v1/sign", signRequest(pdf, extra));
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`sign ${res.status}: ${JSON.stringify(body)}`);
  return { bytes: fromDataUri(body.document.base64), body };
}

async function refused(pdf: Uint8Array, extra: Record<string, unknown>) {
  const res = await post("/v1/sign", signRequest(pdf, extra));
  const p = await problem(res);
  return { status: res.status, code: p.code, detail: p.detail };
}

async function verify(pdf: Uint8Array): Promise<any> {
  return (await post("/v1/verify", { document: { base64: b64(pdf) } }, { key: null })).json();
}

/** The signature fields of a PDF (names, whether signed) as our reader sees them. */
function signatureFields(pdf: Uint8Array) {
  return inspectForSigning(PdfReader.open(pdf)).signatureFields.map((f) => ({ name: f.name, signed: f.signed }));
}

/** The value (signature dictionary) of the field named `name`, and the field itself. */
function fieldNamed(pdf: Uint8Array, name: string): { field: PdfDict; ref: PdfRef; sig: PdfDict; reader: PdfReader } {
  const reader = PdfReader.open(pdf);
  const info = inspectForSigning(reader).signatureFields.find((f) => f.name === name)!;
  return { field: info.dict, ref: info.ref, sig: reader.resolve(info.dict.get("V")) as PdfDict, reader };
}

describe("signing into the field the document already has", () => {
  it("signs the one empty field of a DSS test file in place: one signature field, no Signature2", async () => {
    const input = await corpusPdf(DSS_INVISIBLE);
    expect(signatureFields(input)).toEqual([{ name: "Signature1", signed: false }]);
    const { bytes, body } = await sign(input, { eventId: "field-dss" });
    expect(body.signature.fieldName).toBe("Signature1");
    expect(body.warnings).toEqual([]);
    expect(signatureFields(bytes)).toEqual([{ name: "Signature1", signed: true }]);
    const report = await verify(bytes);
    expect(report.valid).toBe(true);
    expect(report.signers).toHaveLength(1);
    expect(report.signers[0]).toMatchObject({
      fieldName: "Signature1",
      eventId: "field-dss",
      coverage: "entire_file",
      modifications: "none",
    });
  });

  it("signs the empty field of PDFBox's AcroForm test file (its other fields untouched), with the certificate page", async () => {
    const input = await corpusPdf(ACROFORMS);
    const { bytes, body } = await sign(input);
    expect(body.signature.fieldName).toBe("Signature");
    expect(signatureFields(bytes)).toEqual([{ name: "Signature", signed: true }]);
    expect(PdfReader.open(bytes).pages().length).toBe(PdfReader.open(input).pages().length + 1);
    expect((await verify(bytes)).valid).toBe(true);
  });

  it("signs the field named by signature.field when the document has several", async () => {
    const input = withFields([{ name: "Buyer" }, { name: "Seller", rect: "[300 72 480 132]" }]);
    const { bytes, body } = await sign(input, { signature: { field: "Seller" } });
    expect(body.signature.fieldName).toBe("Seller");
    expect(signatureFields(bytes)).toEqual([
      { name: "Buyer", signed: false },
      { name: "Seller", signed: true },
    ]);
    expect((await verify(bytes)).valid).toBe(true);
  });

  it("adds its own field when the document has several empty ones and none is named, and says so", async () => {
    const input = withFields([{ name: "Buyer" }, { name: "Seller", rect: "[300 72 480 132]" }]);
    const { bytes, body } = await sign(input);
    expect(body.signature.fieldName).toBe("Signature1");
    expect(body.warnings.join(" ")).toMatch(
      /2 empty signature fields \("Buyer", "Seller"\); Signet added its own\. Name one with signature\.field/,
    );
    expect(signatureFields(bytes).map((f) => f.name)).toEqual(["Buyer", "Seller", "Signature1"]);
  });

  it("422 for a named field that does not exist, is not a signature field, or is already signed", async () => {
    const input = withFields([{ name: "Buyer" }, { name: "Name", text: true }]);
    expect(await refused(input, { signature: { field: "Nobody" } })).toMatchObject({
      status: 422,
      code: "signature_field_not_found",
      detail: expect.stringMatching(/"Nobody" does not exist .* empty signature fields: "Buyer"/),
    });
    expect(await refused(input, { signature: { field: "Name" } })).toMatchObject({
      code: "signature_field_not_found",
      detail: expect.stringMatching(/is not a signature field/),
    });
    const once = (await sign(input, { signature: { field: "Buyer" } })).bytes;
    expect(await refused(once, { signature: { field: "Buyer" } })).toMatchObject({
      status: 422,
      code: "signature_field_signed",
    });
  });

  it("a field locked by an earlier signature (FieldMDP) is 422 signature_field_locked when named, skipped when not", async () => {
    const author = await makeSigner("Locking Author");
    const locked = (
      await signForTest(withFields([{ name: "Witness" }]), {
        signer: author,
        fieldName: "Author",
        fieldLock: { action: "Include", fields: ["Witness"] },
      })
    ).bytes;
    expect(await refused(locked, { signature: { field: "Witness" } })).toMatchObject({
      status: 422,
      code: "signature_field_locked",
    });
    const { body } = await sign(locked);
    expect(body.signature.fieldName).toBe("Signature1");
    expect(body.warnings.join(" ")).toMatch(/"Witness" cannot be signed \(is locked by an earlier signature/);
  });

  it("countersigning: an earlier signer's document with an empty field gets that field signed, the earlier signature stays valid", async () => {
    const author = await makeSigner("First Party");
    const first = (
      await signForTest(withFields([{ name: "SecondParty" }]), { signer: author, fieldName: "FirstParty" })
    ).bytes;
    const { bytes, body } = await sign(first, { eventId: "field-counter" });
    expect(body.signature.fieldName).toBe("SecondParty");
    const report = await verify(bytes);
    expect(report.signers.map((s: any) => s.fieldName)).toEqual(["FirstParty", "SecondParty"]);
    expect(["signatures", "form_filling"]).toContain(report.signers[0].modifications);
    expect(report.signers[0]).toMatchObject({ intact: true, signatureValid: true });
    expect(report.signers[1]).toMatchObject({
      eventId: "field-counter",
      modifications: "none",
      coverage: "entire_file",
    });
  });
});

describe("what a prepared field says about itself: /Lock and seed values", () => {
  it("a /Lock is applied: the signature carries a FieldMDP reference with the lock's action and fields", async () => {
    const input = withFields([
      { name: "Approver", extra: "/Lock << /Type /SigFieldLock /Action /Include /Fields [(Amount) (Date)] >>" },
    ]);
    const { bytes } = await sign(input);
    const { sig, reader } = fieldNamed(bytes, "Approver");
    const refs = reader.resolve(sig.get("Reference"));
    expect(isArray(refs) && refs.length).toBe(1);
    const ref = reader.resolve((refs as any[])[0]) as PdfDict;
    expect((ref.get("TransformMethod") as any).name).toBe("FieldMDP");
    const params = reader.resolve(ref.get("TransformParams")) as PdfDict;
    expect((params.get("Action") as any).name).toBe("Include");
    expect((params.get("Fields") as any[]).map((f) => textOf(f))).toEqual(["Amount", "Date"]);
    // The next signer sees the lock: the document is now countersigned (no certificate page).
    const again = await sign(bytes);
    expect(again.body.warnings.join(" ")).toMatch(/already carries a signature/);
  });

  it("/SV with a required sub-filter Signet writes (adbe.pkcs7.detached) is honoured; one it cannot is 422 seed_value_unsatisfied", async () => {
    const honoured = withFields([{ name: "S", extra: "/SV << /Type /SV /Ff 2 /SubFilter [/adbe.pkcs7.detached] >>" }]);
    const { bytes } = await sign(honoured);
    expect((fieldNamed(bytes, "S").sig.get("SubFilter") as any).name).toBe("adbe.pkcs7.detached");
    const report = await verify(bytes);
    expect(report.valid).toBe(true);
    expect(report.signers[0].subFilter).toBe("adbe.pkcs7.detached");

    const impossible = withFields([{ name: "S", extra: "/SV << /Ff 2 /SubFilter [/adbe.x509.rsa_sha1] >>" }]);
    expect(await refused(impossible, {})).toMatchObject({
      status: 422,
      code: "seed_value_unsatisfied",
      detail: expect.stringMatching(/sub-filter adbe\.x509\.rsa_sha1/),
    });
  });

  it("/SV required reasons: one of them must be given in signature.reason; an empty list entry means none", async () => {
    const input = withFields([{ name: "S", extra: "/SV << /Ff 8 /Reasons [(I approve) (I have reviewed)] >>" }]);
    expect(await refused(input, {})).toMatchObject({
      code: "seed_value_unsatisfied",
      detail: expect.stringMatching(/one of these reasons in signature\.reason: "I approve", "I have reviewed"/),
    });
    expect(await refused(input, { signature: { reason: "Because" } })).toMatchObject({
      code: "seed_value_unsatisfied",
    });
    const { bytes } = await sign(input, { signature: { reason: "I have reviewed" } });
    expect(textOf(fieldNamed(bytes, "S").sig.get("Reason"))).toBe("I have reviewed");

    const none = withFields([{ name: "S", extra: "/SV << /Ff 8 /Reasons [()] >>" }]);
    const noReason = await sign(none);
    expect(fieldNamed(noReason.bytes, "S").sig.has("Reason")).toBe(false);
  });

  it("/SV digest, certification, time-stamp and certificate constraints Signet cannot meet are refused, each saying which", async () => {
    const cases: [string, RegExp][] = [
      ["/SV << /Ff 64 /DigestMethod [/SHA1] >>", /digest SHA1; this deployment's key signs with SHA256/],
      ["/SV << /MDP << /P 2 >> >>", /a certification signature \(MDP P2\)/],
      [
        "/SV << /TimeStamp << /URL (https://tsa.example) /Ff 1 >> >>",
        /a time-stamp: ask for signature\.level B-T or above/,
      ],
      [
        "/SV << /Cert << /Ff 8 /SubjectDN [<< /CN (Someone) >>] >> >>",
        /certificate subject names that Signet does not check/,
      ],
      ["/SV << /Ff 1 /Filter /Entrust.PPKEF >>", /signature handler Entrust\.PPKEF/],
    ];
    for (const [sv, detail] of cases) {
      expect(await refused(withFields([{ name: "S", extra: sv }]), {}), sv).toMatchObject({
        status: 422,
        code: "seed_value_unsatisfied",
        detail: expect.stringMatching(detail),
      });
    }
    // Not required (no Ff bit): the reasons and digest methods are suggestions.
    const { body } = await sign(
      withFields([{ name: "S", extra: "/SV << /Reasons [(Other)] /DigestMethod [/SHA1] >>" }]),
    );
    expect(body.signature.fieldName).toBe("S");
  });
});

describe("visible signatures", () => {
  it("draws the name, time and reason in a new field where the request put it, with the evidence still found", async () => {
    const input = await corpusPdf(SIMPLE);
    const { bytes, body } = await sign(input, {
      eventId: "visible-new",
      signature: { reason: "Contract approved", appearance: { page: 1, x: 300, y: 100, width: 220, height: 70 } },
    });
    expect(body.signature.fieldName).toBe("Signature1");
    const { field, ref, reader } = fieldNamed(bytes, "Signature1");
    expect(reader.resolve(field.get("Rect"))).toEqual([300, 100, 520, 170]);
    const ap = reader.resolve(field.get("AP")) as PdfDict;
    const normal = reader.resolve(ap.get("N"));
    expect(normal).toBeInstanceOf(PdfStream);
    const stream = normal as PdfStream;
    expect(reader.resolve(stream.dict.get("BBox"))).toEqual([0, 0, 220, 70]);
    expect(isDict(reader.resolve((reader.resolve(stream.dict.get("Resources")) as PdfDict).get("Font")))).toBe(true);
    expect(isArray(reader.resolve(stream.dict.get("AF")))).toBe(true);
    // The first page's /Annots holds the widget (the certificate page was appended after it).
    const annots = reader.resolve(reader.pages()[0]!.dict.get("Annots")) as PdfRef[];
    expect(annots.some((a) => a.num === ref.num)).toBe(true);
    expect(reader.pages()).toHaveLength(2);
    const report = await verify(bytes);
    expect(report.valid).toBe(true);
    expect(report.signers[0]).toMatchObject({ eventId: "visible-new", auditTrail });
    expect(textOf(fieldNamed(bytes, "Signature1").sig.get("Reason"))).toBe("Contract approved");
  });

  it("draws into an existing field's widget (its rectangle kept) with the drawn image, and makes a hidden field visible", async () => {
    const input = await corpusPdf(DSS_INVISIBLE);
    const before = fieldNamed(input, "Signature1");
    const { bytes } = await sign(input, { signature: { appearance: { image: pngDataUri(drawnSignaturePng()) } } });
    const { field, reader } = fieldNamed(bytes, "Signature1");
    expect(reader.resolve(field.get("Rect"))).toEqual(before.reader.resolve(before.field.get("Rect")));
    expect(before.reader.resolve(before.field.get("F"))).toBe(7); // Invisible, Hidden, Print
    expect(reader.resolve(field.get("F"))).toBe(4); // Print
    const normal = reader.resolve((reader.resolve(field.get("AP")) as PdfDict).get("N")) as PdfStream;
    const xobjects = reader.resolve(
      (reader.resolve(normal.dict.get("Resources")) as PdfDict).get("XObject"),
    ) as PdfDict;
    expect((reader.resolve(xobjects.get("Im1")) as PdfStream).dict.get("Width")).toBe(300);
    expect((await verify(bytes)).valid).toBe(true);
  });

  it("the position counts from the page's CropBox corner", async () => {
    const cropped = appendUpdate(basePdf(), [
      {
        num: 3,
        body: "<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> /CropBox [50 60 562 732] >>",
      },
    ]);
    const { bytes } = await sign(cropped, {
      signature: { appearance: { page: 1, x: 10, y: 20, width: 100, height: 40 } },
    });
    const { field, reader } = fieldNamed(bytes, "Signature1");
    expect(reader.resolve(field.get("Rect"))).toEqual([60, 80, 160, 120]);
  });

  it("refuses what it cannot draw: a page the document lacks, a box off the page, no place, a place and a field, a field without area", async () => {
    const input = await corpusPdf(SIMPLE);
    expect(
      await refused(input, { signature: { appearance: { page: 2, x: 0, y: 0, width: 100, height: 40 } } }),
    ).toMatchObject({
      status: 422,
      code: "appearance_invalid",
      detail: "signature.appearance.page is 2 but the document has 1 page.",
    });
    expect(
      await refused(input, { signature: { appearance: { page: 1, x: 600, y: 0, width: 100, height: 40 } } }),
    ).toMatchObject({
      code: "appearance_invalid",
      detail: expect.stringMatching(/does not fit page 1, which is 612 x 396 pt/),
    });
    expect(await refused(input, { signature: { appearance: {} } })).toMatchObject({
      code: "appearance_invalid",
      detail: expect.stringMatching(/needs a place/),
    });
    expect(await refused(input, { signature: { appearance: { page: 1, x: 10 } } })).toMatchObject({
      status: 400,
      code: "invalid_request",
    });
    expect(
      await refused(input, {
        signature: { field: "Signature1", appearance: { page: 1, x: 1, y: 1, width: 50, height: 20 } },
      }),
    ).toMatchObject({
      status: 400,
      code: "invalid_request",
    });
    const zero = withFields([{ name: "Hidden", rect: "[0 0 0 0]" }]);
    expect(await refused(zero, { signature: { appearance: {} } })).toMatchObject({
      code: "appearance_invalid",
      detail: expect.stringMatching(/no area on its page/),
    });
  });

  it("treats the image as hostile: a GIF, a PNG over the pixel limit, a corrupt PNG and a lying media type are 422", async () => {
    const input = await corpusPdf(SIMPLE);
    const place = { page: 1, x: 300, y: 100, width: 200, height: 60 };
    const gif = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";
    expect(await refused(input, { signature: { appearance: { ...place, image: gif } } })).toMatchObject({
      code: "image_invalid",
      detail: expect.stringMatching(/is a GIF/),
    });
    const huge = makePng(1, 1);
    new DataView(huge.buffer, huge.byteOffset).setUint32(16, 100_000); // the header claims 100000 x 100000
    new DataView(huge.buffer, huge.byteOffset).setUint32(20, 100_000);
    expect(await refused(input, { signature: { appearance: { ...place, image: pngDataUri(huge) } } })).toMatchObject({
      code: "image_too_large",
    });
    const corrupt = makePng(20, 20);
    corrupt.fill(0x55, 41, corrupt.length - 12); // the image data destroyed
    expect(await refused(input, { signature: { appearance: { ...place, image: pngDataUri(corrupt) } } })).toMatchObject(
      { status: 422, code: "image_invalid" },
    );
    const jpegClaim = pngDataUri(drawnSignaturePng()).replace("image/png", "image/jpeg");
    expect(await refused(input, { signature: { appearance: { ...place, image: jpegClaim } } })).toMatchObject({
      code: "image_invalid",
      detail: expect.stringMatching(/claims to be image\/jpeg/),
    });
  });

  it("after an approval signature a new visible field is form filling at most; after a certification it is refused", async () => {
    const author = await makeSigner("First Party");
    const first = (await signForTest(basePdf(), { signer: author, fieldName: "FirstParty" })).bytes;
    const { bytes } = await sign(first, {
      signature: { appearance: { page: 2, x: 72, y: 72, width: 200, height: 60 } },
    });
    const report = await verify(bytes);
    expect(["signatures", "form_filling"]).toContain(report.signers[0].modifications);
    expect(report.signers[1]).toMatchObject({ intact: true, signatureValid: true, modifications: "none" });

    const certified = (await signForTest(basePdf(), { signer: author, docMdp: 2 })).bytes;
    expect(
      await refused(certified, { signature: { appearance: { page: 1, x: 72, y: 72, width: 200, height: 60 } } }),
    ).toMatchObject({
      status: 422,
      code: "appearance_not_allowed",
    });
  });
});

describe("signature options in the request", () => {
  it("are part of the request an eventId replays: a different appearance is a different request", async () => {
    const input = await corpusPdf(SIMPLE);
    const place = { page: 1, x: 300, y: 100, width: 200, height: 60 };
    const first = await post(
      "/v1/sign",
      signRequest(input, { eventId: "visible-replay", signature: { appearance: place } }),
    );
    expect(first.status).toBe(200);
    const again = await post(
      "/v1/sign",
      signRequest(input, { eventId: "visible-replay", signature: { appearance: place } }),
    );
    expect(again.status).toBe(200);
    const moved = await post(
      "/v1/sign",
      signRequest(input, { eventId: "visible-replay", signature: { appearance: { ...place, x: 100 } } }),
    );
    expect(moved.status).toBe(409);
  });

  it("unknown keys in signature are 400 (strict object)", async () => {
    const res = await post("/v1/sign", {
      document: { base64: b64(await corpusPdf(SIMPLE)) },
      signer,
      auditTrail,
      signature: { colour: "blue" },
    });
    expect(res.status).toBe(400);
  });
});
