/**
 * Streaming JSON reader that pulls large base64 string values out of a request body while it arrives.
 *
 * A sign request carries a 25 MB document as base64 inside JSON (~33 MB of body). Collecting the body,
 * decoding it into one string, JSON.parse-ing it and then decoding the base64 string costs several copies
 * of the document. This reader walks the body chunk by chunk (chunks are never joined) with a small
 * JSON-aware scanner and:
 * - copies everything into `text`, decoded with one streaming TextDecoder (UTF-8 split across chunks is fine);
 * - except the contents of a string whose raw length (bytes between the quotes, escapes counted as written)
 *   reaches `blobThreshold`: that string is decoded from base64 on the fly into one byte array and appears in
 *   `text` as the JSON string `"<BLOB_TOKEN_PREFIX><nonce>:<n>"`, the key of its entry in `blobs`.
 *
 * Strings below the threshold are copied verbatim, so for small bodies `text` is exactly the body decoded as
 * UTF-8. The scanner does not validate JSON; JSON.parse of `text` does that. All strings are treated alike:
 * a key that reaches the threshold becomes a blob too (and most likely fails as base64).
 *
 * Blob strings follow the rules of `decodeBase64Payload` (src/input/base64.ts):
 * - an optional `data:<type>[;params];base64,` prefix (after optional whitespace), kept out of the data;
 *   `mediaType` is the lower-cased type or null; a data: URI without `;base64` is `invalid_base64`;
 * - the standard alphabet only; whitespace (space, and the escapes \n \r \t \f) ignored; `\/` and `\uXXXX`
 *   escapes of ASCII characters stand for that character (PHP writes `\/`, .NET writes `\u002B` for `+`);
 *   any other escape is `invalid_base64`;
 * - padding canonical and only at the end, unused bits zero;
 * - more than `maxBlobBytes` decoded bytes: storing stops (memory released), `document_too_large`.
 * Errors of a blob are reported in its `error` (bytes null); scanning goes on so `text` stays valid JSON.
 * A raw control character (U+0000-U+001F) inside a blob string is a JSON syntax error: it throws
 * InvalidRequest `invalid_json`, as JSON.parse would have refused the body.
 *
 * Memory: the decoded bytes of each blob live in one Uint8Array, pre-sized from `contentLength` (3/4 of the
 * body bytes still to come, capped at maxBlobBytes) or grown by doubling without it, and trimmed once at the
 * end (a view when the slack is small). Growing and trimming use `ArrayBuffer.prototype.transfer`, which
 * detaches the old buffer so its memory is released at once rather than at the next GC. Besides that, at
 * most one chunk, `blobThreshold` bytes of a pending string and the (small) text are held.
 */
import { InvalidRequest, LimitExceeded } from "../../errors";
import { openBodyReader, readChunk } from "./read-chunk";
import { transferBuffer, trimBytes as trim } from "./growable-bytes";
import { BASE64_ALPHABET as ALPHABET, describeBase64Char as describeChar, formatBytes } from "../../input/base64";

export interface Blob64 {
  /** media type of a data: URI prefix (lower-cased, parameters dropped), or null for plain base64 */
  mediaType: string | null;
  /** decoded bytes (exact length; may be a view on a slightly larger buffer), or null when invalid/too large */
  bytes: Uint8Array | null;
  /** why bytes is null: { code: "invalid_base64" | "document_too_large", message } */
  error: { code: string; message: string } | null;
}

export interface ReadJsonWithBlobsOptions {
  /** Body larger than this: LimitExceeded `payload_too_large`, stream cancelled. */
  maxBodyBytes: number;
  /** A blob decoding to more bytes than this: its error is `document_too_large`. */
  maxBlobBytes: number;
  /** Raw length (bytes between the quotes) from which a string is a blob. Default 64 KiB. */
  blobThreshold?: number;
  /**
   * The declared Content-Length, if any: only a hint to pre-size blob buffers (and an early 413 when above
   * maxBodyBytes). The byte count read is what the body cap is enforced on.
   */
  contentLength?: number;
  /**
   * A wait for the next chunk longer than this (ms) ends the read with RequestTimeout
   * `request_timeout`: a client that stalls mid-upload does not hold the request open.
   */
  idleTimeoutMs?: number;
}

