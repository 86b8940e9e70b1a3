/**
 * The published PDF signature attacks (Mladenov et al., USENIX Security 2019;
 * Mainka et al., NDSS 2021) and the structural forgeries around them, each built
 * here from a document signed in the test, each with the verdict, coverage,
 * modification level and reason it must get.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { verifyPdf } from "./verify-pdf";
import {
  appendUpdate,
  appendXrefOnly,
  basePdf,
  concat,
  latin1,
  makeSigner,
  signForTest,
  type TestSigner,
  type TestSigned,
} from "../../../test/support/signed-pdfs";
import type { VerifyReport } from "./status";

let ada: TestSigner;
let signed: TestSigned;

const verify = (bytes: Uint8Array, anchors?: Uint8Array[]): Promise<VerifyReport> =>
  verifyPdf(bytes, { trustAnchors: anchors ?? [ada.root] });

beforeAll(async () => {
  ada = await makeSigner("Ada Lovelace");
  signed = await signForTest(basePdf(), { signer: ada });
});

/** The newest definition of the catalog (object 1) as written: what an update rewrites. */
function catalogBody(bytes: Uint8Array): string {
  return latin1(bytes).match(/1 0 obj\n(<<[^\n]*>>)\nendobj\n(?![\s\S]*1 0 obj)/)![1]!;
}

/** Replaces bytes at an offset (same length). */
function patched(bytes: Uint8Array, at: number, text: string): Uint8Array {
  const out = bytes.slice();
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  return out;
}

describe("a correctly signed document", () => {
  it("is valid, covers the entire file and has no modifications", async () => {
    const r = await verify(signed.bytes);
    expect(r.valid).toBe(true);
    expect(r.reason).toBe("All 1 signature(s) are intact, cover the document and chain to a trusted root.");
    expect(r.signers).toHaveLength(1);
    expect(r.signers[0]).toMatchObject({
      kind: "signature",
      name: "Ada Lovelace",
      fieldName: "Signature1",
      subFilter: "ETSI.CAdES.detached",
      digestAlgorithm: "SHA-256",
      intact: true,
      signatureValid: true,
      trusted: true,
      coverage: "entire_file",
      modifications: "none",
      revision: 2,
      problems: [],
    });
    expect(r.signer).toEqual(r.signers[0]);
    expect(r.document).toMatchObject({
      pages: 2,
      revisions: 2,
      signatureCount: 1,
      title: "Test contract",
      pdfVersion: "1.7",
    });
  });
});

describe("universal signature forgery (USF)", () => {
  it("a flipped signed byte breaks the digest", async () => {
    const at = latin1(signed.bytes).indexOf("Pay 100 EUR");
    const r = await verify(patched(signed.bytes, at + 4, "9"));
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ intact: false, coverage: "entire_file", modifications: "none" });
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is broken: the signed bytes do not match the signature, so the document was changed after signing.",
    );
  });

  it("a zeroed /Contents is no signature", async () => {
    const zeros = "0".repeat(signed.contentsEnd - signed.contentsStart - 2);
    const r = await verify(patched(signed.bytes, signed.contentsStart + 1, zeros));
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ intact: false, signatureValid: null, coverage: "entire_file" });
    expect(r.signers[0]!.problems.map((p) => p.code)).toContain("contents_empty");
    expect(r.reason).toBe("Signature 1 by Ada Lovelace is empty: its /Contents holds no signature.");
  });

  it("a missing /Contents is no signature", async () => {
    // "/Contents <...>" becomes "/Contentz <...>": the key is gone, the bytes keep their length.
    const at = latin1(signed.bytes).lastIndexOf("/Contents <");
    const r = await verify(patched(signed.bytes, at, "/Contentz"));
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ intact: false, signatureValid: null, coverage: "unclear" });
    expect(r.reason).toBe("Signature 1 by Ada Lovelace has no signature value: its /Contents is missing.");
  });

  it.each([
    ["null", "/ByteRange null"],
    ["overlapping", "/ByteRange [0 900 800 10]"],
    ["past the end of the file", "/ByteRange [0 10 20 99999999]"],
    ["not starting at 0", "/ByteRange [5 10 20 30]"],
  ])("a /ByteRange that is %s is refused", async (_, text) => {
    const at = latin1(signed.bytes).lastIndexOf("/ByteRange [");
    const original = /\/ByteRange \[[^\]]*\]\s*/.exec(latin1(signed.bytes).slice(at))![0];
    const r = await verify(patched(signed.bytes, at, text.padEnd(original.length, " ")));
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({
      intact: false,
      signatureValid: null,
      coverage: "unclear",
      modifications: "none",
    });
    expect(r.signers[0]!.problems.map((p) => p.code)).toContain("byte_range_invalid");
    expect(r.reason).toMatch(/^Signature 1 by Ada Lovelace is malformed: /);
  });

  it("a literal-string /Contents is refused", async () => {
    const s = latin1(signed.bytes);
    // "<30820...>" becomes "(0820...)": the same bytes between delimiters, now a literal string.
    let out = patched(signed.bytes, signed.contentsStart, "(");
    out = patched(out, signed.contentsEnd - 1, ")");
    expect(s[signed.contentsStart]).toBe("<");
    const r = await verify(out);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ intact: false, coverage: "unclear" });
    expect(r.reason).toBe("Signature 1 by Ada Lovelace is malformed: its /Contents is not a hexadecimal string.");
  });
});

