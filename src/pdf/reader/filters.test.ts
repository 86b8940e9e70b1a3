import { Deflate, deflateSync, zlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { PdfUnparseable } from "../../errors";
import { PdfDict, PdfName, type PdfValue } from "../model";
import { Budget, PdfBudgetExceeded } from "./budget";
import { decodeFilters, filterSteps } from "./filters";
import { latin1Decode, latin1Encode, pngUpEncode } from "../../../test/support/pdf-assembler";

const n = (s: string) => new PdfName(s);
const parms = (o: Record<string, number>) => new PdfDict(new Map<string, PdfValue>(Object.entries(o)));
const decode = (data: Uint8Array, filter: PdfValue, p?: PdfValue, budget = new Budget()) =>
  decodeFilters(data, filterSteps(filter, p), budget);

function pseudoRandom(len: number, seed = 1): Uint8Array {
  const out = new Uint8Array(len);
  let x = seed || 1;
  for (let i = 0; i < len; i++) {
    // xorshift32
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

function pseudoText(len: number): Uint8Array {
  const words = ["BT", "ET", "/F1", "12", "Tf", "(Hello)", "Tj", "0", "-14", "Td", "q", "Q", "re", "f", "1 0 0 1"];
  const r = pseudoRandom(len, 11);
  let s = "";
  for (let i = 0; s.length < len; i++) s += words[r[i]! % words.length] + (r[i]! & 1 ? " " : "\n");
  return latin1Encode(s.slice(0, len));
}

describe("FlateDecode", () => {
  it("inflates zlib-wrapped and raw deflate data", () => {
    const text = latin1Encode("BT /F1 12 Tf (Hello) Tj ET ".repeat(100));
    expect(decode(zlibSync(text), n("FlateDecode"))).toEqual(text);
    expect(decode(deflateSync(text), n("Fl"))).toEqual(text);
  });
  it("returns what decoded before damage, as viewers do", () => {
    const data = pseudoText(400_000);
    const z = zlibSync(data, { level: 6 });
    const truncated = decode(z.subarray(0, z.length >> 1), n("FlateDecode"));
    expect(truncated.length).toBeGreaterThan(data.length * 0.4);
    expect(truncated.length).toBeLessThan(data.length);
    expect(truncated).toEqual(data.subarray(0, truncated.length));
    const corrupt = z.slice();
    corrupt.fill(0xff, z.length >> 1, (z.length >> 1) + 64);
    const out = decode(corrupt, n("FlateDecode"));
    expect(out.length).toBeGreaterThan(data.length * 0.4);
    expect(out.subarray(0, truncated.length - 2000)).toEqual(data.subarray(0, truncated.length - 2000));
    expect(decode(latin1Encode("not deflate at all"), n("FlateDecode"))).toBeInstanceOf(Uint8Array);
    expect(decode(new Uint8Array(0), n("FlateDecode")).length).toBe(0);
  });
  it("ignores junk after the end of the deflate stream", () => {
    const text = latin1Encode("abc".repeat(1000));
    const z = zlibSync(text);
    const junk = new Uint8Array(z.length + 500_000);
    junk.set(z);
    junk.fill(0x41, z.length);
    expect(decode(junk, n("FlateDecode"))).toEqual(text);
  });
  it("stops a 200 MB flate bomb at the per-stream cap, before decoding the rest", () => {
    // 200 MB of zeros deflate to ~200 KB; built in pieces so the test never holds 200 MB.
    const chunks: Uint8Array[] = [];
    const def = new Deflate({ level: 9 }, (c) => chunks.push(c));
    const zeros = new Uint8Array(1 << 20);
    for (let i = 0; i < 200; i++) def.push(zeros, i === 199);
    const bomb = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bomb.set(c, at);
      at += c.length;
    }
    expect(bomb.length).toBeLessThan(1 << 20);
    expect(() => decode(bomb, n("FlateDecode"))).toThrow(/more than 33554432 bytes.*maxStreamBytes/);
    // A lower per-stream cap stops it even sooner, and the error is a budget error (never "repaired").
    expect(() => decode(bomb, n("FlateDecode"), undefined, new Budget({ maxStreamBytes: 1_000_000 }))).toThrow(
      PdfBudgetExceeded,
    );
  });
  it("enforces the per-reader total across streams", () => {
    const budget = new Budget({ maxInflatedBytes: 2_500_000, maxStreamBytes: 2_000_000 });
    const z = zlibSync(new Uint8Array(1_500_000));
    expect(decode(z, n("FlateDecode"), undefined, budget).length).toBe(1_500_000);
    expect(budget.inflated).toBe(1_500_000);
    expect(() => decode(z, n("FlateDecode"), undefined, budget)).toThrow(/maxInflatedBytes/);
    expect(() =>
      decode(
        zlibSync(new Uint8Array(2_000_001)),
        n("FlateDecode"),
        undefined,
        new Budget({ maxStreamBytes: 2_000_000 }),
      ),
    ).toThrow(/maxStreamBytes/);
  });
});

describe("predictors", () => {
  const data = pseudoRandom(7 * 50, 7);
  for (const type of [0, 1, 2, 3, 4]) {
    it(`undoes PNG filter type ${type}`, () => {
      const encoded = zlibSync(pngUpEncode(data, 7, type));
      expect(decode(encoded, n("FlateDecode"), parms({ Predictor: 12, Columns: 7 }))).toEqual(data);
    });
  }
  it("handles multi-byte pixels (Colors 3, bpc 8)", () => {
    const rows = 10;
    const cols = 4;
    const raw = pseudoRandom(rows * cols * 3, 3);
    // Sub filter with bpp 3: each byte minus the byte 3 to the left
    const enc = new Uint8Array(rows * (cols * 3 + 1));
    for (let r = 0; r < rows; r++) {
      enc[r * (cols * 3 + 1)] = 1;
      for (let i = 0; i < cols * 3; i++) {
        const left = i >= 3 ? raw[r * cols * 3 + i - 3]! : 0;
        enc[r * (cols * 3 + 1) + 1 + i] = (raw[r * cols * 3 + i]! - left) & 0xff;
      }
    }
    expect(decode(zlibSync(enc), n("FlateDecode"), parms({ Predictor: 15, Colors: 3, Columns: cols }))).toEqual(raw);
  });
  it("undoes the TIFF predictor", () => {
    const raw = latin1Encode("\x10\x20\x30\x40\x50\x60");
    const enc = latin1Encode("\x10\x10\x10\x40\x10\x10");
    expect(decode(zlibSync(enc), n("FlateDecode"), parms({ Predictor: 2, Columns: 3 }))).toEqual(raw);
  });
  it("rejects absurd predictor parameters without allocating them", () => {
    expect(() => decode(zlibSync(new Uint8Array(10)), n("FlateDecode"), parms({ Predictor: 12, Colors: 100 }))).toThrow(
      PdfUnparseable,
    );
    const huge = decode(
      zlibSync(new Uint8Array(10)),
      n("FlateDecode"),
      parms({ Predictor: 12, Columns: 1 << 24, Colors: 32, BitsPerComponent: 16 }),
    );
    expect(huge.length).toBe(9);
  });
});

describe("other filters", () => {
  it("ASCIIHexDecode", () => {
    expect(latin1Decode(decode(latin1Encode("48 65 6c 6C\n6f2>ignored"), n("ASCIIHexDecode")))).toBe("Hello ");
    expect(latin1Decode(decode(latin1Encode("414"), n("AHx")))).toBe("A@");
  });
  it("ASCII85Decode, with z and a final partial group", () => {
    expect(latin1Decode(decode(latin1Encode("9jqo^BlbD-BleB1DJ+*+F(f,q~>"), n("ASCII85Decode")))).toBe(
      "Man is distinguished",
    );
    expect(latin1Decode(decode(latin1Encode("<~z@:E^~>"), n("A85")))).toBe("\0\0\0\0abc");
    expect(latin1Decode(decode(latin1Encode("9jqo^ Blb\nD-~>"), n("A85")))).toBe("Man is d");
    expect(Array.from(decode(latin1Encode("z~>"), n("A85")))).toEqual([0, 0, 0, 0]);
    expect(latin1Decode(decode(latin1Encode("87cURDZ~>"), n("A85")))).toBe("Hello");
  });
  it("LZWDecode (the example of ISO 32000 §7.4.4.2)", () => {
    const enc = new Uint8Array([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]);
    expect(latin1Decode(decode(enc, n("LZWDecode")))).toBe("-----A---B");
  });
  it("RunLengthDecode", () => {
    const enc = new Uint8Array([2, 0x41, 0x42, 0x43, 254, 0x5a, 128, 1, 2]);
    expect(latin1Decode(decode(enc, n("RunLengthDecode")))).toBe("ABCZZZ");
  });
  it("RunLength bombs stop at the cap", () => {
    const enc = new Uint8Array(200_000);
    for (let i = 0; i < enc.length; i += 2) {
      enc[i] = 129;
      enc[i + 1] = 0x41;
    }
    expect(() => decode(enc, n("RL"), undefined, new Budget({ maxStreamBytes: 1_000_000 }))).toThrow(PdfBudgetExceeded);
  });
  it("chains filters in order", () => {
    const text = latin1Encode("chained filters work");
    const z = zlibSync(text);
    let hex = "";
    for (const b of z) hex += b.toString(16).padStart(2, "0");
    expect(decode(latin1Encode(hex + ">"), [n("ASCIIHexDecode"), n("FlateDecode")])).toEqual(text);
  });
  it("refuses filters it does not decode with PdfUnparseable", () => {
    expect(() => decode(new Uint8Array(4), n("DCTDecode"))).toThrow(/DCTDecode/);
    expect(() => decode(new Uint8Array(4), n("JBIG2Decode"))).toThrow(PdfUnparseable);
    expect(() => decode(new Uint8Array(4), 5)).toThrow(PdfUnparseable);
  });
});