/** Prefix of every blob token string in `text`; a value no real client sends (it starts with U+0000). */
export const BLOB_TOKEN_PREFIX = "\u0000signet-blob:";

export const DEFAULT_BLOB_THRESHOLD = 64 * 1024;

const COALESCE_BYTES = 64 * 1024;

/** True when `value` looks like a blob token (it may still be a forged one: look it up in `blobs`). */
export function isBlobToken(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(BLOB_TOKEN_PREFIX);
}

/**
 * Reads a JSON body, decoding large base64 strings on the way. See the module comment.
 * Throws LimitExceeded `payload_too_large` (body cap) and InvalidRequest `invalid_json` (raw control
 * character inside a blob string); the stream is cancelled on any error.
 */
export async function readJsonWithBlobs(
  body: ReadableStream<Uint8Array>,
  opts: ReadJsonWithBlobsOptions,
): Promise<{ text: string; blobs: Map<string, Blob64> }> {
  const reader = openBodyReader(body);
  const scanner = new JsonBlobScanner(opts);
  let total = 0;
  try {
    if (opts.contentLength !== undefined && opts.contentLength > opts.maxBodyBytes) {
      throw payloadTooLarge(opts.maxBodyBytes);
    }
    // A client can trickle the body in tiny chunks; the scanner has a fixed cost per
    // chunk, so small ones are gathered into slices of at least COALESCE_BYTES.
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = () => {
      if (pending.length === 1) scanner.push(pending[0]!);
      else if (pending.length > 1) {
        const joined = new Uint8Array(pendingBytes);
        let at = 0;
        for (const p of pending) {
          joined.set(p, at);
          at += p.length;
        }
        scanner.push(joined);
      }
      pending = [];
      pendingBytes = 0;
    };
    for (;;) {
      const { done, value } = await readChunk(reader, opts.idleTimeoutMs);
      if (done) break;
      const chunk = asBytes(value as unknown);
      total += chunk.byteLength;
      if (total > opts.maxBodyBytes) throw payloadTooLarge(opts.maxBodyBytes);
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= COALESCE_BYTES) flush();
    }
    flush();
  } catch (err) {
    await reader.cancel(err).catch(() => {});
    throw err;
  }
  return scanner.end();
}

/** Request bodies deliver Uint8Array chunks; other views or buffers are taken as their bytes. */
function asBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new TypeError("readJsonWithBlobs: the body stream must deliver bytes");
}

function payloadTooLarge(max: number): LimitExceeded {
  return new LimitExceeded("payload_too_large", `The request body is larger than ${max} bytes.`, { maxBytes: max });
}