describe("incremental saving attack (ISA)", () => {
  it("an update that changes a page's content", async () => {
    const evil = "BT /F1 24 Tf 72 700 Td (Pay 100000 EUR to Mallory) Tj ET";
    const out = appendUpdate(signed.bytes, [
      { num: 5, body: `<< /Length ${evil.length} >>\nstream\n${evil}\nendstream` },
    ]);
    const r = await verify(out);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({
      intact: true,
      signatureValid: true,
      trusted: true,
      coverage: "entire_revision",
      modifications: "other",
      revision: 2,
    });
    expect(r.document.revisions).toBe(3);
    expect(r.reason).toBe("Signature 1 by Ada Lovelace is intact, but page 1 was changed after signing.");
  });

  it("an update that re-points a page to new resources", async () => {
    const out = appendUpdate(signed.bytes, [
      { num: 40, body: "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>" },
      { num: 4, body: "<< /Type /Page /Parent 2 0 R /Contents 6 0 R /Resources << /Font << /F1 40 0 R >> >> >>" },
    ]);
    const r = await verify(out);
    expect(r.signers[0]!.modifications).toBe("other");
    expect(r.reason).toBe("Signature 1 by Ada Lovelace is intact, but page 2 was changed after signing.");
  });

  it("an object appended after %%EOF without a cross-reference section", async () => {
    const out = concat(signed.bytes, "5 0 obj\n<< /Length 10 >>\nstream\nBT ET q Q \nendstream\nendobj\n");
    const r = await verify(out);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({
      intact: true,
      coverage: "entire_revision",
      modifications: "other",
      revision: 2,
    });
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is intact, but data was added after the end of the file's last revision after signing.",
    );
  });

  it("a new object filling a reference that was dangling when signed", async () => {
    // Prepared before signing: page 2 refers to a content stream (object 30) that does not exist yet.
    const base = appendUpdate(basePdf(), [
      {
        num: 4,
        body: "<< /Type /Page /Parent 2 0 R /Contents [6 0 R 30 0 R] /Resources << /Font << /F1 7 0 R >> >> >>",
      },
    ]);
    const s = await signForTest(base, { signer: ada });
    const evil = "BT /F1 24 Tf 72 600 Td (Also pay Mallory) Tj ET";
    const out = appendUpdate(s.bytes, [{ num: 30, body: `<< /Length ${evil.length} >>\nstream\n${evil}\nendstream` }]);
    const r = await verify(out);
    expect(r.signers[0]!.modifications).toBe("other");
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is intact, but page 2 now shows content (object 30) that did not exist when it was signed after signing.",
    );
  });
});

