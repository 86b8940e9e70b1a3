import { describe, expect, it } from "vitest";
import { type RevocationFetcher, RevocationFetchError } from "../../cms/revocation/fetch";
import { basePdf, makeSigner, signForTest } from "../../../test/support/signed-pdfs";
import { gatherLongTermData } from "./long-term";

const offline: RevocationFetcher = {
  ocsp: () => Promise.reject(new RevocationFetchError("offline")),
  get: () => Promise.reject(new RevocationFetchError("offline")),
};

describe("gathering long-term validation data", () => {
  it("reads back a signature whose CMS ends in a zero byte (the /Contents padding is not trimmed into it)", async () => {
    const signer = await makeSigner("Zero Tail");
    let signed: Uint8Array | null = null;
    // ECDSA signatures end in 0x00 one time in 256: sign until one does.
    for (let i = 0; i < 3000 && !signed; i++) {
      const out = await signForTest(basePdf(), { signer, fieldName: "Sig" });
      if (endsInZero(out.bytes, out.contentsStart)) signed = out.bytes;
    }
    expect(signed).not.toBeNull();
    const data = await gatherLongTermData(signed!, "Sig", offline);
    expect(data.target).not.toBeNull();
    expect(data.target!.data.missing.length).toBeGreaterThan(0); // nothing could be fetched, but the signature was read
  });
});

/** True when the CMS in /Contents (its DER length read from the header) ends in 0x00. */
function endsInZero(pdf: Uint8Array, contentsStart: number): boolean {
  const byteAt = (i: number) =>
    parseInt(String.fromCharCode(pdf[contentsStart + 1 + 2 * i]!, pdf[contentsStart + 2 + 2 * i]!), 16);
  const first = byteAt(1);
  let length = first;
  let header = 2;
  if (first & 0x80) {
    const n = first & 0x7f;
    length = 0;
    for (let k = 0; k < n; k++) length = length * 256 + byteAt(2 + k);
    header = 2 + n;
  }
  return byteAt(header + length - 1) === 0;
}
