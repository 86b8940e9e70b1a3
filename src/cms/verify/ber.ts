/**
 * A bounded BER reader for foreign CMS (signatures from other tools are often BER:
 * indefinite lengths, constructed OCTET STRINGs). Nodes keep their offsets into the
 * original buffer, so signed bytes (TBSCertificate, signed attributes, TSTInfo) are
 * taken exactly as received; children are read lazily, so a large CRL or OCSP blob
 * that nobody looks at costs nothing beyond finding its end.
 *
 * Limits: nesting depth and the number of headers read per parse (a work budget), so
 * hostile input fails fast with BerError instead of exhausting the isolate.
 */
import { encodeLength } from "../der";
import { compareBytes, concatBytes } from "../../util/bytes";

export class BerError extends Error {}

export const CLASS = { UNIVERSAL: 0, APPLICATION: 1, CONTEXT: 2, PRIVATE: 3 } as const;

export const U = {
  BOOLEAN: 1,
  INTEGER: 2,
  BIT_STRING: 3,
  OCTET_STRING: 4,
  NULL: 5,
  OID: 6,
  ENUMERATED: 10,
  UTF8_STRING: 12,
  SEQUENCE: 16,
  SET: 17,
  UTC_TIME: 23,
  GENERALIZED_TIME: 24,
} as const;

export interface BerLimits {
  maxDepth: number;
  /** Headers read over the whole parse (lazy child reads included). */
  maxNodes: number;
}

const DEFAULT_LIMITS: BerLimits = { maxDepth: 48, maxNodes: 200_000 };

interface Budget {
  nodes: number;
  limits: BerLimits;
}

export class BerNode {
  private kids: BerNode[] | null = null;

  constructor(
    readonly buf: Uint8Array,
    readonly cls: number,
    readonly constructed: boolean,
    readonly tagNumber: number,
    /** Offset of the identifier octet. */
    readonly start: number,
    /** Offset of the first content octet. */
    readonly contentStart: number,
    /** Offset just past the content (before the end-of-contents octets for indefinite lengths). */
    readonly contentEnd: number,
    /** Offset just past the whole element. */
    readonly end: number,
    readonly indefinite: boolean,
    readonly depth: number,
    private readonly budget: Budget,
  ) {}

  /** The whole element as received. */
  get bytes(): Uint8Array {
    return this.buf.subarray(this.start, this.end);
  }

  /** The content octets as received (for a primitive node: its value). */
  get content(): Uint8Array {
    return this.buf.subarray(this.contentStart, this.contentEnd);
  }

  get headerLength(): number {
    return this.contentStart - this.start;
  }

  is(cls: number, tagNumber: number): boolean {
    return this.cls === cls && this.tagNumber === tagNumber;
  }

  isUniversal(tagNumber: number): boolean {
    return this.is(CLASS.UNIVERSAL, tagNumber);
  }

  isContext(tagNumber: number): boolean {
    return this.is(CLASS.CONTEXT, tagNumber);
  }

  /** The elements inside a constructed node (read on first use). */
  get children(): BerNode[] {
    if (this.kids) return this.kids;
    if (!this.constructed) throw new BerError("not a constructed element");
    const out: BerNode[] = [];
    let pos = this.contentStart;
    while (pos < this.contentEnd) {
      const child = readNode(this.buf, pos, this.contentEnd, this.depth + 1, this.budget);
      out.push(child);
      pos = child.end;
    }
    this.kids = out;
    return out;
  }

  child(i: number): BerNode | undefined {
    return this.children[i];
  }

  /**
   * The value of a string type: primitive content, or the concatenated segments of a
   * BER constructed string.
   */
  stringValue(): Uint8Array {
    if (!this.constructed) return this.content;
    return concatBytes(this.children.map((c) => c.stringValue()));
  }
}