describe("shadow attacks (hide, replace, hide-and-replace)", () => {
  it("hide-and-replace through cross-reference data only: re-pointing to bytes that were already signed", async () => {
    const base = basePdf({ hiddenContent: "Pay 100000 EUR to Mallory" });
    const s = await signForTest(base, { signer: ada });
    const hidden = latin1(base).indexOf("5 0 obj");
    expect(hidden).toBeLessThan(latin1(base).lastIndexOf("5 0 obj")); // two definitions, the xref uses the second
    const out = appendXrefOnly(s.bytes, [{ num: 5, offset: hidden }]);
    const r = await verify(out);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ intact: true, coverage: "entire_revision", modifications: "other" });
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is intact, but page 1 was re-pointed to other bytes that were already in the file when it was signed after signing.",
    );
  });

  it("replace: a form field's value changed after the last signature", async () => {
    const base = appendUpdate(basePdf(), [
      {
        num: 20,
        body: "<< /FT /Tx /T (amount) /V (100 EUR) /Type /Annot /Subtype /Widget /Rect [72 600 300 620] /P 3 0 R >>",
      },
      {
        num: 3,
        body: "<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> /Annots [20 0 R] >>",
      },
      { num: 1, body: "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [20 0 R] >> >>" },
    ]);
    const s = await signForTest(base, { signer: ada });
    const out = appendUpdate(s.bytes, [
      {
        num: 20,
        body: "<< /FT /Tx /T (amount) /V (100000 EUR) /Type /Annot /Subtype /Widget /Rect [72 600 300 620] /P 3 0 R >>",
      },
    ]);
    const r = await verify(out);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ intact: true, modifications: "form_filling" });
    expect(r.reason).toBe(
      'Signature 1 by Ada Lovelace is intact, but form field "amount" was filled in after the last signature.',
    );
  });

  it("hide: an overlay removed from a page's content list", async () => {
    const base = appendUpdate(basePdf(), [
      { num: 30, body: "<< /Length 22 >>\nstream\n1 1 1 rg 0 0 612 792 re f\nendstream" },
      {
        num: 3,
        body: "<< /Type /Page /Parent 2 0 R /Contents [5 0 R 30 0 R] /Resources << /Font << /F1 7 0 R >> >> >>",
      },
    ]);
    const s = await signForTest(base, { signer: ada });
    const out = appendUpdate(s.bytes, [
      { num: 3, body: "<< /Type /Page /Parent 2 0 R /Contents [5 0 R] /Resources << /Font << /F1 7 0 R >> >> >>" },
    ]);
    const r = await verify(out);
    expect(r.signers[0]!.modifications).toBe("other");
    expect(r.reason).toBe("Signature 1 by Ada Lovelace is intact, but page 1 was changed after signing.");
  });
});

describe("signature wrapping (SWA) and rewritten signature dictionaries", () => {
  it("content hidden in the unsigned gap is caught by the hole check", async () => {
    // Keep both signed ranges byte for byte; inside the gap, end /Contents early and hide an object there.
    const s = latin1(signed.bytes);
    const gap = s.slice(signed.contentsStart, signed.contentsEnd);
    const cmsHex = gap.slice(1, -1).replace(/(00)+$/, "");
    const inner = `<${cmsHex}>>>\nendobj\n99 0 obj\n(Pay Mallory)\nendobj\n%`;
    const wrapped = patched(signed.bytes, signed.contentsStart, inner.padEnd(gap.length, " "));
    const r = await verify(wrapped);
    expect(r.valid).toBe(false);
    expect(r.signers[0]!.coverage).toBe("unclear");
    expect(r.signers[0]!.intact).toBe(false);
    expect(r.signers[0]!.problems.map((p) => p.code)).toContain("byte_range_gap_mismatch");
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace leaves bytes other than its own signature value unsigned: content was hidden in the unsigned gap (signature wrapping).",
    );
  });

  it("a signature dictionary rewritten in a later revision", async () => {
    const s = latin1(signed.bytes);
    const body = s.slice(
      s.lastIndexOf(`${signed.sigNum} 0 obj`) + `${signed.sigNum} 0 obj\n`.length,
      s.lastIndexOf("endobj"),
    );
    const out = appendUpdate(signed.bytes, [
      { num: signed.sigNum, body: body.replace("/Type /Sig", "/Type /Sig /Reason (Approved by Mallory)") },
    ]);
    const r = await verify(out);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({ name: "Ada Lovelace", coverage: "unclear", modifications: "other" });
    expect(r.signers[0]!.problems.map((p) => p.code)).toContain("signature_dictionary_rewritten");
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace was tampered with: its signature dictionary was rewritten after signing, so the signature shown is not the one that was made.",
    );
  });
});

