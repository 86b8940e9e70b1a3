import { describe, expect, it } from "vitest";
import { ClientAborted, InvalidRequest, LimitExceeded, RequestTimeout } from "../../errors";
import { encodeBase64 } from "../../input/base64";
import { BLOB_TOKEN_PREFIX, isBlobToken, readJsonWithBlobs, type Blob64 } from "./json-blobs";

const MiB = 1024 * 1024;
const enc = new TextEncoder();

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** mulberry32: small deterministic PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const int = (rnd: () => number, lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));

/** Fast pseudo-random bytes (xorshift32), for large documents. */
function pseudoRandomBytes(n: number, seed: number): Uint8Array {
  const words = new Uint32Array(Math.ceil(n / 4));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return new Uint8Array(words.buffer, 0, n);
}

/** A stream delivering `bytes` in chunks of the sizes `nextSize` returns (copies, so no chunk aliases another). */
function streamOf(
  bytes: Uint8Array,
  nextSize: () => number,
  opts: { copy?: boolean; onCancel?: (reason: unknown) => void } = {},
): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      const end = Math.min(bytes.length, at + Math.max(1, nextSize()));
      controller.enqueue(opts.copy === false ? bytes.subarray(at, end) : bytes.slice(at, end));
      at = end;
    },
    cancel(reason) {
      opts.onCancel?.(reason);
    },
  });
}

const fixed = (n: number) => () => n;

interface ReadOpts {
  maxBodyBytes?: number;
  maxBlobBytes?: number;
  blobThreshold?: number;
  contentLength?: number;
  chunk?: () => number;
}

function read(body: string | Uint8Array, o: ReadOpts = {}) {
  const bytes = typeof body === "string" ? enc.encode(body) : body;
  return readJsonWithBlobs(streamOf(bytes, o.chunk ?? fixed(65536)), {
    maxBodyBytes: o.maxBodyBytes ?? 40 * MiB,
    maxBlobBytes: o.maxBlobBytes ?? 25 * MiB,
    blobThreshold: o.blobThreshold,
    contentLength: o.contentLength,
  });
}

/** The parsed text with every blob token replaced by a comparable description of the blob. */
function substitute(text: string, blobs: Map<string, Blob64>): unknown {
  const seen = new Set<string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const blob = blobs.get(v);
      if (!blob) return v;
      seen.add(v);
      if (blob.error) return { blobError: blob.error.code };
      return { blob: encodeBase64(blob.bytes!), mediaType: blob.mediaType };
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  const result = walk(JSON.parse(text));
  expect(seen.size).toBe(blobs.size);
  return result;
}

/** The one blob of a body `{"a":"<big string>","after":[1,"x"]}`, checking the rest of the text survived. */
async function single(content: string, o: ReadOpts = {}): Promise<Blob64> {
  const { text, blobs } = await read(`{"a":"${content}","after":[1,"x"]}`, { blobThreshold: 16, ...o });
  const parsed = JSON.parse(text) as { a: string; after: unknown };
  expect(parsed.after).toEqual([1, "x"]);
  expect(isBlobToken(parsed.a)).toBe(true);
  expect(blobs.size).toBe(1);
  const blob = blobs.get(parsed.a);
  expect(blob).toBeDefined();
  return blob!;
}

