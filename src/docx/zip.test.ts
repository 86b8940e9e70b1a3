import { describe, expect, it } from "vitest";
import { deflateSync, strToU8, zipSync } from "fflate";
import { LIMITS } from "../limits";
import { carryEntry, InflateBudget, inflateEntry, makeEntry, readZipDirectory, writeZip } from "./zip";
import { crc32 } from "../util/crc32";

const join = (segments: Uint8Array[]) => {
  const out = new Uint8Array(segments.reduce((n, s) => n + s.length, 0));
  let at = 0;
  for (const s of segments) (out.set(s, at), (at += s.length));
  return out;
};

describe("ZIP reader", () => {
  it("reads entries and inflates them with size and CRC checks", () => {
    const zip = zipSync({ "a.xml": strToU8("<a>hello</a>"), "b/c.bin": [new Uint8Array([1, 2, 3]), { level: 0 }] });
    const entries = readZipDirectory(zip);
    expect(entries.map((e) => [e.name, e.method])).toEqual([
      ["a.xml", 8],
      ["b/c.bin", 0],
    ]);
    expect(new TextDecoder().decode(inflateEntry(zip, entries[0]!, new InflateBudget(), 1 << 20))).toBe("<a>hello</a>");
    expect(crc32(strToU8("The quick brown fox jumps over the lazy dog"))).toBe(0x414fa339);
  });

  it("refuses honest bombs by their declared sizes, before inflating", () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    expect(() => readZipDirectory(zipSync({ "x.bin": zeros }))).toThrow(expect.objectContaining({ code: "zip_limit" }));
  });

  // Small parts are inflated in one go while their worst case fits the request's allowance, others in steps.
  const inOneGo = () => new InflateBudget();
  const inSteps = () => Object.assign(new InflateBudget(), { wholeWorkLeft: 0 });

  for (const [how, budget] of [
    ["in one go", inOneGo],
    ["in steps", inSteps],
  ] as const) {
    it(`stops inflating a part that passes its declared size (a lying header), ${how}`, () => {
      const zip = zipSync({ "x.xml": new Uint8Array(4 * 1024 * 1024).fill(0x41) });
      const entries = readZipDirectory(patchSize(zip, 100));
      expect(() => inflateEntry(zip, entries[0]!, budget(), 1 << 30)).toThrow(/past its declared size/);
    });

    it(`refuses a part shorter than declared, failing its CRC or not deflate data, ${how}`, () => {
      const zip = zipSync({ "x.xml": strToU8("<a/>".repeat(100)) });
      const e = readZipDirectory(zip)[0]!;
      expect(new TextDecoder().decode(inflateEntry(zip, e, budget(), 1 << 20))).toBe("<a/>".repeat(100));
      expect(() => inflateEntry(zip, { ...e, uncompressedSize: e.uncompressedSize + 5 }, budget(), 1 << 20)).toThrow(
        /shorter/,
      );
      expect(() => inflateEntry(zip, { ...e, crc32: e.crc32 ^ 1 }, budget(), 1 << 20)).toThrow(/CRC/);
      // Cut short: the deflate stream never ends.
      expect(() => inflateEntry(zip, { ...e, compressedSize: 5 }, budget(), 1 << 20)).toThrow(
        /not valid deflate|shorter/,
      );
    });
  }

  it("inflates parts in one go only while their worst case (1032 to 1) fits the request's allowance", () => {
    const zip = zipSync({ "a.xml": strToU8("<a/>".repeat(100)), "b.xml": strToU8("<b/>".repeat(100)) });
    const [a, b] = readZipDirectory(zip);
    const budget = Object.assign(new InflateBudget(), { wholeWorkLeft: a!.compressedSize * 1032 });
    inflateEntry(zip, a!, budget, 1 << 20);
    expect(budget.wholeWorkLeft).toBe(0);
    // The second part is inflated in steps, with the same result.
    expect(new TextDecoder().decode(inflateEntry(zip, b!, budget, 1 << 20))).toBe("<b/>".repeat(100));
    expect(budget.wholeWorkLeft).toBe(0);
  });

  it("caps the bytes inflated per request", () => {
    const zip = zipSync({ "a.xml": new Uint8Array(1000), "b.xml": new Uint8Array(1000) });
    const budget = new InflateBudget(1500);
    const [a, b] = readZipDirectory(zip);
    inflateEntry(zip, a!, budget, 1 << 20);
    expect(() => inflateEntry(zip, b!, budget, 1 << 20)).toThrow(expect.objectContaining({ code: "zip_limit" }));
  });

  it("refuses duplicate (also case-insensitive), unsafe and overlapping entries", () => {
    const dup = rename(zipSync({ "word/a.xml": strToU8("1"), "word/b.xml": strToU8("2") }), "word/b.xml", "word/a.xml");
    expect(() => readZipDirectory(dup)).toThrow(/two entries/);
    expect(() => readZipDirectory(zipSync({ "A.xml": strToU8("1"), "a.XML": strToU8("2") }))).toThrow(/two entries/);
    for (const bad of ["/etc/x.xml", "a/../../x.xml", "a\\b.xml", "C:/x.xml"]) {
      const z = rename(zipSync({ [`q`.repeat(bad.length)]: strToU8("1") }), "q".repeat(bad.length), bad);
      expect(() => readZipDirectory(z), bad).toThrow(/unsafe name/);
    }
    // Two central entries pointing at the same local header.
    const zip = zipSync({ "a.xml": strToU8("1"), "b.xml": strToU8("2") });
    const dv = new DataView(zip.buffer);
    let cd = zip.length - 22;
    cd = dv.getUint32(cd + 16, true);
    const second = cd + 46 + 5;
    dv.setUint32(second + 42, 0, true);
    expect(() => readZipDirectory(zip)).toThrow(/local header of b.xml names another entry|overlaps/);
  });

  it("refuses more entries than the limit", () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i <= LIMITS.docx.maxEntries; i++) files[`f${i}`] = new Uint8Array(0);
    expect(() => readZipDirectory(zipSync(files))).toThrow(expect.objectContaining({ code: "zip_limit" }));
  });
});

