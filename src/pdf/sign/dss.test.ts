import { describe, expect, it } from "vitest";
import { hashBytes } from "../../cms/verify/algorithms";
import { toHex } from "../../util/bytes";
import { PdfString, isArray, isDict } from "../model";
import { PdfReader } from "../reader";
import { readDss } from "../verify/dss";
import { basePdf, makeSigner, signForTest } from "../../../test/support/signed-pdfs";
import { verifyPdf } from "../verify/verify-pdf";
import { appendDssUpdate, vriKey } from "./dss";

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

async function signedPdf() {
  const signer = await makeSigner("DSS Test Signer");
  const signed = await signForTest(basePdf(), { signer });
  const reader = PdfReader.open(signed.bytes);
  const sig = reader.resolve(reader.getObject(signed.sigNum));
  const contents = isDict(sig) ? reader.resolve(sig.get("Contents")) : null;
  if (!(contents instanceof PdfString)) throw new Error("no /Contents");
  return { signer, bytes: signed.bytes, contents: contents.bytes };
}

describe("the DSS update", () => {
  it("keys the VRI entry by the upper-case hex SHA-1 of the signature's whole /Contents value", async () => {
    const { signer, bytes, contents } = await signedPdf();
    const update = await appendDssUpdate(PdfReader.open(bytes), {
      certificates: signer.chain,
      ocsps: [],
      crls: [],
      vri: [{ contents, certificates: signer.chain, ocsps: [], crls: [] }],
    });
    const out = join(bytes, update);
    const dss = await readDss(PdfReader.open(out));
    const expected = toHex(await hashBytes("SHA-1", contents)).toUpperCase();
    expect(await vriKey(contents)).toBe(expected);
    expect(dss.vriKeys).toEqual([expected]);
    expect(dss.certificates.map((c) => c.certificate.sha256).sort()).toEqual(
      (await Promise.all(signer.chain.map(async (c) => toHex(await hashBytes("SHA-256", c))))).sort(),
    );
  });

  it("extends an existing DSS without storing an item twice, and the signature stays intact with only LTA changes after it", async () => {
    const { signer, bytes, contents } = await signedPdf();
    const entry = { contents, certificates: signer.chain, ocsps: [], crls: [] };
    const once = join(
      bytes,
      await appendDssUpdate(PdfReader.open(bytes), { certificates: signer.chain, ocsps: [], crls: [], vri: [entry] }),
    );
    const twice = join(
      once,
      await appendDssUpdate(PdfReader.open(once), { certificates: signer.chain, ocsps: [], crls: [], vri: [entry] }),
    );
    const reader = PdfReader.open(twice);
    const dssDict = reader.resolve(reader.catalog().get("DSS"));
    const certs = isDict(dssDict) ? reader.resolve(dssDict.get("Certs")) : null;
    expect(isArray(certs) && certs.length).toBe(signer.chain.length);
    const report = await verifyPdf(twice, { trustAnchors: [signer.root] });
    expect(report.valid, report.reason).toBe(true);
    expect(report.signers[0]!.modifications).toBe("signatures");
    expect(report.signers[0]!.level).toBe("B-B"); // a DSS without a time-stamp does not make it B-LT
  });
});
