/**
 * Changes after signing that hide in how later revisions are written rather than in what they
 * change: signature fields that sign nothing, cross-reference entries that point at the wrong
 * bytes, and objects that no cross-reference section lists (issue 20). Each document is built
 * here from one signed in the test.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { SignetError } from "../../errors";
import { latin1Bytes } from "../../util/bytes";
import { PdfReader } from "../reader";
import { inspectForSigning } from "../sign/inspect";
import type { VerifyReport } from "./status";
import { appendUpdate, appendXrefOnly, basePdf, concat, latin1, makeSigner, signForTest, type TestSigned, type TestSigner } from "./testing";
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
  const appended = () => concat(signed.bytes, `5 0 obj\n<< /Length ${evil.length} >>\nstream\n${evil}\nendstream\nendobj\n`);

  it("objects appended after %%EOF, then a countersignature: the first signature still reports them", async () => {
    const countersigned = await signForTest(appended(), { signer: bob });
    const r = await verify(countersigned.bytes);
    expect(r.valid).toBe(false);
    expect(r.signers.map((s) => s.modifications)).toEqual(["other", "none"]);
    expect(r.reason).toBe("Signature 1 by Ada Lovelace is intact, but objects that no cross-reference section lists were added after signing.");
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
    expect((error as SignetError).message).toMatch(/^The PDF continues after its last revision: at byte \d+ it holds objects that no cross-reference section lists/);
  });

  it("signing accepts bytes after %%EOF that hold no PDF structure", () => {
    const junk = concat(signed.bytes, latin1Bytes("\r\n\x1a% saved by a mail client\n"));
    expect(() => inspectForSigning(PdfReader.open(junk))).not.toThrow();
  });
});
