/**
 * The verifier's work budgets (LIMITS.verify, and the reader's work counter that the difference
 * analysis counts against): a document past a budget is refused with `pdf_too_complex`, before
 * the expensive work, and one within it is verified in full.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { SignetError } from "../../errors";
import { LIMITS } from "../../limits";
import type { CmsVerifier } from "./cms";
import { PdfAssembler } from "../../../test/support/pdf-assembler";
import {
  appendUpdate,
  basePdf,
  makeSigner,
  manySignaturesPdf,
  signForTest,
  type TestSigner,
} from "../../../test/support/signed-pdfs";
import { verifyPdf, type VerifyPdfOptions } from "./verify-pdf";

let ada: TestSigner;

beforeAll(async () => {
  ada = await makeSigner("Ada Lovelace");
});

/** The error `verifyPdf` rejects with (or null), and how many signatures reached the CMS verifier. */
async function attempt(
  bytes: Uint8Array,
  options: Partial<VerifyPdfOptions> = {},
): Promise<{ error: SignetError | null; cmsCalls: number }> {
  let cmsCalls = 0;
  const { verifyCmsSignature } = await import("../../cms/verify");
  const counting: CmsVerifier = (o) => {
    cmsCalls++;
    return verifyCmsSignature(o);
  };
  try {
    await verifyPdf(bytes, { trustAnchors: [ada.root], verifyCms: counting, ...options });
    return { error: null, cmsCalls };
  } catch (e) {
    if (!(e instanceof SignetError)) throw e;
    return { error: e, cmsCalls };
  }
}

describe("signatures per document (verify.maxSignatures)", () => {
  it("990 incremental signatures made without any key are refused with pdf_too_complex before any signature is checked", async () => {
    const hostile = manySignaturesPdf(990);
    const { error, cmsCalls } = await attempt(hostile);
    expect(error?.code).toBe("pdf_too_complex");
    expect(error?.message).toBe(
      `The PDF has more than ${LIMITS.verify.maxSignatures} signatures; Signet verifies at most ${LIMITS.verify.maxSignatures} per document (limit verify.maxSignatures).`,
    );
    expect(cmsCalls).toBe(0);
  });

  it(`a document with ${LIMITS.verify.maxSignatures} signatures, the most allowed, has every one checked`, async () => {
    const r = await verifyPdf(manySignaturesPdf(LIMITS.verify.maxSignatures), { trustAnchors: [ada.root] });
    expect(r.signers).toHaveLength(LIMITS.verify.maxSignatures);
    expect(r.document.revisions).toBe(LIMITS.verify.maxSignatures + 1);
    // Their /Contents is filler, not a signature: each one is judged, none is valid.
    expect(r.valid).toBe(false);
    expect(r.signers.every((s) => s.coverage !== "unclear" && s.intact === false)).toBe(true);
  });
});

describe("bytes hashed per document (verify.maxSignedBytes)", () => {
  it("signatures that together cover more bytes than the budget are refused before any is hashed", async () => {
    const once = await signForTest(basePdf(), { signer: ada });
    const twice = await signForTest(once.bytes, { signer: ada });
    const covered = once.byteRange[1] + once.byteRange[3] + twice.byteRange[1] + twice.byteRange[3];
    const refused = await attempt(twice.bytes, { verifyLimits: { maxSignedBytes: covered - 1 } });
    expect(refused.error?.code).toBe("pdf_too_complex");
    expect(refused.error?.message).toBe(
      `Verifying the 2 signatures of this PDF means hashing ${covered} bytes; Signet hashes at most ${covered - 1} per document (limit verify.maxSignedBytes).`,
    );
    expect(refused.cmsCalls).toBe(0);
    const allowed = await attempt(twice.bytes, { verifyLimits: { maxSignedBytes: covered } });
    expect(allowed).toEqual({ error: null, cmsCalls: 2 });
  });
});

describe("objects changed after signing (verify.maxChangedObjects)", () => {
  it("revisions that change more objects than the budget are refused from their cross-reference data, before those objects are read", async () => {
    const signed = await signForTest(basePdf(), { signer: ada });
    const changed = appendUpdate(
      signed.bytes,
      Array.from({ length: 60 }, (_, i) => ({ num: 100 + i, body: `<< /Filler ${i} >>` })),
    );
    const refused = await attempt(changed, { verifyLimits: { maxChangedObjects: 59 } });
    expect(refused.error?.code).toBe("pdf_too_complex");
    expect(refused.error?.message).toBe(
      "The revisions after the signatures of this PDF change more than 59 objects; Signet judges at most 59 per document (limit verify.maxChangedObjects).",
    );
    expect((await attempt(changed, { verifyLimits: { maxChangedObjects: 60 } })).error).toBeNull();
  });
});