describe("certification attacks (DocMDP)", () => {
  const textAnnotation = (num: number) => ({
    num,
    body: "<< /Type /Annot /Subtype /Text /Rect [100 100 120 120] /Contents (Looks fine to me) /P 3 0 R >>",
  });

  async function certifiedWithAnnotation(p: 1 | 2 | 3) {
    const s = await signForTest(basePdf(), { signer: ada, docMdp: p });
    const reader = (await import("../reader")).PdfReader.open(s.bytes);
    const page = reader.pages()[0]!;
    const annots = reader.resolve(page.dict.get("Annots")) as unknown[];
    const refs = (annots ?? []).map((a) => `${(a as { num: number }).num} 0 R`).join(" ");
    return appendUpdate(s.bytes, [
      textAnnotation(50),
      {
        num: 3,
        body: `<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> /Annots [${refs} 50 0 R] >>`,
      },
    ]);
  }

  it("an annotation added to a P2-certified document is not allowed", async () => {
    const r = await verify(await certifiedWithAnnotation(2));
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({
      intact: true,
      trusted: true,
      coverage: "entire_revision",
      modifications: "annotations",
    });
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is intact, but an annotation (Text) was added to page 1 after signing, which the certification of signature 1 (DocMDP P2: form filling and signatures only) does not allow.",
    );
  });

  it("an annotation added to a P3-certified document is allowed", async () => {
    const r = await verify(await certifiedWithAnnotation(3));
    expect(r.valid).toBe(true);
    expect(r.signers[0]).toMatchObject({ intact: true, coverage: "entire_revision", modifications: "annotations" });
  });

  it("a P1 certification allows no new signature", async () => {
    const s = await signForTest(basePdf(), { signer: ada, docMdp: 1 });
    const twice = await signForTest(s.bytes, { signer: ada });
    const r = await verify(twice.bytes);
    expect(r.valid).toBe(false);
    expect(r.signers.map((x) => x.modifications)).toEqual(["signatures", "none"]);
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is intact, but a signature was added after signing, which the certification of signature 1 (DocMDP P1: no changes) does not allow.",
    );
  });

  it("a P2 certification allows approval signatures after it", async () => {
    const s = await signForTest(basePdf(), { signer: ada, docMdp: 2 });
    const twice = await signForTest(s.bytes, { signer: ada });
    const r = await verify(twice.bytes);
    expect(r.valid).toBe(true);
    expect(r.signers.map((x) => x.modifications)).toEqual(["signatures", "none"]);
  });

  it("a certification signature after an approval signature is refused", async () => {
    const s = await signForTest(basePdf(), { signer: ada });
    const twice = await signForTest(s.bytes, { signer: ada, docMdp: 2 });
    const r = await verify(twice.bytes);
    expect(r.valid).toBe(false);
    expect(r.signers[1]!.problems.map((p) => p.code)).toContain("certification_not_first");
  });
});