describe("ZIP writer", () => {
  it("copies carried entries byte for byte and writes new ones deterministically", () => {
    const zip = zipSync({
      "a.xml": strToU8("<a>1</a>".repeat(50)),
      "m.png": [new Uint8Array([9, 9, 9]), { level: 0 }],
    });
    const entries = readZipDirectory(zip);
    const out = () =>
      join(
        writeZip([carryEntry(zip, entries[0]!), carryEntry(zip, entries[1]!), makeEntry("new.xml", strToU8("<n/>"))])
          .segments,
      );
    const a = out();
    expect(out()).toEqual(a);
    const back = readZipDirectory(a);
    expect(back.map((e) => e.name)).toEqual(["a.xml", "m.png", "new.xml"]);
    const raw = (z: Uint8Array, e: (typeof back)[number]) => z.subarray(e.dataStart, e.dataStart + e.compressedSize);
    expect(raw(a, back[0]!)).toEqual(raw(zip, entries[0]!));
    expect([back[0]!.dosDate, back[0]!.dosTime]).toEqual([entries[0]!.dosDate, entries[0]!.dosTime]);
    expect(new TextDecoder().decode(inflateEntry(a, back[2]!, new InflateBudget(), 1 << 20))).toBe("<n/>");
    expect(deflateSync).toBeDefined();
  });
});

function patchSize(zip: Uint8Array, size: number): Uint8Array {
  const dv = new DataView(zip.buffer, zip.byteOffset);
  for (let i = 0; i + 4 < zip.length; i++) {
    const sig = dv.getUint32(i, true);
    if (sig === 0x02014b50) dv.setUint32(i + 24, size, true);
    if (sig === 0x04034b50 && i === 0) dv.setUint32(i + 22, size, true);
  }
  return zip;
}

function rename(zip: Uint8Array, from: string, to: string): Uint8Array {
  const a = new TextEncoder().encode(from);
  const b = new TextEncoder().encode(to);
  for (let i = 0; i + a.length <= zip.length; i++) if (a.every((v, k) => zip[i + k] === v)) zip.set(b, i);
  return zip;
}