function badControl(code: number): InvalidRequest {
  return new InvalidRequest(
    "invalid_json",
    `The request body is not valid JSON: control character U+${code.toString(16).toUpperCase().padStart(4, "0")} unescaped inside a string.`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Tables

const V_WS = 64;
const V_PAD = 65;
const V_OTHER = 255;

/** Raw byte inside a JSON string -> sextet; 64 = space; 65 = '='; 255 = anything else (slow path). */
const RAW = new Uint8Array(256).fill(V_OTHER);
/** Logical character (after unescaping), ASCII only -> sextet; 64 = ASCII whitespace; 65 = '='; 255 = invalid. */
const LOGICAL = new Uint8Array(128).fill(V_OTHER);
for (let i = 0; i < 64; i++) {
  RAW[ALPHABET.charCodeAt(i)] = i;
  LOGICAL[ALPHABET.charCodeAt(i)] = i;
}
RAW[0x20] = V_WS;
RAW[0x3d] = V_PAD;
for (const ws of [0x20, 0x09, 0x0a, 0x0d, 0x0c]) LOGICAL[ws] = V_WS;
LOGICAL[0x3d] = V_PAD;

/** Byte -> sextet shifted to its place in a quad, or -1 for anything but the 64 data characters. */
const Q0 = new Int32Array(256).fill(-1);
const Q1 = new Int32Array(256).fill(-1);
const Q2 = new Int32Array(256).fill(-1);
const Q3 = new Int32Array(256).fill(-1);
for (let i = 0; i < 64; i++) {
  const c = ALPHABET.charCodeAt(i);
  Q0[c] = i << 18;
  Q1[c] = i << 12;
  Q2[c] = i << 6;
  Q3[c] = i;
}

/**
 * Decodes whole quads of data characters from buf[i..end) into out[o..), stopping before the first quad
 * that holds anything else; returns the number of quads. The caller guarantees room in `out`.
 */
function decodeQuads(buf: Uint8Array, i: number, end: number, out: Uint8Array, o: number): number {
  const start = i;
  const last = end - 3;
  while (i < last) {
    const x = Q0[buf[i]!]! | Q1[buf[i + 1]!]! | Q2[buf[i + 2]!]! | Q3[buf[i + 3]!]!;
    if (x < 0) break;
    out[o] = x >> 16;
    out[o + 1] = x >> 8;
    out[o + 2] = x;
    o += 3;
    i += 4;
  }
  return (i - start) >> 2;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface NativeBase64Target {
  setFromBase64?: (
    text: string,
    options: { lastChunkHandling: "stop-before-partial" },
  ) => { read: number; written: number };
}
/** workerd decodes base64 natively (`Uint8Array.prototype.setFromBase64`); Node 22 does not: the JS loop then does all. */
const NATIVE_SET_FROM_BASE64 = typeof (Uint8Array.prototype as NativeBase64Target).setFromBase64 === "function";
const LATIN1 = NATIVE_SET_FROM_BASE64 ? new TextDecoder("latin1") : null;
/** Bytes that end a native run: the string's end, escapes, padding, and the raw whitespace JSON forbids in strings. */
const NATIVE_RUN_STOPS = [QUOTE, BACKSLASH, 0x3d, 0x09, 0x0a, 0x0c, 0x0d];
const NATIVE_RUN_MIN = 4096;

/**
 * Decodes the leading whole quads of buf[i..end) natively into out[o..]; returns [bytes read, bytes
 * written], or null when there is nothing worth it or the run is not plain base64 (the JS loop then
 * handles it, and reports any error with its position).
 */
function decodeNativeRun(buf: Uint8Array, i: number, end: number, out: Uint8Array, o: number): [number, number] | null {
  const view = buf.subarray(i, end);
  let stop = view.length;
  for (const b of NATIVE_RUN_STOPS) {
    const at = view.indexOf(b);
    if (at >= 0 && at < stop) stop = at;
  }
  if (stop < NATIVE_RUN_MIN || out.length - o < 3) return null;
  try {
    const { read, written } = (out.subarray(o) as NativeBase64Target).setFromBase64!(
      LATIN1!.decode(view.subarray(0, stop)),
      { lastChunkHandling: "stop-before-partial" },
    );
    return [read, written];
  } catch {
    return null;
  }
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

// ---------------------------------------------------------------------------------------------------------
// Blob decoder: the contents of one large JSON string, fed raw bytes (between the quotes), possibly split
// anywhere (inside escapes, the data: header, base64 quads).

const P_LEAD = 0; // whitespace and the first characters, deciding whether this is a data: URI
const P_HEADER = 1; // after "data:", up to ','
const P_DATA = 2; // base64 data
const P_PAD = 3; // after the first '='
const P_ERR = 4; // failed: only looking for the closing quote

const ESC_NONE = 0;
const ESC_AFTER_BACKSLASH = 1;
const ESC_HEX = 2;

const DATA_URI = "data:";
/** Stands for any raw byte >= 0x80 (part of a UTF-8 sequence): never valid in base64 or a media type. */
const RAW_NON_ASCII = 0x110000;
const MAX_HEADER_CHARS = 1024;
/** First buffer size when no Content-Length tells the size; doubled as needed. */
const INITIAL_CAPACITY = 256 * 1024;

class BlobDecoder {
  private phase = P_LEAD;
  private esc = ESC_NONE;
  private escCode = 0;
  private escDigits = 0;
  /** Character codes seen in P_LEAD (at most 5). */
  private lead: number[] = [];
  private header = "";
  /** Raw content bytes fed before the current `feed` call, and the offset of the byte being handled. */
  private pos = 0;
  private at = 0;

  private out: Uint8Array | null;
  private o = 0;
  private acc = 0;
  private n = 0;
  private pads = 0;

  mediaType: string | null = null;
  error: { code: string; message: string } | null = null;

  constructor(
    private readonly maxBytes: number,
    capacity: number,
  ) {
    this.out = new Uint8Array(Math.max(0, Math.min(maxBytes, capacity)));
  }

  /**
   * Feeds raw string bytes buf[start..end). Returns the index of the closing quote, or -1 when the string
   * goes on past `end`.
   */
  feed(buf: Uint8Array, start: number, end: number): number {
    let i = start;
    // Native decoding is tried once per chunk, at the first quad boundary in P_DATA: a chunk broken up
    // by escapes (base64 wrapped with "\n") is left to the loop rather than rescanned at every quad.
    let tryNative = NATIVE_SET_FROM_BASE64;
    while (i < end) {
      if (this.esc !== ESC_NONE) {
        this.at = this.pos + (i - start);
        i = this.escape(buf[i]!, i);
        continue;
      }
      if (this.phase === P_DATA) {
        // Hot loop: table-driven, locals only. Whole quads without whitespace or escapes (the usual case)
        // take one lookup per byte and one test per quad; anything else goes byte by byte until a quad
        // boundary. One call per buffer growth.
        let out = this.out!;
        let cap = out.length;
        let acc = this.acc;
        let n = this.n;
        let o = this.o;
        for (;;) {
          if (n === 0 && tryNative) {
            tryNative = false;
            const done = decodeNativeRun(buf, i, end, out, o);
            if (done) {
              i += done[0];
              o += done[1];
            }
          }
          if (n === 0) {
            // Quads that fit in the buffer and in the chunk.
            const quads = decodeQuads(buf, i, Math.min(end, i + Math.floor((cap - o) / 3) * 4), out, o);
            i += quads * 4;
            o += quads * 3;
          }
          if (i >= end) break;
          const v = RAW[buf[i]!]!;
          if (v < 64) {
            acc = (acc << 6) | v;
            if (++n === 4) {
              if (o + 3 > cap) {
                this.o = o;
                if (!this.grow(o + 3)) {
                  i++;
                  break;
                }
                out = this.out!;
                cap = out.length;
              }
              out[o] = acc >> 16;
              out[o + 1] = acc >> 8;
              out[o + 2] = acc;
              o += 3;
              n = 0;
              acc = 0;
            }
          } else if (v !== V_WS) {
            break;
          }
          i++;
        }
        if (this.phase !== P_DATA) continue; // too large: now P_ERR
        this.acc = acc;
        this.n = n;
        this.o = o;
        if (i === end) break;
      } else if (this.phase === P_ERR) {
        for (; i < end; i++) {
          const c = buf[i]!;
          if (c === QUOTE || c === BACKSLASH || c < 0x20) break;
        }
        if (i === end) break;
      }
      // One byte the hot loops do not handle (or any byte in P_LEAD / P_HEADER / P_PAD).
      const c = buf[i]!;
      if (c === QUOTE) return i;
      if (c === BACKSLASH) {
        this.esc = ESC_AFTER_BACKSLASH;
      } else if (c < 0x20) {
        throw badControl(c);
      } else if (this.phase !== P_ERR) {
        this.at = this.pos + (i - start);
        this.char(c < 0x80 ? c : RAW_NON_ASCII);
      }
      i++;
    }
    this.pos += end - start;
    return -1;
  }

  /** Handles byte `c` at index i inside an escape; returns the next index (i itself to reprocess c). */
  private escape(c: number, i: number): number {
    if (this.esc === ESC_AFTER_BACKSLASH) {
      if (c < 0x20) throw badControl(c);
      this.esc = ESC_NONE;
      if (this.phase === P_ERR) return i + 1;
      switch (c) {
        case 0x6e: // \n
          this.char(0x0a);
          break;
        case 0x72: // \r
          this.char(0x0d);
          break;
        case 0x74: // \t
          this.char(0x09);
          break;
        case 0x66: // \f
          this.char(0x0c);
          break;
        case 0x2f: // \/
        case 0x22: // \" and \\ stand for characters that are then refused as not base64
        case 0x5c:
          this.char(c);
          break;
        case 0x75: // \uXXXX
          this.esc = ESC_HEX;
          this.escCode = 0;
          this.escDigits = 0;
          break;
        default:
          this.fail(
            `Invalid base64: the escape sequence '\\${c >= 0x21 && c <= 0x7e ? String.fromCharCode(c) : "?"}' at position ${this.at} is not allowed inside base64 data.`,
          );
      }
      return i + 1;
    }
    // ESC_HEX
    const h = hexValue(c);
    if (h < 0) {
      this.esc = ESC_NONE;
      this.fail(`Invalid base64: malformed \\u escape at position ${this.at}.`);
      return i; // reprocess c (it may be the closing quote)
    }
    this.escCode = (this.escCode << 4) | h;
    if (++this.escDigits === 4) {
      this.esc = ESC_NONE;
      this.char(this.escCode);
    }
    return i + 1;
  }

  /** One logical character: an unescaped code, a raw ASCII byte >= 0x20 other than '"' and '\', or RAW_NON_ASCII. */
  private char(code: number): void {
    switch (this.phase) {
      case P_LEAD: {
        if (code < 128 && LOGICAL[code] === V_WS) return;
        this.lead.push(code);
        const k = this.lead.length - 1;
        if ((code | 0x20) === DATA_URI.charCodeAt(k) || code === DATA_URI.charCodeAt(k)) {
          if (this.lead.length === DATA_URI.length) {
            this.phase = P_HEADER;
            this.lead = [];
          }
          return;
        }
        this.replayLead();
        return;
      }
      case P_HEADER:
        if (code === 0x2c) {
          this.parseHeader();
        } else {
          this.header += String.fromCharCode(code === RAW_NON_ASCII ? 0xfffd : code);
          if (this.header.length > MAX_HEADER_CHARS) {
            this.fail("The data: URI has no ',' separating its header from the data.");
          }
        }
        return;
      case P_DATA:
      case P_PAD:
        this.dataChar(code);
        return;
      default:
        return;
    }
  }

  /** The characters read while looking for "data:" turned out to be base64 data. */
  private replayLead(): void {
    const lead = this.lead;
    this.lead = [];
    this.phase = P_DATA;
    for (const code of lead) {
      if (this.phase === P_ERR) return;
      this.dataChar(code);
    }
  }

  private parseHeader(): void {
    const params = this.header.split(";").map((p) => p.trim());
    const last = params[params.length - 1] ?? "";
    if (params.length < 2 || last.toLowerCase() !== "base64") {
      this.fail("The data: URI is not base64-encoded: expected 'data:<type>;base64,<data>'.");
      return;
    }
    const type = (params[0] ?? "").toLowerCase();
    if (type !== "") {
      if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type)) {
        const raw = params[0] ?? "";
        this.fail(`The data: URI has an invalid media type "${raw.length > 80 ? `${raw.slice(0, 80)}…` : raw}".`);
        return;
      }
      this.mediaType = type;
    }
    this.header = "";
    this.phase = P_DATA;
  }

  private dataChar(code: number): void {
    const v = code < 128 ? LOGICAL[code]! : V_OTHER;
    if (v < 64) {
      if (this.phase === P_PAD) {
        this.fail(`Invalid base64: data after '=' padding at position ${this.at}.`);
        return;
      }
      this.acc = (this.acc << 6) | v;
      if (++this.n === 4) {
        if (this.o + 3 > this.out!.length && !this.grow(this.o + 3)) return;
        const out = this.out!;
        out[this.o] = this.acc >> 16;
        out[this.o + 1] = this.acc >> 8;
        out[this.o + 2] = this.acc;
        this.o += 3;
        this.n = 0;
        this.acc = 0;
      }
    } else if (v === V_PAD) {
      this.pads++;
      this.phase = P_PAD;
      if (this.pads > 2) this.fail(`Invalid base64: too much '=' padding at position ${this.at}.`);
    } else if (v !== V_WS) {
      const what = code === RAW_NON_ASCII ? "a non-ASCII character" : describeChar(code);
      this.fail(`Invalid base64: character ${what} at position ${this.at} is not in the base64 alphabet.`);
    }
  }

  /** Makes room for `need` bytes; false (and the blob failed as too large) beyond maxBytes. */
  private grow(need: number): boolean {
    if (need > this.maxBytes) {
      this.fail(
        `The document is larger than the limit of ${formatBytes(this.maxBytes)} (${this.maxBytes} bytes).`,
        "document_too_large",
      );
      return false;
    }
    const old = this.out!;
    const size = Math.min(this.maxBytes, Math.max(need, old.length * 2, 1024));
    // transfer() detaches the old buffer, so its memory goes back at once instead of at the next GC.
    const moved = transferBuffer(old, size);
    if (moved) {
      this.out = moved;
    } else {
      const next = new Uint8Array(size);
      next.set(old.subarray(0, this.o));
      this.out = next;
    }
    return true;
  }

  private fail(message: string, code = "invalid_base64"): void {
    if (!this.error) this.error = { code, message };
    this.phase = P_ERR;
    this.out = null;
  }

  /** The closing quote was reached. */
  finish(): Blob64 {
    if (this.phase === P_LEAD) this.replayLead();
    if (this.phase === P_HEADER) this.fail("The data: URI has no ',' separating its header from the data.");
    if (this.phase === P_DATA || this.phase === P_PAD) this.finishData();
    const bytes = this.error ? null : trim(this.out!, this.o);
    this.out = null;
    return { mediaType: this.mediaType, bytes, error: this.error };
  }

  /** The body ended inside the string (the text is not valid JSON either). */
  unterminated(): Blob64 {
    this.fail("Invalid base64: the string is not terminated.");
    return { mediaType: this.mediaType, bytes: null, error: this.error };
  }

  private finishData(): void {
    const n = this.n;
    const pads = this.pads;
    const chars = (this.o / 3) * 4 + n;
    if (chars === 0 && pads === 0) {
      this.fail("The base64 payload is empty.");
      return;
    }
    if ((chars + pads) % 4 !== 0) {
      this.fail(
        pads === 0
          ? `Invalid base64: the length (${chars} characters without whitespace) is not a multiple of 4; the '=' padding is missing or the data is truncated.`
          : `Invalid base64: the data length with '=' padding (${chars + pads}) is not a multiple of 4.`,
      );
      return;
    }
    if ((pads === 1 && n !== 3) || (pads === 2 && n !== 2) || n === 1) {
      this.fail("Invalid base64: the '=' padding does not match the data length.");
      return;
    }
    if (n === 0) return;
    if ((n === 2 && this.acc & 0x0f) || (n === 3 && this.acc & 0x03)) {
      this.fail("Invalid base64: the last character has non-zero unused bits (not canonical base64).");
      return;
    }
    const need = this.o + n - 1;
    if (need > this.out!.length && !this.grow(need)) return;
    const out = this.out!;
    if (n === 2) {
      out[this.o++] = this.acc >> 4;
    } else {
      out[this.o++] = this.acc >> 10;
      out[this.o++] = this.acc >> 2;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// The JSON scanner

const M_OUT = 0; // outside strings
const M_STR = 1; // inside a string shorter than the threshold so far
const M_BLOB = 2; // inside a blob string

class JsonBlobScanner {
  private readonly threshold: number;
  private readonly maxBlobBytes: number;
  private readonly contentLength: number | undefined;
  private readonly decoder = new TextDecoder("utf-8");
  private readonly parts: string[] = [];
  private readonly blobs = new Map<string, Blob64>();
  private readonly nonce: string;

  private mode = M_OUT;
  /** Body bytes before the current chunk. */
  private consumed = 0;
  /** M_STR: index of the opening quote in the current chunk (when not pending), its body offset, length. */
  private strStart = 0;
  private strStartAbs = 0;
  private strLen = 0;
  private strEsc = false;
  /** M_STR across chunks: the string so far, opening quote included (< threshold + 1 bytes). */
  private pending: Uint8Array | null = null;
  private pendingLen = 0;
  private inPending = false;

  private blob: BlobDecoder | null = null;
  private token = "";

  constructor(opts: ReadJsonWithBlobsOptions) {
    this.threshold = Math.max(1, Math.floor(opts.blobThreshold ?? DEFAULT_BLOB_THRESHOLD));
    this.maxBlobBytes = Math.max(0, opts.maxBlobBytes);
    this.contentLength = opts.contentLength;
    const r = crypto.getRandomValues(new Uint8Array(6));
    let hex = "";
    for (const b of r) hex += b.toString(16).padStart(2, "0");
    this.nonce = hex;
  }

  push(buf: Uint8Array): void {
    const end = buf.length;
    let i = 0;
    let runStart = 0;
    while (i < end) {
      if (this.mode === M_OUT) {
        const q = buf.indexOf(QUOTE, i);
        if (q < 0) {
          i = end;
          break;
        }
        this.mode = M_STR;
        this.strStart = q;
        this.strStartAbs = this.consumed + q;
        this.strLen = 0;
        this.strEsc = false;
        i = q + 1;
      } else if (this.mode === M_STR) {
        const limit = Math.min(end, i + (this.threshold - this.strLen));
        let j = i;
        let esc = this.strEsc;
        for (; j < limit; j++) {
          const c = buf[j]!;
          if (esc) esc = false;
          else if (c === BACKSLASH) esc = true;
          else if (c === QUOTE) break;
        }
        this.strEsc = esc;
        this.strLen += j - i;
        if (j < limit) {
          // Closing quote of a short string: it stays text.
          if (this.inPending) this.flushPending();
          this.mode = M_OUT;
          i = j + 1;
          continue;
        }
        if (this.strLen < this.threshold) {
          i = end; // the chunk ended inside the string
          break;
        }
        // The string reached the threshold: a blob. Text gets the opening quote and the token.
        if (this.inPending) this.emit(this.pending!.subarray(0, 1));
        else this.emit(buf.subarray(runStart, this.strStart + 1));
        this.startBlob();
        if (this.inPending) {
          this.feedKnownOpen(this.pending!, 1, this.pendingLen);
          this.pendingLen = 0;
          this.inPending = false;
          this.feedKnownOpen(buf, 0, j);
        } else {
          this.feedKnownOpen(buf, this.strStart + 1, j);
        }
        this.mode = M_BLOB;
        i = j;
        runStart = j;
      } else {
        const r = this.blob!.feed(buf, i, end);
        if (r < 0) {
          i = end;
          runStart = end;
          break;
        }
        this.blobs.set(this.token, this.blob!.finish());
        this.blob = null;
        this.mode = M_OUT;
        runStart = r; // the closing quote goes through the decoder with the text after it
        i = r + 1;
      }
    }
    if (this.mode === M_OUT) {
      this.emit(buf.subarray(runStart, end));
    } else if (this.mode === M_STR) {
      if (this.inPending) {
        this.appendPending(buf.subarray(0, end));
      } else {
        this.emit(buf.subarray(runStart, this.strStart));
        this.appendPending(buf.subarray(this.strStart, end));
        this.inPending = true;
      }
    }
    this.consumed += end;
  }

  end(): { text: string; blobs: Map<string, Blob64> } {
    if (this.mode === M_STR && this.inPending) this.flushPending();
    if (this.mode === M_BLOB) {
      // No closing quote is written: the text stays invalid JSON, like the body.
      this.blobs.set(this.token, this.blob!.unterminated());
      this.blob = null;
    }
    const tail = this.decoder.decode();
    if (tail) this.parts.push(tail);
    this.pending = null;
    const text = this.parts.join("");
    this.parts.length = 0;
    return { text, blobs: this.blobs };
  }

  private emit(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const s = this.decoder.decode(bytes, { stream: true });
    if (s) this.parts.push(s);
  }

  private appendPending(bytes: Uint8Array): void {
    if (!this.pending) this.pending = new Uint8Array(this.threshold + 1);
    this.pending.set(bytes, this.pendingLen);
    this.pendingLen += bytes.length;
  }

  private flushPending(): void {
    this.emit(this.pending!.subarray(0, this.pendingLen));
    this.pendingLen = 0;
    this.inPending = false;
  }

  private startBlob(): void {
    this.token = `${BLOB_TOKEN_PREFIX}${this.nonce}:${this.blobs.size}`;
    // The token is written without its closing quote: the body's own closing quote follows it.
    this.parts.push(JSON.stringify(this.token).slice(1, -1));
    let capacity = INITIAL_CAPACITY;
    if (this.contentLength !== undefined && Number.isFinite(this.contentLength)) {
      const remaining = this.contentLength - this.strStartAbs - 1;
      if (remaining > this.threshold) capacity = Math.floor((remaining * 3) / 4) + 3;
    }
    this.blob = new BlobDecoder(this.maxBlobBytes, capacity);
  }

  /** Feeds bytes already known to hold no closing quote. */
  private feedKnownOpen(buf: Uint8Array, start: number, end: number): void {
    if (start >= end) return;
    if (this.blob!.feed(buf, start, end) >= 0)
      throw new Error("json-blobs: scanner and decoder disagree on a string end");
  }
}