describe("approval signatures and what may follow them", () => {
  it("a second signature keeps the first valid", async () => {
    const twice = await signForTest(signed.bytes, { signer: ada });
    const r = await verify(twice.bytes);
    expect(r.valid).toBe(true);
    expect(r.signers.map((s) => [s.fieldName, s.coverage, s.modifications, s.revision])).toEqual([
      ["Signature1", "entire_revision", "signatures", 2],
      ["Signature2", "entire_file", "none", 3],
    ]);
    expect(r.reason).toBe("All 2 signature(s) are intact, cover the document and chain to a trusted root.");
  });

  it("an annotation after the last approval signature is not allowed", async () => {
    const out = appendUpdate(signed.bytes, [
      {
        num: 60,
        body: "<< /Type /Annot /Subtype /FreeText /Rect [100 100 300 120] /Contents (VOID) /DA (/Helv 12 Tf 0 g) >>",
      },
      {
        num: 3,
        body: `<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> /Annots [9 0 R 60 0 R] >>`,
      },
    ]);
    const r = await verify(out);
    expect(r.valid).toBe(false);
    expect(r.signers[0]!.modifications).toBe("annotations");
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is intact, but an annotation (FreeText) was added to page 1 after the last signature.",
    );
  });

  it("validation data (DSS) after the last signature is allowed", async () => {
    const catalog = catalogBody(signed.bytes);
    const out = appendUpdate(signed.bytes, [
      { num: 70, body: "<< /Length 3 >>\nstream\nabc\nendstream" },
      { num: 71, body: "<< /Certs [70 0 R] >>" },
      { num: 1, body: catalog.replace(/>>$/, " /DSS 71 0 R>>") },
    ]);
    const r = await verify(out);
    expect(r.signers[0]!.modifications).toBe("signatures");
    expect(r.valid).toBe(true);
  });

  it("validation data (DSS) removed after a signature is not allowed: it may be added, never taken away", async () => {
    const withDss = appendUpdate(basePdf(), [
      { num: 70, body: "<< /Length 3 >>\nstream\nabc\nendstream" },
      { num: 71, body: "<< /Certs [70 0 R] >>" },
      { num: 1, body: "<< /Type /Catalog /Pages 2 0 R /DSS 71 0 R >>" },
    ]);
    const s = await signForTest(withDss, { signer: ada });
    const catalog = catalogBody(s.bytes);
    const removed = appendUpdate(s.bytes, [{ num: 1, body: catalog.replace(" /DSS 71 0 R", "") }]);
    const r = await verify(removed);
    expect(r.valid).toBe(false);
    expect(r.signers[0]!.modifications).toBe("other");
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is intact, but the validation data (DSS) was removed after signing.",
    );
  });

  it("an indirect /Extensions dictionary rewritten after a signature is a validation-data update", async () => {
    const declared = appendUpdate(basePdf(), [
      { num: 72, body: "<< >>" },
      { num: 1, body: "<< /Type /Catalog /Pages 2 0 R /Extensions 72 0 R >>" },
    ]);
    const s = await signForTest(declared, { signer: ada });
    const out = appendUpdate(s.bytes, [
      { num: 72, body: "<< /ISO_ [<< /Type /DeveloperExtensions /BaseVersion /2.0 /ExtensionLevel 32002 >>] >>" },
    ]);
    const r = await verify(out);
    expect(r.signers[0]!.modifications).toBe("signatures");
    expect(r.valid).toBe(true);
  });

  it("a signature field whose widget sits only in its /Kids (no /Parent back) adds a signature", async () => {
    // pyHanko writes such fields: field 80 lists widget 82 in an indirect /Kids array (81), and
    // the widget has no /Parent. (Signature 83 is a stand-in: only signature 1's verdict matters.)
    const catalog = catalogBody(signed.bytes);
    const split = appendUpdate(signed.bytes, [
      { num: 80, body: "<< /FT /Sig /T (Approval) /Kids 81 0 R /V 83 0 R >>" },
      { num: 81, body: "[82 0 R]" },
      { num: 82, body: "<< /Type /Annot /Subtype /Widget /F 132 /Rect [0 0 0 0] /P 3 0 R >>" },
      {
        num: 83,
        body: "<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [0 1 2 3] /Contents <00> >>",
      },
      {
        num: 3,
        body: "<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> /Annots [9 0 R 82 0 R] >>",
      },
      { num: 1, body: catalog.replace(/\/Fields \[([^\]]*)\]/, "/Fields [$1 80 0 R]") },
    ]);
    const r = await verify(split);
    expect(r.signers.find((x) => x.fieldName === "Signature1")!.modifications).toBe("signatures");
  });

  it("form filling between two signatures is allowed", async () => {
    const base = appendUpdate(basePdf(), [
      {
        num: 20,
        body: "<< /FT /Tx /T (amount) /V (100 EUR) /Type /Annot /Subtype /Widget /Rect [72 600 300 620] /P 3 0 R >>",
      },
      {
        num: 3,
        body: "<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> /Annots [20 0 R] >>",
      },
      { num: 1, body: "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [20 0 R] >> >>" },
    ]);
    const s = await signForTest(base, { signer: ada });
    const filled = appendUpdate(s.bytes, [
      {
        num: 20,
        body: "<< /FT /Tx /T (amount) /V (120 EUR) /Type /Annot /Subtype /Widget /Rect [72 600 300 620] /P 3 0 R >>",
      },
    ]);
    const twice = await signForTest(filled, { signer: ada });
    const r = await verify(twice.bytes);
    expect(r.valid).toBe(true);
    expect(r.signers.map((x) => x.modifications)).toEqual(["form_filling", "none"]);
  });
});

