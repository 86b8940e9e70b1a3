/**
 * A small DER encoder and a strict DER reader: the CMS structures Signet emits are
 * assembled byte by byte here so the output is deterministic and exactly what the
 * profile asks for (no library defaults such as SHA-1 or NULL parameters sneaking in).
 * Parsing of foreign BER (time-stamp tokens) goes through asn1js/pkijs instead.
 */
import { compareBytes, concatBytes } from "../util/bytes";

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  TELETEX_STRING: 0x14,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  UNIVERSAL_STRING: 0x1c,
  BMP_STRING: 0x1e,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

/** DER definite length octets. */
export function encodeLength(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  let n = length;
  while (n > 0) {
    bytes.unshift(n & 0xff);
    n = Math.floor(n / 256);
  }
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

/** One TLV with a single-byte tag (all tags Signet writes are < 31). */
export function tlv(tag: number, content: Uint8Array | readonly Uint8Array[]): Uint8Array {
  const body = content instanceof Uint8Array ? content : concatBytes(content);
  return concatBytes([Uint8Array.of(tag), encodeLength(body.length), body]);
}

export function sequence(...items: Uint8Array[]): Uint8Array {
  return tlv(TAG.SEQUENCE, items);
}

/** A DER SET OF: members sorted by their encodings. */
export function setOf(...items: Uint8Array[]): Uint8Array {
  return tlv(TAG.SET, [...items].sort(compareBytes));
}

/** `[n] EXPLICIT` around an encoded element. */
export function explicit(n: number, inner: Uint8Array): Uint8Array {
  return tlv(0xa0 | n, inner);
}

/** `[n] IMPLICIT` for a constructed type: the content of `encoded` under a context tag. */
export function implicitConstructed(n: number, encoded: Uint8Array): Uint8Array {
  return tlv(0xa0 | n, readDer(encoded).content);
}

export function oid(dotted: string): Uint8Array {
  const parts = dotted.split(".").map((p) => {
    if (!/^\d+$/.test(p)) throw new Error(`Bad OID ${dotted}`);
    return BigInt(p);
  });
  if (parts.length < 2) throw new Error(`Bad OID ${dotted}`);
  const arcs = [parts[0]! * 40n + parts[1]!, ...parts.slice(2)];
  const bytes: number[] = [];
  for (const arc of arcs) {
    const chunk: number[] = [Number(arc & 0x7fn)];
    let v = arc >> 7n;
    while (v > 0n) {
      chunk.unshift(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(...chunk);
  }
  return tlv(TAG.OID, Uint8Array.from(bytes));
}

export function decodeOid(content: Uint8Array): string {
  const arcs: bigint[] = [];
  let v = 0n;
  for (let i = 0; i < content.length; i++) {
    const b = content[i]!;
    v = (v << 7n) | BigInt(b & 0x7f);
    if ((b & 0x80) === 0) {
      arcs.push(v);
      v = 0n;
    } else if (i === content.length - 1) {
      throw new DerError("truncated OBJECT IDENTIFIER");
    }
  }
  if (arcs.length === 0) throw new DerError("empty OBJECT IDENTIFIER");
  const first = arcs[0]!;
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n];
  return [...head, ...arcs.slice(1)].map(String).join(".");
}

/** INTEGER from unsigned big-endian magnitude bytes (a non-negative value). */
export function unsignedInteger(magnitude: Uint8Array): Uint8Array {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  let body = magnitude.subarray(start);
  if (body.length === 0) body = Uint8Array.of(0);
  if (body[0]! & 0x80) body = concatBytes([Uint8Array.of(0), body]);
  return tlv(TAG.INTEGER, body);
}

export function smallInteger(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) throw new Error(`smallInteger out of range: ${n}`);
  const bytes: number[] = [];
  let v = n;
  do {
    bytes.unshift(v & 0xff);
    v = Math.floor(v / 256);
  } while (v > 0);
  return unsignedInteger(Uint8Array.from(bytes));
}

export function octetString(bytes: Uint8Array): Uint8Array {
  return tlv(TAG.OCTET_STRING, bytes);
}

export function nullValue(): Uint8Array {
  return Uint8Array.of(TAG.NULL, 0);
}

export function booleanValue(value: boolean): Uint8Array {
  return Uint8Array.of(TAG.BOOLEAN, 1, value ? 0xff : 0);
}

export function utf8String(value: string): Uint8Array {
  return tlv(TAG.UTF8_STRING, new TextEncoder().encode(value));
}

/** GeneralizedTime `YYYYMMDDHHMMSS[.fff]Z` (DER: no trailing zeros in the fraction). */
export function generalizedTime(date: Date): Uint8Array {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  let s =
    p(date.getUTCFullYear(), 4) +
    p(date.getUTCMonth() + 1) +
    p(date.getUTCDate()) +
    p(date.getUTCHours()) +
    p(date.getUTCMinutes()) +
    p(date.getUTCSeconds());
  const ms = date.getUTCMilliseconds();
  if (ms) s += "." + p(ms, 3).replace(/0+$/, "");
  return tlv(TAG.GENERALIZED_TIME, new TextEncoder().encode(s + "Z"));
}

/** AlgorithmIdentifier; `params` undefined means absent. */
export function algorithmIdentifier(algorithm: string, params?: Uint8Array): Uint8Array {
  return params ? sequence(oid(algorithm), params) : sequence(oid(algorithm));
}

// ---------------------------------------------------------------------------
// Reader

export class DerError extends Error {}

export interface DerNode {
  /** The identifier octet (single-byte tags only). */
  tag: number;
  constructed: boolean;
  /** Offset of the TLV inside the buffer given to `readDer`. */
  start: number;
  end: number;
  /** The whole TLV. */
  bytes: Uint8Array;
  /** The value octets. */
  content: Uint8Array;
}

/**
 * Reads one DER TLV at `offset` (definite lengths only; high tag numbers refused).
 * With `exact`, the TLV must fill the buffer.
 */
export function readDer(buf: Uint8Array, offset = 0, exact = false): DerNode {
  if (offset >= buf.length) throw new DerError("unexpected end of data");
  const tag = buf[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError("high tag numbers are not supported");
  let pos = offset + 1;
  if (pos >= buf.length) throw new DerError("unexpected end of data");
  const first = buf[pos++]!;
  let length: number;
  if (first < 0x80) {
    length = first;
  } else if (first === 0x80) {
    throw new DerError("indefinite length is not DER");
  } else {
    const n = first & 0x7f;
    if (n > 4) throw new DerError("length too large");
    if (pos + n > buf.length) throw new DerError("unexpected end of data");
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + buf[pos++]!;
    if (length < 0x80 || buf[pos - n] === 0) throw new DerError("non-minimal length");
  }
  const end = pos + length;
  if (end > buf.length) throw new DerError("element runs past the end of the data");
  if (exact && end !== buf.length) throw new DerError("trailing data after the element");
  return {
    tag,
    constructed: (tag & 0x20) !== 0,
    start: offset,
    end,
    bytes: buf.subarray(offset, end),
    content: buf.subarray(pos, end),
  };
}

/** The elements inside a constructed node. */
export function children(node: DerNode): DerNode[] {
  if (!node.constructed) throw new DerError("not a constructed element");
  const out: DerNode[] = [];
  let offset = 0;
  while (offset < node.content.length) {
    const child = readDer(node.content, offset);
    out.push(child);
    offset = child.end;
  }
  return out;
}

export function expectTag(node: DerNode | undefined, tag: number, what: string): DerNode {
  if (!node || node.tag !== tag) throw new DerError(`expected ${what}`);
  return node;
}

/** Unsigned magnitude of a non-negative INTEGER (leading zero octets removed). */
export function integerMagnitude(node: DerNode): Uint8Array {
  expectTag(node, TAG.INTEGER, "INTEGER");
  let start = 0;
  while (start < node.content.length - 1 && node.content[start] === 0) start++;
  return node.content.subarray(start);
}

export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || /[^0-9a-f]/i.test(hex)) throw new Error("bad hex");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** A fresh ArrayBuffer copy (WebCrypto and pkijs want plain ArrayBuffers). */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const out = new ArrayBuffer(bytes.length);
  new Uint8Array(out).set(bytes);
  return out;
}