function bytesOf(text: string): Uint8Array {
  return enc.encode(text);
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------------------------------------------------
// Random JSON with small and large strings

class BlobModel {
  constructor(
    readonly bytes: Uint8Array,
    readonly mediaType: string | null,
    /** raw JSON string contents, quotes excluded */
    readonly raw: string,
  ) {}
}
type Model = null | boolean | number | string | BlobModel | Model[] | { [k: string]: Model };

const SHORT_PIECES = [
  "a",
  "Z",
  "0",
  " ",
  "é",
  "€",
  "😀",
  "中文",
  '"',
  "\\",
  "\n",
  "\t",
  "\u0000",
  "\u001f",
  "/",
  "\u2028",
  "=",
  "+",
];

function shortString(rnd: () => number, threshold: number): string {
  for (;;) {
    const n = int(rnd, 0, Math.max(1, Math.floor(threshold / 3)));
    let s = "";
    for (let i = 0; i < n; i++) s += pick(rnd, SHORT_PIECES);
    // Raw length (UTF-8 bytes of the escaped form) must stay below the threshold.
    if (enc.encode(JSON.stringify(s)).length - 2 < threshold) return s;
  }
}

function blobString(rnd: () => number, threshold: number): BlobModel {
  const minChars = threshold + int(rnd, 0, 3);
  const nBytes = int(rnd, Math.ceil((minChars * 3) / 4), Math.ceil((minChars * 3) / 4) + 400);
  const bytes = pseudoRandomBytes(nBytes, int(rnd, 1, 1 << 30));
  let b64 = encodeBase64(bytes);
  const style = int(rnd, 0, 5);
  if (style === 1) b64 = b64.replaceAll("/", "\\/");
  if (style === 2) b64 = b64.replaceAll("+", "\\u002B");
  if (style === 3) b64 = b64.match(/.{1,76}/g)!.join(pick(rnd, ["\\n", "\\r\\n", " ", "\\t"]));
  if (style === 4) b64 = `  ${b64} `;
  let mediaType: string | null = null;
  let prefix = "";
  if (rnd() < 0.5) {
    mediaType = pick(rnd, [
      "application/pdf",
      "image/png",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ]);
    prefix = `data:${mediaType};base64,`;
    if (rnd() < 0.3) prefix = prefix.replace("/", "\\/");
    if (rnd() < 0.3) prefix = `data:${mediaType.toUpperCase()};name=x.pdf;base64,`;
  }
  return new BlobModel(bytes, mediaType, prefix + b64);
}

function randomModel(rnd: () => number, threshold: number, depth: number): Model {
  const r = rnd();
  if (depth > 3 || r < 0.35) {
    const k = int(rnd, 0, 6);
    if (k === 0) return null;
    if (k === 1) return rnd() < 0.5;
    if (k === 2) return int(rnd, -1e6, 1e6) / pick(rnd, [1, 7, 1000]);
    if (k === 3) return blobString(rnd, threshold);
    return shortString(rnd, threshold);
  }
  if (r < 0.65) {
    const n = int(rnd, 0, 5);
    return Array.from({ length: n }, () => randomModel(rnd, threshold, depth + 1));
  }
  const o: Record<string, Model> = {};
  const n = int(rnd, 0, 5);
  for (let i = 0; i < n; i++) {
    const key = shortString(rnd, threshold);
    if (!(key in o)) o[key] = randomModel(rnd, threshold, depth + 1);
  }
  return o;
}

function serialize(m: Model, rnd: () => number): string {
  const ws = () => pick(rnd, ["", "", " ", "\n  ", "\t"]);
  if (m instanceof BlobModel) return `"${m.raw}"`;
  if (Array.isArray(m)) return `[${ws()}${m.map((x) => serialize(x, rnd)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (m && typeof m === "object") {
    const parts = Object.entries(m).map(([k, v]) => `${JSON.stringify(k)}${ws()}:${ws()}${serialize(v, rnd)}`);
    return `{${ws()}${parts.join(`,${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(m);
}

function expected(m: Model): unknown {
  if (m instanceof BlobModel) return { blob: encodeBase64(m.bytes), mediaType: m.mediaType };
  if (Array.isArray(m)) return m.map(expected);
  if (m && typeof m === "object") return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, expected(v)]));
  return m;
}

// ---------------------------------------------------------------------------------------------------------

describe("readJsonWithBlobs: round trips", () => {
  it("random JSON with small and large strings, random thresholds and chunk sizes (1 byte to 64 KiB)", async () => {
    const rnd = prng(20240611);
    let blobCount = 0;
    for (let iter = 0; iter < 160; iter++) {
      const threshold = pick(rnd, [1, 8, 16, 100, 1000]);
      const model = randomModel(rnd, threshold, 0);
      const json = `${pick(rnd, ["", " ", "\n"])}${serialize(model, rnd)}${pick(rnd, ["", "\n"])}`;
      const bytes = bytesOf(json);
      const maxChunk = pick(rnd, [1, 3, 17, 1000, 4096, 65536]);
      const chunkRnd = prng(iter);
      const { text, blobs } = await readJsonWithBlobs(
        streamOf(bytes, () => int(chunkRnd, 1, maxChunk)),
        {
          maxBodyBytes: 40 * MiB,
          maxBlobBytes: 25 * MiB,
          blobThreshold: threshold,
          contentLength: rnd() < 0.5 ? bytes.length : undefined,
        },
      );
      for (const blob of blobs.values()) expect(blob.error).toBeNull();
      expect(substitute(text, blobs)).toEqual(expected(model));
      blobCount += blobs.size;
      if (blobs.size === 0) expect(text).toBe(json);
    }
    expect(blobCount).toBeGreaterThan(50);
  });

  it("the default threshold (64 KiB): large strings become blobs, a string one byte shorter stays text", async () => {
    const rnd = prng(7);
    for (let iter = 0; iter < 4; iter++) {
      const big = blobString(rnd, 65536);
      const shortLen = 65535;
      const short = "x".repeat(shortLen);
      const model: Model = { document: big, note: short, list: [short.slice(0, 10), big] };
      const json = serialize(model, rnd);
      const maxChunk = pick(rnd, [100, 4096, 65536]);
      const { text, blobs } = await read(json, { chunk: () => int(rnd, 1, maxChunk) });
      expect(blobs.size).toBe(2);
      expect(substitute(text, blobs)).toEqual(expected(model));
    }
    const exactly = `{"k":"${"A".repeat(65536)}"}`;
    const { blobs } = await read(exactly);
    expect(blobs.size).toBe(1);
    expect([...blobs.values()][0]!.bytes!.length).toBe(49152);
  });

  it("bodies without large strings give the body's text unchanged, byte for byte, at any chunking", async () => {
    const samples = [
      '{"a":"é€😀中文","b":["\\"quoted\\"","back\\\\slash","\\u00e9\\ud83d\\ude00"],"c":{"d":null,"e":-1.5e3}}',
      '\ufeff{"bom":true}',
      '  [1, 2, {"x": "y"}]  ',
      '{"bad utf8":"\udc00"}',
      'not json at all "unterminated',
      "",
    ];
    for (const s of samples) {
      const bytes = bytesOf(s);
      for (const size of [1, 2, 3, 5, 1000]) {
        const { text, blobs } = await read(bytes, { chunk: fixed(size) });
        expect(blobs.size).toBe(0);
        expect(text).toBe(new TextDecoder().decode(bytes));
      }
    }
    // Invalid UTF-8 behaves as TextDecoder does (replacement characters), also across chunks.
    const invalid = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x2c, 0xff, 0xe2, 0x82, 0x7d]);
    for (const size of [1, 2, 3, 100]) {
      const { text } = await read(invalid, { chunk: fixed(size) });
      expect(text).toBe(new TextDecoder().decode(invalid));
    }
  });

  it("UTF-8 multi-byte characters split across chunks right before and after a blob", async () => {
    const b64 = encodeBase64(pseudoRandomBytes(300, 5));
    const json = `{"é€😀":"${b64}","ü":"😀中", "${"😀".repeat(3)}":"${b64}"}`;
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const { text, blobs } = await read(json, { blobThreshold: 100, chunk: fixed(size) });
      expect(blobs.size).toBe(2);
      const parsed = substitute(text, blobs) as Record<string, unknown>;
      expect(parsed).toEqual({
        "é€😀": { blob: b64, mediaType: null },
        ü: "😀中",
        "😀😀😀": { blob: b64, mediaType: null },
      });
    }
  });

  it("escaped quotes and backslashes next to the threshold and chunk boundaries never end a string early", async () => {
    const T = 16;
    for (let k = T - 5; k <= T + 2; k++) {
      for (const tail of ['\\"', "\\\\", '\\\\\\"', '\\"\\\\']) {
        const content = "QUJD".repeat(8).slice(0, k) + tail;
        const json = `{"s":"${content}","n":[1,{"t":"\\""}]}`;
        for (const size of [1, 2, 3, 4, 5, 9]) {
          const { text, blobs } = await read(json, { blobThreshold: T, chunk: fixed(size) });
          const parsed = JSON.parse(text) as { s: string; n: unknown };
          expect(parsed.n).toEqual([1, { t: '"' }]);
          const rawLen = enc.encode(content).length;
          if (rawLen < T) {
            expect(blobs.size).toBe(0);
            expect(text).toBe(json);
          } else {
            // '"' and '\' are not base64.
            expect(blobs.get(parsed.s)?.error?.code).toBe("invalid_base64");
          }
        }
      }
    }
  });

  it("a key that reaches the threshold is a string like any other", async () => {
    const key = "this is a long key, not base64 at all!";
    const { text, blobs } = await read(`{"${key}":{"inner":"value"},"b":2}`, { blobThreshold: 16, chunk: fixed(3) });
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const keys = Object.keys(parsed);
    expect(keys).toHaveLength(2);
    expect(isBlobToken(keys[0])).toBe(true);
    expect(blobs.get(keys[0]!)?.error?.code).toBe("invalid_base64");
    expect(parsed[keys[0]!]).toEqual({ inner: "value" });
    expect(parsed.b).toBe(2);
  });

  it("a long non-base64 value becomes an invalid blob (the caller decides what that means)", async () => {
    const blob = await single("Hello, this is plain text and long enough.");
    expect(blob.error?.code).toBe("invalid_base64");
    expect(blob.bytes).toBeNull();
  });

  it("tokens carry a per-call nonce: a client-sent look-alike is not a blob", async () => {
    const b64 = encodeBase64(pseudoRandomBytes(90, 1));
    const { text, blobs } = await read(`["\\u0000signet-blob:0","${b64}"]`, { blobThreshold: 100 });
    const [forged, real] = JSON.parse(text) as [string, string];
    expect(forged.startsWith(BLOB_TOKEN_PREFIX)).toBe(true);
    expect(blobs.has(forged)).toBe(false);
    expect(blobs.get(real)?.bytes).toEqual(pseudoRandomBytes(90, 1));
  });

  it("reads a Request body stream as delivered by workerd", async () => {
    const doc = pseudoRandomBytes(700_000, 99);
    const json = `{"document":{"base64":"data:application/pdf;base64,${encodeBase64(doc)}"},"fields":[{"name":"Name","value":"Ada"}]}`;
    const body = bytesOf(json);
    const req = new Request("https://signet.test/v1/sign", { method: "POST", body });
    const { text, blobs } = await readJsonWithBlobs(req.body!, {
      maxBodyBytes: 40 * MiB,
      maxBlobBytes: 25 * MiB,
      contentLength: body.length,
    });
    const parsed = JSON.parse(text) as { document: { base64: string }; fields: unknown };
    expect(parsed.fields).toEqual([{ name: "Name", value: "Ada" }]);
    const blob = blobs.get(parsed.document.base64)!;
    expect(blob.mediaType).toBe("application/pdf");
    expect(await sha256Hex(blob.bytes!)).toBe(await sha256Hex(doc));
    // Pre-sized from Content-Length: the buffer is the document plus a few bytes.
    expect(blob.bytes!.buffer.byteLength - blob.bytes!.length).toBeLessThan(256);
  });

  it("grows its buffer when no Content-Length is given, and trims it once", async () => {
    for (const n of [1, 2, 3, 1000, 262_144, 262_145, 3 * MiB + 1]) {
      const doc = pseudoRandomBytes(n, n);
      const { text, blobs } = await read(`{"d":"${encodeBase64(doc)}","e":"${encodeBase64(doc.subarray(0, 20))}"}`, {
        blobThreshold: 4,
      });
      const parsed = JSON.parse(text) as { d: string; e: string };
      const d = blobs.get(parsed.d)!.bytes!;
      expect(d.length).toBe(n);
      expect(await sha256Hex(d)).toBe(await sha256Hex(doc));
      expect(d.buffer.byteLength - d.length).toBeLessThanOrEqual(Math.max(64 * 1024, d.length / 8));
      expect(blobs.get(parsed.e)!.bytes).toEqual(doc.subarray(0, 20));
    }
  });

  it("the runtime has ArrayBuffer.prototype.transfer (growing and trimming release memory at once)", () => {
    expect(typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer).toBe("function");
  });

  it("several blobs with a Content-Length: each is trimmed to about its size", async () => {
    const docs = [300_000, 200_000, 500_000].map((n, i) => pseudoRandomBytes(n, i + 1));
    const json = `{"images":[${docs.map((d) => `"data:image/png;base64,${encodeBase64(d)}"`).join(",")}]}`;
    const body = bytesOf(json);
    const { text, blobs } = await read(body, { contentLength: body.length });
    const { images } = JSON.parse(text) as { images: string[] };
    for (let i = 0; i < docs.length; i++) {
      const b = blobs.get(images[i]!)!;
      expect(b.mediaType).toBe("image/png");
      expect(b.bytes).toEqual(docs[i]);
      expect(b.bytes!.buffer.byteLength).toBeLessThanOrEqual(
        docs[i]!.length + Math.max(64 * 1024, docs[i]!.length / 8),
      );
    }
  });
});

describe("readJsonWithBlobs: base64 rules inside blobs", () => {
  const data = pseudoRandomBytes(60, 3); // 80 base64 characters, contains '+' and '/'
  const b64 = encodeBase64(data);

  it("data: URIs", async () => {
    const cases: [string, string | null][] = [
      [`data:application/pdf;base64,${b64}`, "application/pdf"],
      [`DATA:Application/PDF;base64,${b64}`, "application/pdf"],
      [`data:application/pdf;name=contract.pdf;base64,${b64}`, "application/pdf"],
      [`data:application\\/pdf;BASE64,${b64}`, "application/pdf"],
      [`data:application\\u002Fpdf;base64,${b64}`, "application/pdf"],
      [`data:;base64,${b64}`, null],
      [`  \\n data:image/png ; base64 ,${b64}`, "image/png"],
      [b64, null],
    ];
    for (const [content, mediaType] of cases) {
      for (const size of [1, 4, 1000]) {
        const blob = await single(content, { chunk: fixed(size) });
        expect(blob.error).toBeNull();
        expect(blob.mediaType).toBe(mediaType);
        expect(blob.bytes).toEqual(data);
      }
    }
  });

  it("invalid data: URIs", async () => {
    const cases: [string, RegExp][] = [
      [`data:application/pdf,${b64}`, /not base64-encoded/],
      [`data:text/plain;charset=utf-8,${"x".repeat(40)}`, /not base64-encoded/],
      [`data:application pdf;base64,${b64}`, /invalid media type/],
      [`data:é/pdf;base64,${b64}`, /invalid media type/],
      [`data:application/pdf;base64${b64}`, /no ','/],
      [`data:application/pdf;${"x".repeat(2000)}`, /no ','/],
    ];
    for (const [content, message] of cases) {
      for (const size of [1, 1000]) {
        const blob = await single(content, { chunk: fixed(size) });
        expect(blob.bytes).toBeNull();
        expect(blob.error?.code).toBe("invalid_base64");
        expect(blob.error?.message).toMatch(message);
      }
    }
  });

  it("JSON escapes and whitespace inside the data", async () => {
    const cases = [
      b64.replaceAll("/", "\\/"),
      b64.replaceAll("+", "\\u002B"),
      b64.replaceAll("+", "\\u002b").replaceAll("A", "\\u0041"),
      b64.match(/.{1,76}/g)!.join("\\n"),
      b64.match(/.{1,16}/g)!.join("\\r\\n") + "\\r\\n",
      b64.match(/.{1,8}/g)!.join("\\t"),
      b64.match(/.{1,8}/g)!.join("\\f"),
      b64.match(/.{1,3}/g)!.join(" "),
      `\\n\\n${b64}\\n`,
      `data:application\\/pdf;base64,\\n${b64.replaceAll("/", "\\/")}`,
    ];
    for (const content of cases) {
      for (const size of [1, 2, 5, 1000]) {
        const blob = await single(content, { chunk: fixed(size) });
        expect(blob.error).toBeNull();
        expect(blob.bytes).toEqual(data);
      }
    }
    // Padding with whitespace between and after.
    const abcd = await single("QUJDRA = = \\n  " + " ".repeat(10));
    expect(abcd.bytes).toEqual(enc.encode("ABCD"));
  });

  it("every length from 1 to 64 bytes, padding included", async () => {
    for (let n = 1; n <= 64; n++) {
      const bytes = pseudoRandomBytes(n, n * 31);
      for (const size of [1, 3, 1000]) {
        const { text, blobs } = await read(`"${encodeBase64(bytes)}"`, { blobThreshold: 1, chunk: fixed(size) });
        const blob = blobs.get(JSON.parse(text) as string)!;
        expect(blob.error).toBeNull();
        expect(blob.bytes).toEqual(bytes);
      }
    }
  });

  it("invalid characters, escapes and padding", async () => {
    const cases: [string, RegExp][] = [
      ["QUJD!A==QUJDQUJDQUJD", /'!' at position 4/],
      ["-_-_QUJDQUJDQUJDQUJD", /URL-safe/],
      ["QUJD%3DQUJDQUJDQUJD", /percent-encoding/],
      ["QUJDéQUJDQUJDQUJD", /non-ASCII/],
      ["QUJD\\u00e9QUJDQUJDQUJD", /U\+00E9/],
      ['QUJD\\"QUJDQUJDQUJD', /'"'/],
      ["QUJD\\\\QUJDQUJDQUJD", /'\\'/],
      ["QUJD\\bQUJDQUJDQUJD", /escape sequence '\\b'/],
      ["QUJD\\uZZZZQUJDQUJDQUJD", /malformed \\u escape/],
      ["QUJDQUJDQUJDQUJDRA", /multiple of 4|padding/],
      ["QUJDQUJDQUJDQUJDR", /multiple of 4|padding/],
      ["QUJDQUJDQUJDQUJDQQ===", /too much '=' padding/],
      ["QUJDQUJDQUJDQUJDQQ==QUJD", /after '=' padding/],
      ["QUJDQUJDQU=DQUJDQUJD", /padding/],
      ["=QUJDQUJDQUJDQUJDQUJD", /padding/],
      ["QUJDQUJDQUJDQUJDQUJ=", /non-zero unused bits/],
      ["QUJDQUJDQUJDQUJDQUJDQ", /multiple of 4/],
      ["QUJDQUJDQUJDQUJDQ=", /multiple of 4/],
      ["QUJDQUJDQUJDQUJDQ===", /too much|padding does not match/],
      ["QUJDQUJDQUJDQUJDQR==", /non-zero unused bits/],
      ["QUJDQUJDQUJDQUJDQUF=", /non-zero unused bits/],
      ["QUJDQUJDQUJDQUJD====", /padding/],
      ["                    ", /empty/],
      ["data:application/pdf;base64,    \\n   ", /empty/],
      ["QUJDQUJDQUJDQUJD\\u002", /malformed|escape/],
    ];
    for (const [content, message] of cases) {
      for (const size of [1, 3, 1000]) {
        const blob = await single(content, { chunk: fixed(size) });
        expect(blob.bytes, content).toBeNull();
        expect(blob.error?.code, content).toBe("invalid_base64");
        expect(blob.error?.message, content).toMatch(message);
      }
    }
  });

  it("a raw control character inside a blob string is invalid JSON, as JSON.parse would say", async () => {
    for (const raw of ["\n", "\t", "\r", "\u0000", "\\\n"]) {
      let cancelled = false;
      const body = bytesOf(`{"a":"QUJDQUJDQUJDQUJDQUJD${raw}QUJD","b":1}`);
      const err = await readJsonWithBlobs(streamOf(body, fixed(4), { onCancel: () => (cancelled = true) }), {
        maxBodyBytes: 1000,
        maxBlobBytes: 1000,
        blobThreshold: 16,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidRequest);
      expect((err as InvalidRequest).code).toBe("invalid_json");
      expect(() => JSON.parse(new TextDecoder().decode(body))).toThrow();
      // Small bodies are gathered (64 KiB slices) before scanning, so the stream may be read to its end.
      void cancelled;
    }
  });

  it("a body that ends inside a blob leaves text that is not valid JSON", async () => {
    for (const body of [`"${b64}`, `{"a":"${b64}`, `"${b64}\\`]) {
      const { text, blobs } = await read(body, { blobThreshold: 16, chunk: fixed(7) });
      expect(() => JSON.parse(text)).toThrow();
      expect([...blobs.values()][0]?.error?.code).toBe("invalid_base64");
    }
    const { text } = await read(`{"a":"short`, { blobThreshold: 16 });
    expect(text).toBe(`{"a":"short`);
  });
});

describe("readJsonWithBlobs: bodies that fail or stall", () => {
  const head = enc.encode(`{"document":{"base64":"${"A".repeat(1000)}`);

  it("a body stream that fails mid-way (the client went away) is ClientAborted, not an internal error", async () => {
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(head);
        controller.error(new Error("Network connection lost."));
      },
    });
    await expect(
      readJsonWithBlobs(failing, { maxBodyBytes: MiB, maxBlobBytes: MiB, idleTimeoutMs: 5_000 }),
    ).rejects.toMatchObject({
      constructor: ClientAborted,
      code: "client_aborted",
      message: expect.stringMatching(/went away.*Network connection lost/),
    });
  });

  it("a body that stops arriving for idleTimeoutMs is RequestTimeout", async () => {
    let sent = false;
    const stalled = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) controller.enqueue(head);
        sent = true;
        return new Promise(() => {}); // never another chunk, never closed
      },
    });
    await expect(
      readJsonWithBlobs(stalled, { maxBodyBytes: MiB, maxBlobBytes: MiB, idleTimeoutMs: 50 }),
    ).rejects.toMatchObject({ constructor: RequestTimeout, code: "request_timeout" });
  });
});