function readNode(buf: Uint8Array, offset: number, limit: number, depth: number, budget: Budget): BerNode {
  if (depth > budget.limits.maxDepth) throw new BerError("ASN.1 nesting too deep");
  if (++budget.nodes > budget.limits.maxNodes) throw new BerError("ASN.1 structure too large");
  let pos = offset;
  if (pos >= limit) throw new BerError("unexpected end of data");
  const id = buf[pos++]!;
  const cls = id >> 6;
  const constructed = (id & 0x20) !== 0;
  let tagNumber = id & 0x1f;
  if (tagNumber === 0x1f) {
    tagNumber = 0;
    for (let i = 0; ; i++) {
      if (pos >= limit) throw new BerError("unexpected end of data in a tag");
      if (i >= 4) throw new BerError("tag number too large");
      const b = buf[pos++]!;
      tagNumber = tagNumber * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
  }
  if (pos >= limit) throw new BerError("unexpected end of data in a length");
  const first = buf[pos++]!;
  if (first === 0x80) {
    if (!constructed) throw new BerError("indefinite length on a primitive element");
    const contentStart = pos;
    // Walk the children to find the end-of-contents octets.
    let p = pos;
    for (;;) {
      if (p + 1 < limit && buf[p] === 0 && buf[p + 1] === 0) {
        return new BerNode(buf, cls, constructed, tagNumber, offset, contentStart, p, p + 2, true, depth, budget);
      }
      if (p >= limit) throw new BerError("missing end-of-contents");
      p = readNode(buf, p, limit, depth + 1, budget).end;
    }
  }
  let length: number;
  if (first < 0x80) {
    length = first;
  } else {
    const n = first & 0x7f;
    if (n > 4) throw new BerError("length too large");
    if (pos + n > limit) throw new BerError("unexpected end of data in a length");
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + buf[pos++]!;
  }
  const end = pos + length;
  if (end > limit) throw new BerError("element runs past the end of its container");
  return new BerNode(buf, cls, constructed, tagNumber, offset, pos, end, end, false, depth, budget);
}

/** Reads one element at `offset` (trailing bytes after it are the caller's business). */
export function parseBer(buf: Uint8Array, offset = 0, limits: BerLimits = DEFAULT_LIMITS): BerNode {
  return readNode(buf, offset, buf.length, 0, { nodes: 0, limits });
}

// ---------------------------------------------------------------------------
// Typed readers (throw BerError on a type mismatch)

export function expectNode(node: BerNode | undefined, cls: number, tagNumber: number, what: string): BerNode {
  if (!node || !node.is(cls, tagNumber)) throw new BerError(`expected ${what}`);
  return node;
}

export function expectUniversal(node: BerNode | undefined, tagNumber: number, what: string): BerNode {
  return expectNode(node, CLASS.UNIVERSAL, tagNumber, what);
}

export function readOid(node: BerNode | undefined, what = "OBJECT IDENTIFIER"): string {
  const n = expectUniversal(node, U.OID, what);
  const content = n.content;
  if (content.length === 0 || content.length > 64) throw new BerError(`bad ${what}`);
  const arcs: number[] = [];
  let v = 0;
  for (let i = 0; i < content.length; i++) {
    const b = content[i]!;
    if (v > 2 ** 45) throw new BerError(`${what}: arc too large`);
    v = v * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      arcs.push(v);
      v = 0;
    } else if (i === content.length - 1) {
      throw new BerError(`truncated ${what}`);
    }
  }
  const first = arcs[0]!;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...arcs.slice(1)].join(".");
}

/** Unsigned magnitude of a non-negative INTEGER (leading zero octets removed). */
export function readUnsigned(node: BerNode | undefined, what = "INTEGER"): Uint8Array {
  const n = expectUniversal(node, U.INTEGER, what);
  const c = n.content;
  if (c.length === 0) throw new BerError(`empty ${what}`);
  let i = 0;
  while (i < c.length - 1 && c[i] === 0) i++;
  return c.subarray(i);
}

export function readSmallInt(node: BerNode | undefined, what = "INTEGER"): number {
  const n = expectUniversal(node, U.INTEGER, what);
  const c = n.content;
  if (c.length === 0 || c.length > 6) throw new BerError(`bad ${what}`);
  let u = 0;
  for (const b of c) u = u * 256 + b;
  return c[0]! & 0x80 ? u - 2 ** (8 * c.length) : u;
}

export function bytesToBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

export function readBigInt(node: BerNode | undefined, what = "INTEGER"): bigint {
  return bytesToBigInt(readUnsigned(node, what));
}

export function readOctets(node: BerNode | undefined, what = "OCTET STRING"): Uint8Array {
  return expectUniversal(node, U.OCTET_STRING, what).stringValue();
}

/** BIT STRING value bytes (the unused-bits count must be 0 for the keys and signatures read here). */
export function readBitString(
  node: BerNode | undefined,
  what = "BIT STRING",
): { bytes: Uint8Array; unusedBits: number } {
  const v = expectUniversal(node, U.BIT_STRING, what).stringValue();
  if (v.length === 0) throw new BerError(`empty ${what}`);
  return { bytes: v.subarray(1), unusedBits: v[0]! };
}

