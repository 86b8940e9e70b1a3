import { describe, expect, it } from "vitest";
import { InvalidRequest, LimitExceeded } from "../errors";
import { __portable, decodeBase64Payload, encodeBase64 } from "./base64";

const MAX = 25 * 1024 * 1024;
const dec = (text: string, maxBytes = MAX) => decodeBase64Payload(text, { maxBytes });
const ascii = (b: Uint8Array) => new TextDecoder().decode(b);

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let off = 0; off < n; off += 65536) crypto.getRandomValues(out.subarray(off, Math.min(n, off + 65536)));
  return out;
}

function expectCode(fn: () => unknown, cls: typeof InvalidRequest | typeof LimitExceeded, code: string, msg?: RegExp) {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(cls);
  expect((thrown as InvalidRequest).code).toBe(code);
  if (msg) expect((thrown as Error).message).toMatch(msg);
}

describe("decodeBase64Payload: plain base64", () => {
  it("round-trips every length from 1 to 64 with native and portable codecs", () => {
    for (let n = 1; n <= 64; n++) {
      const bytes = randomBytes(n);
      const b64 = encodeBase64(bytes);
      expect(__portable.encode(bytes)).toBe(b64);
      expect(btoa(String.fromCharCode(...bytes))).toBe(b64);
      expect(dec(b64).bytes).toEqual(bytes);
      expect(__portable.decode(b64)).toEqual(bytes);
      expect(dec(b64).mediaType).toBeNull();
    }
  });

  it("tolerates MIME line-wrapping and other ASCII whitespace", () => {
    const bytes = randomBytes(1000);
    const b64 = encodeBase64(bytes);
    const wrapped = b64.match(/.{1,76}/g)!.join("\r\n") + "\r\n";
    expect(dec(wrapped).bytes).toEqual(bytes);
    expect(dec(`  ${b64.slice(0, 10)}\t${b64.slice(10, 20)}\n${b64.slice(20)}\f `).bytes).toEqual(bytes);
    expect(__portable.decode(wrapped)).toEqual(bytes);
    expect(dec("QU JD\nRA = =").bytes).toEqual(new TextEncoder().encode("ABCD"));
  });

  const invalid: [string, string, RegExp][] = [
    ["character outside the alphabet", "QUJD!A==", /'!' at position 4/],
    ["URL-safe alphabet", "-_-_", /URL-safe/],
    ["percent-encoding", "QUJD%3D", /percent-encoding/],
    ["non-ASCII", "QUJDé===", /U\+00E9/],
    ["missing padding", "QUJDRA", /multiple of 4|padding/],
    ["one stray character", "QUJDR", /multiple of 4|padding/],
    ["too much padding", "QQ===", /padding/],
    ["data after padding", "QQ==QUJD", /after '=' padding/],
    ["padding in the middle", "QU=D", /padding/],
    ["non-canonical trailing bits (1 byte)", "QR==", /non-zero unused bits/],
    ["non-canonical trailing bits (2 bytes)", "QUF=", /non-zero unused bits/],
    ["only padding", "====", /padding/],
    ["empty", "", /empty/],
    ["only whitespace", " \r\n\t ", /empty/],
  ];
  for (const [what, text, msg] of invalid) {
    it(`refuses ${what} with invalid_base64`, () => {
      expectCode(() => dec(text), InvalidRequest, "invalid_base64", msg);
      if (text.trim() !== "") expectCode(() => __portable.decode(text), InvalidRequest, "invalid_base64", msg);
    });
  }
});

describe("decodeBase64Payload: data: URIs", () => {
  it("returns the media type, lower-cased, parameters dropped", () => {
    const r = dec("data:application/pdf;base64,JVBERi0xLjQK");
    expect(ascii(r.bytes)).toBe("%PDF-1.4\n");
    expect(r.mediaType).toBe("application/pdf");
    const r2 = dec("DATA:Application/PDF;name=contract.pdf;BASE64,JVBERi0xLjQK");
    expect(r2.mediaType).toBe("application/pdf");
    expect(ascii(r2.bytes)).toBe("%PDF-1.4\n");
    const r3 = dec("data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,UEsDBA==");
    expect(r3.mediaType).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(dec("data:;base64,QUJD").mediaType).toBeNull();
    expect(dec("\n data:image/png;base64,\r\nQUJD\r\n").mediaType).toBe("image/png");
  });

  it("refuses data: URIs that are not base64", () => {
    expectCode(() => dec("data:application/pdf,%25PDF-1.4"), InvalidRequest, "invalid_base64", /not base64-encoded/);
    expectCode(() => dec("data:text/plain;charset=utf-8,hello"), InvalidRequest, "invalid_base64", /not base64/);
    expectCode(() => dec("data:application/pdf;base64"), InvalidRequest, "invalid_base64", /no ','/);
    expectCode(() => dec("data:application pdf;base64,QUJD"), InvalidRequest, "invalid_base64", /media type/);
    expectCode(() => dec("data:application/pdf;base64,QUJD!"), InvalidRequest, "invalid_base64", /'!'/);
    expectCode(() => dec("data:application/pdf;base64,"), InvalidRequest, "invalid_base64", /empty/);
  });
});

describe("decodeBase64Payload: size cap before decoding", () => {
  it("enforces the cap on the decoded size exactly", () => {
    expect(dec("QUJD", 3).bytes.length).toBe(3);
    expect(dec("QUJDRA==", 4).bytes.length).toBe(4);
    expectCode(() => dec("QUJDRA==", 3), LimitExceeded, "document_too_large", /limit of 3 bytes/);
    expectCode(() => dec("data:application/pdf;base64,QUJDRA==", 3), LimitExceeded, "document_too_large");
    // Whitespace does not count against the cap.
    expect(dec(`Q U J D${" ".repeat(100)}`, 3).bytes.length).toBe(3);
  });

  it("refuses an oversized payload without decoding it (invalid characters are never looked at)", () => {
    // Every character is invalid: looking at any of them would answer invalid_base64 instead.
    const huge = "!".repeat(40 * 1024 * 1024);
    expectCode(() => dec(huge, MAX), LimitExceeded, "document_too_large", /25 MiB/);
  });
});

describe("25 MiB documents (timed by bench/decoders.ts)", () => {
  it("encodes and decodes 25 MiB: the data: URI, plain and portable decoders give the bytes back", () => {
    const bytes = randomBytes(MAX);
    const b64 = encodeBase64(bytes);
    const back = dec(`data:application/pdf;base64,${b64}`).bytes;
    expect(back.length).toBe(bytes.length);
    expect(back[12345]).toBe(bytes[12345]);
    expect(back[MAX - 1]).toBe(bytes[MAX - 1]);
    const plain = dec(b64).bytes;
    expect(plain.length).toBe(MAX);
    expect(plain[MAX - 1]).toBe(bytes[MAX - 1]);
    const portable = __portable.decode(b64);
    expect(portable.length).toBe(MAX);
    expect(portable[12345]).toBe(bytes[12345]);
  });
});