describe("readJsonWithBlobs: long runs (decoded natively where the runtime can: workerd's setFromBase64)", () => {
  const data = pseudoRandomBytes(200_000, 17);
  const b64run = encodeBase64(data);

  it("a 200 KB document in any chunking decodes to its bytes, padding and all", async () => {
    for (const size of [1000, 4095, 4096, 4097, 65_536, 300_000]) {
      for (const tail of [0, 1, 2]) {
        const bytes = data.subarray(0, data.length - tail);
        const { blobs } = await read(`{"document":{"base64":"${encodeBase64(bytes)}"}}`, {
          blobThreshold: 16,
          chunk: fixed(size),
        });
        expect([...blobs.values()][0]?.bytes, `chunks of ${size}, ${tail} bytes short`).toEqual(bytes);
      }
    }
  });

  it("a raw newline, tab, CR or form feed deep inside a long run is invalid JSON, never skipped as whitespace", async () => {
    for (const raw of ["\n", "\t", "\r", "\f"]) {
      const body = `{"a":"${b64run.slice(0, 90_000)}${raw}${b64run.slice(90_000)}"}`;
      const err = await read(body, { blobThreshold: 16, chunk: fixed(65_536) }).catch((e: unknown) => e);
      expect((err as InvalidRequest).code, JSON.stringify(raw)).toBe("invalid_json");
    }
  });

  it("a bad character deep inside a long run is reported at its position; spaces and escaped newlines are skipped", async () => {
    const bad = `{"a":"${b64run.slice(0, 100_000)}-${b64run.slice(100_000)}"}`;
    const { blobs } = await read(bad, { blobThreshold: 16, chunk: fixed(65_536) });
    expect([...blobs.values()][0]?.error?.message).toMatch(/'-' .*URL-safe.* at position 100000/);
    const wrapped = b64run.replace(/.{76}/g, (line, at: number) => (at % 152 === 0 ? `${line}\\n` : `${line} `));
    const { blobs: ok } = await read(`{"a":"${wrapped}"}`, { blobThreshold: 16, chunk: fixed(65_536) });
    expect([...ok.values()][0]?.bytes).toEqual(data);
  });
});