function digits(s: string, from: number, n: number): number {
  const part = s.slice(from, from + n);
  if (part.length !== n || !/^\d+$/.test(part)) throw new BerError("bad time value");
  return Number(part);
}

/** UTCTime or GeneralizedTime (Z or ±hhmm offsets; seconds and fractions optional). */
export function readTime(node: BerNode | undefined, what = "time"): Date {
  if (
    !node ||
    node.cls !== CLASS.UNIVERSAL ||
    (node.tagNumber !== U.UTC_TIME && node.tagNumber !== U.GENERALIZED_TIME)
  ) {
    throw new BerError(`expected ${what}`);
  }
  let s = "";
  for (const b of node.stringValue()) s += String.fromCharCode(b);
  let pos = 0;
  let year: number;
  if (node.tagNumber === U.UTC_TIME) {
    const yy = digits(s, 0, 2);
    year = yy >= 50 ? 1900 + yy : 2000 + yy;
    pos = 2;
  } else {
    year = digits(s, 0, 4);
    pos = 4;
  }
  const month = digits(s, pos, 2);
  const day = digits(s, pos + 2, 2);
  const hour = digits(s, pos + 4, 2);
  pos += 6;
  let minute = 0;
  let second = 0;
  let ms = 0;
  if (/^\d\d/.test(s.slice(pos))) {
    minute = digits(s, pos, 2);
    pos += 2;
    if (/^\d\d/.test(s.slice(pos))) {
      second = digits(s, pos, 2);
      pos += 2;
      const frac = /^[.,](\d+)/.exec(s.slice(pos));
      if (frac) {
        ms = Math.floor(Number("0." + frac[1]) * 1000);
        pos += frac[0].length;
      }
    }
  }
  let offsetMinutes = 0;
  const rest = s.slice(pos);
  if (rest === "Z" || (rest === "" && node.tagNumber === U.GENERALIZED_TIME)) {
    offsetMinutes = 0;
  } else {
    const m = /^([+-])(\d\d)(\d\d)$/.exec(rest);
    if (!m) throw new BerError(`bad ${what}`);
    offsetMinutes = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    throw new BerError(`bad ${what}`);
  const t = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return new Date(t);
}

// ---------------------------------------------------------------------------
// DER re-encoding (for signed attributes that arrived in BER or unsorted)

function encodeIdentifier(node: BerNode, constructed: boolean): Uint8Array {
  const first = (node.cls << 6) | (constructed ? 0x20 : 0);
  if (node.tagNumber < 31) return Uint8Array.of(first | node.tagNumber);
  const parts: number[] = [];
  let n = node.tagNumber;
  parts.unshift(n & 0x7f);
  n = Math.floor(n / 128);
  while (n > 0) {
    parts.unshift((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  return Uint8Array.of(first | 0x1f, ...parts);
}

const STRING_TAGS = new Set([U.OCTET_STRING, U.UTF8_STRING, 19, 20, 22, 26, 28, 30]);

/**
 * DER form of a node: definite lengths, SET OF members sorted, universal constructed
 * strings flattened. `setTag` replaces the outer identifier with SET (for `[0] IMPLICIT`
 * signed attributes, whose signature covers the SET OF encoding).
 */
export function toDer(node: BerNode, asSet = false): Uint8Array {
  let body: Uint8Array;
  let constructed = node.constructed;
  if (node.constructed && node.cls === CLASS.UNIVERSAL && STRING_TAGS.has(node.tagNumber as never)) {
    body = node.stringValue();
    constructed = false;
  } else if (node.constructed) {
    const parts = node.children.map((c) => toDer(c));
    if (asSet || node.isUniversal(U.SET)) parts.sort(compareBytes);
    body = concatBytes(parts);
  } else {
    body = node.content;
  }
  const id = asSet ? Uint8Array.of(0x31) : encodeIdentifier(node, constructed);
  return concatBytes([id, encodeLength(body.length), body]);
}

/** The node as received with its identifier octet replaced by SET (0x31). */
export function withSetTag(node: BerNode): Uint8Array | null {
  if (node.tagNumber >= 31) return null;
  const out = node.bytes.slice();
  out[0] = 0x31;
  return out;
}