describe("field locks (FieldMDP)", () => {
  it("a field locked by a signature may not be filled in afterwards, even between signatures", async () => {
    const base = appendUpdate(basePdf(), [
      {
        num: 20,
        body: "<< /FT /Tx /T (amount) /V (100 EUR) /Type /Annot /Subtype /Widget /Rect [72 600 300 620] /P 3 0 R >>",
      },
      {
        num: 21,
        body: "<< /FT /Tx /T (comment) /V () /Type /Annot /Subtype /Widget /Rect [72 500 300 520] /P 3 0 R >>",
      },
      {
        num: 3,
        body: "<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> /Annots [20 0 R 21 0 R] >>",
      },
      { num: 1, body: "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [20 0 R 21 0 R] >> >>" },
    ]);
    const s = await signForTest(base, { signer: ada, fieldLock: { action: "Include", fields: ["amount"] } });
    const fill = (num: number, name: string, value: string, y: number) => ({
      num,
      body: `<< /FT /Tx /T (${name}) /V (${value}) /Type /Annot /Subtype /Widget /Rect [72 ${y} 300 ${y + 20}] /P 3 0 R >>`,
    });
    // Filling an unlocked field between signatures is fine.
    const ok = await signForTest(appendUpdate(s.bytes, [fill(21, "comment", "Looks good", 500)]), { signer: ada });
    expect((await verify(ok.bytes)).valid).toBe(true);
    // Filling the locked one is not.
    const bad = await signForTest(appendUpdate(s.bytes, [fill(20, "amount", "100000 EUR", 600)]), { signer: ada });
    const r = await verify(bad.bytes);
    expect(r.valid).toBe(false);
    expect(r.signers[0]!.modifications).toBe("form_filling");
    expect(r.signers[0]!.problems.map((p) => p.code)).toContain("locked_field_changed");
    expect(r.reason).toBe(
      'Signature 1 by Ada Lovelace is intact, but form field "amount", locked by this signature, was changed afterwards.',
    );
  });
});

describe("trust and algorithms", () => {
  it("a self-signed signer is intact but not trusted", async () => {
    const mallory = await makeSigner("Mallory", { selfSigned: true });
    const s = await signForTest(basePdf(), { signer: mallory });
    const r = await verify(s.bytes);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({
      intact: true,
      signatureValid: true,
      trusted: false,
      coverage: "entire_file",
      modifications: "none",
    });
    expect(r.reason).toBe(
      "Signature 1 by Mallory is intact, but its certificate (issued by CN=Mallory, O=Signet verify tests) does not chain to a trusted root.",
    );
    // Trusting it explicitly makes it valid.
    expect((await verify(s.bytes, [mallory.root])).valid).toBe(true);
  });

  it("a SHA-1 document digest is a weak algorithm", async () => {
    const rsa = await makeSigner("Ada Lovelace", { kind: "RSA-SHA1" });
    const s = await signForTest(basePdf(), { signer: rsa, digest: "SHA-1", subFilter: "adbe.pkcs7.detached" });
    const r = await verify(s.bytes, [rsa.root]);
    expect(r.valid).toBe(false);
    expect(r.signers[0]).toMatchObject({
      digestAlgorithm: "SHA-1",
      intact: true,
      signatureValid: true,
      coverage: "entire_file",
      modifications: "none",
    });
    expect(r.signers[0]!.problems.map((p) => p.code)).toContain("weak_algorithm");
    expect(r.reason).toBe(
      "Signature 1 by Ada Lovelace is intact, but the signature uses SHA-1, a hash algorithm too weak to protect a signature.",
    );
  });

  it.each(["SHA-384", "SHA-512", "SHA3-256"] as const)("a %s document digest verifies", async (digest) => {
    const s = await signForTest(basePdf(), { signer: ada, digest });
    const r = await verify(s.bytes);
    expect(r.signers[0]).toMatchObject({ digestAlgorithm: digest, intact: true, signatureValid: true });
    expect(r.valid).toBe(true);
  });
});

describe("documents without signatures", () => {
  it("an unsigned document is not valid", async () => {
    const r = await verify(basePdf());
    expect(r).toMatchObject({ valid: false, reason: "The document has no signatures.", signer: null, signers: [] });
    expect(r.document).toMatchObject({ pages: 2, revisions: 1, signatureCount: 0, auditTrail: null, eventId: null });
  });
});