describe("readJsonWithBlobs: size caps", () => {
  it("maxBlobBytes: exactly the cap decodes, one byte more is document_too_large and text stays valid", async () => {
    for (const max of [30, 31, 32, 33, 1000]) {
      for (const extra of [0, 1, 2, 3, 50]) {
        const bytes = pseudoRandomBytes(max + extra, max);
        for (const size of [1, 5, 4096]) {
          for (const contentLength of [undefined, 10_000]) {
            const blob = await single(encodeBase64(bytes), { maxBlobBytes: max, chunk: fixed(size), contentLength });
            if (extra === 0) {
              expect(blob.error).toBeNull();
              expect(blob.bytes).toEqual(bytes);
            } else {
              expect(blob.bytes).toBeNull();
              expect(blob.error?.code).toBe("document_too_large");
              expect(blob.error?.message).toContain(`(${max} bytes)`);
            }
          }
        }
      }
    }
    // Errors after the cap was hit do not replace document_too_large.
    const blob = await single(`${encodeBase64(pseudoRandomBytes(60, 1))}!!!`, { maxBlobBytes: 10 });
    expect(blob.error?.code).toBe("document_too_large");
  });

  it("maxBodyBytes: the cap itself passes, one byte more throws payload_too_large and cancels the stream", async () => {
    const body = bytesOf(`{"a":"${encodeBase64(pseudoRandomBytes(3000, 2))}"}`);
    const ok = await read(body, { maxBodyBytes: body.length, blobThreshold: 100, chunk: fixed(1000) });
    expect(ok.blobs.size).toBe(1);
    for (const size of [1, 1000, body.length]) {
      for (const max of [body.length - 1, 2000, 10]) {
        let cancelled = false;
        const err = await readJsonWithBlobs(streamOf(body, fixed(size), { onCancel: () => (cancelled = true) }), {
          maxBodyBytes: max,
          maxBlobBytes: 25 * MiB,
          blobThreshold: 100,
        }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(LimitExceeded);
        expect((err as LimitExceeded).code).toBe("payload_too_large");
        // Cancelled unless the stream had already delivered everything.
        if (max + size < body.length) expect({ size, max, cancelled }).toEqual({ size, max, cancelled: true });
      }
    }
  });

  it("a declared Content-Length above maxBodyBytes is refused before reading", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(10));
      },
    });
    const err = await readJsonWithBlobs(stream, { maxBodyBytes: 100, maxBlobBytes: 100, contentLength: 101 }).catch(
      (e: unknown) => e,
    );
    expect((err as LimitExceeded).code).toBe("payload_too_large");
    expect(pulled).toBeLessThanOrEqual(1); // at most the stream's own initial pull
  });
});