describe("objects parsed per verification (verify.maxParsedObjects)", () => {
  it("a document whose later revision makes the analysis read more objects than the budget is refused with pdf_too_complex", async () => {
    // A signed page whose resources list 300 small objects; a later revision changes one of them,
    // so tracing how it is reached reads them all.
    const pdf = new PdfAssembler();
    pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    pdf.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Properties 4 0 R >> >>");
    pdf.obj(4, `[${Array.from({ length: 300 }, (_, i) => `${10 + i} 0 R`).join(" ")}]`);
    for (let i = 0; i < 300; i++) pdf.obj(10 + i, "<< /A 1 >>");
    const nums = [1, 2, 3, 4, ...Array.from({ length: 300 }, (_, i) => 10 + i)];
    pdf.startxref(pdf.table([{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor(nums)], "/Size 310 /Root 1 0 R"));
    const signed = (await signForTest(pdf.bytes(), { signer: ada })).bytes;
    const changed = appendUpdate(signed, [{ num: 10, body: "<< /A 2 >>" }]);
    const refused = await attempt(changed, { limits: { maxParsedObjects: 250 } });
    expect(refused.error?.code).toBe("pdf_too_complex");
    expect(refused.error?.message).toBe(
      "Reading this PDF means parsing more than 250 objects (limit maxParsedObjects); it is too large or too complex to check here.",
    );
    const r = await verifyPdf(changed, { trustAnchors: [ada.root] });
    expect(r.signers[0]!.modifications).toBe("other"); // page 1's resources changed
    expect(LIMITS.verify.maxParsedObjects).toBeLessThan(LIMITS.pdf.maxParsedObjects);
  });
});

describe("the difference analysis counts against the reader's work budget (verify.maxWorkUnits)", () => {
  /** The least work budget with which `fn` completes (binary search; `fn` throws pdf_too_complex below it). */
  async function leastBudget(fn: (maxWorkUnits: number) => unknown): Promise<number> {
    let lo = 1;
    let hi: number = LIMITS.pdf.maxWorkUnits;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      let ok = true;
      try {
        await fn(mid);
      } catch (e) {
        if (!(e instanceof SignetError) || e.code !== "pdf_too_complex") throw e;
        ok = false;
      }
      if (ok) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  it("the work grows linearly with the signed revisions (each revision is judged once, not once per signature before it)", async () => {
    const least = (bytes: Uint8Array) =>
      leastBudget((maxWorkUnits) => verifyPdf(bytes, { trustAnchors: [], limits: { maxWorkUnits } }));
    const forty = await least(manySignaturesPdf(40));
    const eighty = await least(manySignaturesPdf(80));
    // Twice the signatures, twice the revisions: about twice the work (re-judging the history per signature made it 3.5 times).
    expect(eighty / forty).toBeLessThan(2.5);
  });

  it("revisions that leave the page tree's structure alone cost a constant amount of work each, however many pages there are", async () => {
    const pages = 2_000;
    const pdf = new PdfAssembler();
    pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf.obj(
      2,
      `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${10 + i} 0 R`).join(" ")}] /Count ${pages} >>`,
    );
    for (let i = 0; i < pages; i++) pdf.obj(10 + i, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>");
    const nums = [1, 2, ...Array.from({ length: pages }, (_, i) => 10 + i)];
    pdf.startxref(
      pdf.table([{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor(nums)], `/Size ${10 + pages} /Root 1 0 R`),
    );
    const signed = (await signForTest(pdf.bytes(), { signer: ada })).bytes;
    // One revision after signing: the walks done once (the reference graph, the signed page tree).
    const once = appendUpdate(signed, [{ num: 11, body: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 201] >>" }]);
    let edited = once;
    const revisions = 100;
    for (let r = 0; r < revisions; r++)
      edited = appendUpdate(edited, [
        { num: 11, body: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 ${202 + r}] >>` },
      ]);
    const least = (bytes: Uint8Array) =>
      leastBudget((maxWorkUnits) => verifyPdf(bytes, { trustAnchors: [], limits: { maxWorkUnits } }));
    const perRevision = ((await least(edited)) - (await least(once))) / revisions;
    // Walking the tree again for every revision would cost more than `pages` units each.
    expect(perRevision).toBeLessThan(50);
  });

  it("a document needing more work than the budget is refused with pdf_too_complex, whatever stage it reaches", async () => {
    const bytes = manySignaturesPdf(60);
    const verifying = await leastBudget((maxWorkUnits) =>
      verifyPdf(bytes, { trustAnchors: [], limits: { maxWorkUnits } }),
    );
    const { error } = await attempt(bytes, { limits: { maxWorkUnits: verifying - 1 } });
    expect(error?.code).toBe("pdf_too_complex");
    expect(error?.message).toBe(
      `Reading this PDF needs more than ${verifying - 1} units of work (objects parsed and references followed); it is too complex or hostile.`,
    );
  });
});