describe("readJsonWithBlobs: a 25 MB document (33 MB body)", () => {
  it("decodes it exactly, streaming, with and without Content-Length (timed by bench/decoders.ts)", async () => {
    const size = 25 * MiB;
    const doc = pseudoRandomBytes(size, 0x5eed);
    const docHash = await sha256Hex(doc);
    const body = enc.encode(
      `{"document":{"base64":"data:application/pdf;base64,${encodeBase64(doc)}"},"fields":[{"name":"Signer","value":"Ada Lovelace"}],"audit":{"ip":"192.0.2.1"}}`,
    );
    const bodyLength = body.length;
    expect(bodyLength).toBeGreaterThan(33 * 1024 * 1024);

    for (const withLength of [true, false, true, false]) {
      const { text, blobs } = await readJsonWithBlobs(streamOf(body, fixed(65536), { copy: false }), {
        maxBodyBytes: 40 * MiB,
        maxBlobBytes: size,
        contentLength: withLength ? bodyLength : undefined,
      });
      const parsed = JSON.parse(text) as { document: { base64: string }; fields: unknown };
      const blob = blobs.get(parsed.document.base64)!;
      expect(blob.error).toBeNull();
      expect(blob.mediaType).toBe("application/pdf");
      expect(blob.bytes!.length).toBe(size);
      expect(await sha256Hex(blob.bytes!)).toBe(docHash);
      expect(text.length).toBeLessThan(300);
    }
    // One byte over the cap: document_too_large, nothing kept.
    const over = await readJsonWithBlobs(streamOf(body, fixed(65536), { copy: false }), {
      maxBodyBytes: 40 * MiB,
      maxBlobBytes: size - 1,
      contentLength: bodyLength,
    });
    expect([...over.blobs.values()][0]!.error?.code).toBe("document_too_large");
    expect(JSON.parse(over.text).fields).toEqual([{ name: "Signer", value: "Ada Lovelace" }]);
  });
});
